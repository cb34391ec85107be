// Baseline (before the hot-path work): MemoryItemStore as it was at c629967, compiled by tsup,
// kept verbatim so bench/store.mjs can report before/after in one run. Not part of the package.
import { EctpError as EctpError3 } from "@ectp/protocol";
// The baseline validateDescriptor too, so "before" is the whole put path as it was.
import { validateDescriptor as validateDescriptor2 } from "../../protocol/bench/baseline.mjs";

var MemoryItemStore = class {
  /** Capacity in bytes, as configured. */
  capacityBytes;
  entries = /* @__PURE__ */ new Map();
  /** Ready, unpinned entries in the order they became evictable (Map keeps insertion order) [P6]. */
  evictable = /* @__PURE__ */ new Map();
  listeners = /* @__PURE__ */ new Set();
  locateFn;
  releaseFn;
  used = 0;
  evictableBytes = 0;
  pinCount = 0;
  /**
   * @param options - capacity and optional transport callbacks.
   * @throws EctpError(INVALID_CONFIG) when `capacityBytes` is not a positive safe integer.
   */
  constructor(options) {
    const cap = options?.capacityBytes;
    if (typeof cap !== "number" || !Number.isSafeInteger(cap) || cap < 1)
      throw new EctpError3(
        "INVALID_CONFIG",
        `capacityBytes must be a positive integer number of bytes; got ${String(cap)}. Pass e.g. { capacityBytes: 1 << 30 }`,
        { details: { capacityBytes: cap } }
      );
    this.capacityBytes = cap;
    this.locateFn = options.locate;
    this.releaseFn = options.release;
  }
  /**
   * Add a new, not yet ready item, evicting ready unpinned items (oldest evictable first)
   * when needed. Returns the new entry, or an error result:
   * `INVALID_ARGUMENT` for a malformed descriptor, bytes of the wrong length or a key
   * already present; `OVERLOADED` when the item cannot fit even after evicting every
   * evictable item (nothing is evicted then).
   *
   * @param descriptor - the item as it will be announced; `location` is replaced by what
   *   `options.locate` returns when that is set.
   * @param bytes - the item's bytes (length `sizeBytes`), if the caller already has them.
   */
  put(descriptor, bytes) {
    const valid = validateDescriptor2(descriptor, { maxItemBytes: Number.MAX_SAFE_INTEGER });
    if (!valid.ok)
      return fail("INVALID_ARGUMENT", `put: descriptor is not valid (${valid.error.message}); fix the descriptor`, {
        cause: valid.error
      });
    const { keyId, sizeBytes } = valid.value;
    if (this.entries.has(keyId))
      return fail("INVALID_ARGUMENT", `put: item ${keyId} is already stored; discard or wait for eviction first`, {
        details: { keyId }
      });
    if (bytes !== void 0 && (!(bytes instanceof Uint8Array) || bytes.length !== sizeBytes))
      return fail(
        "INVALID_ARGUMENT",
        `put: bytes must be a Uint8Array of exactly sizeBytes = ${sizeBytes}; got ${bytes instanceof Uint8Array ? bytes.length : typeof bytes}`,
        { details: { keyId, sizeBytes } }
      );
    const need = this.used + sizeBytes - this.capacityBytes;
    if (need > this.evictableBytes)
      return fail(
        "OVERLOADED",
        `put: ${sizeBytes} bytes do not fit (used ${this.used} of ${this.capacityBytes}, only ${this.evictableBytes} evictable); retry after grants are released`,
        { details: { keyId, sizeBytes, used: this.used, capacityBytes: this.capacityBytes } }
      );
    if (need > 0) this.evictFor(need);
    let held = bytes;
    let desc = descriptor;
    if (this.locateFn) {
      held ??= new Uint8Array(sizeBytes);
      desc = { ...descriptor, location: this.locateFn(keyId, held) };
    }
    const entry = { descriptor: desc, keyId, ready: false, pins: 0, sizeBytes, bytes: held };
    this.entries.set(keyId, entry);
    this.used += sizeBytes;
    return { ok: true, value: entry };
  }
  /**
   * Mark an item fully written [P1]: from now on it can be granted and (when unpinned)
   * evicted. Emits a `stored` change. Idempotent for an item already ready.
   * @throws EctpError(INVALID_ARGUMENT) when the item is absent.
   */
  markReady(keyId) {
    const e = this.mustGet(keyId, "markReady");
    if (e.ready) return;
    e.ready = true;
    this.addEvictable(e);
    this.emit({ kind: "stored", descriptor: e.descriptor });
  }
  /**
   * Drop an item that never became ready (a failed or abandoned write). Emits a
   * `removed(discarded)` change. Returns false when the item is absent.
   * @throws EctpError(INVALID_ARGUMENT) when the item is ready: ready items leave only by
   *   eviction [P6] or {@link MemoryItemStore.clear}.
   */
  discard(keyId) {
    const e = this.entries.get(keyId);
    if (!e) return false;
    if (e.ready)
      throw new EctpError3(
        "INVALID_ARGUMENT",
        `discard: item ${keyId} is ready; only not-ready items can be discarded (ready ones are evicted when room is needed)`,
        { details: { keyId } }
      );
    this.remove(e);
    this.emit({ kind: "removed", key: e.descriptor.key, cause: "discarded" });
    return true;
  }
  /**
   * Drop every item, pinned or not, and emit one `cleared` change. For a region reset;
   * the producer core releases every grant when it sees the change.
   */
  clear(cause) {
    const all = [...this.entries.values()];
    this.entries.clear();
    this.evictable.clear();
    this.used = 0;
    this.evictableBytes = 0;
    this.pinCount = 0;
    for (const e of all) {
      e.pins = 0;
      this.callRelease(e.keyId);
    }
    this.emit({ kind: "cleared", cause });
  }
  /** The bytes of an item, or `undefined` when absent or when the store holds no bytes for it. */
  bytes(keyId) {
    return this.entries.get(keyId)?.bytes;
  }
  /** Bytes held, ready or not, counted in `sizeBytes`. */
  usedBytes() {
    return this.used;
  }
  /** {@inheritDoc ItemStore.get} */
  get(keyId) {
    return this.entries.get(keyId);
  }
  /** {@inheritDoc ItemStore.pin} */
  pin(keyId) {
    const e = this.mustGet(keyId, "pin");
    if (!e.ready)
      throw new EctpError3("INVALID_ARGUMENT", `pin: item ${keyId} is not ready; only ready items can be granted [P1]`, {
        details: { keyId }
      });
    if (e.pins === 0) this.removeEvictable(e);
    e.pins++;
    this.pinCount++;
  }
  /** {@inheritDoc ItemStore.unpin} */
  unpin(keyId) {
    const e = this.entries.get(keyId);
    if (!e || e.pins === 0)
      throw new EctpError3("INVALID_ARGUMENT", `unpin: item ${keyId} has no pin; every unpin must match one pin [P2]`, {
        details: { keyId }
      });
    e.pins--;
    this.pinCount--;
    if (e.pins === 0) this.addEvictable(e);
  }
  /** {@inheritDoc ItemStore.readyItems} */
  *readyItems() {
    for (const e of this.entries.values()) if (e.ready) yield e;
  }
  /** {@inheritDoc ItemStore.totalPins} */
  totalPins() {
    return this.pinCount;
  }
  /** {@inheritDoc ItemStore.subscribe} */
  subscribe(listener) {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
  evictFor(need) {
    let freed = 0;
    for (const e of this.evictable.values()) {
      if (freed >= need) break;
      freed += e.sizeBytes;
      this.remove(e);
      this.emit({ kind: "removed", key: e.descriptor.key, cause: "evicted" });
    }
  }
  remove(e) {
    this.entries.delete(e.keyId);
    if (e.ready && e.pins === 0) this.removeEvictable(e);
    this.used -= e.sizeBytes;
    this.callRelease(e.keyId);
  }
  addEvictable(e) {
    this.evictable.set(e.keyId, e);
    this.evictableBytes += e.sizeBytes;
  }
  removeEvictable(e) {
    if (this.evictable.delete(e.keyId)) this.evictableBytes -= e.sizeBytes;
  }
  callRelease(keyId) {
    if (!this.releaseFn) return;
    try {
      this.releaseFn(keyId);
    } catch {
    }
  }
  mustGet(keyId, op) {
    const e = this.entries.get(keyId);
    if (!e)
      throw new EctpError3("INVALID_ARGUMENT", `${op}: item ${keyId} is not in the store; put it first`, {
        details: { keyId }
      });
    return e;
  }
  emit(change) {
    for (const l of this.listeners) {
      try {
        l(change);
      } catch {
      }
    }
  }
};
function fail(code, message, options) {
  return { ok: false, error: new EctpError3(code, message, options) };
}

export { MemoryItemStore };
