/**
 * The ReadRequests handed to a producer in the pump in progress, with what its store held of their
 * items then and how they were answered ({@link AnswerLedger}): what the simulator judges [P1] (no
 * NOT_FOUND for an item the store held) and [I1] (each request owed an answer gets one) by. One flat
 * array, no object per request: every ReadRequest a producer takes passes through it.
 * @module
 */

// The layout of `AnswerLedger.a`: each ReadRequest takes ASKED_SLOTS consecutive slots of one flat
// array (no object per request on this hot path), at these offsets from its first slot.
/** Offset in `AnswerLedger.a` of the endpoint id of the consumer that sent the ReadRequest. */
const ASK_CONSUMER = 0;
/** Offset of its attempt id. */
const ASK_ATTEMPT = 1;
/** Offset of its item's key id (`"(malformed key)"` for a key that has none). */
const ASK_KEY = 2;
/** Offset of what the producer's store held of its item when it was handed over: STORE_ABSENT, STORE_NOT_READY or STORE_READY. */
const ASK_STORE = 3;
/** Offset of its sender epoch. */
const ASK_EPOCH = 4;
/** Offset of its answer: ANSWER_NONE, ANSWER_GIVEN or ANSWER_EXCUSED. */
const ASK_ANSWER = 5;
/** Offset of 1 when it may go unanswered as a duplicate or stale request (SPEC.md 4.3), else 0. */
const ASK_MAY_GO_UNANSWERED = 6;
/** Offset of 1 when its epoch was stale when it was handed over [P8], else 0. */
const ASK_STALE_EPOCH = 7;
/** Slots per ReadRequest in `AnswerLedger.a`: one per offset above. */
const ASKED_SLOTS = ASK_STALE_EPOCH + 1;

/** `ASK_STORE`: the store did not hold the item. */
const STORE_ABSENT = 0;
/** `ASK_STORE`: the store held the item, not fully written (NOT_READY). */
const STORE_NOT_READY = 1;
/** `ASK_STORE`: the store held the item, ready. */
const STORE_READY = 2;
/** `ASK_ANSWER`: not answered yet. */
const ANSWER_NONE = 0;
/** `ASK_ANSWER`: answered (a ReadGrant or a ReadReject). */
const ANSWER_GIVEN = 1;
/** `ASK_ANSWER`: excused from an answer: the call handing it over threw, an [I1] violation already. */
const ANSWER_EXCUSED = 2;

/**
 * [P1][I1] The ReadRequests handed to one producer in the pump in progress, in the order handed over,
 * each with its consumer, attempt id, key id, sender epoch, what the producer's store held of its
 * item then (absent, not fully written, ready), whether it was answered (or excused from an answer),
 * whether it may go unanswered as a duplicate or stale request (a grant of that consumer's epoch and
 * item, of its attempt or a newer one, was live when it was handed over, or was sent in this pump
 * for a request handed over before it) and whether its epoch was stale when it was handed over
 * (older than the greatest of its sender handed over before it [P8]). A request is named by its
 * index in the pump: 0 for the first handed over.
 *
 * A core answers a ReadRequest in the pump that hands it over (a sans-IO core has all it needs then,
 * and the poll that ends the pump takes its answer), so the store's state then is the state it
 * answered from, and one left unanswered by then is never answered: {@link AnswerLedger.reset} at
 * each pump's start forgets the previous pump's (slots are reused, not freed). The simulator reports
 * the violations; this only records and answers.
 */
export class AnswerLedger {
  /**
   * The requests, flat, {@link ASKED_SLOTS} slots each, read and written at the `ASK_*` offsets
   * (`a[k + ASK_EPOCH]` for the request whose first slot is `k`); only the first `n` are this pump's.
   */
  private readonly a: (string | number)[] = [];
  /** How many requests this pump handed over. */
  private n = 0;

  /** How many ReadRequests were handed over in this pump. */
  get count(): number {
    return this.n;
  }

  /** A producer's pump begins: nothing handed over yet. */
  reset(): void {
    this.n = 0;
  }

  /**
   * A ReadRequest handed over: `consumer`'s attempt `attemptId` of its `epoch` for `keyId`, not answered
   * yet. `stored` is what the producer's store held of the item (`undefined`: nothing), `mayGoUnanswered`
   * whether it may go unanswered as a duplicate or stale request (SPEC.md 4.3), `staleEpoch` whether its
   * epoch is older than the greatest of its sender handed over before it [P8].
   */
  note(
    consumer: string,
    attemptId: number,
    keyId: string,
    stored: { readonly ready: boolean } | undefined,
    epoch: number,
    mayGoUnanswered: boolean,
    staleEpoch: boolean,
  ): void {
    const a = this.a;
    const k = this.n++ * ASKED_SLOTS;
    a[k + ASK_CONSUMER] = consumer;
    a[k + ASK_ATTEMPT] = attemptId;
    a[k + ASK_KEY] = keyId;
    a[k + ASK_STORE] = stored === undefined ? STORE_ABSENT : stored.ready ? STORE_READY : STORE_NOT_READY;
    a[k + ASK_EPOCH] = epoch;
    a[k + ASK_ANSWER] = ANSWER_NONE;
    a[k + ASK_MAY_GO_UNANSWERED] = mayGoUnanswered ? 1 : 0;
    a[k + ASK_STALE_EPOCH] = staleEpoch ? 1 : 0;
  }

  /** Request `i` is excused from an answer: the call handing it over threw (the throw is the violation). */
  excuse(i: number): void {
    this.a[i * ASKED_SLOTS + ASK_ANSWER] = ANSWER_EXCUSED;
  }

  /**
   * [I1] The producer answers `to`'s attempt `attemptId`: the first such ReadRequest of this pump not
   * yet answered is. Returns its index, or -1 when none of this pump is.
   */
  answer(to: string, attemptId: unknown): number {
    const a = this.a;
    for (let k = 0; k < this.n * ASKED_SLOTS; k += ASKED_SLOTS) {
      if (a[k + ASK_CONSUMER] === to && a[k + ASK_ATTEMPT] === attemptId && a[k + ASK_ANSWER] === ANSWER_NONE) {
        a[k + ASK_ANSWER] = ANSWER_GIVEN;
        return k / ASKED_SLOTS;
      }
    }
    return -1;
  }

  /**
   * [P8] Whether request `i` was stale when it was handed over: sent under an epoch older than the
   * greatest of its sender handed to the producer before it.
   */
  stale(i: number): boolean {
    return this.a[i * ASKED_SLOTS + ASK_STALE_EPOCH] === 1;
  }

  /** The endpoint id of the consumer that sent request `i`. */
  consumerOf(i: number): string {
    return this.a[i * ASKED_SLOTS + ASK_CONSUMER] as string;
  }

  /** The attempt id of request `i`. */
  attemptOf(i: number): number {
    return this.a[i * ASKED_SLOTS + ASK_ATTEMPT] as number;
  }

  /** The key id of request `i`'s item (`"(malformed key)"` for a key that has none). */
  keyOf(i: number): string {
    return this.a[i * ASKED_SLOTS + ASK_KEY] as string;
  }

  /** The sender epoch of request `i`. */
  epochOf(i: number): number {
    return this.a[i * ASKED_SLOTS + ASK_EPOCH] as number;
  }

  /** Whether the producer's store held request `i`'s item ready (fully written) when it was handed over. */
  readyOf(i: number): boolean {
    return this.a[i * ASKED_SLOTS + ASK_STORE] === STORE_READY;
  }

  /**
   * [I1] A grant of `to`'s attempt `attemptId` of its `epoch` for `keyId` was sent in this pump,
   * answering request `answered` (-1: none of this pump, taken as live from the pump's start): each
   * request of that consumer's epoch and item handed over after that one, with that attempt id or a
   * lower one, met it live (SPEC.md 4.3). One of another epoch did not ([P8], see
   * `GrantLedger.mayLeaveUnanswered`).
   */
  liveFrom(answered: number, to: string, keyId: string, attemptId: number, epoch: number): void {
    const a = this.a;
    for (let k = answered < 0 ? 0 : (answered + 1) * ASKED_SLOTS; k < this.n * ASKED_SLOTS; k += ASKED_SLOTS)
      if (a[k + ASK_CONSUMER] === to && a[k + ASK_KEY] === keyId && a[k + ASK_EPOCH] === epoch && (a[k + ASK_ATTEMPT] as number) <= attemptId)
        a[k + ASK_MAY_GO_UNANSWERED] = 1;
  }

  /**
   * [I1] Whether request `i` is owed an answer it has not had: not answered or excused, not stale
   * when it was handed over [P8], and not one that may go unanswered as a duplicate or stale request
   * (SPEC.md 4.3).
   */
  owed(i: number): boolean {
    const k = i * ASKED_SLOTS;
    return this.a[k + ASK_ANSWER] === ANSWER_NONE && this.a[k + ASK_STALE_EPOCH] !== 1 && this.a[k + ASK_MAY_GO_UNANSWERED] !== 1;
  }

  /**
   * [P1] The request that a NOT_FOUND to `to`'s attempt `attemptId` may answer although the store held
   * its item then: the last of this pump with that consumer and attempt id. -1 when none of this pump
   * has them (unknown), or when the store did not hold the item of one of them (a consumer that reused
   * an attempt id): that one may be the one answered.
   */
  heldWhenNotFound(to: string, attemptId: unknown): number {
    const a = this.a;
    let held = -1;
    for (let k = 0; k < this.n * ASKED_SLOTS; k += ASKED_SLOTS) {
      if (a[k + ASK_CONSUMER] !== to || a[k + ASK_ATTEMPT] !== attemptId) continue;
      if (a[k + ASK_STORE] === STORE_ABSENT) return -1;
      held = k;
    }
    return held < 0 ? -1 : held / ASKED_SLOTS;
  }
}
