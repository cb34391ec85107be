{
  # Built by scripts/build.mjs, which sets ECTP_NIXL_INCLUDE_DIR and ECTP_NIXL_LIB_DIR after
  # locating NIXL (NIXL_PREFIX, /opt/nvidia/nvda_nixl, pkg-config nixl). Error mode:
  # C++ exceptions ON (NAPI_CPP_EXCEPTIONS); every entry point converts them to typed JS errors.
  # NODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS: while a worker thread is terminated, N-API calls fail
  # and the Napi::Error they raise cannot be thrown into JS either; without it node-addon-api
  # rethrows it, std::terminate runs and the whole process aborts (4 of 4 runs of 200 worker
  # terminations against a stand-in NIXL; with it, none of 600).
  "targets": [
    {
      "target_name": "ectp_nixl",
      "sources": ["src/addon.cpp"],
      "include_dirs": [
        "<!(node -p \"require('node-addon-api').include_dir\")",
        "<!(node -p \"process.env.ECTP_NIXL_INCLUDE_DIR || ''\")"
      ],
      "defines": ["NAPI_CPP_EXCEPTIONS", "NODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS", "NAPI_VERSION=8", "NODE_ADDON_API_DISABLE_DEPRECATED"],
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
