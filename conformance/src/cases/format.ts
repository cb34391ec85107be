/**
 * The case format: conformance cases are JSON data (one suite per file under `cases/`),
 * documented in conformance/README.md "Writing cases". These types are its schema.
 * @module
 */

/** Optional features a features file may name (TESTEE-PROTOCOL.md §7), and a case may need (its `features`). */
export const KNOWN_FEATURES: readonly string[] = Object.freeze([
  "consumer",
  "producer",
  "raw-messages",
  "untrusted-json",
  "evict",
  "read-memory",
  "events",
  "subscriber",
  "subscriber-view-bound",
  "warm-start",
  "stream-framing",
  "raw-outputs",
]);

/** REQUIRED cases must pass; RECOMMENDED cases report but only fail `--level all` runs. */
export type CaseLevel = "REQUIRED" | "RECOMMENDED";

/** A role a testee runs a case under (each also the feature claiming it: TESTEE-PROTOCOL.md §7). */
export type CaseRole = "consumer" | "producer" | "subscriber";

/** A suite: one JSON file under `cases/`, holding cases that share a name prefix and defaults. */
export interface SuiteFile {
  /** Hierarchical kebab-case suite name, e.g. `consumer/c3-budget`; case names are `<suite>/<name>`. */
  suite: string;
  /** What the suite checks. */
  description?: string;
  /** Fields merged into every case of the file (a case's own fields win). */
  defaults?: Partial<CaseSpec>;
  /** Its cases, run in this order (at least one). */
  cases: CaseSpec[];
}

/** An item fixture: deterministic bytes and a descriptor derived from them. */
export interface ItemFixture {
  /** Length of the item's bytes, and its descriptor's `sizeBytes`: a whole number of bytes. Required. */
  size: number;
  /** Put a CRC-32C in descriptors. Default true. */
  checksum?: boolean;
  /**
   * Dtype name (e.g. `DTYPE_UINT8`), or a number for a value without a name (an unknown value
   * from a newer minor [V2]); a string that is not a name is a case bug (protobuf would drop it).
   * Default absent (no dtype x shape check).
   */
  dtype?: string | number;
  /** Shape. Default absent. */
  shape?: number[];
  /** Scripted producer peer holding it (consumer and subscriber cases). Default `P1`. */
  producer?: string;
  /** Content hash text (UTF-8). Default `item-<name>`. */
  hash?: string;
  /**
   * Make every byte of the item this value (an integer in [0, 255]) instead of pseudo-random: a
   * `put` then sends `PutItem.fill` rather than the bytes, so a case can put gigabytes without
   * sending them (the default byte quota of [P5]). Default: pseudo-random bytes.
   */
  fill?: number;
  /**
   * Make this a family of `count` items (1 to 65,536) named `<name>.0` to `<name>.<count-1>`,
   * each with this spec and its own content hash (`hash`, or `item-<name>`, then `.<i>`).
   * `put` of the family's name puts every member; `expectSnapshot` checks a snapshot holds
   * exactly the family. Default: one item.
   */
  count?: number;
  /**
   * Fields of the item key's fingerprint (proto3 JSON) that differ from the case's `fingerprint`:
   * an item of another model or layout, say, which a producer holding it MUST NOT grant, announce
   * or publish (SPEC.md 4.4, [P7]). Default: the case fingerprint.
   */
  fingerprint?: Record<string, unknown>;
  /**
   * Producer cases: the producer id and epoch the testee's store holds the item under, where they
   * are not the testee's own (a store shared with another producer, or kept from an older epoch).
   * A `put` sends them in the descriptor and the testee keeps them (TESTEE-PROTOCOL.md, PutItem);
   * the producer MUST NOT grant, announce or publish such an item (SPEC.md 4.4, [P8]). Either may
   * be left out (the testee's own). Default: the testee's id and epoch.
   */
  storedAs?: StoredAs;
}

/** Where a producer testee's store holds an item ({@link ItemFixture.storedAs}): either field left out is the testee's own. */
export interface StoredAs {
  /** A producer id other than the testee's (a store shared with that producer). */
  producer?: string;
  /** An epoch other than the testee's current one (a store kept from an older epoch, say): a whole number >= 1. */
  epoch?: number;
}

/** A scripted peer played by the runner. */
export interface PeerSpec {
  /** Epoch. Default 5 for producers, 3 for consumers. */
  epoch?: number;
  /** Answer the testee's Hello with a Hello (consumer cases) / greet first (producer cases). Default true. */
  hello?: boolean;
  /** Send a Heartbeat every heartbeat interval once greeted. Default true. */
  heartbeat?: boolean;
  /** Fingerprint override (proto3 JSON). Default the case fingerprint. */
  fingerprint?: Record<string, unknown>;
}

/** An automatic reaction of the runner to testee outputs. */
export interface RuleSpec {
  /** Name, for `removeRule`. */
  name?: string;
  /** Output matcher (same language as `expectSent`). */
  on: Record<string, unknown>;
  /** Actions run with `msg` (the matched output) and the matcher's bindings in scope. */
  do: StepSpec[];
  /** Milliseconds between the output and the actions. Default 0. */
  delay?: number;
  /** Fire at most this many times. Default unlimited. */
  times?: number;
}

/**
 * One step: optional time (`at` absolute, `after` relative, ms) and at most one action
 * key. A step with only a time advances the clock. See README "Writing cases".
 */
export type StepSpec = Record<string, unknown> & {
  /** Absolute case time of the step, ms. */
  at?: number;
  /** Time after the previous step, ms. */
  after?: number;
  /**
   * With `at` or `after`: move the clock there without polling the testee at the deadlines in
   * between (an engine step that stalled), so the step's action comes before any timer due by then.
   */
  stalled?: true;
};

/** A case: a scripted exchange between the runner (peers, engine, clock) and one testee, with the requirement ids it checks. */
export interface CaseSpec {
  /** Kebab-case name inside the suite. */
  name: string;
  /** Requirement ids it checks, e.g. `["C3", "C4"]`. */
  requirements: string[];
  /** REQUIRED or RECOMMENDED. */
  level: CaseLevel;
  /** What it checks and why. */
  description?: string;
  /** Failures of docs/failures.md (1-11) this case is designed to catch. */
  catches?: number[];
  /** Optional features it needs (TESTEE-PROTOCOL.md §7). */
  features?: string[];
  /**
   * Role of the testee (also the feature it needs: TESTEE-PROTOCOL.md §7); `"any"`: a case that
   * touches no instance (only `decodeStream` steps) runs under the first role the features file
   * claims, of consumer, producer and subscriber.
   */
  role: CaseRole | "any";
  /** Testee id and epoch. Default `C1`/1 (consumer), `P1`/5 (producer) or `R1`/1 (subscriber). */
  self?: {
    /** Peer id. */
    id?: string;
    /** Epoch. */
    epoch?: number;
    /** Seed of the testee's random source. Default 1. */
    seed?: number;
    /** Its transport metadata (Configure.transport_metadata, base64), which its Hellos carry. Default none. */
    transportMetadata?: string;
  };
  /** Timers (TESTEE `Timers` field names, camelCase); absent = SPEC.md default. */
  config?: Record<string, number>;
  /** Store / destination capacity in bytes. Default 0 (the testee's default). */
  capacity?: number;
  /** Case fingerprint (proto3 JSON). Default {@link DEFAULT_FINGERPRINT}. */
  fingerprint?: Record<string, unknown>;
  /** Scripted peers. Default `{P1: {}}` (consumer, subscriber: producers), `{C1: {}}` (producer: a consumer) or none (`"any"`). */
  peers?: Record<string, PeerSpec>;
  /** Item fixtures by name. */
  items?: Record<string, ItemFixture>;
  /**
   * Transport behaviour: settle a cancelled read as `cancelled`, at the time of its CancelRead, the next
   * time the clock moves (not within the step that saw the CancelRead). Default true.
   */
  settleOnCancel?: boolean;
  /** Rules active from the start. */
  rules?: RuleSpec[];
  /** What the case does and checks, run in order: each step moves the clock and/or takes one action (README "Writing cases"). */
  steps: StepSpec[];
  /** At the end, finish everything and check [I3]/[I4]. Default true. */
  quiesce?: boolean;
}

/** The fingerprint every case uses unless it says otherwise. */
export const DEFAULT_FINGERPRINT: Readonly<Record<string, unknown>> = Object.freeze({
  model: "conformance/model@1",
  dtype: "DTYPE_BFLOAT16",
  rowBytes: 2048,
  layoutVersion: 1,
});

/** A loaded case with its full name and origin. */
export interface LoadedCase {
  /** `<suite>/<name>`. */
  fullName: string;
  /** Suite file path (relative to the cases root). */
  file: string;
  /** The case with file defaults applied. */
  spec: CaseSpec;
}
