// @ectp/nixl-native: a node-addon-api binding of NVIDIA NIXL (nixlAgent) for ECTP.
//
// Error mode: C++ exceptions are ON (NAPI_CPP_EXCEPTIONS, see binding.gyp). Every JS entry
// point runs inside `guard(...)`, which turns std::exception (from NIXL, the STL or our own
// checks) into a typed JS error (`err.code`, `err.nixlStatus`); nothing else ever crosses
// the addon boundary and no error path aborts the process (an error that cannot be thrown into
// JS at all, in a worker being terminated, is dropped: NODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS,
// also in binding.gyp). The engine thread never throws
// out of its loop either: each NIXL call is wrapped and a throw becomes NIXL_ERR_UNKNOWN.
//
// Threading design (documented in packages/transport-nixl/README.md):
//   * One nixlAgent per `Agent` object, created without NIXL's progress thread, so nothing
//     moves unless someone calls into the agent. One native "engine" thread per Agent owns
//     every potentially blocking NIXL call: loadRemoteMD, invalidateRemoteMD, createXferReq,
//     postXferReq (which may copy a whole 256 MiB item inside the call on CMA),
//     getXferStatus, releaseXferReq, genNotif, getNotifs, deregisterMem. JS enqueues plain
//     structs (never JS values) and returns at once. Exception, by design: a READ of at most
//     64 KiB whose section is loaded is posted on the JS thread (tryInlineRead) when nixlMu_ is
//     free within a brief try (it never waits for the engine's NIXL call) and polled there for
//     at most 50 us; over CMA it completes inside postXferReq and its status is returned by
//     postRead directly, otherwise the engine adopts the request.
//   * The engine polls adaptively: it spins while transfers are in flight (once the only ones
//     left have failed and wait out their grace, or were cancelled and are past it: every
//     `servePollUs`, backing off to `idlePollMaxUs`; orphaned ones, see Xfer, not at all) and, with
//     sched_yield, for `busySpinUs` (default 1 ms) after the last activity (a command, a
//     message sent or received, a settled transfer), then polls every `busyPollUs`
//     (default 50 us; 0 = keep spinning) on a condition variable until `busyWindowMs`
//     after that activity, then backs off exponentially from 10 us to `idlePollMaxUs`.
//     While reads are in flight the engine pings their peers every 20 ms (pingPeers, due
//     after every command and every round). A progress ping from a peer reading our memory
//     opens a serving window polled every `servePollUs`, and holds back deregistrations (NIXL
//     cannot stop a peer's GET; see tryFinishDeregistrations). A new command wakes the engine at once through the condition
//     variable, so only incoming messages wait for a poll. Idle cost is a few hundred
//     wake-ups per second at most; nothing spins once nothing has happened for busySpinUs.
//   * Results (notifications, settled transfers, failed sends, command replies) are queued
//     under a mutex and signalled to JS (only when something is queued, and as soon as a
//     command settles a READ, not after the rest of its batch) through one coalesced
//     ThreadSafeFunction call; JS drains them synchronously with `drain()`.
//   * `registerMemory` and `localMetadata` run on the JS thread (they must be synchronous
//     for the Transport interface); every NIXL call, from either thread, holds `nixlMu_`
//     because the agent is created with NIXL_THREAD_SYNC_NONE. So registerMemory (and
//     checkRemote) wait for the NIXL call the engine is in, which may be a whole copy (see
//     "calls the JS thread makes under the agent lock" in the README); localMetadata is cached.
//   * GPU (VRAM) memory is not supported by this build: the NIXL used here has no CUDA, so
//     only DRAM_SEG registrations exist. A CUDA build would add a `registerDeviceMemory`.

#include <napi.h>
#include <nixl.h>
#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <list>
#include <exception>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sched.h>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

// ---------------------------------------------------------------------------------------
// Status names and typed errors
// ---------------------------------------------------------------------------------------

const char *
statusName(int s) {
    switch (s) {
    case NIXL_IN_PROG: return "NIXL_IN_PROG";
    case NIXL_SUCCESS: return "NIXL_SUCCESS";
    case NIXL_ERR_NOT_POSTED: return "NIXL_ERR_NOT_POSTED";
    case NIXL_ERR_INVALID_PARAM: return "NIXL_ERR_INVALID_PARAM";
    case NIXL_ERR_BACKEND: return "NIXL_ERR_BACKEND";
    case NIXL_ERR_NOT_FOUND: return "NIXL_ERR_NOT_FOUND";
    case NIXL_ERR_MISMATCH: return "NIXL_ERR_MISMATCH";
    case NIXL_ERR_NOT_ALLOWED: return "NIXL_ERR_NOT_ALLOWED";
    case NIXL_ERR_REPOST_ACTIVE: return "NIXL_ERR_REPOST_ACTIVE";
    case NIXL_ERR_UNKNOWN: return "NIXL_ERR_UNKNOWN";
    case NIXL_ERR_NOT_SUPPORTED: return "NIXL_ERR_NOT_SUPPORTED";
    case NIXL_ERR_REMOTE_DISCONNECT: return "NIXL_ERR_REMOTE_DISCONNECT";
    case NIXL_ERR_CANCELED: return "NIXL_ERR_CANCELED";
    case NIXL_ERR_NO_TELEMETRY: return "NIXL_ERR_NO_TELEMETRY";
    default: return "NIXL_ERR_UNKNOWN";
    }
}

// An error carrying a NIXL status (or a local code such as ERR_INVALID_ARG).
struct NixlFailure : std::runtime_error {
    int status;
    std::string code;
    NixlFailure(int s, const std::string &what)
        : std::runtime_error(what), status(s), code(statusName(s)) {}
    NixlFailure(std::string c, const std::string &what)
        : std::runtime_error(what), status(NIXL_ERR_INVALID_PARAM), code(std::move(c)) {}
};

Napi::Error
makeError(Napi::Env env, const std::string &code, int status, const std::string &message) {
    Napi::Error e = Napi::Error::New(env, message);
    e.Set("code", Napi::String::New(env, code));
    e.Set("nixlStatus", Napi::Number::New(env, status));
    return e;
}

// Run `fn` and convert any C++ exception into a typed JS exception.
template <typename Fn>
Napi::Value
guard(const Napi::CallbackInfo &info, Fn &&fn) {
    Napi::Env env = info.Env();
    try {
        return fn();
    }
    catch (const Napi::Error &) {
        throw; // already a JS error
    }
    catch (const NixlFailure &f) {
        throw makeError(env, f.code, f.status, f.what());
    }
    catch (const std::exception &e) {
        throw makeError(env, "NIXL_ERR_UNKNOWN", NIXL_ERR_UNKNOWN,
                        std::string("unexpected native error: ") + e.what());
    }
    catch (...) {
        throw makeError(env, "NIXL_ERR_UNKNOWN", NIXL_ERR_UNKNOWN, "unexpected native error");
    }
}

void
check(int status, const std::string &what) {
    if (status != NIXL_SUCCESS)
        throw NixlFailure(status, what + " failed: " + statusName(status));
}

// Call a NIXL function from the engine thread; exceptions become NIXL_ERR_UNKNOWN.
template <typename Fn>
int
safeCall(Fn &&fn) noexcept {
    try {
        return static_cast<int>(fn());
    }
    catch (...) {
        return NIXL_ERR_UNKNOWN;
    }
}

// ---------------------------------------------------------------------------------------
// [C11] CRC-32C of landed bytes (ReadOperation.crc32c in @ectp/core)
// ---------------------------------------------------------------------------------------

// Slicing-by-8 tables for the reflected Castagnoli polynomial: the portable path.
struct CrcTables {
    uint32_t t[8][256];
    CrcTables() {
        for (uint32_t n = 0; n < 256; ++n) {
            uint32_t c = n;
            for (int k = 0; k < 8; ++k) c = (c & 1) ? 0x82F63B78u ^ (c >> 1) : c >> 1;
            t[0][n] = c;
        }
        for (int k = 1; k < 8; ++k)
            for (uint32_t n = 0; n < 256; ++n) t[k][n] = (t[k - 1][n] >> 8) ^ t[0][t[k - 1][n] & 0xff];
    }
};

uint32_t
crc32cSoftware(const uint8_t *p, size_t n, uint32_t crc) {
    static const CrcTables tables;
    const auto &t = tables.t;
    for (; n >= 8; p += 8, n -= 8) {
        uint32_t lo;
        std::memcpy(&lo, p, 4); // little-endian hosts only (x86-64, aarch64): what NIXL runs on
        lo ^= crc;
        crc = t[7][lo & 0xff] ^ t[6][(lo >> 8) & 0xff] ^ t[5][(lo >> 16) & 0xff] ^ t[4][lo >> 24] ^ t[3][p[4]] ^
              t[2][p[5]] ^ t[1][p[6]] ^ t[0][p[7]];
    }
    for (; n > 0; ++p, --n) crc = t[0][(crc ^ *p) & 0xff] ^ (crc >> 8);
    return crc;
}

#if defined(__x86_64__)
// SSE4.2's crc32 instruction computes exactly CRC-32C: about 8 bytes per cycle.
__attribute__((target("sse4.2"))) uint32_t
crc32cSse42(const uint8_t *p, size_t n, uint32_t crc) {
    uint64_t c = crc;
    for (; n >= 8; p += 8, n -= 8) {
        uint64_t v;
        std::memcpy(&v, p, 8);
        c = _mm_crc32_u64(c, v);
    }
    uint32_t c32 = static_cast<uint32_t>(c);
    for (; n > 0; ++p, --n) c32 = _mm_crc32_u8(c32, *p);
    return c32;
}
#endif

// CRC-32C of [p, p + n), as @ectp/protocol's crc32c computes it; `software` forces the portable
// path (tests compare both).
uint32_t
crc32c(const void *data, size_t n, bool software = false) {
    const auto *p = static_cast<const uint8_t *>(data);
#if defined(__x86_64__)
    static const bool sse42 = __builtin_cpu_supports("sse4.2");
    if (sse42 && !software) return ~crc32cSse42(p, n, ~0u);
#endif
    return ~crc32cSoftware(p, n, ~0u);
}

// The CRC-32C to report for a read settled now: only for a successful read that asked for it.
std::optional<uint32_t>
landedCrc(bool wanted, uintptr_t addr, size_t length) {
    if (!wanted) return std::nullopt;
    return crc32c(reinterpret_cast<const void *>(addr), length);
}

// ---------------------------------------------------------------------------------------
// Plain structs crossing threads (no JS values)
// ---------------------------------------------------------------------------------------

struct Xfer {
    nixlXferReqH *req;
    uint32_t regionId;
    std::string peer;
    uintptr_t localAddr; // destination: where the CRC-32C is computed once the read is done
    size_t length;
    bool crc;            // report the landed bytes' CRC-32C
    bool cancelRequested = false; // cancelRead or deregistration asked for it
    bool deregistered = false;    // its destination is being deregistered
    int failedStatus = 0;         // the error NIXL reported, kept through the grace period
    // End of the grace period of a cancelled or failed transfer: a failed one is released then;
    // a cancelled one still in flight is from then on progressed every servePollUs (backing
    // off) instead of continuously, and released only when NIXL reports it ended [I5].
    Clock::time_point graceEnd{};
    bool succeeded = false; // NIXL reported it done just before its peer's metadata was invalidated
    // Still in flight when its peer's metadata was invalidated: NIXL can no longer say when it
    // ends (getXferStatus answers NOT_FOUND) and releasing it would not stop its GET, so it is
    // kept, unreported and unpolled, until close() destroys the agent [I5].
    bool orphaned = false;
};

// A transfer entry made before its READ is posted (see makeXferNode).
using XferNode = std::map<uint32_t, Xfer>::node_type;

enum class CmdKind { LoadRemote, Invalidate, PostRead, Adopt, Cancel, Send, Deregister, Stop };

struct Command {
    CmdKind kind;
    uint32_t token = 0;   // promise token (LoadRemote, Stop)
    uint32_t id = 0;      // transfer id (PostRead, Cancel), region id (Deregister) or send tag (Send)
    std::string peer;     // remote agent name
    std::string blob;     // metadata, section metadata or notification payload
    std::optional<std::string> notif; // READ completion notification for the target
    uintptr_t localAddr = 0;
    uintptr_t remoteAddr = 0;
    size_t length = 0;
    uint64_t regionAddr = 0; // Deregister: registered range
    size_t regionLen = 0;
    uint32_t regionId = 0;   // PostRead: destination region
    bool crc = false;        // PostRead: report the landed bytes' CRC-32C
    Clock::time_point since{}; // Deregister: when the engine took it
    XferNode node; // Adopt: the entry of a READ the JS thread posted inline, still in progress
};

// A transfer entry outside any map: made before a READ is posted and inserted once it is, which
// cannot fail (a node handle's insert allocates nothing), so a posted READ is always tracked.
XferNode
makeXferNode(uint32_t id, Xfer x) {
    std::map<uint32_t, Xfer> one;
    one.emplace(id, std::move(x));
    return one.extract(one.begin());
}

struct Notif {
    std::string from;
    std::string bytes;
};

struct Settled {
    uint32_t id;
    int status;       // NIXL status (0 = success)
    bool deregistered; // released because its destination was deregistered
    bool closed;      // released by close()
    bool hasCrc = false; // crc is the CRC-32C of the landed bytes (a successful read that asked)
    uint32_t crc = 0;
};

struct SendFailure {
    std::string peer;
    int status;
    uint32_t tag; // the caller's tag of the send (which connection it was made under)
};

// What drain() takes from the engine's output queue and hands to JS (see Drain).
struct DrainBatch {
    std::vector<Notif> notifs;
    std::vector<Settled> settled;
    std::vector<SendFailure> fails;
    std::vector<uint32_t> orphaned;
    void clear() noexcept {
        notifs.clear();
        settled.clear();
        fails.clear();
        orphaned.clear();
    }
};

// Moves `queue`'s elements to the end of `kept`, leaving `queue` empty. When it throws (out of
// memory), both are as they were: the elements move without throwing, so insert's guarantee holds.
template <typename T>
void
takeInto(std::vector<T> &kept, std::vector<T> &queue) {
    static_assert(std::is_nothrow_move_constructible_v<T>);
    if (queue.empty()) return;
    if (kept.empty()) {
        kept.swap(queue);
        return;
    }
    kept.insert(kept.end(), std::make_move_iterator(queue.begin()), std::make_move_iterator(queue.end()));
    queue.clear();
}

struct Reply {
    uint32_t token;
    int status;
    std::string value; // LoadRemote: the agent name
};

struct RegionInfo {
    uint64_t addr;
    size_t len;
};

// One NIXL registration of an exact range (address, length), shared by every region registered
// over that range until the last of them is deregistered. NIXL tells registrations apart by
// range alone (it finds the first of two equal ones), so a second registerMem of a range it still
// holds would publish the first one's memory key and be used as the first one on this side;
// when the first was then deregistered, the key peers read the second by would be gone.
struct SharedRegistration {
    uint32_t regions = 0;    // regions over this range whose deregistration has not finished
    bool registered = false; // NIXL holds it (kept with no region when NIXL refused to let it go)
    std::string section;     // getLocalPartialMD of the range, published by each of them
};
using RangeKey = std::pair<uint64_t, size_t>;

// The live regions over one exact range (JS thread only): ranges of live regions never overlap
// unless they are equal (see RegisterMemory), so a range's neighbours in address order are the only
// ranges it can overlap.
struct LiveRange {
    uint32_t count = 0;
    uint32_t someId = 0; // one of them, to name in a refusal
};

// Section metadata already loaded per peer, looked up by a view of the caller's bytes (the
// small-read path neither copies nor re-hashes into a temporary std::string).
struct SvHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};
using SectionSet = std::unordered_set<std::string, SvHash, std::equal_to<>>;

// The activity words (see activityWord()), owned jointly by an Agent and the JS ArrayBuffer over
// them and freed by whichever lets go last: at environment teardown V8 may finalize the buffer
// while the engine thread still writes the words (a use after free that corrupted the heap when
// Node exited with a transport open), and JS may hold the buffer after the Agent is gone.
struct ActivityWords {
    uint32_t words[3] = {0, 0, 0};
    std::atomic<int> owners{2};
    static void release(ActivityWords *w) {
        if (w->owners.fetch_sub(1) == 1) delete w;
    }
};

// tryInlineRead's answer when the read must go to the engine instead (never a NIXL status).
constexpr int kNotInline = 100;
// postRead's answer for a source location it refuses (see locationSection); never a NIXL status.
// The JS layer, which only then parses the location, names what is wrong with it.
constexpr int kBadLocation = 101;

bool metadataWellFormed(std::string_view metadata);

class Agent;

// What an Agent's postRead and postReadWithCrc functions hold instead of the Agent: a function
// called after its Agent was collected finds `agent` null, never a dangling pointer. Freed by the
// last of its owners (the Agent and each function), all on the JS thread.
struct AgentLink {
    Agent *agent = nullptr;
    int owners = 1;
    static void release(AgentLink *l) {
        if (--l->owners == 0) delete l;
    }
};

class Agent : public Napi::ObjectWrap<Agent> {
public:
    static Napi::Function Init(Napi::Env env);
    explicit Agent(const Napi::CallbackInfo &info);
    ~Agent() override;

private:
    // JS methods
    Napi::Value LocalMetadata(const Napi::CallbackInfo &info);
    Napi::Value RegisterMemory(const Napi::CallbackInfo &info);
    Napi::Value DeregisterMemory(const Napi::CallbackInfo &info);
    Napi::Value LoadRemote(const Napi::CallbackInfo &info);
    Napi::Value Invalidate(const Napi::CallbackInfo &info);
    Napi::Value CheckRemote(const Napi::CallbackInfo &info);
    Napi::Value MetadataWellFormed(const Napi::CallbackInfo &info);
    // postRead and postReadWithCrc: own properties of each Agent object, plain functions whose
    // data is the AgentLink (an ObjectWrap method unwraps `this` first, ~60 ns per call).
    template <bool Crc>
    static Napi::Value LinkedPostRead(const Napi::CallbackInfo &info);
    void definePostReads(Napi::Env env, Napi::Object self);
    Napi::Value postRead(const Napi::CallbackInfo &info, bool crc);
    Napi::Value CancelRead(const Napi::CallbackInfo &info);
    Napi::Value Send(const Napi::CallbackInfo &info);
    Napi::Value Drain(const Napi::CallbackInfo &info);
    Napi::Value Counters(const Napi::CallbackInfo &info);
    Napi::Value ActivityWord(const Napi::CallbackInfo &info);
    Napi::Value Close(const Napi::CallbackInfo &info);
    Napi::Value StopEngine(const Napi::CallbackInfo &info);

    void ensureOpen() const;
    void enqueue(Command &&c);
    void enqueueNode(std::list<Command> &node) noexcept;
    bool takeNotifs(nixl_notifs_t &got);
    void engineMain();
    void execute(Command &c);
    bool progress();
    bool anyLiveXfer() const;
    bool anyWaitingXfer() const;
    bool hasOutput();
    void settle(uint32_t id, int status, bool deregistered, bool closed,
                std::optional<uint32_t> crc = std::nullopt);
    void failCommand(const Command &c) noexcept;
    void shutdownEngine();
    void noteEndedTransfers(const std::string &peer);
    void orphan(uint32_t id, Xfer &t);
    void orphanDroppedTransfers(const std::string &peer);
    void tryFinishDeregistrations();
    uint32_t takeRegionId();
    void refuseOverlap(const RangeKey &range) const;
    void forgetLiveRange(const RangeKey &range) noexcept;
    bool dropRegistrationLocked(const RangeKey &range);
    void giveBackRegistrationLocked(const RangeKey &range);
    std::chrono::milliseconds peerReadHold() const;
    std::chrono::milliseconds peerReadHold(size_t length) const;
    void signal();
    void bumpActivity(); // moves activitySeq_: poll() will call drain()
    void countSettled(size_t n); // moves activitySeq_[2]: reads queued for drain(), under outMu_
    void collectDeregistered();
    void pingPeers();
    void pingDue() noexcept;
    void pingSoon(uint32_t id, const std::string &peer);
    // kNotInline: not handled; NIXL_IN_PROG: posted, the engine adopts it; else final status.
    int tryInlineRead(uint32_t id, const std::string &peer, uint32_t regionId, uintptr_t localAddr,
                      uintptr_t remoteAddr, size_t length, std::string_view section, bool crc);
    void stopEngineSync();
    void hold(Napi::Env env, int delta) noexcept;
    static void EnvCleanup(void *arg);
    static void CallJs(Napi::Env env, Napi::Function cb, Agent *self, void *data);
    void onSignal(Napi::Env env);

    using Tsfn = Napi::TypedThreadSafeFunction<Agent, void, CallJs>;

    std::string name_;
    std::unique_ptr<nixlAgent> agent_;
    nixlBackendH *backend_ = nullptr;
    std::mutex nixlMu_; // every NIXL call holds this (agent uses NIXL_THREAD_SYNC_NONE)
    nixl_opt_args_t readArgs_; // {backends: [backend_]}, built once: inline reads (under nixlMu_) reuse it

    // Main-thread state
    bool closed_ = false;
    bool closing_ = false;
    uint32_t nextRegionId_ = 1;
    uint32_t nextToken_ = 1;
    std::unordered_map<uint32_t, RegionInfo> regions_;         // registered and usable
    std::unordered_map<uint32_t, Napi::Reference<Napi::Value>> refs_; // keeps memory alive until NIXL lets go
    std::map<RangeKey, LiveRange> liveRanges_; // the ranges of regions_ (JS thread only)
    std::unordered_map<uint32_t, Napi::Promise::Deferred> promises_;
    std::optional<Napi::Promise::Deferred> closeDeferred_;
    std::atomic<bool> engineDone_{false};
    std::string localMd_;
    Tsfn tsfn_;
    bool tsfnReleased_ = false;
    std::thread engine_;
    napi_env env_ = nullptr;
    bool hookAdded_ = false;
    bool envGone_ = false;
    int64_t outstanding_ = 0; // promises + posted reads not yet drained: keep the loop alive

    // Command queue (main -> engine)
    std::mutex qMu_;
    std::condition_variable qCv_;
    // A list, so a command whose allocations were made beforehand is queued by a splice, which
    // cannot fail: once a READ is posted, nothing may stop it from being tracked.
    std::list<Command> queue_;
    // Whether queue_ holds commands, readable without qMu_ (set under it): the small-read path
    // asks it on every read. Only the JS thread queues, so it never misses its own commands.
    std::atomic<bool> queued_{false};

    // Engine-owned state
    std::map<uint32_t, Xfer> xfers_;
    std::unordered_map<std::string, SectionSet> loadedSections_;
    // Bumped (under nixlMu_) whenever a peer's sections are dropped: invalidates the inline
    // path's cached lookup below. Sections are otherwise only ever added.
    uint64_t sectionsGen_ = 0;
    // The inline path's last successful (peer, section) lookup, valid while inlineGen_ ==
    // sectionsGen_: a stream of reads from one peer's region compares two short byte strings
    // instead of hashing the name and the ~200-byte section on every read. Under nixlMu_.
    uint64_t inlineGen_ = ~uint64_t{0};
    std::string inlinePeer_;
    std::string inlineSection_;
    // The inline path's descriptor lists, reused (cleared, capacity kept): no allocation per read.
    nixl_xfer_dlist_t inlineLocal_{DRAM_SEG};
    nixl_xfer_dlist_t inlineRemote_{DRAM_SEG};
    std::vector<Command> pendingDereg_;
    // The registrations NIXL holds, by range (see SharedRegistration). Under nixlMu_: the JS thread
    // registers, the engine deregisters.
    std::map<RangeKey, SharedRegistration> registrations_;
    // The inline path's Adopt command, allocated (and its peer name copied) before the READ is
    // posted and kept for the next read when the READ settled inline. JS thread only.
    std::list<Command> spareAdopt_;
    Clock::time_point busyUntil_ = Clock::now();
    Clock::time_point spinUntil_ = Clock::now(); // busySpinUs after the last activity
    Clock::time_point servingUntil_ = Clock::now(); // a peer is reading our memory (pinged)
    bool pinged_ = false;
    // When the engine last handed NIXL a message (see shutdownEngine's linger).
    Clock::time_point lastSendAt_{};
    // When a peer last pinged us (it may be reading our memory; see tryFinishDeregistrations).
    Clock::time_point lastPingInAt_ = Clock::time_point::min(); // never: memory no peer pinged for is freed at once
    // The peer this agent last pinged before posting a READ to it, and when (see PostRead): one
    // peer only, so reads alternating between two peers ping each time (extra pings, none missing).
    std::string prePostPingPeer_;
    Clock::time_point prePostPingAt_{};
    // When a deregistration put off for peers' reads may finish (see tryFinishDeregistrations).
    Clock::time_point deregRetryAt_ = Clock::time_point::max();
    Clock::time_point nextPing_ = Clock::now();

    // Output queue (engine -> main)
    std::mutex outMu_;
    std::vector<Notif> notifs_;
    std::vector<Settled> settled_;
    std::vector<SendFailure> sendFailures_;
    std::vector<Reply> replies_;
    std::vector<uint32_t> deregistered_;
    // Transfers orphaned since JS last looked (see Xfer::orphaned): never drained before close(), so
    // onSignal drops their keep-alive (hold) here instead, and an otherwise idle agent lets Node exit.
    int64_t newOrphans_ = 0;
    // Their ids, for drain(): JS stops counting them as reads that may end soon (no wait spins for them).
    std::vector<uint32_t> orphanIds_;
    std::atomic<bool> signalPending_{false};
    // A 32-bit counter the engine bumps (release) on every signal(), in memory a JS ArrayBuffer
    // views (activityWord()): poll() reads it with Atomics.load and calls drain() only when it
    // moved, so an idle poll costs no N-API call and no lock. The memory is an ActivityWords,
    // freed when both this Agent and the buffer have let go of it. A second word
    // (activitySeq_ + 1) holds the CRC-32C of the last read that settled inside postReadWithCrc
    // (written and read on the JS thread only). A third (activitySeq_ + 2) counts the reads the
    // engine has queued for drain() (countSettled): a read settled inside postRead is reported
    // after those, so JS drains them first when it moved (poll() lists reads in settlement order).
    uint32_t *activitySeq_ = nullptr;
    ActivityWords *activityWords_ = nullptr; // owns activitySeq_'s memory, with the ArrayBuffer
    AgentLink *link_ = nullptr;             // shared with the postRead functions
    Napi::Reference<Napi::ArrayBuffer> activityRef_;
    std::string scratchPeer_; // postRead's peer name, reused (JS thread only): no allocation per read
    std::string scratchLocation_; // postRead's copy of the location, reused (JS thread only)
    // Ids of reads posted and not yet reported by drain() (JS thread only): a second read under
    // one of them would replace the first's entry, whose request NIXL would then never release.
    std::unordered_set<uint32_t> postedIds_;
    DrainBatch drainBatch_; // taken from the output queue and not yet handed over by drain() (JS thread only)
    // >0 while the JS thread is trying to take nixlMu_ for an inline read: the engine stays
    // off the lock (and yields its core) meanwhile, instead of racing it with getNotifs.
    std::atomic<int> jsWaiting_{0};
    // True while the engine runs a command (loadRemoteMD, createXferReq + postXferReq, which
    // may copy a whole item, deregisterMem, ...): an inline read then tries the lock with
    // sched_yield in between. Outside commands the engine's calls (getNotifs, getXferStatus,
    // releaseXferReq, a ping) are usually short, so the JS thread spins on the lock for up to
    // 20 us; it never waits longer (over TCP one getXferStatus can run a whole READ). The pair
    // (engineLong_, jsWaiting_) is a Dekker handshake: the engine raises engineLong_ and then
    // backs off if the JS thread is waiting; the JS thread raises jsWaiting_ and then spins only
    // if engineLong_ is down. One of them always sees the other.
    std::atomic<bool> engineLong_{false};
    void enterLong();
    void leaveLong() { engineLong_.store(false, std::memory_order_seq_cst); }

    // Counters (leak checks)
    std::atomic<int64_t> activeXfers_{0};
    std::atomic<int64_t> orphanedXfers_{0}; // see Xfer::orphaned
    std::atomic<int64_t> nixlRegistrations_{0};
    std::atomic<int64_t> loadedPeers_{0};
    std::atomic<uint64_t> totalReads_{0};
    std::atomic<uint64_t> releasesRefused_{0}; // releaseXferReq refused: the transfer was orphaned
    std::atomic<uint64_t> deregFailures_{0};  // deregisterMem failed (buffer kept, retried)
    std::atomic<uint64_t> engineRounds_{0};   // turns of the engine loop: how much it spins or sleeps
    std::atomic<uint64_t> totalNotifsIn_{0};
    std::atomic<uint64_t> totalNotifsOut_{0};
    std::atomic<uint64_t> totalPingsOut_{0}; // empty notifications sent (progress pings, section-load probes)

    // Polling policy
    unsigned busySpinUs_ = 1000;
    unsigned busyPollUs_ = 50;
    unsigned busyWindowMs_ = 100;
    unsigned servePollUs_ = 50;
    unsigned idlePollMaxUs_ = 5000;
    unsigned cancelGraceMs_ = 1000;
};

// A spin-wait hint to the CPU (no syscall, no give-away of the core).
inline void
cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield" ::: "memory");
#endif
}

std::atomic<int64_t> gLiveAgents{0};

Napi::Function
Agent::Init(Napi::Env env) {
    return DefineClass(env, "Agent",
                       {
                           InstanceMethod<&Agent::LocalMetadata>("localMetadata"),
                           InstanceMethod<&Agent::RegisterMemory>("registerMemory"),
                           InstanceMethod<&Agent::DeregisterMemory>("deregisterMemory"),
                           InstanceMethod<&Agent::LoadRemote>("loadRemote"),
                           InstanceMethod<&Agent::Invalidate>("invalidateRemote"),
                           InstanceMethod<&Agent::CheckRemote>("checkRemote"),
                           InstanceMethod<&Agent::MetadataWellFormed>("metadataWellFormed"),
                           InstanceMethod<&Agent::CancelRead>("cancelRead"),
                           InstanceMethod<&Agent::Send>("send"),
                           InstanceMethod<&Agent::Drain>("drain"),
                           InstanceMethod<&Agent::Counters>("counters"),
                           InstanceMethod<&Agent::ActivityWord>("activityWord"),
                           InstanceMethod<&Agent::Close>("close"),
                           InstanceMethod<&Agent::StopEngine>("stopEngine"),
                       });
}

std::string
getString(const Napi::Value &v, const char *what) {
    if (!v.IsString()) throw NixlFailure("ERR_INVALID_ARG", std::string(what) + " must be a string");
    return v.As<Napi::String>().Utf8Value();
}

// Bytes of a Buffer / TypedArray / DataView / ArrayBuffer, without copying. A view's bytes are taken
// from the view itself, not through its buffer: N-API refuses a SharedArrayBuffer as an ArrayBuffer
// (napi_get_arraybuffer_info), and a view over one threw "Invalid argument" untyped.
void
viewBytes(const Napi::Value &v, uint8_t *&data, size_t &len, const char *what) {
    if (v.IsArrayBuffer()) {
        auto ab = v.As<Napi::ArrayBuffer>();
        data = static_cast<uint8_t *>(ab.Data());
        len = ab.ByteLength();
        return;
    }
    if (v.IsTypedArray()) {
        void *p = nullptr;
        if (napi_get_typedarray_info(v.Env(), v, nullptr, nullptr, &p, nullptr, nullptr) != napi_ok)
            throw NixlFailure("ERR_INVALID_ARG", std::string(what) + ": its bytes cannot be read");
        data = static_cast<uint8_t *>(p);
        len = v.As<Napi::TypedArray>().ByteLength();
        return;
    }
    if (v.IsDataView()) {
        void *p = nullptr;
        size_t n = 0;
        if (napi_get_dataview_info(v.Env(), v, &n, &p, nullptr, nullptr) != napi_ok)
            throw NixlFailure("ERR_INVALID_ARG", std::string(what) + ": its bytes cannot be read");
        data = static_cast<uint8_t *>(p);
        len = n;
        return;
    }
    throw NixlFailure("ERR_INVALID_ARG",
                      std::string(what) + " must be a Buffer, TypedArray, DataView or ArrayBuffer");
}

std::string
copyBytes(const Napi::Value &v, const char *what) {
    uint8_t *data = nullptr;
    size_t len = 0;
    viewBytes(v, data, len, what);
    return std::string(reinterpret_cast<const char *>(data), len); // explicit length: NULs survive
}

unsigned
optUnsigned(const Napi::Object &o, const char *key, unsigned dflt) {
    Napi::Value v = o.Get(key);
    if (v.IsUndefined()) return dflt;
    if (!v.IsNumber()) throw NixlFailure("ERR_INVALID_ARG", std::string(key) + " must be a number");
    double d = v.As<Napi::Number>().DoubleValue();
    if (!(d >= 0) || d > 1e9) throw NixlFailure("ERR_INVALID_ARG", std::string(key) + " out of range");
    return static_cast<unsigned>(d);
}

// new Agent(name, { backend?, params?, busySpinUs?, busyPollUs?, busyWindowMs?, servePollUs?,
//                   idlePollMaxUs?, cancelGraceMs? }, onActivity)
Agent::Agent(const Napi::CallbackInfo &info) : Napi::ObjectWrap<Agent>(info) {
    Napi::Env env = info.Env();
    try {
        name_ = getString(info[0], "name");
        if (name_.empty()) throw NixlFailure("ERR_INVALID_ARG", "agent name must not be empty");
        // Locations and metadata carry at most 1024 bytes of name (locationSection, metadataWellFormed):
        // a longer one would make every read from this agent, and its metadata, refused elsewhere.
        if (name_.size() > 1024) throw NixlFailure("ERR_INVALID_ARG", "agent name must be at most 1024 bytes (UTF-8)");
        Napi::Object opts = info[1].IsObject() ? info[1].As<Napi::Object>() : Napi::Object::New(env);
        if (!info[2].IsFunction()) throw NixlFailure("ERR_INVALID_ARG", "onActivity must be a function");
        std::string backendType = opts.Has("backend") ? getString(opts.Get("backend"), "backend") : "UCX";
        busySpinUs_ = optUnsigned(opts, "busySpinUs", busySpinUs_);
        busyPollUs_ = optUnsigned(opts, "busyPollUs", busyPollUs_);
        busyWindowMs_ = optUnsigned(opts, "busyWindowMs", busyWindowMs_);
        servePollUs_ = std::max(1u, optUnsigned(opts, "servePollUs", servePollUs_));
        idlePollMaxUs_ = std::max(1u, optUnsigned(opts, "idlePollMaxUs", idlePollMaxUs_));
        cancelGraceMs_ = optUnsigned(opts, "cancelGraceMs", cancelGraceMs_);

        nixlAgentConfig cfg; // no progress thread, no listener: we drive progress ourselves
        agent_ = std::make_unique<nixlAgent>(name_, cfg);
        nixl_b_params_t params;
        nixl_mem_list_t mems;
        check(agent_->getPluginParams(backendType, mems, params),
              "getPluginParams(" + backendType + ") (is the NIXL plugin directory readable?)");
        if (opts.Has("params") && opts.Get("params").IsObject()) {
            Napi::Object p = opts.Get("params").As<Napi::Object>();
            Napi::Array keys = p.GetPropertyNames();
            for (uint32_t i = 0; i < keys.Length(); ++i) {
                std::string k = keys.Get(i).ToString().Utf8Value();
                params[k] = p.Get(k).ToString().Utf8Value();
            }
        }
        check(agent_->createBackend(backendType, params, backend_), "createBackend(" + backendType + ")");
        readArgs_.backends.push_back(backend_);
        nixl_opt_args_t args;
        args.backends.push_back(backend_);
        nixl_reg_dlist_t none(DRAM_SEG);
        check(agent_->getLocalPartialMD(none, localMd_, &args), "getLocalPartialMD");
    }
    catch (const NixlFailure &f) {
        agent_.reset();
        throw makeError(env, f.code, f.status, f.what());
    }
    catch (const std::exception &e) {
        agent_.reset();
        throw makeError(env, "NIXL_ERR_UNKNOWN", NIXL_ERR_UNKNOWN,
                        std::string("creating the NIXL agent failed: ") + e.what());
    }
    activityWords_ = new ActivityWords();
    activitySeq_ = activityWords_->words;
    activityRef_ = Napi::Persistent(Napi::ArrayBuffer::New(
        env, activitySeq_, sizeof(ActivityWords::words),
        [](Napi::Env, void *, ActivityWords *w) { ActivityWords::release(w); }, activityWords_));
    // Before the engine thread and the cleanup hook exist: a failure here (N-API out of memory,
    // an environment shutting down) must not leave a running thread behind a failed constructor.
    definePostReads(env, info.This().As<Napi::Object>());
    tsfn_ = Tsfn::New(env, info[2].As<Napi::Function>(), "ectp-nixl-activity", 0, 1, this);
    tsfn_.Unref(env); // an idle agent must not keep the process alive (see hold())
    env_ = env;
    // Stop the engine before node tears the environment (and the TSFN) down, so the engine
    // thread never signals a destroyed TSFN. Registered after the TSFN: runs before its hook.
    if (napi_add_env_cleanup_hook(env, &Agent::EnvCleanup, this) == napi_ok) hookAdded_ = true;
    ++gLiveAgents;
    try {
        engine_ = std::thread([this] { engineMain(); });
    }
    catch (const std::exception &e) {
        // No thread (e.g. the process's thread limit): undo and fail the constructor with a typed error.
        if (hookAdded_) napi_remove_env_cleanup_hook(env, &Agent::EnvCleanup, this);
        hookAdded_ = false;
        --gLiveAgents;
        tsfn_.Abort();
        tsfnReleased_ = true;
        agent_.reset();
        closed_ = true;
        throw makeError(env, "NIXL_ERR_UNKNOWN", NIXL_ERR_UNKNOWN, std::string("starting the NIXL engine thread failed: ") + e.what());
    }
}

void
Agent::stopEngineSync() {
    if (!engine_.joinable()) return;
    {
        std::lock_guard<std::mutex> lk(qMu_);
        Command c;
        c.kind = CmdKind::Stop; // token 0: no signal to JS
        queue_.push_back(std::move(c));
        queued_.store(true, std::memory_order_release);
    }
    qCv_.notify_one();
    engine_.join();
    --gLiveAgents;
    closed_ = true;
}

void
Agent::EnvCleanup(void *arg) {
    auto *self = static_cast<Agent *>(arg);
    self->hookAdded_ = false;
    self->envGone_ = true;
    self->stopEngineSync();
}

// Keep the event loop alive while work is outstanding (a pending promise or a posted read
// not yet drained), and let the process exit when the agent is idle. An orphaned read (see
// Xfer::orphaned) stops counting when it is orphaned (onSignal): nothing reports it before close().
// Never throws (the C calls' statuses are not checked): postRead and drain() call it once a READ
// is posted or a batch handed over, where nothing may fail any more.
void
Agent::hold(Napi::Env env, int delta) noexcept {
    if (tsfnReleased_ || envGone_) return;
    int64_t before = outstanding_;
    outstanding_ += delta;
    if (outstanding_ < 0) outstanding_ = 0;
    if (before == 0 && outstanding_ > 0) (void)napi_ref_threadsafe_function(env, tsfn_);
    // While closing, the loop stays referenced until the final signal releases the TSFN: a drain
    // or a late reply in between must not let Node exit with close() unsettled.
    if (before > 0 && outstanding_ == 0 && !closing_) (void)napi_unref_threadsafe_function(env, tsfn_);
}

Agent::~Agent() {
    // Reached if JS dropped the object without close(), or at environment teardown.
    if (hookAdded_ && env_) napi_remove_env_cleanup_hook(env_, &Agent::EnvCleanup, this);
    bool wasRunning = engine_.joinable();
    stopEngineSync();
    if (wasRunning && !envGone_ && !tsfnReleased_) tsfn_.Abort();
    if (activityWords_) ActivityWords::release(activityWords_); // the engine is stopped: no more writes
    if (link_) {
        link_->agent = nullptr;
        AgentLink::release(link_);
    }
}

void
Agent::ensureOpen() const {
    if (closed_ || closing_ || !agent_) throw NixlFailure("ERR_CLOSED", "the NIXL agent is closed");
}

void
Agent::enqueue(Command &&c) {
    std::list<Command> node;
    node.push_back(std::move(c)); // (may throw: nothing is queued then)
    enqueueNode(node);
}

// Queues the commands of `node` (leaving it empty) without allocating.
void
Agent::enqueueNode(std::list<Command> &node) noexcept {
    {
        std::lock_guard<std::mutex> lk(qMu_);
        queue_.splice(queue_.end(), node);
        queued_.store(true, std::memory_order_release);
    }
    qCv_.notify_one();
}

Napi::Value
Agent::LocalMetadata(const Napi::CallbackInfo &info) {
    return guard(info, [&]() -> Napi::Value {
        ensureOpen();
        return Napi::Buffer<char>::Copy(info.Env(), localMd_.data(), localMd_.size());
    });
}

// registerMemory(bytes) -> { id, address: bigint, length, section: Buffer }. Takes nixlMu_ on the
// JS thread, so it waits for the NIXL call the engine is in (a whole copy over CMA, a metadata
// load to an unreachable peer): the Transport interface makes it synchronous. A range NIXL still
// holds (another region over it is live, or its deregistration has not finished: peers may be
// reading it) is not registered again: the new region shares that registration and its section.
// A range overlapping a live region's without being equal to it is refused (see refuseOverlap).
Napi::Value
Agent::RegisterMemory(const Napi::CallbackInfo &info) {
    return guard(info, [&]() -> Napi::Value {
        ensureOpen();
        Napi::Env env = info.Env();
        uint8_t *data = nullptr;
        size_t len = 0;
        viewBytes(info[0], data, len, "memory");
        if (len == 0) throw NixlFailure("ERR_INVALID_ARG", "cannot register an empty buffer");
        const uint64_t addr = reinterpret_cast<uint64_t>(data);
        const RangeKey range{addr, len};
        refuseOverlap(range);
        std::string section;
        {
            std::lock_guard<std::mutex> lk(nixlMu_);
            SharedRegistration &shared = registrations_[range];
            ++shared.regions; // counted first: a failure below gives it back
            try {
                nixl_reg_dlist_t reg(DRAM_SEG);
                reg.addDesc(nixlBlobDesc(static_cast<uintptr_t>(addr), len, 0, ""));
                nixl_opt_args_t args;
                args.backends.push_back(backend_);
                if (!shared.registered) {
                    check(agent_->registerMem(reg, &args), "registerMem");
                    shared.registered = true;
                    ++nixlRegistrations_;
                }
                if (shared.section.empty()) { // (new, or kept by NIXL after a failed registration)
                    std::string got;
                    check(safeCall([&] { return agent_->getLocalPartialMD(reg, got, &args); }), "getLocalPartialMD(region)");
                    shared.section = std::move(got);
                }
                section = shared.section;
            }
            catch (...) {
                giveBackRegistrationLocked(range);
                throw;
            }
        }
        // Counted above; whatever fails from here on gives the count back.
        const uint32_t id = takeRegionId();
        bool inRegions = false;
        bool inLiveRanges = false;
        try {
            Napi::Object out = Napi::Object::New(env);
            out.Set("id", Napi::Number::New(env, id));
            out.Set("address", Napi::BigInt::New(env, addr));
            out.Set("length", Napi::Number::New(env, static_cast<double>(len)));
            out.Set("section", Napi::Buffer<char>::Copy(env, section.data(), section.size()));
            Napi::Reference<Napi::Value> ref = Napi::Reference<Napi::Value>::New(info[0], 1); // GC cannot free it now
            regions_.emplace(id, RegionInfo{addr, len});
            inRegions = true;
            LiveRange &live = liveRanges_[range];
            if (live.count++ == 0) live.someId = id;
            inLiveRanges = true;
            refs_.emplace(id, std::move(ref));
            return out;
        }
        catch (...) {
            if (inLiveRanges) forgetLiveRange(range);
            if (inRegions) regions_.erase(id);
            std::lock_guard<std::mutex> lk(nixlMu_);
            giveBackRegistrationLocked(range);
            throw;
        }
    });
}

// [I1] Refuses a range that overlaps a live region's range without being equal to it. NIXL 1.4.0
// finds the registration covering a descriptor by looking only at the entry sorted just before it,
// so with one registration inside another, reads of the outer one past the inner one's start fail
// (NOT_FOUND: into it on this side, and from it on every peer that loaded both sections, for as
// long as the peer stays connected). Register one range and describe parts of it instead. (Ranges
// held only for a deregistration, no longer live, are not checked: what peers read of them is
// whole items, which NIXL finds by their exact range.)
void
Agent::refuseOverlap(const RangeKey &range) const {
    const uint64_t end = range.first + range.second;
    auto next = liveRanges_.lower_bound(RangeKey{range.first, 0});
    const auto overlaps = [&](std::map<RangeKey, LiveRange>::const_iterator it) {
        return it->first != range && it->first.first < end && range.first < it->first.first + it->first.second;
    };
    std::map<RangeKey, LiveRange>::const_iterator hit = liveRanges_.end();
    if (next != liveRanges_.end() && overlaps(next)) hit = next;
    else if (next != liveRanges_.begin() && overlaps(std::prev(next))) hit = std::prev(next);
    if (hit == liveRanges_.end()) return;
    const auto hex = [](uint64_t v) {
        char buf[24];
        std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
        return std::string(buf);
    };
    throw NixlFailure("ERR_INVALID_ARG",
                      "memory at " + hex(range.first) + " (" + std::to_string(range.second) + " bytes) overlaps region " +
                          std::to_string(hit->second.someId) + " at " + hex(hit->first.first) + " (" +
                          std::to_string(hit->first.second) + " bytes) without being the same range: NIXL would then fail "
                          "reads of the enclosing one; register one range and describe parts of it, or deregister region " +
                          std::to_string(hit->second.someId) + " first");
}

// A live region over `range` is gone (deregistered, or its registerMemory failed).
void
Agent::forgetLiveRange(const RangeKey &range) noexcept {
    auto it = liveRanges_.find(range);
    if (it != liveRanges_.end() && --it->second.count == 0) liveRanges_.erase(it);
}

// Under nixlMu_: one region over `range` is gone. The last one's going deregisters the range from
// NIXL. False when NIXL refused that: nothing changed, for the caller to try again.
bool
Agent::dropRegistrationLocked(const RangeKey &range) {
    auto it = registrations_.find(range);
    if (it == registrations_.end()) return true;
    SharedRegistration &shared = it->second;
    if (shared.regions > 1) {
        --shared.regions;
        return true;
    }
    if (shared.registered) {
        nixl_reg_dlist_t reg(DRAM_SEG);
        reg.addDesc(nixlBlobDesc(static_cast<uintptr_t>(range.first), range.second, 0, ""));
        nixl_opt_args_t args;
        args.backends.push_back(backend_);
        if (safeCall([&] { return agent_->deregisterMem(reg, &args); }) != NIXL_SUCCESS) return false;
        --nixlRegistrations_;
    }
    registrations_.erase(it);
    return true;
}

// Under nixlMu_: a registerMemory of `range` failed after counting its region. Should NIXL refuse to
// let the range go, it stays registered, owned by no region: the next registration of the range
// shares it (and takes its section then), and close() releases it otherwise.
void
Agent::giveBackRegistrationLocked(const RangeKey &range) {
    if (dropRegistrationLocked(range)) return;
    auto it = registrations_.find(range);
    if (it != registrations_.end()) it->second.regions = 0;
}

// The next region id: 32 bits, never 0, never one still in use (a live region, or one whose
// memory NIXL has not let go of), even after the counter wraps.
uint32_t
Agent::takeRegionId() {
    uint32_t id;
    do id = nextRegionId_++;
    while (id == 0 || regions_.count(id) != 0 || refs_.count(id) != 0);
    return id;
}

// deregisterMemory(id): transfers into the region are released first (settling as
// deregistered); the JS reference is dropped only once NIXL has let go of the memory.
Napi::Value
Agent::DeregisterMemory(const Napi::CallbackInfo &info) {
    return guard(info, [&]() -> Napi::Value {
        ensureOpen();
        uint32_t id = info[0].ToNumber().Uint32Value();
        auto it = regions_.find(id);
        if (it == regions_.end()) return Napi::Boolean::New(info.Env(), false);
        Command c;
        c.kind = CmdKind::Deregister;
        c.id = id;
        c.regionAddr = it->second.addr;
        c.regionLen = it->second.len;
        enqueue(std::move(c));
        forgetLiveRange(RangeKey{c.regionAddr, c.regionLen});
        regions_.erase(it);
        return Napi::Boolean::New(info.Env(), true);
    });
}

// loadRemote(metadata) -> Promise<agentName>
Napi::Value
Agent::LoadRemote(const Napi::CallbackInfo &info) {
    return guard(info, [&]() -> Napi::Value {
        ensureOpen();
        Command c;
        c.kind = CmdKind::LoadRemote;
        c.blob = copyBytes(info[0], "metadata");
        auto d = Napi::Promise::Deferred::New(info.Env());
        // [I1] Checked on the copy (a SharedArrayBuffer's bytes can change under a check made in place).
        if (!metadataWellFormed(c.blob)) {
            d.Reject(makeError(info.Env(), "NIXL_ERR_MISMATCH", NIXL_ERR_MISMATCH,
                               "loadRemoteMD refused: the metadata is not an ECTP NIXL agent's (UCX connection metadata)")
                         .Value());
            return d.Promise();
        }
        c.token = nextToken_++;
        promises_.emplace(c.token, d);
        hold(info.Env(), +1);
        enqueue(std::move(c));
        return d.Promise();
    });
}

// metadataWellFormed(metadata) -> boolean: whether loadRemote would hand `metadata` to NIXL (see
// metadataWellFormed), answered at once: the transport checks a newer epoch's metadata with it
// before it invalidates the live connection it would replace.
Napi::Value
Agent::MetadataWellFormed(const Napi::CallbackInfo &info) {
    return guard(info, [&]() -> Napi::Value {
        return Napi::Boolean::New(info.Env(), metadataWellFormed(copyBytes(info[0], "metadata")));
    });
}

// invalidateRemote(name): fire and forget; NOT_FOUND (already dropped by NIXL) is fine.
Napi::Value
Agent::Invalidate(const Napi::CallbackInfo &info) {
    return guard(info, [&]() -> Napi::Value {
        ensureOpen();
        Command c;
        c.kind = CmdKind::Invalidate;
        c.peer = getString(info[0], "agent name");
        enqueue(std::move(c));
        return info.Env().Undefined();
    });
}

Napi::Value
Agent::CheckRemote(const Napi::CallbackInfo &info) {
    return guard(info, [&]() -> Napi::Value {
        ensureOpen();
        std::string peer = getString(info[0], "agent name");
        nixl_xfer_dlist_t empty(DRAM_SEG);
        int st;
        {
            std::lock_guard<std::mutex> lk(nixlMu_);
            st = safeCall([&] { return agent_->checkRemoteMD(peer, empty); });
        }
        return Napi::Boolean::New(info.Env(), st == NIXL_SUCCESS);
    });
}

// A number argument (no coercion: a non-number is a caller bug).
double
numArg(const Napi::CallbackInfo &info, size_t i, const char *what) {
    napi_value v = info[i];
    double d = 0;
    if (napi_get_value_double(info.Env(), v, &d) != napi_ok)
        throw NixlFailure("ERR_INVALID_ARG", std::string(what) + " must be a number");
    return d;
}

// Bytes of a Uint8Array/Buffer/TypedArray in one N-API call (no copy), or of any view via viewBytes.
std::string_view
bytesArg(const Napi::CallbackInfo &info, size_t i, const char *what) {
    napi_typedarray_type type;
    size_t length = 0;
    void *data = nullptr;
    if (napi_get_typedarray_info(info.Env(), info[i], &type, &length, &data, nullptr, nullptr) == napi_ok &&
        (type == napi_uint8_array || type == napi_int8_array || type == napi_uint8_clamped_array))
        return std::string_view(static_cast<const char *>(data), length);
    uint8_t *d = nullptr;
    size_t len = 0;
    viewBytes(info[i], d, len, what);
    return std::string_view(reinterpret_cast<const char *>(d), len);
}

// A short string argument read through a stack buffer (one N-API call, no heap allocation
// for the read itself); longer strings fall back to Utf8Value.
void
stringArg(const Napi::CallbackInfo &info, size_t i, const char *what, std::string &out) {
    char buf[256];
    size_t n = 0;
    if (napi_get_value_string_utf8(info.Env(), info[i], buf, sizeof buf, &n) != napi_ok)
        throw NixlFailure("ERR_INVALID_ARG", std::string(what) + " must be a string");
    // A multi-byte character is never cut, so a string that nearly filled the buffer may have been
    // truncated below its end: only a reading with room for one more 4-byte character is whole.
    if (n + 4 < sizeof buf) {
        out.assign(buf, n);
        return;
    }
    out = info[i].As<Napi::String>().Utf8Value();
}

// Little-endian unsigned integer of `n` bytes at `p`.
uint64_t
leN(const char *p, int n) {
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; --i)
        v = (v << 8) | static_cast<uint8_t>(p[i]);
    return v;
}

uint64_t
le64(const char *p) {
    return leN(p, 8);
}

// A reader of NIXL's serialized metadata (its "nixlSerDes|" format: fields of tag | u64 length |
// bytes | '|', written by the agent on the same architecture). NIXL trusts this text: fields it
// finds out of range (a memory type past its enum, a descriptor count that lies) crash the process
// inside loadRemoteMD, so [I1] a peer's metadata is read here first, field by field, and only
// the exact shape this addon's agents produce goes on to NIXL.
class SerDesReader {
  public:
    explicit SerDesReader(std::string_view text) : s_(text) {
        constexpr std::string_view kHead = "nixlSerDes|";
        ok_ = s_.substr(0, kHead.size()) == kHead;
        off_ = kHead.size();
    }

    // The bytes of the next field, which must carry `tag`; at most `max` of them.
    std::optional<std::string_view>
    field(std::string_view tag, size_t max) {
        if (!ok_ || s_.size() - off_ < tag.size() + 8 || s_.substr(off_, tag.size()) != tag) return fail();
        const uint64_t n = leN(s_.data() + off_ + tag.size(), 8);
        const size_t at = off_ + tag.size() + 8;
        if (n > max || s_.size() - at < n + 1 || s_[at + n] != '|') return fail();
        off_ = at + n + 1;
        return s_.substr(at, n);
    }

    // The next field as an unsigned integer of exactly `width` bytes.
    std::optional<uint64_t>
    number(std::string_view tag, size_t width) {
        const auto f = field(tag, width);
        if (!f || f->size() != width) {
            ok_ = false;
            return std::nullopt;
        }
        return leN(f->data(), static_cast<int>(width));
    }

    bool
    is(std::string_view tag, std::string_view value) {
        const auto f = field(tag, value.size());
        return f && *f == value;
    }

    bool atEnd() const { return ok_ && off_ == s_.size(); }

  private:
    std::optional<std::string_view>
    fail() {
        ok_ = false;
        return std::nullopt;
    }

    std::string_view s_;
    size_t off_ = 0;
    bool ok_ = false;
};

// Bound of a UCX connection blob or memory key in metadata (real ones are well under 4 KiB).
constexpr size_t kMaxUcxBlob = 64 * 1024;
// NIXL's descriptor in a section: address, length, device id (nixlBasicDesc, three 8-byte words).
constexpr size_t kBasicDescBytes = 24;
// NIXL writes its metadata in the host's byte order; the reader above reads little-endian.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the nixlSerDes reader assumes a little-endian host");
static_assert(sizeof(nixlBasicDesc) == kBasicDescBytes, "nixlBasicDesc is address, length and device id, 8 bytes each");

// [I1] Whether `section` is one region's registration metadata of agent `peer` as a producer's
// agent publishes it (getLocalPartialMD of one DRAM descriptor for the UCX backend, without
// connection info), and its descriptor covers [address, address + length). The UCX memory key
// after the descriptor is UCX's own format, not checked here beyond its size: a damaged one can
// still crash UCX (see packages/transport-nixl/README.md, Trust).
bool
sectionWellFormed(std::string_view section, std::string_view peer, uint64_t address, size_t length) {
    SerDesReader r(section);
    const auto agent = r.field("Agent", 1024);
    if (!agent || *agent != peer) return false;
    if (r.number("Conns", 8) != uint64_t{0} || !r.is("", "MemSection") || r.number("nixlSecElms", 8) != uint64_t{1})
        return false;
    if (!r.is("bknd", "UCX") || !r.is("nixlDList", "nixlSDList")) return false;
    if (r.number("t", sizeof(nixl_mem_t)) != uint64_t{DRAM_SEG} || r.number("n", 8) != uint64_t{1}) return false;
    const auto desc = r.field("", kBasicDescBytes + kMaxUcxBlob);
    if (!desc || desc->size() <= kBasicDescBytes || !r.atEnd()) return false;
    const uint64_t base = le64(desc->data());
    const uint64_t size = le64(desc->data() + 8);
    const uint64_t device = le64(desc->data() + 16);
    return device == 0 && address >= base && address - base <= size && size - (address - base) >= length;
}

// [I1] Whether `metadata` is an agent's connection metadata as this addon's agents publish it
// (getLocalPartialMD of no descriptors for the UCX backend: one connection, no sections).
// The UCX connection blob inside is UCX's own format, not checked here beyond its size.
bool
metadataWellFormed(std::string_view metadata) {
    SerDesReader r(metadata);
    const auto agent = r.field("Agent", 1024);
    if (!agent || agent->empty() || r.number("Conns", 8) != uint64_t{1} || !r.is("t", "UCX")) return false;
    const auto conn = r.field("c", kMaxUcxBlob);
    return conn && !conn->empty() && r.is("", "MemSection") && r.number("nixlSecElms", 8) == uint64_t{0} && r.atEnd();
}

// The registration metadata ("section") of `loc` when it is a NIXL location
// (packages/transport-nixl/src/location.ts: "ENX1" | address u64 | length u64 | name length u16 |
// name | section length u32 | section) of agent `peer` describing at least `length` bytes;
// nullopt otherwise. The checks parseLocation makes, done here so that the small-read path
// passes over the location once.
std::optional<std::string_view>
locationSection(std::string_view loc, const std::string &peer, size_t length) {
    if (loc.size() < 26 || loc.substr(0, 4) != "ENX1") return std::nullopt;
    const uint64_t described = le64(loc.data() + 12);
    if (described == 0 || described >= (uint64_t{1} << 53) || described < length) return std::nullopt;
    // [I1] The described range must end below 2^64: NIXL checks a remote range against the peer's
    // loaded sections as addr + len (nixlBasicDesc::covers), which wraps, so such a range passed with
    // an empty section and the GET went to a bogus address (the reader then dropped its live peer).
    if (le64(loc.data() + 4) > UINT64_MAX - described) return std::nullopt;
    const size_t nameLen = static_cast<size_t>(leN(loc.data() + 20, 2));
    if (nameLen == 0 || nameLen > 1024 || 26 + nameLen > loc.size()) return std::nullopt;
    if (loc.substr(22, nameLen) != peer) return std::nullopt;
    const uint64_t sectionLen = leN(loc.data() + 22 + nameLen, 4);
    if (sectionLen > (1u << 20) || 26 + nameLen + sectionLen != loc.size()) return std::nullopt;
    const std::string_view section = loc.substr(26 + nameLen);
    // [I1] The section is NIXL's serialized partial metadata of the owner's registration, which names
    // its agent first ("nixlSerDes|Agent", a u64 length, the name). NIXL loads it under that name:
    // a section naming another agent than the location's would replace, or make NIXL drop, that
    // other (live) peer's metadata. Such a location is refused like any malformed one.
    // Every other field is checked too (see sectionWellFormed): NIXL itself would crash on some.
    if (!section.empty() && !sectionWellFormed(section, peer, le64(loc.data() + 4), length)) return std::nullopt;
    return section;
}

// postRead(id, peer, regionId, offset, length, location[, notif])
//   -> number: NIXL_IN_PROG (1) = posted, its result comes through drain(); 101 = refused
//   without posting, the location being malformed, another agent's than `peer` or shorter than
//   `length` (see locationSection; nothing to drain); anything else is the final NIXL status of a
//   read that settled inside this call (0 = done) and that drain() will NOT report. `location`
//   is the ItemDescriptor.location bytes of the source (packages/transport-nixl/src/location.ts:
//   "ENX1" | address u64 LE | length u64 | name length u16 | name | section length u32 |
//   section); the addon checks it, reads the address and views the section metadata in place.
//   Positional numbers, at most 6 arguments (node-addon-api's inline argument array) and no
//   copy keep the per-read N-API cost to a few value reads on the small-read path.
// postReadWithCrc(...same arguments): the same READ, and the CRC-32C of the landed bytes is
//   computed on completion (by the engine thread, or by this call for a read settled inside
//   it: then the activity buffer's second word holds it) and reported with the result.
template <bool Crc>
Napi::Value
Agent::LinkedPostRead(const Napi::CallbackInfo &info) {
    Agent *self = static_cast<AgentLink *>(info.Data())->agent;
    if (self == nullptr) return guard(info, []() -> Napi::Value { throw NixlFailure("ERR_CLOSED", "the NIXL agent is gone"); });
    return self->postRead(info, Crc);
}

void
Agent::definePostReads(Napi::Env env, Napi::Object self) {
    link_ = new AgentLink{this};
    const auto define = [&](const char *name, Napi::Value (*fn)(const Napi::CallbackInfo &)) {
        Napi::Function f = Napi::Function::New(env, fn, name, link_);
        ++link_->owners;
        f.AddFinalizer([](Napi::Env, AgentLink *l) { AgentLink::release(l); }, link_);
        self.DefineProperty(Napi::PropertyDescriptor::Value(name, f, napi_default));
    };
    define("postRead", &Agent::LinkedPostRead<false>);
    define("postReadWithCrc", &Agent::LinkedPostRead<true>);
}

Napi::Value
Agent::postRead(const Napi::CallbackInfo &info, bool crc) {
    return guard(info, [&]() -> Napi::Value {
        ensureOpen();
        Napi::Env env = info.Env();
        double idD = numArg(info, 0, "id");
        std::string &peer = scratchPeer_;
        stringArg(info, 1, "peer", peer);
        double regD = numArg(info, 2, "regionId");
        double off = numArg(info, 3, "offset");
        double len = numArg(info, 4, "length");
        if (!(idD >= 0 && idD <= 4294967295.0) || !(regD >= 0 && regD <= 4294967295.0) ||
            idD != static_cast<double>(static_cast<uint32_t>(idD)) || regD != static_cast<double>(static_cast<uint32_t>(regD)))
            throw NixlFailure("ERR_INVALID_ARG", "id and regionId must be 32-bit unsigned integers");
        uint32_t id = static_cast<uint32_t>(idD);
        uint32_t regionId = static_cast<uint32_t>(regD);
        auto it = regions_.find(regionId);
        if (it == regions_.end()) throw NixlFailure("ERR_INVALID_ARG", "destination region is not registered");
        if (!(off >= 0) || !(len > 0) || off + len > static_cast<double>(it->second.len))
            throw NixlFailure("ERR_INVALID_ARG", "destination range is outside its region");
        if (off != static_cast<double>(static_cast<uint64_t>(off)) || len != static_cast<double>(static_cast<uint64_t>(len)))
            throw NixlFailure("ERR_INVALID_ARG", "offset and length must be whole numbers of bytes");
        if (postedIds_.count(id) != 0)
            throw NixlFailure("ERR_INVALID_ARG", "read id " + std::to_string(id) + " is still in flight: an id may be reused only after drain() reported it");
        size_t length = static_cast<size_t>(len);
        // [I1] Checked and used as a copy: bytes viewed in place (a SharedArrayBuffer) could change
        // between the check and NIXL's read of them.
        const std::string_view given = bytesArg(info, 5, "location");
        scratchLocation_.assign(given.data(), given.size());
        std::string_view loc = scratchLocation_;
        // [I1] A location from a peer is untrusted: one that is malformed, names another agent or
        // describes fewer bytes than asked settles the read failed (the caller names why).
        const std::optional<std::string_view> found = locationSection(loc, peer, length);
        if (!found) return Napi::Number::New(env, kBadLocation);
        const std::string_view section = *found;
        uintptr_t remoteAddr = static_cast<uintptr_t>(le64(loc.data() + 4));
        uintptr_t localAddr = static_cast<uintptr_t>(it->second.addr + static_cast<uint64_t>(off));
        bool hasNotif = info.Length() > 6 && !info[6].IsUndefined() && !info[6].IsNull();
        // [I5] A posted read's id must be known when drain() reports it, so it is noted first (the
        // insert may fail), and nothing that may fail runs once the READ is posted or queued: the
        // answer for a read in flight is made beforehand too (were it to throw after the post, JS
        // would report the read failed while it may still write its destination).
        const Napi::Value inFlight = Napi::Number::New(env, NIXL_IN_PROG);
        postedIds_.insert(id);
        int st = kNotInline;
        std::list<Command> node;
        try {
            if (!hasNotif) st = tryInlineRead(id, peer, regionId, localAddr, remoteAddr, length, section, crc);
            if (st == kNotInline) {
                Command &c = node.emplace_back();
                c.kind = CmdKind::PostRead;
                c.id = id;
                c.peer = peer;
                c.regionId = regionId;
                c.localAddr = localAddr;
                c.remoteAddr = remoteAddr;
                c.length = length;
                c.crc = crc;
                c.blob.assign(section.data(), section.size());
                if (hasNotif) c.notif = copyBytes(info[6], "notif");
            }
        }
        catch (...) {
            postedIds_.erase(id); // (tryInlineRead throws only before it posts)
            throw;
        }
        if (st != kNotInline && st != NIXL_IN_PROG) {
            postedIds_.erase(id); // settled inside this call: its answer reports it, drain() never will
            return Napi::Number::New(env, st);
        }
        hold(env, +1); // adopted by the engine, or queued for it: drain() reports it
        if (st == kNotInline) enqueueNode(node);
        return inFlight;
    });
}

Napi::Value
Agent::CancelRead(const Napi::CallbackInfo &info) {
    return guard(info, [&]() -> Napi::Value {
        ensureOpen();
        Command c;
        c.kind = CmdKind::Cancel;
        c.id = info[0].ToNumber().Uint32Value();
        enqueue(std::move(c));
        return info.Env().Undefined();
    });
}

// send(peer, bytes, tag?): genNotif with a binary payload (explicit length, NUL bytes survive);
// a failure is reported by drain() with the tag (a uint32, default 0) the send was given.
Napi::Value
Agent::Send(const Napi::CallbackInfo &info) {
    return guard(info, [&]() -> Napi::Value {
        ensureOpen();
        Command c;
        c.kind = CmdKind::Send;
        c.peer = getString(info[0], "peer");
        c.blob = copyBytes(info[1], "message");
        if (!info[2].IsUndefined()) {
            if (!info[2].IsNumber()) throw NixlFailure("ERR_INVALID_ARG", "tag must be a uint32");
            double tag = info[2].As<Napi::Number>().DoubleValue();
            if (!(tag >= 0) || tag > 4294967295.0 || tag != static_cast<double>(static_cast<uint32_t>(tag)))
                throw NixlFailure("ERR_INVALID_ARG", "tag must be a uint32");
            c.id = static_cast<uint32_t>(tag);
        }
        enqueue(std::move(c));
        return info.Env().Undefined();
    });
}

// drain() -> undefined when nothing is new (the common case of a poll), else four flat
// arrays (elements set by index: no property names to create or look up per item):
//   [ [from, bytes, from, bytes, ...],            notifications, in arrival order
//     [id, status, flags, crc, ...],               settled reads (flags: 2 deregistered, 4 closed,
//                                                   8 crc is the landed bytes' CRC-32C; 1 is no
//                                                   longer used), in order
//     [peer, status, tag, peer, status, tag, ...],  notifications that could not be sent (tag:
//                                                   the send's, 0 when none was given)
//     [id, id, ...] ]                               transfers orphaned since the last drain (see
//                                                   Xfer::orphaned: reported only by close())
// Reads that settled inside postRead() are never reported here.
Napi::Value
Agent::Drain(const Napi::CallbackInfo &info) {
    return guard(info, [&]() -> Napi::Value {
        Napi::Env env = info.Env();
        collectDeregistered();
        // [I5] The batch stays in drainBatch_ until it is handed over whole: a drain() that throws
        // (out of memory while building the arrays) loses nothing, and the next one hands it over
        // with what the engine queued since, in order.
        DrainBatch &b = drainBatch_;
        {
            std::lock_guard<std::mutex> lk(outMu_);
            takeInto(b.notifs, notifs_);
            takeInto(b.settled, settled_);
            takeInto(b.fails, sendFailures_);
            takeInto(b.orphaned, orphanIds_);
        }
        if (b.notifs.empty() && b.settled.empty() && b.fails.empty() && b.orphaned.empty()) return env.Undefined();
        Napi::Array na = Napi::Array::New(env, b.notifs.size() * 2);
        for (size_t i = 0; i < b.notifs.size(); ++i) {
            na.Set(static_cast<uint32_t>(2 * i), Napi::String::New(env, b.notifs[i].from));
            na.Set(static_cast<uint32_t>(2 * i + 1),
                   Napi::Buffer<char>::Copy(env, b.notifs[i].bytes.data(), b.notifs[i].bytes.size()));
        }
        Napi::Array ra = Napi::Array::New(env, b.settled.size() * 4);
        for (size_t i = 0; i < b.settled.size(); ++i) {
            const Settled &x = b.settled[i];
            int flags = (x.deregistered ? 2 : 0) | (x.closed ? 4 : 0) | (x.hasCrc ? 8 : 0);
            ra.Set(static_cast<uint32_t>(4 * i), Napi::Number::New(env, x.id));
            ra.Set(static_cast<uint32_t>(4 * i + 1), Napi::Number::New(env, x.status));
            ra.Set(static_cast<uint32_t>(4 * i + 2), Napi::Number::New(env, flags));
            ra.Set(static_cast<uint32_t>(4 * i + 3), Napi::Number::New(env, x.crc));
        }
        Napi::Array fa = Napi::Array::New(env, b.fails.size() * 3);
        for (size_t i = 0; i < b.fails.size(); ++i) {
            fa.Set(static_cast<uint32_t>(3 * i), Napi::String::New(env, b.fails[i].peer));
            fa.Set(static_cast<uint32_t>(3 * i + 1), Napi::Number::New(env, b.fails[i].status));
            fa.Set(static_cast<uint32_t>(3 * i + 2), Napi::Number::New(env, b.fails[i].tag));
        }
        Napi::Array oa = Napi::Array::New(env, b.orphaned.size());
        for (size_t i = 0; i < b.orphaned.size(); ++i) oa.Set(static_cast<uint32_t>(i), Napi::Number::New(env, b.orphaned[i]));
        Napi::Array out = Napi::Array::New(env, 4);
        out.Set(0u, na);
        out.Set(1u, ra);
        out.Set(2u, fa);
        out.Set(3u, oa);
        // Handed over: nothing below throws.
        for (const Settled &x : b.settled) postedIds_.erase(x.id);
        hold(env, -static_cast<int>(b.settled.size()));
        b.clear();
        return out;
    });
}

// activityWord() -> ArrayBuffer of 12 bytes: word 0 is a counter that moves whenever drain() may
// have something new (see activitySeq_), read with Atomics.load on a Uint32Array; word 1 is the
// CRC-32C of the last read that settled inside postReadWithCrc (valid right after that call);
// word 2 counts the reads the engine has queued for drain() (see countSettled).
Napi::Value
Agent::ActivityWord(const Napi::CallbackInfo &info) {
    return activityRef_.Value();
}

Napi::Value
Agent::Counters(const Napi::CallbackInfo &info) {
    return guard(info, [&]() -> Napi::Value {
        Napi::Env env = info.Env();
        collectDeregistered();
        Napi::Object o = Napi::Object::New(env);
        o.Set("registrations", Napi::Number::New(env, static_cast<double>(nixlRegistrations_.load())));
        o.Set("heldBuffers", Napi::Number::New(env, static_cast<double>(refs_.size())));
        o.Set("activeTransfers", Napi::Number::New(env, static_cast<double>(activeXfers_.load())));
        o.Set("orphanedTransfers", Napi::Number::New(env, static_cast<double>(orphanedXfers_.load())));
        o.Set("loadedPeers", Napi::Number::New(env, static_cast<double>(loadedPeers_.load())));
        o.Set("pendingPromises", Napi::Number::New(env, static_cast<double>(promises_.size())));
        o.Set("totalReads", Napi::Number::New(env, static_cast<double>(totalReads_.load())));
        o.Set("releasesRefused", Napi::Number::New(env, static_cast<double>(releasesRefused_.load())));
        o.Set("deregistrationFailures", Napi::Number::New(env, static_cast<double>(deregFailures_.load())));
        o.Set("engineRounds", Napi::Number::New(env, static_cast<double>(engineRounds_.load())));
        o.Set("notifsIn", Napi::Number::New(env, static_cast<double>(totalNotifsIn_.load())));
        o.Set("notifsOut", Napi::Number::New(env, static_cast<double>(totalNotifsOut_.load())));
        o.Set("pingsOut", Napi::Number::New(env, static_cast<double>(totalPingsOut_.load())));
        o.Set("liveAgents", Napi::Number::New(env, static_cast<double>(gLiveAgents.load())));
        return o;
    });
}

// stopEngine(): for a process that exits without close() (process.exit skips the environment
// cleanup hook): the engine thread stops and is joined now, so nothing calls NIXL while the
// process's static state is destroyed. The engine runs shutdownEngine as for close(): it lingers
// kCloseLinger after a send in the last second (a message sent just before the exit still
// leaves), then releases transfers, registrations and peers and destroys the agent. Nothing is
// reported to JS (no promise settles, no drain, buffers stay referenced); the agent is unusable
// afterwards.
Napi::Value
Agent::StopEngine(const Napi::CallbackInfo &info) {
    return guard(info, [&]() -> Napi::Value {
        stopEngineSync();
        return info.Env().Undefined();
    });
}

// close() -> Promise<void>: releases every transfer (settled as closed), registration,
// loaded peer and the agent itself, on the engine thread; then joins it.
Napi::Value
Agent::Close(const Napi::CallbackInfo &info) {
    return guard(info, [&]() -> Napi::Value {
        Napi::Env env = info.Env();
        auto d = Napi::Promise::Deferred::New(env);
        if (closed_ || closing_) {
            d.Resolve(env.Undefined());
            return d.Promise();
        }
        closing_ = true;
        Command c;
        c.kind = CmdKind::Stop;
        c.token = 1; // signal JS when done
        closeDeferred_ = d;
        tsfn_.Ref(env); // keep the loop alive until the engine has finished
        outstanding_ = 1;
        enqueue(std::move(c));
        return d.Promise();
    });
}

// ---------------------------------------------------------------------------------------
// Engine thread
// ---------------------------------------------------------------------------------------

void
Agent::bumpActivity() {
    std::atomic_ref<uint32_t>(*activitySeq_).fetch_add(1, std::memory_order_release);
}

// Engine thread, under outMu_, after queueing `n` settled reads: a read that settles inside
// postRead is listed after them (JS drains them first when this word moved since its last drain).
// Not the activity counter: a signal bumps that once per batch, and a bump per read would make
// the signal that follows a spinning wait's report look like new activity.
void
Agent::countSettled(size_t n) {
    std::atomic_ref<uint32_t>(activitySeq_[2]).fetch_add(static_cast<uint32_t>(n), std::memory_order_release);
}

void
Agent::signal() {
    bumpActivity();
    if (!signalPending_.exchange(true) && tsfn_.NonBlockingCall() != napi_ok)
        signalPending_.store(false); // not queued: let the next event try again
}

// Before loading a section of `peer`: its transfers NIXL reports ended keep that outcome (see
// orphanDroppedTransfers). Only that peer's: this runs for every new section, and a section naming
// another peer than the one it came from (malformed) merely makes its ended transfers orphans.
// Called with nixlMu_ held.
void
Agent::noteEndedTransfers(const std::string &peer) {
    for (auto &x : xfers_) {
        Xfer &t = x.second;
        if (t.peer != peer || t.failedStatus != 0 || t.orphaned || t.succeeded) continue;
        if (safeCall([&] { return agent_->getXferStatus(t.req); }) == NIXL_SUCCESS) t.succeeded = true;
    }
}

// [I5] After a refused section load: a transfer to `peer` still unended that NIXL now answers
// NOT_FOUND for lost its peer's metadata to that load while its GET may still run (a peer that died
// meanwhile answers so too: holding its destination is merely cautious). Orphaned: never released
// nor reported before close(). Only that peer's: another peer's transfer that NIXL dropped after a
// disconnect of its own is left to progress(), which settles it failed. Called with nixlMu_ held.
void
Agent::orphanDroppedTransfers(const std::string &peer) {
    for (auto &x : xfers_) {
        Xfer &t = x.second;
        if (t.peer != peer || t.failedStatus != 0 || t.orphaned || t.succeeded) continue;
        if (safeCall([&] { return agent_->getXferStatus(t.req); }) != NIXL_ERR_NOT_FOUND) continue;
        orphan(x.first, t);
    }
}

// Mark `t` orphaned: kept (registered, referenced) but never reported before close(), so JS is told
// to stop counting it as outstanding work (hasOutput, onSignal): it must not keep the process alive.
void
Agent::orphan(uint32_t id, Xfer &t) {
    t.orphaned = true;
    ++orphanedXfers_;
    std::lock_guard<std::mutex> lk(outMu_);
    ++newOrphans_;
    orphanIds_.push_back(id);
}

void
Agent::settle(uint32_t id, int status, bool deregistered, bool closed,
              std::optional<uint32_t> crc) {
    std::lock_guard<std::mutex> lk(outMu_);
    settled_.push_back(Settled{id, status, deregistered, closed, crc.has_value(), crc.value_or(0)});
    countSettled(1);
}

// A command whose execution threw (out of memory, or a library throw outside safeCall): a pending
// promise is rejected and a read not yet posted is settled, so neither is left waiting forever.
void
Agent::failCommand(const Command &c) noexcept {
    try {
        std::lock_guard<std::mutex> lk(outMu_);
        if (c.kind == CmdKind::LoadRemote && c.token) replies_.push_back(Reply{c.token, NIXL_ERR_UNKNOWN, ""});
        else if (c.kind == CmdKind::PostRead) {
            settled_.push_back(Settled{c.id, NIXL_ERR_UNKNOWN, false, false, false});
            countSettled(1);
        }
    }
    catch (...) {
        // out of memory even for the reply: nothing more can be done here
    }
}

void
Agent::execute(Command &c) {
    switch (c.kind) {
    case CmdKind::LoadRemote: {
        std::string name;
        int st;
        {
            std::lock_guard<std::mutex> lk(nixlMu_);
            st = safeCall([&] { return agent_->loadRemoteMD(c.blob, name); });
            if (st == NIXL_SUCCESS) {
                if (loadedSections_.emplace(name, SectionSet{}).second) ++loadedPeers_;
            }
        }
        std::lock_guard<std::mutex> lk(outMu_);
        replies_.push_back(Reply{c.token, st, name});
        break;
    }
    case CmdKind::Invalidate: {
        {
            std::lock_guard<std::mutex> lk(nixlMu_);
            // [I5] Last word on the peer's transfers: after the invalidation NIXL answers NOT_FOUND
            // for them whatever their GET does. Ended ones keep their outcome; one still in flight
            // (its peer alive but slow or stopped) is orphaned, never released and reported.
            for (auto &x : xfers_) {
                Xfer &t = x.second;
                if (t.peer != c.peer || t.failedStatus != 0 || t.orphaned || t.succeeded) continue;
                int xs = safeCall([&] { return agent_->getXferStatus(t.req); });
                if (xs == NIXL_SUCCESS) t.succeeded = true;
                else if (xs == NIXL_IN_PROG) {
                    orphan(x.first, t);
                } else if (xs < 0) {
                    t.failedStatus = xs;
                    t.graceEnd = Clock::now() + std::chrono::milliseconds(cancelGraceMs_);
                }
            }
            // NOT_FOUND: NIXL already dropped the peer (e.g. after a disconnect): not an error.
            (void)safeCall([&] { return agent_->invalidateRemoteMD(c.peer); });
            if (loadedSections_.erase(c.peer) > 0) --loadedPeers_;
            ++sectionsGen_;
        }
        break;
    }
    case CmdKind::PostRead: {
        ++totalReads_;
        int st = NIXL_SUCCESS;
        std::lock_guard<std::mutex> lk(nixlMu_);
        // (find, not operator[]: a peer that is not loaded gets no entry; NIXL reports it.)
        auto peerIt = loadedSections_.find(c.peer);
        if (peerIt != loadedSections_.end() && !c.blob.empty()) {
            auto &secs = peerIt->second;
            if (secs.find(c.blob) == secs.end()) {
                // UCX 1.22 crashes unpacking an rkey on an endpoint that already failed (peer
                // gone), so probe the endpoint with a progress ping first and fail the read
                // with the ping's status if the peer is unreachable. (A peer dying between
                // the ping and the load is a remaining, narrow window.)
                st = safeCall([&] { return agent_->genNotif(c.peer, std::string()); });
                ++totalPingsOut_;
                if (st == NIXL_SUCCESS) {
                    nixl_notifs_t got; // progress once so a reset connection is noticed
                    if (safeCall([&] { return agent_->getNotifs(got); }) == NIXL_SUCCESS) (void)takeNotifs(got);
                    st = safeCall([&] { return agent_->genNotif(c.peer, std::string()); });
                    ++totalPingsOut_;
                }
            }
            if (st == NIXL_SUCCESS && secs.find(c.blob) == secs.end()) {
                // [I5] A section NIXL refuses to load (a registration recycled at the same address,
                // a damaged one) makes it drop everything it held for the peer the section names,
                // alive as that peer is: its transfers then answer NOT_FOUND while their GETs run on.
                // So first note which transfers already ended (their outcome stands), and after a
                // refused load orphan those NIXL can no longer answer for, as Invalidate does.
                noteEndedTransfers(c.peer);
                std::string name;
                st = safeCall([&] { return agent_->loadRemoteMD(c.blob, name); });
                if (st == NIXL_SUCCESS && name != c.peer) st = NIXL_ERR_MISMATCH;
                if (st == NIXL_SUCCESS) secs.insert(c.blob);
                else {
                    orphanDroppedTransfers(c.peer);
                    secs.clear(); // void: the next read loads its section again
                    ++sectionsGen_;
                }
            }
        }
        nixlXferReqH *req = nullptr;
        XferNode entry; // made before the READ is posted: once it is, nothing may fail before it is tracked
        if (st == NIXL_SUCCESS) entry = makeXferNode(c.id, Xfer{nullptr, c.regionId, c.peer, c.localAddr, c.length, c.crc});
        if (st == NIXL_SUCCESS) {
            // One descriptor per item: the whole item is one READ, never row by row.
            nixl_xfer_dlist_t local(DRAM_SEG), remote(DRAM_SEG);
            local.addDesc(nixlBasicDesc(c.localAddr, c.length, 0));
            remote.addDesc(nixlBasicDesc(c.remoteAddr, c.length, 0));
            nixl_opt_args_t args;
            args.backends.push_back(backend_);
            if (c.notif) args.notif = *c.notif;
            st = safeCall(
                [&] { return agent_->createXferReq(NIXL_READ, local, remote, c.peer, req, &args); });
        }
        if (st == NIXL_SUCCESS) {
            // [I1][I5] A READ that may outlast the target's plain hold (see peerReadHold(length))
            // tells the target it is being read before it is posted: postXferReq may run the whole
            // READ, and no ping leaves this thread meanwhile. Only such reads: a ping puts the target
            // in its serving mode (spinning for busyWindowMs), and pinging before every read raised
            // 1 MiB reads from 1.13-1.18x to 1.72-1.88x the raw probe's latency on a 2-core VM.
            const auto now = Clock::now();
            if (peerReadHold(static_cast<size_t>(c.length)) > peerReadHold() &&
                (c.peer != prePostPingPeer_ || now - prePostPingAt_ >= std::chrono::milliseconds(20))) {
                (void)safeCall([&] { return agent_->genNotif(c.peer, std::string()); });
                ++totalPingsOut_;
                prePostPingPeer_ = c.peer;
                prePostPingAt_ = now;
            }
            st = safeCall([&] { return agent_->postXferReq(req); });
            // In flight, or posted and failed: progress() settles it (a failure after cancelGraceMs [I5]).
            if (st == NIXL_IN_PROG || st < 0) {
                entry.mapped().req = req;
                xfers_.insert(std::move(entry));
                pingSoon(c.id, c.peer); // tell the target at once that it is being read
                ++activeXfers_;
                break;
            }
        }
        if (req) (void)safeCall([&] { return agent_->releaseXferReq(req); });
        settle(c.id, st, false, false, landedCrc(st == NIXL_SUCCESS && c.crc, c.localAddr, c.length));
        break;
    }
    case CmdKind::Adopt: {
        Xfer &x = xfers_.insert(std::move(c.node)).position->second; // (made before the READ was posted)
        pingSoon(c.id, x.peer);
        // [I5] Posted inline while a command of the batch before this one dropped its peer's
        // metadata (a refused section load, an invalidation): that command's sweep ran before this
        // entry existed, and NIXL now answers NOT_FOUND for it while its GET may still run. Orphaned
        // as the sweep would have (held, never reported before close()), not failed and released.
        std::lock_guard<std::mutex> lk(nixlMu_);
        if (safeCall([&] { return agent_->getXferStatus(x.req); }) == NIXL_ERR_NOT_FOUND) orphan(c.id, x);
        break;
    }
    case CmdKind::Cancel: {
        // NIXL cannot abort a READ: releasing one in flight only asks UCX to cancel it, and a
        // GET its peer serves late still lands (seen over TCP with the peer stopped, then
        // resumed: every byte arrived after the release). So a cancelled READ runs until NIXL
        // reports it ended, and only then is it released and settled [I5]; after
        // `cancelGraceMs` it is progressed every servePollUs rather than continuously.
        auto it = xfers_.find(c.id);
        if (it == xfers_.end()) break; // settled already: its result stands
        if (!it->second.cancelRequested && it->second.failedStatus == 0) { // a failed one already has its grace
            it->second.cancelRequested = true;
            it->second.graceEnd = Clock::now() + std::chrono::milliseconds(cancelGraceMs_);
        }
        break;
    }
    case CmdKind::Send: {
        int st;
        {
            std::lock_guard<std::mutex> lk(nixlMu_);
            st = safeCall([&] { return agent_->genNotif(c.peer, c.blob); });
        }
        lastSendAt_ = Clock::now();
        ++totalNotifsOut_;
        if (st != NIXL_SUCCESS) {
            std::lock_guard<std::mutex> lk(outMu_);
            sendFailures_.push_back(SendFailure{c.peer, st, c.id});
        }
        break;
    }
    case CmdKind::Deregister: {
        // Transfers into this region end first (as for a cancel), settling as
        // `deregistered`; NIXL deregisters the memory only when none is left.
        for (auto &x : xfers_) {
            if (x.second.regionId != c.id) continue;
            x.second.deregistered = true;
            if (!x.second.cancelRequested && x.second.failedStatus == 0) {
                x.second.cancelRequested = true;
                x.second.graceEnd = Clock::now() + std::chrono::milliseconds(cancelGraceMs_);
            }
        }
        c.since = Clock::now();
        pendingDereg_.push_back(std::move(c));
        {
            // A peer's ping may wait unread in UCX (this thread was idle): take it first, or the
            // memory it says is being read would be freed at once.
            nixl_notifs_t got;
            std::lock_guard<std::mutex> lk(nixlMu_);
            if (safeCall([&] { return agent_->getNotifs(got); }) == NIXL_SUCCESS) (void)takeNotifs(got);
        }
        tryFinishDeregistrations();
        break;
    }
    case CmdKind::Stop: break; // handled by the loop
    }
}

void
Agent::enterLong() {
    for (;;) {
        engineLong_.store(true, std::memory_order_seq_cst);
        if (jsWaiting_.load(std::memory_order_seq_cst) == 0) return;
        engineLong_.store(false, std::memory_order_seq_cst); // the JS thread wants the lock first
        sched_yield();
    }
}

void
Agent::tryFinishDeregistrations() {
    const auto now = Clock::now();
    deregRetryAt_ = Clock::time_point::max();
    for (auto it = pendingDereg_.begin(); it != pendingDereg_.end();) {
        bool busy = false;
        for (auto &x : xfers_)
            if (x.second.regionId == it->id) busy = true;
        if (busy) {
            ++it;
            continue;
        }
        // [I1][I5] A peer may be reading this memory (its progress pings say so): NIXL cannot stop
        // its GET, and memory freed under it crashed this process (UCX over TCP serves the GET from
        // it) or handed the reader bytes of memory reused since. So the memory (and its registration)
        // is kept until no peer has pinged for peerReadHold(length), but at most 9 x peerReadHold()
        // plus peerReadHold(length) after the deregistration (ten plain holds for a region read
        // within one; a peer reading without pause must not keep every region ever freed). A
        // heuristic: a GET that outlives the cap, or a reader that never pings, is not covered.
        const auto hold = peerReadHold(static_cast<size_t>(it->regionLen));
        const auto freeAt = std::min(lastPingInAt_ + hold, it->since + 9 * peerReadHold() + hold);
        if (now < freeAt) {
            deregRetryAt_ = std::min(deregRetryAt_, freeAt);
            ++it;
            continue;
        }
        bool dropped;
        {
            std::lock_guard<std::mutex> lk(nixlMu_);
            dropped = dropRegistrationLocked(RangeKey{it->regionAddr, it->regionLen});
        }
        if (!dropped) {
            // Still registered, so peers may still read it: keep JS's reference to the memory
            // (it stays pending and is retried when a transfer frees, and released at close).
            ++deregFailures_;
            ++it;
            continue;
        }
        {
            std::lock_guard<std::mutex> lk(outMu_);
            deregistered_.push_back(it->id);
        }
        it = pendingDereg_.erase(it);
    }
}

// How long memory a peer may be reading is kept after its last progress ping (see tryFinishDeregistrations).
std::chrono::milliseconds
Agent::peerReadHold() const {
    return std::chrono::milliseconds(std::max(busyWindowMs_, cancelGraceMs_));
}

// The same for memory of `length` bytes: a reader sends no ping while one NIXL call of its runs,
// and NIXL 1.4's UCX backend progresses its worker until it is idle inside every call
// (postXferReq, getXferStatus, getNotifs), so a READ served over TCP can run from start to end
// inside one call (256 MiB over TCP on loopback: postXferReq returned after 2.1-3.0 s on the
// 2-core VM, with no ping in between). So the hold covers a read of the whole region at
// kMinPeerReadBytesPerMs after the ping its reader sends before posting it (see PostRead).
std::chrono::milliseconds
Agent::peerReadHold(size_t length) const {
    constexpr size_t kMinPeerReadBytesPerMs = 32 * 1024; // 32 KiB/ms (31.25 MiB/s): 256 MiB are held 8.2 s
    return std::max(peerReadHold(), std::chrono::milliseconds(length / kMinPeerReadBytesPerMs));
}

// Engine thread: hand the notifications NIXL returned to JS (counted in notifsIn); an empty one
// is a progress ping (see pingPeers): it marks us as being read, and is never delivered.
// Whether any was queued for JS.
bool
Agent::takeNotifs(nixl_notifs_t &got) {
    if (got.empty()) return false;
    bool queued = false;
    std::lock_guard<std::mutex> lk(outMu_);
    for (auto &kv : got)
        for (auto &m : kv.second) {
            if (m.empty()) {
                pinged_ = true;
                lastPingInAt_ = Clock::now();
                continue;
            }
            notifs_.push_back(Notif{kv.first, std::move(m)});
            ++totalNotifsIn_;
            queued = true;
        }
    return queued;
}

bool
Agent::progress() {
    bool did = false;
    nixl_notifs_t got;
    int st;
    {
        std::lock_guard<std::mutex> lk(nixlMu_);
        st = safeCall([&] { return agent_->getNotifs(got); });
    }
    if (st == NIXL_SUCCESS && takeNotifs(got)) did = true;
    bool freed = false;
    for (auto it = xfers_.begin(); it != xfers_.end();) {
        Xfer &x = it->second;
        if (x.orphaned) {
            ++it;
            continue;
        }
        int xs = NIXL_SUCCESS;
        if (!x.succeeded && x.failedStatus == 0) {
            // (Not asked again once failed: NIXL 1.4.0 answers from the request's stored status
            // then. What lets a failed transfer's UCX requests still in flight finish during its
            // grace period is the getNotifs above, which progresses UCX's worker.)
            std::lock_guard<std::mutex> lk(nixlMu_);
            xs = safeCall([&] { return agent_->getXferStatus(x.req); });
        }
        if (xs < 0 && x.failedStatus == 0) {
            // [I5] NIXL's UCX backend reports a transfer failed as soon as its last UCX request
            // fails (or its peer is seen disconnected) while others may still be in flight, and
            // releasing it only asks UCX to cancel those, which may still write. So a failed
            // transfer, like a cancelled one, keeps its destination for cancelGraceMs before it
            // is released and settled with the error.
            x.failedStatus = xs;
            x.graceEnd = Clock::now() + std::chrono::milliseconds(cancelGraceMs_); // a full grace from the failure
        }
        if (x.failedStatus != 0) {
            if (Clock::now() < x.graceEnd) {
                ++it;
                continue;
            }
            xs = x.failedStatus;
        }
        else if (xs == NIXL_IN_PROG) {
            // [I5] In flight, cancelled or not: released only once NIXL reports it ended (see Cancel).
            ++it;
            continue;
        }
        int rs;
        {
            std::lock_guard<std::mutex> lk(nixlMu_);
            rs = safeCall([&] { return agent_->releaseXferReq(x.req); });
        }
        if (rs != NIXL_SUCCESS) {
            // nixl.h: an active transfer that "cannot be aborted" is not released, and it may still
            // write its destination: reporting it now could let its bytes land in memory given
            // back [I5]. NIXL 1.4.0 gives no second chance (it marks the request failed, and its
            // next release deletes it whatever the backend says), so it is orphaned: never
            // released or reported before close(), its destination registered until then.
            ++releasesRefused_;
            orphan(it->first, x);
            did = true; // signalled: JS learns of the orphan, and it stops keeping Node alive
            ++it;
            continue;
        }
        // Out of the table before it is reported: the handle is released, and a settle that throws
        // (out of memory) must not leave an entry whose freed handle a later round would use.
        const uint32_t id = it->first;
        const bool deregistered = x.deregistered;
        const std::optional<uint32_t> crc =
            landedCrc(xs == NIXL_SUCCESS && x.crc && !x.deregistered, x.localAddr, x.length);
        it = xfers_.erase(it);
        --activeXfers_;
        did = freed = true;
        settle(id, xs, deregistered, false, crc);
    }
    if (freed && !pendingDereg_.empty()) {
        enterLong();
        tryFinishDeregistrations();
        leaveLong();
    }
    return did;
}

// How long close() keeps the worker progressing after a recent send (see shutdownEngine).
constexpr auto kCloseLinger = std::chrono::milliseconds(200);

void
Agent::shutdownEngine() {
    std::lock_guard<std::mutex> lk(nixlMu_);
    // A message handed to NIXL may still wait in UCX (an endpoint's first use wires it up first):
    // destroying the worker now drops it silently, and NIXL gives no handle to wait on. So progress
    // for a while first when one was sent lately: with kCloseLinger no message was lost in 20 runs
    // of send-before-close.nixl.test.ts on 2 CPUs kept busy by three spinning loops (20 ms lost
    // one or two of ten in 6 of 20 runs).
    if (Clock::now() - lastSendAt_ < std::chrono::seconds(1)) {
        const auto until = Clock::now() + kCloseLinger;
        while (Clock::now() < until) {
            nixl_notifs_t got;
            (void)safeCall([&] { return agent_->getNotifs(got); });
            sched_yield();
        }
    }
    // [I5] Reads settled and regions given back here are published only once the agent (and its
    // UCX worker) is destroyed: releasing a transfer does not stop its GET, and a poll() between
    // the two would hand JS back buffers a GET may still write.
    std::vector<uint32_t> closedReads;
    std::vector<uint32_t> freedRegions;
    closedReads.reserve(xfers_.size());
    freedRegions.reserve(pendingDereg_.size());
    for (auto &x : xfers_) {
        (void)safeCall([&] { return agent_->releaseXferReq(x.second.req); });
        closedReads.push_back(x.first);
        --activeXfers_;
    }
    xfers_.clear();
    orphanedXfers_ = 0; // released with the rest: the agent (and its UCX worker) goes next
    for (auto &d : pendingDereg_) {
        (void)dropRegistrationLocked(RangeKey{d.regionAddr, d.regionLen});
        freedRegions.push_back(d.id);
    }
    pendingDereg_.clear();
    for (auto &p : loadedSections_) {
        (void)safeCall([&] { return agent_->invalidateRemoteMD(p.first); });
    }
    loadedPeers_ -= static_cast<int64_t>(loadedSections_.size());
    loadedSections_.clear();
    ++sectionsGen_;
    // Remaining registrations (regions never deregistered) are released with the agent.
    try {
        agent_.reset(); // the agent's destructor releases the remaining registrations
    }
    catch (...) {
    }
    nixlRegistrations_ = 0;
    registrations_.clear();
    std::lock_guard<std::mutex> olk(outMu_);
    for (uint32_t id : closedReads) settled_.push_back(Settled{id, NIXL_ERR_CANCELED, false, true, false, 0});
    countSettled(closedReads.size());
    deregistered_.insert(deregistered_.end(), freedRegions.begin(), freedRegions.end());
}

// While READs from a peer are in flight, that peer's worker must keep progressing (over
// TCP, UCX serves a GET in the target's progress). The target cannot see one-sided reads,
// so the reader sends it an empty notification every 20 ms (called after every command and every
// round of engineMain, it returns at once when no ping is due): each one counts as activity there
// and keeps its engine in busy polling. Empty notifications are reserved for this and never reach
// JS (an encoded ECTP envelope is never empty).
void
Agent::pingPeers() {
    auto now = Clock::now();
    if (now < nextPing_) return;
    nextPing_ = now + std::chrono::milliseconds(20);
    std::unordered_set<std::string> peers;
    for (auto &x : xfers_)
        if (x.second.failedStatus == 0 && !x.second.orphaned) peers.insert(x.second.peer); // a failed one is only waited out
    if (peers.empty()) return;
    std::lock_guard<std::mutex> lk(nixlMu_);
    for (auto &p : peers) {
        (void)safeCall([&] { return agent_->genNotif(p, std::string()); });
        ++totalPingsOut_;
    }
}

// Transfer `id` to `peer` just went in flight: the next pingPeers() pings at once, not up to 20 ms
// later, when no other transfer to that peer was in flight (the target may be idle). Only then:
// pingPeers() runs after every command, so moving the ping forward for every READ would ping once
// per READ in a stream of them, not every 20 ms.
void
Agent::pingSoon(uint32_t id, const std::string &peer) {
    for (const auto &x : xfers_)
        if (x.first != id && x.second.peer == peer && x.second.failedStatus == 0 && !x.second.orphaned) return;
    nextPing_ = Clock::now();
}

// pingPeers() from the engine loop, which nothing may escape: a throw (out of memory) is dropped,
// and the next call pings again.
void
Agent::pingDue() noexcept {
    try {
        pingPeers();
    }
    catch (...) {
    }
}

// True when drain() or the activity callback has something to hand to JS.
bool
Agent::hasOutput() {
    std::lock_guard<std::mutex> lk(outMu_);
    return !notifs_.empty() || !settled_.empty() || !sendFailures_.empty() || !replies_.empty() ||
           !deregistered_.empty() || newOrphans_ > 0;
}

// True when a transfer may still complete soon: one NIXL has not reported failed, and not a
// cancelled one past its grace period (that one is only progressed every servePollUs).
bool
Agent::anyLiveXfer() const {
    const auto now = Clock::now();
    for (const auto &x : xfers_)
        if (x.second.failedStatus == 0 && !x.second.orphaned && !(x.second.cancelRequested && now >= x.second.graceEnd))
            return true;
    return false;
}

// True when a transfer waits for something other than close(): a failed one waiting out its
// grace, or a cancelled one past its grace still in flight (not an orphaned one).
bool
Agent::anyWaitingXfer() const {
    for (const auto &x : xfers_)
        if (!x.second.orphaned) return true;
    return false;
}

void
Agent::engineMain() {
    unsigned idleUs = 10;
    for (;;) {
        engineRounds_.fetch_add(1, std::memory_order_relaxed);
        if (jsWaiting_.load(std::memory_order_acquire) > 0) {
            sched_yield(); // the JS thread wants nixlMu_ for an inline read: let it have it
            continue;
        }
        std::list<Command> cmds;
        {
            std::lock_guard<std::mutex> lk(qMu_);
            cmds.swap(queue_);
            queued_.store(false, std::memory_order_release);
        }
        bool did = false;
        for (auto &c : cmds) {
            if (c.kind == CmdKind::Stop) {
                // Drop any later commands: the agent is going away. Nothing may escape this thread
                // (it would terminate the process). Out of memory in shutdownEngine loses the last
                // reports, but the agent (its UCX worker and GETs) still goes before JS lets go of
                // the buffers: engineDone_ releases them.
                try {
                    shutdownEngine();
                }
                catch (...) {
                    std::lock_guard<std::mutex> lk(nixlMu_);
                    agent_.reset();
                }
                engineDone_.store(true);
                bumpActivity(); // what shutdownEngine settled is drained by the next poll
                if (c.token) {
                    // Always deliver the final signal, even if one is pending.
                    signalPending_.store(true);
                    (void)tsfn_.BlockingCall();
                }
                return;
            }
            enterLong();
            try {
                execute(c);
            }
            catch (...) {
                failCommand(c); // nothing may escape this thread: it would terminate the process
            }
            leaveLong();
            did = true;
            pingDue(); // a batch may be long (a whole copy per READ over CMA, thousands of sends)
            // What a command queued for JS goes to it now, not after the rest of the batch: a
            // READ settled inside postXferReq (over CMA the whole copy runs there) lets JS start
            // the next read while this thread copies, instead of the pipeline draining once per
            // batch (1 MiB reads at depth 4 ran ~5 % below the raw probe so). Signals coalesce.
            if (&c != &cmds.back() && hasOutput()) signal();
        }
        try {
            if (progress()) did = true;
        }
        catch (...) {
            did = true; // (out of memory) nothing may escape this thread; the next round retries
        }
        // Every round, busy or not: with a command or a completion in every round the branches
        // below, which pinged before, never ran, so a stream of sends or reads starved the pings
        // (and a target freed memory being read: its deregistration hold counts from the last ping).
        pingDue();
        auto now = Clock::now();
        if (pinged_) {
            pinged_ = false;
            servingUntil_ = now + std::chrono::milliseconds(busyWindowMs_);
            idleUs = 10;
        }
        if (now >= deregRetryAt_) { // deregistrations put off for peers' reads
            enterLong();
            try {
                tryFinishDeregistrations();
            }
            catch (...) { // (out of memory) nothing may escape this thread: tried again a hold later
                deregRetryAt_ = now + peerReadHold();
            }
            leaveLong();
            if (hasOutput()) signal();
        }
        if (did) {
            busyUntil_ = now + std::chrono::milliseconds(busyWindowMs_);
            spinUntil_ = now + std::chrono::microseconds(busySpinUs_);
            idleUs = 10;
            // Only when JS has something to take: a command such as a READ's post queues
            // nothing, and signalling it woke the event loop (or ended a spinning wait) once
            // more per engine-posted read for an empty drain().
            if (hasOutput()) signal();
            continue;
        }
        if (anyLiveXfer()) {
            // Reads in flight: progress them continuously, as the raw probe does. Over CMA,
            // UCX copies one 512 KiB segment per progress call, so any pause between polls
            // adds straight to the copy time; a sched_yield here handed the core to another
            // thread once per segment whenever the machine was busy (10-25 % below the raw
            // probe under load). The JS thread still gets nixlMu_ through jsWaiting_.
            cpuRelax();
            continue;
        }
        const bool waiting = anyWaitingXfer(); // (a cancelled GET over TCP still needs its target to progress: pinged above)
        std::unique_lock<std::mutex> lk(qMu_);
        if (!queue_.empty()) continue;
        if (waiting) {
            // Only reads that failed, waiting out cancelGraceMs, or cancelled ones past it, waiting
            // for NIXL to end them [I5]: progress lets UCX finish what it still has in flight.
            // Every servePollUs at first, backing off to idlePollMaxUs (spinning here held a core
            // for the whole grace; a read its peer never ends would cost a wake-up per 50 us).
            qCv_.wait_for(lk, std::chrono::microseconds(std::max(idleUs, servePollUs_)));
            idleUs = std::min(std::max(idleUs, servePollUs_) * 2, std::max(idlePollMaxUs_, servePollUs_));
        }
        else if (now < spinUntil_ || (now < busyUntil_ && busyPollUs_ == 0)) {
            // Right after activity (a stream of reads hands the engine its next command
            // within tens of us): poll again at once, yielding the core to others.
            lk.unlock();
            sched_yield();
        }
        else if (now < busyUntil_) {
            // Nothing in flight for busySpinUs: stop spinning. A spinning engine competes
            // with the JS thread's inline reads for nixlMu_, UCX's worker and (on small
            // machines) the cores; a command still wakes it at once through qCv_, and
            // incoming messages are noticed within busyPollUs.
            qCv_.wait_for(lk, std::chrono::microseconds(busyPollUs_));
        }
        else if (now < servingUntil_) {
            // Only being read (pings, no messages): progress every servePollUs, as the raw
            // probe's target does; spinning here would take a core from the reader's copy.
            qCv_.wait_for(lk, std::chrono::microseconds(servePollUs_));
        }
        else {
            qCv_.wait_for(lk, std::chrono::microseconds(idleUs));
            idleUs = std::min(idleUs * 2, idlePollMaxUs_);
        }
    }
}

// Fast path for small reads, on the JS thread: when no command is queued (so ordering is
// kept), the engine is not inside a NIXL call (the lock is free within a brief try: this never
// waits for the engine's call, which may run a whole READ) and the peer's section is already
// loaded, create and post the READ here. Small reads over shared memory complete inside
// postXferReq, saving two thread hand-offs; a request still in progress is handed to the
// engine (Adopt). Reads above kInlineMax always go to the engine, so the JS thread never
// performs a long copy.
int
Agent::tryInlineRead(uint32_t id, const std::string &peer, uint32_t regionId, uintptr_t localAddr,
                     uintptr_t remoteAddr, size_t length, std::string_view section, bool crc) {
    constexpr size_t kInlineMax = 64 * 1024;
    if (length > kInlineMax) return kNotInline;
    if (queued_.load(std::memory_order_acquire)) return kNotInline; // a queued command goes first
    std::unique_lock<std::mutex> lk(nixlMu_, std::defer_lock);
    if (!lk.try_lock()) {
        // Keeps the engine off the lock (it checks before each loop and each command).
        jsWaiting_.fetch_add(1, std::memory_order_seq_cst);
        if (!engineLong_.load(std::memory_order_seq_cst)) {
            // The engine is in a call outside any command (getNotifs, getXferStatus,
            // releaseXferReq, a ping), usually ~1 us: spin briefly (sleeping on the mutex would
            // add a wake-up), but never wait longer. NIXL 1.4's UCX backend progresses its worker
            // until idle inside each call, so over TCP one getXferStatus can run a whole large READ
            // (a 4 KiB startRead waited 0.86-1.05 s behind a 256 MiB one when this took the lock).
            const auto until = Clock::now() + std::chrono::microseconds(20);
            while (!lk.try_lock() && Clock::now() <= until) {
            }
        }
        else {
            for (int i = 0; i < 64 && !lk.try_lock(); ++i)
                sched_yield(); // a command may take long (a whole copy): try briefly, then hand over
        }
        jsWaiting_.fetch_sub(1, std::memory_order_seq_cst);
        if (!lk.owns_lock()) return kNotInline;
    }
    if (inlineGen_ != sectionsGen_ || peer != inlinePeer_ || section != inlineSection_) {
        auto it = loadedSections_.find(peer);
        if (it == loadedSections_.end() || (!section.empty() && it->second.find(section) == it->second.end()))
            return kNotInline;
        inlineGen_ = sectionsGen_;
        inlinePeer_ = peer;
        inlineSection_.assign(section.data(), section.size());
    }
    // The Adopt command for a READ still in progress is made now, before anything is posted:
    // a posted READ must reach the engine, so nothing after postXferReq may allocate.
    // (Kept for the next read when this one settles inline: the peer name's capacity is reused.)
    if (spareAdopt_.empty()) spareAdopt_.emplace_back();
    Command &a = spareAdopt_.front();
    a.kind = CmdKind::Adopt;
    a.id = id;
    if (a.node.empty()) a.node = makeXferNode(id, Xfer{nullptr, regionId, peer, localAddr, length, crc});
    else {
        a.node.key() = id;
        Xfer &x = a.node.mapped();
        x.peer.assign(peer);
        x.req = nullptr;
        x.regionId = regionId;
        x.localAddr = localAddr;
        x.length = length;
        x.crc = crc;
    }
    inlineLocal_.clear();
    inlineLocal_.addDesc(nixlBasicDesc(localAddr, length, 0));
    inlineRemote_.clear();
    inlineRemote_.addDesc(nixlBasicDesc(remoteAddr, length, 0));
    nixlXferReqH *req = nullptr;
    int st = safeCall(
        [&] { return agent_->createXferReq(NIXL_READ, inlineLocal_, inlineRemote_, peer, req, &readArgs_); });
    ++totalReads_;
    const bool posted = st == NIXL_SUCCESS;
    if (posted) st = safeCall([&] { return agent_->postXferReq(req); });
    // A small READ usually completes within a few status polls: wait up to kInlineSpin
    // here rather than paying two thread hand-offs; otherwise the engine adopts it. (The
    // clock is read every 8th poll: a poll is a fraction of a microsecond.)
    if (st == NIXL_IN_PROG) {
        constexpr auto kInlineSpin = std::chrono::microseconds(50);
        const auto until = Clock::now() + kInlineSpin;
        for (unsigned i = 1; st == NIXL_IN_PROG; ++i) {
            st = safeCall([&] { return agent_->getXferStatus(req); });
            if ((i & 7) == 0 && Clock::now() >= until) break;
        }
    }
    // A posted read that failed is adopted too: the engine holds it for cancelGraceMs [I5].
    if (st == NIXL_IN_PROG || (posted && st < 0)) {
        ++activeXfers_;
        lk.unlock();
        a.node.mapped().req = req;
        enqueueNode(spareAdopt_);
        return NIXL_IN_PROG;
    }
    if (req) (void)safeCall([&] { return agent_->releaseXferReq(req); });
    if (st == NIXL_SUCCESS && crc) activitySeq_[1] = crc32c(reinterpret_cast<const void *>(localAddr), length);
    return st; // settled here: the caller reports it, drain() never sees it
}

// Main thread: resolve promises, drop references NIXL no longer uses, wake JS.
void
Agent::CallJs(Napi::Env env, Napi::Function cb, Agent *self, void *) {
    if (env == nullptr || self == nullptr) return;
    // Nothing may escape into node's TSFN machinery: a C++ throw here would terminate.
    try {
        self->onSignal(env);
        if (!cb.IsEmpty() && !self->tsfnReleased_) cb.Call({});
    }
    catch (...) {
        // A JS exception thrown by the activity callback is caught here and dropped (node-addon-api
        // clears it into the C++ exception): the callback (NixlTransport's) must not throw.
    }
}

// Main thread: drop the JS references of regions NIXL has let go of.
void
Agent::collectDeregistered() {
    std::vector<uint32_t> dereg;
    {
        std::lock_guard<std::mutex> lk(outMu_);
        dereg.swap(deregistered_);
    }
    for (uint32_t id : dereg)
        refs_.erase(id);
}

void
Agent::onSignal(Napi::Env env) {
    signalPending_.store(false);
    std::vector<Reply> replies;
    int64_t orphans;
    {
        std::lock_guard<std::mutex> lk(outMu_);
        replies.swap(replies_);
        orphans = newOrphans_;
        newOrphans_ = 0;
    }
    // Each was a posted read counted by hold(+1) that drain() will not report before close().
    if (orphans > 0) hold(env, -static_cast<int>(orphans));
    collectDeregistered();
    for (auto &r : replies) {
        auto it = promises_.find(r.token);
        if (it == promises_.end()) continue;
        Napi::Promise::Deferred d = it->second;
        promises_.erase(it);
        hold(env, -1);
        if (r.status == NIXL_SUCCESS)
            d.Resolve(Napi::String::New(env, r.value));
        else
            d.Reject(makeError(env, statusName(r.status), r.status,
                               std::string("loadRemoteMD failed: ") + statusName(r.status))
                         .Value());
    }
    if (closing_ && engineDone_.load()) {
        // Counted out where the thread is joined: a stopEngine() while close() was in flight joined
        // it (and counted it out) already, and counting again here made liveAgents go negative.
        if (engine_.joinable()) {
            engine_.join();
            --gLiveAgents;
        }
        closed_ = true;
        closing_ = false;
        refs_.clear(); // the agent is gone: nothing references the memory any more
        regions_.clear();
        liveRanges_.clear();
        // Reject whatever was still waiting (e.g. a loadRemote queued behind close()).
        for (auto &p : promises_)
            p.second.Reject(
                makeError(env, "ERR_CLOSED", NIXL_ERR_CANCELED, "the NIXL agent was closed").Value());
        promises_.clear();
        outstanding_ = 0;
        tsfnReleased_ = true;
        tsfn_.Release(); // from the main thread, after the engine's last call
        if (closeDeferred_) {
            closeDeferred_->Resolve(env.Undefined());
            closeDeferred_.reset();
        }
    }
}

} // namespace

Napi::Object
InitAll(Napi::Env env, Napi::Object exports) {
    exports.Set("Agent", Agent::Init(env));
    exports.Set("nixlVersionTested", Napi::String::New(env, "1.4.0"));
    Napi::Object codes = Napi::Object::New(env);
    for (int s = 1; s >= -12; --s)
        codes.Set(statusName(s), Napi::Number::New(env, s));
    exports.Set("statusCodes", codes);
    exports.Set("liveAgents", Napi::Function::New(env, [](const Napi::CallbackInfo &info) {
                    return Napi::Number::New(info.Env(), static_cast<double>(gLiveAgents.load()));
                }));
    // crc32c(bytes[, software]): the CRC-32C the engine reports for landed bytes; `software`
    // forces the portable path. For tests (both paths against @ectp/protocol's crc32c).
    exports.Set("crc32c", Napi::Function::New(env, [](const Napi::CallbackInfo &info) {
                    return guard(info, [&]() -> Napi::Value {
                        std::string_view b = bytesArg(info, 0, "bytes");
                        bool software = info.Length() > 1 && info[1].ToBoolean().Value();
                        return Napi::Number::New(info.Env(), crc32c(b.data(), b.size(), software));
                    });
                }));
    return exports;
}

NODE_API_MODULE(ectp_nixl, InitAll)
