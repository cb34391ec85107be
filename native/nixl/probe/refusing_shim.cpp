// Test-only interposer (LD_PRELOAD) for three nixlAgent calls, so the addon's paths for NIXL
// refusals run on a healthy NIXL: while a file named after the refusal exists in $ECTP_NIXL_REFUSE_DIR,
//   refuse_release   releaseXferReq returns NIXL_ERR_REPOST_ACTIVE and keeps the request, as NIXL
//                    1.4.0 does when its backend cannot abort a transfer (its UCX backend never does);
//   fail_partial_md  getLocalPartialMD of a non-empty list fails (NIXL_ERR_BACKEND);
//   refuse_dereg     deregisterMem fails (NIXL_ERR_BACKEND) and keeps the registration.
// Otherwise each call goes to the real libnixl.so. Built by scripts/build.mjs next to the addon;
// used by packages/transport-nixl/src/refusals.nixl.test.ts. The mangled names are NIXL 1.4.0's.
#include <dlfcn.h>
#include <nixl.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

bool
refusing(const char *name) {
    const char *dir = std::getenv("ECTP_NIXL_REFUSE_DIR");
    if (dir == nullptr) return false;
    struct stat st;
    return stat((std::string(dir) + "/" + name).c_str(), &st) == 0;
}

// The real function `symbol` of libnixl.so (loaded already: the addon links it).
template <typename Fn>
Fn
real(const char *symbol) {
    void *lib = dlopen("libnixl.so", RTLD_LAZY | RTLD_NOLOAD);
    void *fn = lib == nullptr ? nullptr : dlsym(lib, symbol);
    if (fn == nullptr) {
        std::fprintf(stderr, "refusing_shim: %s not found in libnixl.so (another NIXL version?)\n", symbol);
        std::abort();
    }
    return reinterpret_cast<Fn>(fn);
}

} // namespace

nixl_status_t
nixlAgent::releaseXferReq(nixlXferReqH *req) const {
    using Fn = nixl_status_t (*)(const nixlAgent *, nixlXferReqH *);
    static const Fn fn = real<Fn>("_ZNK9nixlAgent14releaseXferReqEP12nixlXferReqH");
    if (refusing("refuse_release")) return NIXL_ERR_REPOST_ACTIVE;
    return fn(this, req);
}

nixl_status_t
nixlAgent::getLocalPartialMD(const nixl_reg_dlist_t &descs, nixl_blob_t &out, const nixl_opt_args_t *args) const {
    using Fn = nixl_status_t (*)(const nixlAgent *, const nixl_reg_dlist_t &, nixl_blob_t &, const nixl_opt_args_t *);
    static const Fn fn = real<Fn>(
        "_ZNK9nixlAgent17getLocalPartialMDERK12nixlDescListI12nixlBlobDescERNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEPK21nixlAgentOptionalArgs");
    if (descs.descCount() > 0 && refusing("fail_partial_md")) return NIXL_ERR_BACKEND;
    return fn(this, descs, out, args);
}

nixl_status_t
nixlAgent::deregisterMem(const nixl_reg_dlist_t &descs, const nixl_opt_args_t *args) {
    using Fn = nixl_status_t (*)(nixlAgent *, const nixl_reg_dlist_t &, const nixl_opt_args_t *);
    static const Fn fn = real<Fn>("_ZN9nixlAgent13deregisterMemERK12nixlDescListI12nixlBlobDescEPK21nixlAgentOptionalArgs");
    if (refusing("refuse_dereg")) return NIXL_ERR_BACKEND;
    return fn(this, descs, args);
}
