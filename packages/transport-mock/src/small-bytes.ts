/**
 * A pool of small byte arrays carved from shared slabs: the fabric's copies of control messages.
 * Internal.
 * @module
 */

/** Size of the shared slabs small message copies are carved from. */
const SMALL_SLAB_BYTES = 16 * 1024;
/** Arrays larger than this get their own buffer. */
const SMALL_MAX = 1024;

/**
 * Small byte arrays carved from shared slabs, like Node's own buffer pool: independent
 * copies of control messages as plain `Uint8Array`s (also of a Node `Buffer`, whose
 * `slice` would share memory with the sender's and whose species constructor is slow to
 * call per message). A copy of a few hundred bytes would otherwise need its own separately
 * allocated backing store. An array never overlaps another one and a slab is never reused;
 * it is freed once no array carved from it is referenced, so only short-lived arrays belong
 * here (a kept one keeps its whole slab alive: location blobs, kept per stored item, are
 * allocated on their own). Internal.
 */
export class SmallBytes {
  private slab = new Uint8Array(0);
  private used = 0;

  /** A fresh zeroed array of `n` bytes. */
  readonly take = (n: number): Uint8Array => {
    if (n > SMALL_MAX) return new Uint8Array(n);
    if (this.used + n > this.slab.length) {
      this.slab = new Uint8Array(SMALL_SLAB_BYTES);
      this.used = 0;
    }
    const out = this.slab.subarray(this.used, this.used + n);
    this.used = (this.used + n + 7) & ~7;
    return out;
  };

  /** An independent copy of `bytes`. */
  copy(bytes: Uint8Array): Uint8Array {
    const out = this.take(bytes.length);
    out.set(bytes);
    return out;
  }
}
