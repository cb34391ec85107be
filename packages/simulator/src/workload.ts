/**
 * The request workload: media items per request, their nominal sizes, and which items
 * repeat. Drawn from one seeded stream so a seed fixes the whole workload.
 * @module
 */
import type { SeededRandom } from "@ectp/core";
import type { ectp } from "@ectp/protocol";
import { ByteSlab, scaledSize } from "./payload.js";

/** One media item (one encoding). */
export interface WorkloadItem {
  /** Seed of the item's bytes and content hash. */
  readonly seed: number;
  /** Content hash of the media item (16 bytes, from the seed). */
  readonly contentHash: Uint8Array;
  /** Nominal size of the encoding, bytes (drives time and memory accounting). */
  readonly nominalBytes: number;
  /** Real bytes moved (nominal / byte scale). */
  readonly sizeBytes: number;
  /** Canonical key id, filled in on first use (cached so it is computed once per item). */
  keyId: string | undefined;
  /** The item's key message, built on first use and shared by every descriptor of the item. */
  key: ectp.v1.IItemKey | undefined;
  /** CRC-32C of the item's bytes, computed on first use. */
  crc: number | undefined;
}

/** Parameters of {@link WorkloadGenerator}. */
export interface WorkloadShape {
  /** Fewest items per request. */
  readonly minItemsPerRequest: number;
  /** Most items per request. */
  readonly maxItemsPerRequest: number;
  /** Smallest nominal size, bytes. */
  readonly minItemBytes: number;
  /** Largest nominal size, bytes. */
  readonly maxItemBytes: number;
  /** Probability an item repeats a recent one. */
  readonly itemReuse: number;
  /** Nominal bytes per real byte. */
  readonly byteScale: number;
}

/** Recent items kept for reuse; bounded so memory does not grow with the run. */
const RECENT = 64;

/** Draws the items of each request. */
export class WorkloadGenerator {
  private readonly recent: WorkloadItem[] = [];
  /** Content hashes, carved from shared slabs (a 16-byte array of its own would cost a buffer object each). */
  private readonly hashes = new ByteSlab(4096, 4096);
  private cursor = 0;

  /**
   * @param rng - the workload's own random stream.
   * @param shape - sizes and counts.
   */
  constructor(
    private readonly rng: SeededRandom,
    private readonly shape: WorkloadShape,
  ) {}

  /** The items of the next request. */
  nextItems(): WorkloadItem[] {
    const s = this.shape;
    const n = s.minItemsPerRequest + this.rng.int(s.maxItemsPerRequest - s.minItemsPerRequest + 1);
    const items: WorkloadItem[] = [];
    for (let i = 0; i < n; i++) {
      let item: WorkloadItem | undefined;
      if (this.recent.length > 0 && this.rng.chance(s.itemReuse)) {
        const candidate = this.recent[this.rng.int(this.recent.length)] as WorkloadItem;
        // An item appears at most once per request (the engine's item ids are unique per request).
        if (!items.includes(candidate)) item = candidate;
      }
      item ??= this.fresh();
      items.push(item);
    }
    return items;
  }

  private fresh(): WorkloadItem {
    const s = this.shape;
    const seed = this.rng.nextUint32();
    const nominalBytes = s.minItemBytes + this.rng.int(s.maxItemBytes - s.minItemBytes + 1);
    const contentHash = this.hashes.take(16);
    // Four big-endian words, written byte by byte (a DataView would need the array's
    // `.buffer`, which moves a heap-allocated 16-byte array to its own backing store).
    for (let i = 0; i < 16; i += 4) {
      const w = this.rng.nextUint32();
      contentHash[i] = w >>> 24;
      contentHash[i + 1] = w >>> 16;
      contentHash[i + 2] = w >>> 8;
      contentHash[i + 3] = w;
    }
    // Every field present from the start (one object shape for every item, whatever the simulator fills in later).
    const item: WorkloadItem = {
      seed,
      contentHash,
      nominalBytes,
      sizeBytes: scaledSize(nominalBytes, s.byteScale),
      keyId: undefined,
      key: undefined,
      crc: undefined,
    };
    if (this.recent.length < RECENT) this.recent.push(item);
    else {
      this.recent[this.cursor] = item;
      this.cursor = (this.cursor + 1) % RECENT;
    }
    return item;
  }
}
