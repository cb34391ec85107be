{
  # Built by scripts/build.mjs, which sets ECTP_NIXL_INCLUDE_DIR and ECTP_NIXL_LIB_DIR after
  # locating NIXL (NIXL_PREFIX, /opt/nvidia/nvda_nixl, pkg-config nixl). Error mode:
  # C++ exceptions ON (NAPI_CPP_EXCEPTIONS); every entry point converts them to typed JS errors.
  "targets": [
    {
      "target_name": "ectp_nixl",
      "sources": ["src/addon.cpp"],
      "include_dirs": [
        "<!(node -p \"require('node-addon-api').include_dir\")",
        "<!(node -p \"process.env.ECTP_NIXL_INCLUDE_DIR || ''\")"
      ],
      "defines": ["NAPI_CPP_EXCEPTIONS", "NAPI_VERSION=8", "NODE_ADDON_API_DISABLE_DEPRECATED"],
      "cflags!": ["-fno-exceptions", "-fno-rtti"],
      "cflags_cc!": ["-fno-exceptions", "-fno-rtti", "-std=gnu++17"],
      "cflags_cc": ["-std=c++20", "-fexceptions", "-frtti", "-O2", "-Wall", "-Wextra", "-Wno-unused-parameter"],
      "libraries": [
        "-L<!(node -p \"process.env.ECTP_NIXL_LIB_DIR || ''\")",
        "-lnixl",
        "-lnixl_build",
        "-Wl,-rpath,<!(node -p \"process.env.ECTP_NIXL_LIB_DIR || ''\")"
      ]
    }
  ]
}
