/**
 * The reference {@link ItemStore}: a bounded in-memory region with FIFO eviction of
 * ready, unpinned items [P6].
 * @module
 */
import {
  EctpError,
  MAX_DESCRIPTOR_BYTES,
  type Validation,
  describeValue,
  ectp,
  itemDescriptorByteLength,
  refuseUnknownOptions,
  shortText,
  thrownText,
  validateDescriptor,
} from "@ectp/protocol";
import type { ItemStore, StoreChange, StoreEntry } from "./types.js";
import { readOptions } from "../config.js";

const { ChecksumAlgorithm } = ectp.v1;

/**
 * Why a producer may not publish `descriptor` for its encoded size, or undefined when it may:
 * SPEC.md section 5 bounds a descriptor to MAX_DESCRIPTOR_BYTES so that every message carrying
 * it fits a frame. Used by {@link MemoryItemStore.put} and by the producer for other stores.
 */
export function descriptorSizeProblem(descriptor: ectp.v1.IItemDescriptor): string | undefined {
  let bytes: number;
  try {
    bytes = itemDescriptorByteLength(descriptor);
  } catch (cause) {
    return `the descriptor cannot be encoded (${thrownText(cause)})`;
  }
  return bytes > MAX_DESCRIPTOR_BYTES ? `the descriptor encodes to ${bytes} bytes, over the ${MAX_DESCRIPTOR_BYTES} a producer may publish` : undefined;
}

/**
 * A key id as a message names it: as given when it is a string (as it should be), cut after 100
 * characters (a wrong id can be any length, and its error goes to logs; the error's
 * `details.keyId` keeps it whole), else what it is.
 */
function keyText(keyId: unknown): string {
  return typeof keyId === "string" ? shortText(keyId, 100) : describeValue(keyId);
}

/** Whether `a` holds exactly the bytes of `b`. */
function sameBytes(a: unknown, b: Uint8Array): boolean {
  return a instanceof Uint8Array && a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * Whether `checksum`, a descriptor's, is one: present with an algorithm other than UNSPECIFIED. [C2]
 * A checksum of algorithm UNSPECIFIED (an absent algorithm reads as it) is no checksum; an empty
 * checksum message (`ectp.v1.Checksum.create()`, JSON's `{}`) is one of those.
 */
function carriesChecksum(checksum: ectp.v1.IChecksum | null | undefined): checksum is ectp.v1.IChecksum {
  return checksum != null && (checksum.algorithm ?? ChecksumAlgorithm.CHECKSUM_ALGORITHM_UNSPECIFIED) !== ChecksumAlgorithm.CHECKSUM_ALGORITHM_UNSPECIFIED;
}

/**
 * What is wrong with `checksum` given to markReady for entry `e`, or undefined when it may be added.
 * [C11] Only a checksum a consumer can verify is taken: the algorithm and length checks are those of
 * `validateDescriptor`, made here so the engine's mistake is refused at its call, in its words,
 * instead of every consumer failing the item INVALID_ANNOUNCEMENT.
 */
function checksumProblem(checksum: ectp.v1.IChecksum, e: StoreEntry): string | undefined {
  if (checksum === null || typeof checksum !== "object") return `the checksum must be an object { algorithm, value }; got ${describeValue(checksum)}`;
  const { algorithm, value } = checksum;
  // [C11] CRC-32C is the one algorithm a consumer verifies.
  if (algorithm !== ChecksumAlgorithm.CHECKSUM_ALGORITHM_CRC32C)
    return `the checksum's algorithm must be CHECKSUM_ALGORITHM_CRC32C (${ChecksumAlgorithm.CHECKSUM_ALGORITHM_CRC32C}); got ${describeValue(algorithm)}`;
  // [C11] A CRC-32C value is exactly 4 bytes.
  if (!(value instanceof Uint8Array) || value.length !== 4)
    return `the checksum's value must be the 4 bytes of a CRC-32C (crc32cBytes(bytes)); got ${value instanceof Uint8Array ? `${value.length} bytes` : describeValue(value)}`;
  const own = e.descriptor.checksum;
  // [C11] One checksum per item: consumers that read it before and after must verify the same bytes.
  // [C2] One of algorithm UNSPECIFIED is none: the CRC-32C replaces it.
  if (carriesChecksum(own)) return sameBytes(own.value, value) ? undefined : "its descriptor already carries another checksum";
  if (e.ready) return "it is already ready (and may be granted or published): a checksum comes with markReady, before that";
  return undefined;
}

/** The keys a {@link MemoryItemStoreOptions} may have (any other is refused, a misspelt `release` above all). */
const STORE_OPTIONS = ["capacityBytes", "locate", "release"] as const satisfies readonly (keyof MemoryItemStoreOptions)[];

/** What a {@link MemoryItemStore} is built with: its capacity in bytes (required), and the callbacks that register each item's memory with a transport and deregister it. */
export interface MemoryItemStoreOptions {
  /**
   * Capacity of the region in bytes, counted in `descriptor.sizeBytes` of every item held
   * (ready or not). Required: a positive safe integer.
   */
  capacityBytes: number;
  /**
   * Called by {@link MemoryItemStore.put} with the item's bytes, so a transport can register
   * them (e.g. `transport.describe(transport.registerMemory(bytes), 0, bytes.length)`); the
   * returned bytes become the descriptor's `location`. When set and `put` gets no bytes, the
   * store allocates zeroed bytes of `sizeBytes` for the engine to write into. It runs inside that
   * `put`, before the item is stored; it may act on the store, but must not put the key it is
   * called for (see {@link MemoryItemStoreOptions.release}).
   * Default: none (the descriptor's own `location` is kept).
   */
  locate?(keyId: string, bytes: Uint8Array): Uint8Array;
  /**
   * Called once when an item leaves the store (evicted, discarded or cleared), so the
   * transport can deregister what {@link MemoryItemStoreOptions.locate} registered (keep the
   * regions `locate` registers, e.g. in a Map by key id; without this, an evicted item's memory
   * stays registered and readable). It runs once the store is whole again, the removal queued
   * for announcement: a callback may act on the store (a put, a pin), counted against the
   * capacity like any change, and announced after the removal. A key whose own release is still
   * to run (later in the same eviction or clear) cannot be put again until then. Also called when
   * a `put` fails after `locate` ran, to undo that registration (nothing was stored), except on
   * one path, a misuse: when `locate` itself put the same key, the outer `put` fails
   * (INVALID_ARGUMENT, "was stored by options.locate itself") without calling `release`, which
   * would deregister the item the inner `put` stored under that key id; what the outer `locate`
   * registered stays registered, for the engine to undo. Default: none.
   */
  release?(keyId: string): void;
}

/** Symbol-keyed list fields: invisible to `Object.keys` and `JSON.stringify`, so entries stay plain data. */
const EVICTABLE: unique symbol = Symbol("evictable");
const PREV: unique symbol = Symbol("prev");
const NEXT: unique symbol = Symbol("next");
const HELD: unique symbol = Symbol("held");
const STORE: unique symbol = Symbol("store");

/**
 * Internal mutable entry; handed out through the read-only {@link StoreEntry} view.
 * A class so every entry has one fixed shape; it is also its own node in the evictable
 * FIFO (an intrusive doubly linked list), so becoming or ceasing to be evictable costs a
 * few pointer updates and no allocation. The list fields are symbol-keyed, so the entry
 * still enumerates and serialises as its six data fields.
 */
class Entry implements StoreEntry {
  descriptor: ectp.v1.IItemDescriptor;
  readonly keyId: string;
  ready = false;
  pins = 0;
  readonly sizeBytes: number;
  bytes: Uint8Array | undefined;
  /** In the evictable FIFO (ready and unpinned) [P6]. */
  [EVICTABLE] = false;
  /** Neighbour toward the older end of the evictable FIFO. */
  [PREV]: Entry | undefined = undefined;
  /** Neighbour toward the newer end of the evictable FIFO. */
  [NEXT]: Entry | undefined = undefined;
  /** Still in the store (false once evicted, discarded or cleared). */
  [HELD] = true;
  /** The store that made it. */
  readonly [STORE]: MemoryItemStore;

  constructor(
    store: MemoryItemStore,
    descriptor: ectp.v1.IItemDescriptor,
    keyId: string,
    sizeBytes: number,
    bytes: Uint8Array | undefined,
  ) {
    this[STORE] = store;
    this.descriptor = descriptor;
    this.keyId = keyId;
    this.sizeBytes = sizeBytes;
    this.bytes = bytes;
  }
}

/**
 * A bounded in-memory item store, the reference implementation of {@link ItemStore}.
 *
 * Why it exists: the producer core never writes bytes; an engine (or the simulator) puts
 * items here, writes them, marks them ready, and the core grants reads of them. It keeps
 * the producer rules that belong to the region itself:
 *
 * - capacity is counted in `descriptor.sizeBytes`, ready or not;
 * - only ready, unpinned items are evicted [P6], oldest first by the time each became
 *   evictable (became ready, or lost its last pin), or one by one with `evict`, and every
 *   eviction is an event;
 * - a `put` that cannot fit even after evicting every evictable item fails with
 *   `OVERLOADED` and evicts nothing (`INVALID_ARGUMENT` for an item larger than the
 *   whole capacity, which never fits).
 *
 * Runtime conditions (duplicate key, no room) are returned as error results; only
 * programming errors (pinning an absent item, unpinning an unpinned one) throw
 * `EctpError(INVALID_ARGUMENT)`.
 */
export class MemoryItemStore implements ItemStore {
  /** Capacity in bytes, as configured. */
  readonly capacityBytes: number;
  private readonly entries = new Map<string, Entry>();
  /**
   * Ready, unpinned entries in the order they became evictable [P6]: oldest at the head,
   * appended at the tail, unlinked in O(1) when pinned or removed.
   */
  private evictHead: Entry | undefined = undefined;
  private evictTail: Entry | undefined = undefined;
  private readonly listeners = new Set<(change: StoreChange) => void>();
  /** Changes not yet delivered to the listeners (see `flush`). */
  private readonly pending: StoreChange[] = [];
  /** Whether `flush` is delivering, or release callbacks run (a listener's or callback's own changes then wait their turn). */
  private emitting = false;
  /** Keys removed whose release callback is still to run (see `releaseRemoved`). */
  private readonly releasing = new Set<string>();
  private readonly locateFn: ((keyId: string, bytes: Uint8Array) => Uint8Array) | undefined;
  private readonly releaseFn: ((keyId: string) => void) | undefined;
  /** The entry {@link MemoryItemStore.get} found last: `pin` right after `get` skips the Map. */
  private lastGot: Entry | undefined = undefined;
  private used = 0;
  private evictableBytes = 0;
  private pinCount = 0;

  /**
   * @param options - capacity and optional transport callbacks.
   * @throws EctpError(INVALID_CONFIG) when `options` is not an object, has a key other than
   *   `capacityBytes`, `locate` and `release`, when `capacityBytes` is not a positive safe integer,
   *   or when `locate` or `release` is given and is not a function.
   */
  constructor(options: MemoryItemStoreOptions) {
    if (options === null || typeof options !== "object")
      throw new EctpError("INVALID_CONFIG", `MemoryItemStore needs an options object { capacityBytes, locate?, release? }; got ${describeValue(options)}`);
    refuseUnknownOptions("MemoryItemStore", options, STORE_OPTIONS);
    // Each option read once, here: a getter or Proxy trap that throws is refused naming it [I1].
    options = readOptions("MemoryItemStore", options, STORE_OPTIONS);
    const cap = options.capacityBytes;
    if (typeof cap !== "number" || !Number.isSafeInteger(cap) || cap < 1)
      throw new EctpError(
        "INVALID_CONFIG",
        `capacityBytes must be a positive integer number of bytes; got ${describeValue(cap)}. Pass e.g. { capacityBytes: 1 << 30 }`,
        { details: { capacityBytes: cap } },
      );
    for (const name of ["locate", "release"] as const)
      if (options[name] !== undefined && typeof options[name] !== "function")
        throw new EctpError("INVALID_CONFIG", `options.${name} must be a function when given; got ${describeValue(options[name])}`);
    this.capacityBytes = cap;
    this.locateFn = options.locate;
    this.releaseFn = options.release;
  }

  /**
   * Add a new, not yet ready item, evicting ready unpinned items (oldest evictable first)
   * when needed. Returns the new entry, or an error result:
   * `INVALID_ARGUMENT` for a malformed descriptor, one encoding to more than
   * `MAX_DESCRIPTOR_BYTES` (with its location), bytes of the wrong length, a key already
   * present or one whose release callback is still to run, an item larger than the whole capacity (no retry makes it
   * fit); `OVERLOADED` (retryable) when the item cannot fit even after evicting every evictable item, until grants are
   * released or items become ready;
   * `INTERNAL` when `options.locate` throws or the bytes it needs cannot be allocated (nothing is evicted then either).
   *
   * @param descriptor - the item as it will be announced; `location` is replaced by what
   *   `options.locate` returns when that is set. The store keeps this object (or its copy with
   *   the new location) and publishes it as is: do not change it after `put`.
   * @param bytes - the item's bytes (length `sizeBytes`), if the caller already has them.
   */
  put(descriptor: ectp.v1.IItemDescriptor, bytes?: Uint8Array): Validation<StoreEntry> {
    const valid = validateDescriptor(descriptor, { maxItemBytes: Number.MAX_SAFE_INTEGER });
    if (!valid.ok)
      return fail("INVALID_ARGUMENT", `put: descriptor is not valid (${valid.error.message}); fix the descriptor`, {
        cause: valid.error,
      });
    const { keyId, sizeBytes } = valid.value;
    const present = this.entries.get(keyId);
    if (present !== undefined)
      return fail(
        "INVALID_ARGUMENT",
        present.ready
          ? `put: item ${keyId} is already stored and ready; use that copy, or remove it first with evict(keyId) (once no read pins it) or leave it to be evicted`
          : `put: item ${keyId} is already stored, not yet ready; finish it with markReady(keyId), or drop it first with discard(keyId)`,
        { details: { keyId } },
      );
    if (this.releasing.has(keyId))
      // Its release callback, still to run, would deregister the new item's memory.
      return fail("INVALID_ARGUMENT", `put: item ${keyId} is still being released; put it again from its own release callback or after it`, {
        details: { keyId },
      });
    if (bytes !== undefined && (!(bytes instanceof Uint8Array) || bytes.length !== sizeBytes))
      return fail(
        "INVALID_ARGUMENT",
        `put: bytes must be a Uint8Array of exactly sizeBytes = ${sizeBytes}; got ${bytes instanceof Uint8Array ? `${bytes.length} bytes` : describeValue(bytes)}`,
        { details: { keyId, sizeBytes } },
      );
    if (sizeBytes > this.capacityBytes)
      // Not OVERLOADED: that code is retryable, and no eviction or release ever makes this fit.
      return fail(
        "INVALID_ARGUMENT",
        `put: the item's ${sizeBytes} bytes exceed the store's whole capacity of ${this.capacityBytes} bytes; no retry makes it fit: raise capacityBytes`,
        { details: { keyId, sizeBytes, used: this.used, capacityBytes: this.capacityBytes } },
      );
    if (this.excess(sizeBytes) > this.evictableBytes)
      // [P6] pinned and not-ready items are never evicted; refuse instead of evicting part.
      return fail(
        "OVERLOADED",
        `put: ${sizeBytes} bytes do not fit (used ${this.used} of ${this.capacityBytes}, only ${this.evictableBytes} evictable); retry after grants are released`,
        { details: { keyId, sizeBytes, used: this.used, capacityBytes: this.capacityBytes } },
      );
    // Located before anything is evicted: a failing `locate` leaves the store as it was.
    let held = bytes;
    let desc = descriptor;
    if (this.locateFn) {
      if (held === undefined)
        try {
          held = new Uint8Array(sizeBytes);
        } catch (cause) {
          // A RangeError for a length no typed array takes, or an allocation that failed: a result, as documented, not a throw.
          return fail("INTERNAL", `put: cannot allocate ${sizeBytes} bytes for item ${keyId}; pass the item's bytes to put (nothing was stored or evicted)`, {
            cause,
            details: { keyId, sizeBytes },
          });
        }
      try {
        desc = { ...descriptor, location: this.locateFn(keyId, held) };
      } catch (cause) {
        return fail("INTERNAL", `put: options.locate threw for item ${keyId}; nothing was stored or evicted`, { cause, details: { keyId } });
      }
      if (this.entries.has(keyId))
        return fail("INVALID_ARGUMENT", `put: item ${keyId} was stored by options.locate itself; a locate callback must not put`, {
          details: { keyId },
        });
      if (this.excess(sizeBytes) > this.evictableBytes) {
        this.callRelease(keyId); // deregister what locate registered: nothing is stored
        return fail("OVERLOADED", `put: ${sizeBytes} bytes no longer fit after options.locate changed the store; retry`, {
          details: { keyId, sizeBytes, used: this.used, capacityBytes: this.capacityBytes },
        });
      }
    }
    // SPEC section 5: every message carrying the descriptor must fit a frame.
    const tooLarge = descriptorSizeProblem(desc);
    if (tooLarge !== undefined) {
      if (this.locateFn) this.callRelease(keyId); // deregister what locate registered: nothing is stored
      return fail("INVALID_ARGUMENT", `put: ${tooLarge}; fix the descriptor (a long location or strings)`, { details: { keyId } });
    }
    // [P6] Evicted and stored first, announced only then (in one batch, see `flush`): a listener acting on
    // the store (a pin, a put) sees it whole, and cannot stop the eviction halfway or slip an item
    // into the freed room. (`locate` may have changed the store since the first check.)
    const excess = this.excess(sizeBytes);
    const evicted = excess > 0 ? this.evictFor(excess) : undefined;
    const entry = new Entry(this, desc, keyId, sizeBytes, held);
    this.entries.set(keyId, entry);
    this.used += sizeBytes;
    if (evicted !== undefined)
      this.announceRemoved(
        evicted,
        evicted.map((e): StoreChange => ({ kind: "removed", key: e.descriptor.key as ectp.v1.IItemKey, cause: "evicted" })),
      );
    return { ok: true, value: entry };
  }

  /**
   * Mark an item fully written [P1]: from now on it can be granted and (when unpinned)
   * evicted. Emits a `stored` change. Idempotent for an item already ready.
   *
   * An item written in place (put without bytes, then filled by the encoder) has no checksum
   * until its bytes exist: pass it here (`{ algorithm:
   * ectp.v1.ChecksumAlgorithm.CHECKSUM_ALGORITHM_CRC32C, value: crc32cBytes(bytes) }`) and the item's descriptor (granted, announced and published from now
   * on) carries it, so consumers verify what they read [C11]. The store's descriptor is then a
   * copy of the one put, with the checksum added (in place of a checksum of algorithm
   * UNSPECIFIED, which is no checksum [C2]).
   * @throws EctpError(INVALID_ARGUMENT) when the item is absent, or when `checksum` is not a
   *   CRC-32C checksum, differs from one the descriptor already carries, comes for an item already
   *   ready without one, or would take the descriptor past `MAX_DESCRIPTOR_BYTES`. (`null` is no
   *   checksum.)
   */
  markReady(keyId: string, checksum?: ectp.v1.IChecksum | null): void {
    const e = this.mustGet(keyId, "markReady");
    if (checksum !== undefined && checksum !== null) {
      const problem = checksumProblem(checksum, e);
      if (problem !== undefined)
        throw new EctpError("INVALID_ARGUMENT", `markReady: item ${keyId}: ${problem}`, { details: { keyId } });
      // [C2] A checksum of algorithm UNSPECIFIED is no checksum: replaced by this one.
      if (!carriesChecksum(e.descriptor.checksum)) {
        const withChecksum = { ...e.descriptor, checksum: { algorithm: checksum.algorithm, value: Uint8Array.from(checksum.value as Uint8Array) } };
        // SPEC section 5: the checksum adds bytes to a descriptor put at the size limit.
        const tooLarge = descriptorSizeProblem(withChecksum);
        if (tooLarge !== undefined)
          throw new EctpError("INVALID_ARGUMENT", `markReady: item ${keyId}: with the checksum, ${tooLarge}; put it with a shorter location or strings`, {
            details: { keyId },
          });
        e.descriptor = withChecksum;
      }
    }
    if (e.ready) return;
    e.ready = true;
    this.addEvictable(e);
    this.emit({ kind: "stored", descriptor: e.descriptor }); // [E1] a Stored event once the item is ready
  }

  /**
   * Drop an item that never became ready (a failed or abandoned write). Emits a
   * `removed(discarded)` change. Returns false when the item is absent.
   * @throws EctpError(INVALID_ARGUMENT) when the item is ready: ready items leave only by
   *   eviction [P6] ({@link MemoryItemStore.evict}, or to make room) or {@link MemoryItemStore.clear}.
   */
  discard(keyId: string): boolean {
    const e = this.entries.get(keyId);
    if (!e) return false;
    if (e.ready)
      throw new EctpError(
        "INVALID_ARGUMENT",
        `discard: item ${keyId} is ready; only not-ready items can be discarded (evict a ready one with evict(keyId), or leave it to be evicted when room is needed)`,
        { details: { keyId } },
      );
    this.remove(e);
    this.announceRemoved([e], [{ kind: "removed", key: e.descriptor.key as ectp.v1.IItemKey, cause: "discarded" }]);
    return true;
  }

  /**
   * Evict one item now, as memory pressure would: for an engine that frees an item it knows it
   * no longer needs (its encoder cache dropped the entry) without waiting for a `put` to need the
   * room. Only a ready, unpinned item goes [P6]: it is removed, its release callback runs, and a
   * `removed(evicted)` change is emitted (the producer core publishes it as `Removed` [E1]).
   * Nothing changes otherwise, and the result says why:
   *
   * - `"evicted"`: it was removed;
   * - `"absent"`: the store does not hold the key (never put, or already gone; a `keyId` that is not
   *   a string is no key it holds);
   * - `"pinned"`: a grant holds it; evict it after the grants are released (`producer.stats().grants`);
   * - `"not-ready"`: it is still being written; use {@link MemoryItemStore.discard} to drop it.
   */
  evict(keyId: string): "evicted" | "absent" | "pinned" | "not-ready" {
    const e = this.entries.get(keyId);
    if (e === undefined) return "absent";
    if (!e.ready) return "not-ready";
    // [P6] a pinned item is never evicted: a consumer may be reading it under its grant.
    if (e.pins > 0) return "pinned";
    this.remove(e);
    this.announceRemoved([e], [{ kind: "removed", key: e.descriptor.key as ectp.v1.IItemKey, cause: "evicted" }]);
    return "evicted";
  }

  /**
   * Drop every item, pinned or not, and emit one `cleared` change. For a region reset;
   * the producer core releases every grant when it sees the change.
   *
   * Pinned items go too: their `release` callbacks run now, while consumers holding grants of
   * them may still be reading their memory (their reads fail, or read what the memory holds by
   * then, which their checksums catch [C11]). A reset that must not cut reads short waits for the
   * grants first: `producer.shutdown(now)` returns when the last lease ends (`reuseAfter`), or,
   * without shutting down, wait until `producer.stats().readableUntil` is undefined (not until
   * `grants` is 0: a grant released because its consumer was declared gone may still be read).
   */
  clear(cause: "reset" | "shutdown"): void {
    if (cause !== "reset" && cause !== "shutdown")
      throw new EctpError("INVALID_ARGUMENT", `clear: the cause must be "reset" or "shutdown"; got ${describeValue(cause)}`);
    const all = [...this.entries.values()];
    this.entries.clear();
    for (let e = this.evictHead; e !== undefined; ) {
      const next = e[NEXT];
      e[EVICTABLE] = false;
      e[PREV] = undefined;
      e[NEXT] = undefined;
      e = next;
    }
    this.evictHead = undefined;
    this.evictTail = undefined;
    this.used = 0;
    this.evictableBytes = 0;
    this.pinCount = 0;
    this.lastGot = undefined;
    for (const e of all) {
      e[HELD] = false;
      e.pins = 0;
    }
    this.announceRemoved(all, [{ kind: "cleared", cause }]);
  }

  /** The bytes of an item, or `undefined` when absent or when the store holds no bytes for it. */
  bytes(keyId: string): Uint8Array | undefined {
    return this.entries.get(keyId)?.bytes;
  }

  /** Bytes held, ready or not, counted in `sizeBytes`. */
  usedBytes(): number {
    return this.used;
  }

  /** {@inheritDoc ItemStore.get} */
  get(keyId: string): StoreEntry | undefined {
    const e = this.entries.get(keyId);
    if (e !== undefined) this.lastGot = e;
    return e;
  }

  /** {@inheritDoc ItemStore.pin} */
  pin(keyId: string): void {
    const last = this.lastGot;
    // The producer pins what it just looked up: the same entry, if it is still held.
    const e = last?.[HELD] && last.keyId === keyId ? last : this.mustGet(keyId, "pin");
    if (!e.ready)
      throw new EctpError("INVALID_ARGUMENT", `pin: item ${keyText(keyId)} is not ready; only ready items can be granted [P1]`, {
        details: { keyId },
      });
    // [I3] pins are counted per grant, not per item: the producer unpins each grant's pin once.
    if (e.pins === 0) this.removeEvictable(e);
    e.pins++;
    this.pinCount++;
  }

  /** {@inheritDoc ItemStore.unpin} */
  unpin(keyId: string): void {
    this.unpinHeld(this.entries.get(keyId), keyId);
  }

  /** {@inheritDoc ItemStore.unpinEntry} */
  unpinEntry(entry: StoreEntry): void {
    // An entry of this store: no lookup (one no longer held has no pin left). Anything else: by key.
    if (entry instanceof Entry && entry[STORE] === this) this.unpinHeld(entry[HELD] ? entry : undefined, entry.keyId);
    else if (entry === null || typeof entry !== "object")
      throw new EctpError("INVALID_ARGUMENT", `unpinEntry needs a StoreEntry this store returned; got ${describeValue(entry)}`);
    else this.unpin(entry.keyId);
  }

  private unpinHeld(e: Entry | undefined, keyId: string): void {
    if (!e || e.pins === 0)
      throw new EctpError("INVALID_ARGUMENT", `unpin: item ${keyText(keyId)} has no pin; every unpin must match one pin [P2]`, {
        details: { keyId },
      });
    e.pins--;
    this.pinCount--;
    // [P6] the item becomes evictable again, queued behind those that became evictable earlier.
    if (e.pins === 0) this.addEvictable(e);
  }

  /** {@inheritDoc ItemStore.readyItems} */
  *readyItems(): Iterable<StoreEntry> {
    for (const e of this.entries.values()) if (e.ready) yield e;
  }

  /** {@inheritDoc ItemStore.totalPins} */
  totalPins(): number {
    return this.pinCount;
  }

  /** {@inheritDoc ItemStore.subscribe} */
  subscribe(listener: (change: StoreChange) => void): () => void {
    if (typeof listener !== "function")
      throw new EctpError("INVALID_ARGUMENT", `subscribe needs a function (change) => void; got ${describeValue(listener)}`);
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /**
   * Bytes that must be freed before `sizeBytes` more fit (0 or less: they fit now) [P6]. Computed as
   * `sizeBytes - free`, never as `used + sizeBytes - capacity`: both terms are safe integers, so the
   * result is exact even when `used + sizeBytes` passes 2^53 and would round.
   */
  private excess(sizeBytes: number): number {
    return sizeBytes - (this.capacityBytes - this.used);
  }

  /** Remove the oldest evictable items until `need` bytes are free (the caller checked they can be); returns them, not yet announced or released. */
  private evictFor(need: number): Entry[] {
    const evicted: Entry[] = [];
    let freed = 0;
    // [P6] evict only ready, unpinned items, FIFO by the time each became evictable: the
    // head of the evictable list is always the oldest.
    while (freed < need) {
      const e = this.evictHead;
      if (e === undefined) break;
      freed += e.sizeBytes;
      this.remove(e);
      evicted.push(e);
    }
    return evicted;
  }

  private remove(e: Entry): void {
    this.entries.delete(e.keyId);
    e[HELD] = false;
    if (this.lastGot === e) this.lastGot = undefined;
    if (e[EVICTABLE]) this.removeEvictable(e);
    this.used -= e.sizeBytes;
  }

  /** Append to the evictable FIFO (the newest end) [P6]. */
  private addEvictable(e: Entry): void {
    if (e[EVICTABLE]) return;
    e[EVICTABLE] = true;
    const tail = this.evictTail;
    e[PREV] = tail;
    e[NEXT] = undefined;
    if (tail === undefined) this.evictHead = e;
    else tail[NEXT] = e;
    this.evictTail = e;
    this.evictableBytes += e.sizeBytes;
  }

  /** Unlink from the evictable FIFO, wherever it stands. */
  private removeEvictable(e: Entry): void {
    if (!e[EVICTABLE]) return;
    e[EVICTABLE] = false;
    const prev = e[PREV];
    const next = e[NEXT];
    if (prev === undefined) this.evictHead = next;
    else prev[NEXT] = next;
    if (next === undefined) this.evictTail = prev;
    else next[PREV] = prev;
    e[PREV] = undefined;
    e[NEXT] = undefined;
    this.evictableBytes -= e.sizeBytes;
  }

  /** Queue the `changes` announcing that `removed` left the store, run their release callbacks, then announce. */
  private announceRemoved(removed: readonly Entry[], changes: readonly StoreChange[]): void {
    for (const c of changes) this.pending.push(c);
    this.releaseRemoved(removed);
    this.flush();
  }

  /**
   * Call the release callback of items already removed, their removal queued for announcement:
   * the store is whole by then, so a callback acting on it (a put, a pin) is counted against the
   * capacity like any other change, and what it changes is announced after the removal [E1]. A key
   * whose own release is still to run cannot be put again meanwhile (see `put`).
   */
  private releaseRemoved(removed: readonly Entry[]): void {
    if (!this.releaseFn) return;
    const wasEmitting = this.emitting;
    this.emitting = true; // changes made by the callbacks wait behind the queued removals
    for (const e of removed) this.releasing.add(e.keyId);
    try {
      for (const e of removed) {
        this.releasing.delete(e.keyId);
        this.callRelease(e.keyId);
      }
    } finally {
      for (const e of removed) this.releasing.delete(e.keyId); // this call's keys only: a nested one's are its own
      this.emitting = wasEmitting;
    }
  }

  private callRelease(keyId: string): void {
    if (!this.releaseFn) return;
    try {
      this.releaseFn(keyId);
    } catch {
      // A failing release callback must not leave the store half updated.
    }
  }

  private mustGet(keyId: string, op: string): Entry {
    const e = this.entries.get(keyId);
    if (!e)
      throw new EctpError("INVALID_ARGUMENT", `${op}: item ${keyText(keyId)} is not in the store; put it first`, {
        details: { keyId },
      });
    return e;
  }

  /** Announce a change to every listener (after the changes already being announced). */
  private emit(change: StoreChange): void {
    this.pending.push(change);
    this.flush();
  }

  /**
   * Deliver the pending changes in order. A change made by a listener (a put, a markReady) is
   * queued behind the ones being delivered, so every listener sees the changes in the order they
   * happened: an item evicted and put again by a listener is `removed`, then `stored`.
   */
  private flush(): void {
    if (this.emitting) return;
    this.emitting = true;
    try {
      for (let i = 0; i < this.pending.length; i++) {
        const change = this.pending[i] as StoreChange;
        for (const l of this.listeners) {
          try {
            l(change);
          } catch {
            // Listeners must not throw; one that does cannot corrupt the store or starve the others.
          }
        }
      }
    } finally {
      this.pending.length = 0;
      this.emitting = false;
    }
  }
}

function fail(
  code: "INVALID_ARGUMENT" | "OVERLOADED" | "INTERNAL",
  message: string,
  options: { cause?: unknown; details?: Record<string, unknown> },
): { ok: false; error: EctpError } {
  return { ok: false, error: new EctpError(code, message, options) };
}

