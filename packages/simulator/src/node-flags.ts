/**
 * The Node.js (V8) flags that `ectp simulate` runs with: the `ectp` executable's shebang
 * carries them, and the simulator's benchmark starts its measured runs with them.
 *
 * Two flags bound memory. A simulation keeps a small, flat live heap (about 15 MB on the
 * default workload, the same after 6,000 and after 60,000 requests) while it allocates and
 * drops request state at a high rate. With V8's defaults the young generation grows to
 * 2 x 16 MB and the old generation may grow to four times its live size before a full
 * collection, so peak RSS keeps climbing long after the live set has stopped: 124 MB after
 * 6,000 requests, 164 MB after 60,000 (1.33x), with nothing retained per request. These
 * flags bound both:
 *
 * - `--max-semi-space-size=8`: a young generation of at most 2 x 8 MB;
 * - `--heap-growing-percent=50`: the old generation grows by at most 50 % over the live
 *   size between full collections. V8's hard heap limit is unchanged, so a larger workload
 *   only collects more often; it never runs out of heap sooner.
 *
 * Measured on the default workload (2-core VM, three benchmark runs): peak RSS 100-101 MB
 * after 6,000 requests and 108-115 MB after 60,000 (1.08-1.14x); wall time within
 * run-to-run noise of V8's defaults.
 *
 * One flag is about time, not memory. A default run lasts under a second, and most of its
 * code is optimized by TurboFan (on background threads) while it runs: about 290
 * compilations, whose jobs add up to 1.4-1.6 s of elapsed time in `--trace-opt` with V8's
 * default inlining budget, on a machine with two cores. Until its job is done a function runs
 * unoptimized: the same 6,000 requests take about 0.45 s in a process that has run them once
 * already, against 0.83-0.89 s from a cold start.
 *
 * - `--max-inlined-bytecode-size-cumulative=300`: TurboFan stops inlining into a function
 *   after about 300 bytes of bytecode (V8's default: 920; very small functions are still
 *   inlined past it). Each compilation is smaller (their jobs add up to about 0.85 s), so
 *   optimized code arrives sooner. Measured (six alternating cold runs each, 2-core VM):
 *   wall 736-804 ms against 832-889 ms without it; a 60,000-request run is no slower
 *   (4.8-5.2 s either way).
 */
export const SIMULATION_NODE_FLAGS: readonly string[] = Object.freeze([
  "--max-semi-space-size=8",
  "--heap-growing-percent=50",
  "--max-inlined-bytecode-size-cumulative=300",
]);
