/**
 * The Node.js (V8) flags that `ectp simulate` runs with: the `ectp` executable's shebang
 * carries them, and the simulator's benchmark starts its measured runs with them.
 *
 * A simulation keeps a small, flat live heap (about 15 MB on the default workload, the same
 * after 6,000 and after 60,000 requests) while it allocates and drops request state at a
 * high rate. With V8's defaults the young generation grows to 2 x 16 MB and the old
 * generation may grow to four times its live size before a full collection, so peak RSS
 * keeps climbing long after the live set has stopped: 124 MB after 6,000 requests, 164 MB
 * after 60,000 (1.33x), with nothing retained per request. These flags bound both:
 *
 * - `--max-semi-space-size=8`: a young generation of at most 2 x 8 MB;
 * - `--heap-growing-percent=50`: the old generation grows by at most 50 % over the live
 *   size between full collections. V8's hard heap limit is unchanged, so a larger workload
 *   only collects more often; it never runs out of heap sooner.
 *
 * Measured on the default workload (2-core VM, three benchmark runs): peak RSS 100-101 MB
 * after 6,000 requests and 108-115 MB after 60,000 (1.08-1.14x); wall time within
 * run-to-run noise of V8's defaults.
 */
export const SIMULATION_NODE_FLAGS: readonly string[] = Object.freeze(["--max-semi-space-size=8", "--heap-growing-percent=50"]);
