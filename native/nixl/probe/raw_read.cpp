// raw_read: the baseline for packages/transport-nixl/bench/run.mjs.
//
// A READ loop through the same NIXL/UCX the addon uses, doing exactly the per-read work the
// addon does (createXferReq with one descriptor, postXferReq, poll getXferStatus until done,
// releaseXferReq), but with no JavaScript, no engine thread and no notification plumbing. It
// also times memcpy of the same size in the same run. Two ways to get a target:
//
// - Own target (default): the probe forks before any NIXL/UCX initialisation; the child owns
//   a source buffer and keeps calling getNotifs (UCX progress, as a NIXL target must when TCP
//   carries the READ; with shared memory (CMA) the initiator does the copy itself), sleeping
//   RAW_TARGET_SLEEP_US (default 50) between calls; metadata travels over pipes.
// - `--remote FILE`: READ from a NixlTransport's registered region instead, so the probe and
//   the transport read the very same source pages (bench/run.mjs does this). FILE holds
//   u32 LE length | the transport's localMetadata() | the region's location (`describe`, the
//   "ENX1" layout of packages/transport-nixl/src/location.ts). While reads are in flight the
//   probe sends the owner an empty notification every 20 ms, the progress ping NixlTransport's
//   own readers send, so the owner's engine serves (needed over TCP).
//
// Per size (exactly what bench/run.mjs does with NixlTransport): a warm-up of
// clamp(reps/10, 3, 200) reads, a latency pass (reps reads one at a time, median per-read
// time), a throughput pass (reps reads with `--depth` of them in flight, closed loop: a new
// read is posted as soon as one completes; every read in flight targets the same destination
// range, as in the bench), then memcpy of the same size, reps times. The source must hold
// byte i = (i * 131 + 7) mod 256 (checked after the throughput pass).
//
// Usage: raw_read [--depth D] [--remote FILE] <size> [<size> ...]
//        (sizes in bytes; D default 1; env: UCX_TLS, UCX_NET_DEVICES, RAW_TARGET_SLEEP_US)
// Output: one JSON object per line and size:
//   {"size":N,"reps":R,"depth":D,"readSeconds":S,"readMedianUs":U,"memcpySeconds":M,"memcpyMedianUs":V}
//   readSeconds: the throughput pass; readMedianUs: the latency pass.
#include <nixl.h>

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

void
writeAll(int fd, const std::string &s) {
    uint64_t n = s.size();
    if (write(fd, &n, sizeof n) != sizeof n) _exit(10);
    for (size_t off = 0; off < n;) {
        ssize_t w = write(fd, s.data() + off, n - off);
        if (w <= 0) _exit(11);
        off += static_cast<size_t>(w);
    }
}

std::string
readAll(int fd) {
    uint64_t n = 0;
    if (read(fd, &n, sizeof n) != sizeof n) _exit(12);
    std::string s(n, '\0');
    for (size_t off = 0; off < n;) {
        ssize_t r = read(fd, s.data() + off, n - off);
        if (r <= 0) _exit(13);
        off += static_cast<size_t>(r);
    }
    return s;
}

bool
ok(nixl_status_t s, const char *what) {
    if (s == NIXL_SUCCESS) return true;
    std::fprintf(stderr, "raw_read: %s failed: %s\n", what, nixlEnumStrings::statusStr(s).c_str());
    return false;
}

// Repetitions so each size moves ~1 GiB, between 20 and 2000 reads.
size_t
repsFor(size_t size) {
    size_t r = (size_t{1} << 30) / size;
    return std::clamp<size_t>(r, 20, 2000);
}

double
median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// Where the initiator reads from: its own forked target, or a NixlTransport region (--remote).
struct Remote {
    std::string metadata; // the owner's connection metadata (loadRemoteMD)
    std::string agent;    // the owner's agent name, from the location
    std::string section;  // the region's partial metadata, from the location
    uintptr_t address = 0;
    size_t length = 0;
};

uint64_t
littleEndian(const std::string &b, size_t at, size_t bytes) {
    uint64_t v = 0;
    for (size_t i = 0; i < bytes; ++i)
        v |= static_cast<uint64_t>(static_cast<uint8_t>(b[at + i])) << (8 * i);
    return v;
}

// Parse a --remote file (see the header); on failure, say what is wrong in `err`.
bool
loadRemoteFile(const char *path, Remote &out, std::string &err) {
    FILE *f = std::fopen(path, "rb");
    if (!f) {
        err = std::string("cannot open ") + path + ": " + std::strerror(errno);
        return false;
    }
    std::string b;
    char buf[4096];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;)
        b.append(buf, n);
    std::fclose(f);
    if (b.size() < 4) return err = "too short for the metadata length", false;
    size_t mdLen = littleEndian(b, 0, 4);
    if (b.size() < 4 + mdLen + 26) return err = "too short for metadata and a location", false;
    out.metadata = b.substr(4, mdLen);
    std::string loc = b.substr(4 + mdLen);
    if (loc.compare(0, 4, "ENX1") != 0) return err = "the location does not start with ENX1", false;
    out.address = littleEndian(loc, 4, 8);
    out.length = littleEndian(loc, 12, 8);
    size_t nameLen = littleEndian(loc, 20, 2);
    if (loc.size() < 26 + nameLen) return err = "the location is cut inside the agent name", false;
    out.agent = loc.substr(22, nameLen);
    size_t secLen = littleEndian(loc, 22 + nameLen, 4);
    if (loc.size() != 26 + nameLen + secLen) return err = "the location's section length does not match", false;
    out.section = loc.substr(26 + nameLen);
    return true;
}

int
target(int rfd, int wfd, size_t maxSize) {
    nixlAgent agent("raw-target", nixlAgentConfig());
    nixl_b_params_t p;
    nixl_mem_list_t m;
    nixlBackendH *bk = nullptr;
    if (!ok(agent.getPluginParams("UCX", m, p), "getPluginParams") ||
        !ok(agent.createBackend("UCX", p, bk), "createBackend"))
        return 1;
    std::vector<uint8_t> src(maxSize);
    for (size_t i = 0; i < maxSize; ++i)
        src[i] = static_cast<uint8_t>(i * 131 + 7);
    nixl_reg_dlist_t reg(DRAM_SEG);
    reg.addDesc(nixlBlobDesc(reinterpret_cast<uintptr_t>(src.data()), maxSize, 0, ""));
    if (!ok(agent.registerMem(reg), "registerMem")) return 1;
    nixl_blob_t md;
    if (!ok(agent.getLocalMD(md), "getLocalMD")) return 1;
    writeAll(wfd, md);
    writeAll(wfd, std::to_string(reinterpret_cast<uintptr_t>(src.data())));
    // Keep progressing (TCP needs the target's worker to run) until the initiator is done.
    // Stop when the initiator writes "done" on the pipe (checked every 256 iterations).
    // RAW_TARGET_SLEEP_US (default 50) between progress calls, so the target does not pin a
    // core that the initiator needs on small machines; 0 = spin.
    const char *sl = std::getenv("RAW_TARGET_SLEEP_US");
    const unsigned sleepUs = sl ? static_cast<unsigned>(std::strtoul(sl, nullptr, 10)) : 50;
    for (unsigned i = 0;; ++i) {
        nixl_notifs_t n;
        (void)agent.getNotifs(n);
        if (sleepUs) usleep(sleepUs);
        if (sleepUs || (i & 255) == 0) {
            struct pollfd pfd = {rfd, POLLIN, 0};
            if (poll(&pfd, 1, 0) > 0) break;
        }
    }
    (void)readAll(rfd);
    (void)agent.deregisterMem(reg);
    return 0;
}

// Reads from `remote` when given, else from the forked target behind rfd/wfd.
int
initiator(int rfd, int wfd, const Remote *remote, const std::vector<size_t> &sizes, size_t maxSize, size_t depth) {
    nixlAgent agent("raw-initiator-" + std::to_string(getpid()), nixlAgentConfig());
    nixl_b_params_t p;
    nixl_mem_list_t m;
    nixlBackendH *bk = nullptr;
    if (!ok(agent.getPluginParams("UCX", m, p), "getPluginParams") ||
        !ok(agent.createBackend("UCX", p, bk), "createBackend"))
        return 1;
    std::vector<uint8_t> dst(maxSize, 0), scratch(maxSize, 1);
    nixl_reg_dlist_t reg(DRAM_SEG);
    reg.addDesc(nixlBlobDesc(reinterpret_cast<uintptr_t>(dst.data()), maxSize, 0, ""));
    if (!ok(agent.registerMem(reg), "registerMem")) return 1;
    std::string name;
    uintptr_t source = 0;
    if (remote) {
        if (!ok(agent.loadRemoteMD(remote->metadata, name), "loadRemoteMD")) return 1;
        if (name != remote->agent) {
            std::fprintf(stderr, "raw_read: the metadata is agent %s's, the location %s's\n", name.c_str(),
                         remote->agent.c_str());
            return 1;
        }
        std::string sectionOwner;
        if (!ok(agent.loadRemoteMD(remote->section, sectionOwner), "loadRemoteMD(section)")) return 1;
        source = remote->address;
    }
    else {
        std::string md = readAll(rfd);
        source = std::stoull(readAll(rfd));
        if (!ok(agent.loadRemoteMD(md, name), "loadRemoteMD")) return 1;
    }
    nixl_opt_args_t args;
    args.backends.push_back(bk);
    // A NixlTransport owner serves reads (over TCP) only while it sees progress pings.
    auto nextPing = Clock::now();
    auto ping = [&] {
        if (!remote) return;
        auto now = Clock::now();
        if (now < nextPing) return;
        nextPing = now + std::chrono::milliseconds(20);
        (void)agent.genNotif(name, std::string());
    };

    for (size_t size : sizes) {
        size_t reps = repsFor(size);
        std::vector<double> lat;
        lat.reserve(reps);
        // create + post one READ of `size` bytes into dst[0, size).
        auto post = [&](nixlXferReqH *&req) -> nixl_status_t {
            nixl_xfer_dlist_t l(DRAM_SEG), r(DRAM_SEG);
            l.addDesc(nixlBasicDesc(reinterpret_cast<uintptr_t>(dst.data()), size, 0));
            r.addDesc(nixlBasicDesc(source, size, 0));
            req = nullptr;
            nixl_status_t st = agent.createXferReq(NIXL_READ, l, r, name, req, &args);
            if (!ok(st, "createXferReq")) return st;
            return agent.postXferReq(req);
        };
        auto readOnce = [&]() -> bool {
            nixlXferReqH *req = nullptr;
            nixl_status_t st = post(req);
            while (st == NIXL_IN_PROG) {
                ping();
                st = agent.getXferStatus(req);
            }
            if (req) (void)agent.releaseXferReq(req);
            return ok(st, "READ");
        };
        size_t warm = std::clamp<size_t>(reps / 10, 3, 200);
        for (size_t w = 0; w < warm; ++w)
            if (!readOnce()) return 1;
        // Latency pass: one read at a time.
        for (size_t i = 0; i < reps; ++i) {
            auto s = Clock::now();
            if (!readOnce()) return 1;
            lat.push_back(std::chrono::duration<double, std::micro>(Clock::now() - s).count());
        }
        // Throughput pass: `depth` reads in flight, a new one posted as each completes.
        std::vector<nixlXferReqH *> slot(depth, nullptr);
        std::vector<nixl_status_t> slotSt(depth, NIXL_SUCCESS);
        size_t posted = 0, done = 0;
        auto t0 = Clock::now();
        for (size_t k = 0; k < depth && posted < reps; ++k, ++posted) {
            slotSt[k] = post(slot[k]);
            if (!slot[k]) return 1; // createXferReq failed (reported)
        }
        while (done < reps) {
            ping();
            for (size_t k = 0; k < depth; ++k) {
                if (!slot[k]) continue;
                if (slotSt[k] == NIXL_IN_PROG) slotSt[k] = agent.getXferStatus(slot[k]);
                if (slotSt[k] == NIXL_IN_PROG) continue;
                (void)agent.releaseXferReq(slot[k]);
                slot[k] = nullptr;
                if (!ok(slotSt[k], "READ")) return 1;
                ++done;
                if (posted < reps) {
                    slotSt[k] = post(slot[k]);
                    ++posted;
                    if (!slot[k]) return 1;
                }
            }
        }
        double readSec = std::chrono::duration<double>(Clock::now() - t0).count();
        for (size_t i = 0; i < size; ++i)
            if (dst[i] != static_cast<uint8_t>(i * 131 + 7)) {
                std::fprintf(stderr, "raw_read: data mismatch at %zu\n", i);
                return 1;
            }
        std::vector<double> mlat;
        mlat.reserve(reps);
        auto m0 = Clock::now();
        for (size_t i = 0; i < reps; ++i) {
            auto s = Clock::now();
            std::memcpy(scratch.data(), dst.data(), size);
            asm volatile("" ::"r"(scratch.data()) : "memory");
            mlat.push_back(std::chrono::duration<double, std::micro>(Clock::now() - s).count());
        }
        double memSec = std::chrono::duration<double>(Clock::now() - m0).count();
        std::printf("{\"size\":%zu,\"reps\":%zu,\"depth\":%zu,\"readSeconds\":%.9f,\"readMedianUs\":%.3f,"
                    "\"memcpySeconds\":%.9f,\"memcpyMedianUs\":%.3f}\n",
                    size, reps, depth, readSec, median(lat), memSec, median(mlat));
        std::fflush(stdout);
    }
    if (!remote) writeAll(wfd, "done");
    (void)agent.deregisterMem(reg);
    (void)agent.invalidateRemoteMD(name);
    return 0;
}

} // namespace

int
main(int argc, char **argv) {
    std::vector<size_t> sizes;
    size_t depth = 1;
    const char *remoteFile = nullptr;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--depth") == 0 && i + 1 < argc) {
            depth = std::clamp<size_t>(std::strtoull(argv[++i], nullptr, 10), 1, 64);
            continue;
        }
        if (std::strcmp(argv[i], "--remote") == 0 && i + 1 < argc) {
            remoteFile = argv[++i];
            continue;
        }
        sizes.push_back(std::strtoull(argv[i], nullptr, 10));
    }
    if (sizes.empty()) sizes = {4096, 1 << 20};
    size_t maxSize = *std::max_element(sizes.begin(), sizes.end());
    if (remoteFile) {
        Remote remote;
        std::string err;
        if (!loadRemoteFile(remoteFile, remote, err)) {
            std::fprintf(stderr, "raw_read: --remote %s: %s\n", remoteFile, err.c_str());
            return 2;
        }
        if (remote.length < maxSize) {
            std::fprintf(stderr, "raw_read: --remote region holds %zu bytes, less than the largest size %zu\n",
                         remote.length, maxSize);
            return 2;
        }
        return initiator(-1, -1, &remote, sizes, maxSize, depth);
    }
    int p2c[2], c2p[2];
    if (pipe(p2c) || pipe(c2p)) return 2;
    pid_t pid = fork(); // before any NIXL/UCX initialisation
    if (pid == 0) {
        close(p2c[1]);
        close(c2p[0]);
        _exit(target(p2c[0], c2p[1], maxSize));
    }
    close(p2c[0]);
    close(c2p[1]);
    int rc = initiator(c2p[0], p2c[1], nullptr, sizes, maxSize, depth);
    int wst = 0;
    waitpid(pid, &wst, 0);
    return rc != 0 ? rc : (WIFEXITED(wst) ? WEXITSTATUS(wst) : 3);
}
