/**
 * [I3] One producer's grants as the wire shows them, kept by the simulator apart from the core:
 * a grant opens with the ReadGrant the producer sends, and closes with what SPEC.md says ends it
 * and the simulator sees: its holder's ReadComplete reaching the producer [P2], or the lease the
 * grant named running out [P3] (each grant's own `lease_ms`: two grants of one producer may name
 * different leases). The producer may end a grant sooner (its holder declared gone, a newer attempt
 * replacing it, a consumer that shows a newer epoch [P8], its own shutdown [P7]), never later, and
 * pins only for grants [P2][P4]. (It may also end a grant in the very pump that made it: at a
 * shutdown made inside it, which the simulator never makes (it shuts a producer down only between its
 * pumps, after which it grants nothing), or when the holder's newer epoch arrives later in that pump
 * than the ReadRequest the grant answers: such a grant is excused as it is sent, and owes no pin
 * [P8]. The network drops whatever a crashed consumer still had in flight, so only a planted
 * consumer's older epoch reaches a producer in the pump of its newer one.)
 * So, checked against the store's own pins after each of the producer's pumps:
 * - an item whose open grants fell (ACKed, lease over) holds at most that many pins: a producer
 *   that ignores ACKs, or keeps a pin past the lease it told its consumer, is caught;
 * - an item granted in the pump holds at least one pin per consumer it was granted to there
 *   (a newer grant to the same consumer replaces the older [P3]): a producer that pins another
 *   item than the one it grants, or releases a grant in the pump that sent it, is caught;
 * - an item holds at least one pin per grant of it that is *held*: open (not ACKed, lease not
 *   over) and not ended by anything that lets the producer end it early, as far as the simulator
 *   sees it (the holder reported unreachable or declared gone, a newer epoch of the holder [P8], a
 *   newer attempt of the holder for the item that the producer granted or refused by a check after
 *   the replacement, OVERLOADED or INTERNAL, and not sent under a stale epoch of the holder, which
 *   the producer must ignore [P3][P7][P8], the producer's shutdown [P7]). A newer attempt
 *   replaces whichever held grants of the holder for the item have an older attempt id [P3]: a
 *   grant its ACK or lease ended, or one excused, is replaced no more, so a grant of an older
 *   attempt sent after it (a reordered ReadRequest, answered once no grant was live) is the one
 *   replaced. A producer that
 *   releases a grant before its ACK or lease end is caught while its counts agree with each other
 *   (the core's grants and the store's pins fall together): nothing else tells the grant is still
 *   live but the wire. {@link GrantLedger.heldGrants} tells the same at the moment the simulator
 *   frees an item's memory: an item evicted under a held grant is read by its consumer after the
 *   memory went [P6].
 * The store's total against the core's live grants is checked separately (`checkPins`).
 *
 * [P8] A consumer's newer epoch ends its older epoch's grants only where it reaches the producer
 * first: a crashed consumer's grants end with whichever comes first of its new epoch's first message
 * (when it asks that producer for something again), the producer's next send to it (unreachable: the
 * mock network refuses a crashed endpoint at once, as a reset connection does), its silence (three
 * heartbeat intervals) and the lease. A producer sends a heartbeat each interval (2 s) to every
 * consumer it holds grants of, so the new epoch comes first only for a consumer that restarts within
 * that interval and asks the producer before its next heartbeat: the `chaos` preset's 1 s restarts
 * do that now and then; `heavy`'s 3 s ones never do.
 *
 * [P3] A grant sent again (the answer to a duplicated ReadRequest) is the same grant with the lease
 * it has left, never more: `grant` reports one whose lease would end later than the lease it was
 * granted with (background failure #7), or one sent again after that lease ended (a correct
 * producer no longer holds it then, and grants anew under a new id).
 *
 * [I1] `mayLeaveUnanswered` tells which ReadRequests a producer may leave without an answer
 * (SPEC.md 4.3: a duplicate or stale one, against a live grant of the same consumer and item). Asked
 * as a request is handed to the producer: a grant ACKed before then, or whose lease is over, is no
 * longer live, so a late copy of its request is owed an answer; a copy handed over before the ACK,
 * in the same pump, was a duplicate when the producer handled it. Only the grants of the request's
 * own epoch count [P8]: those of the consumer's older epochs were released when a newer one reached
 * the producer, and a request of an older epoch than the greatest is stale whatever it meets. Nor do
 * those released when the consumer was declared gone or reported unreachable: they stay released
 * (SPEC.md 8, reconnection), and the producer serves the consumer's later requests, of the same
 * epoch too, anew (SPEC.md 4). (A grant sent in the pump of the notice stays counted: the wire does
 * not tell one queued before the notice from one answering a request taken after it.)
 * @module
 */

/** SPEC.md section 4.4: a ReadGrant's `lease_ms` of 0 means this many milliseconds. */
const DEFAULT_LEASE_MS = 30_000;

/**
 * Slack when comparing a resent grant's lease end with its first one, ms: the producer computes the
 * whole milliseconds left (`floor(deadline - now)`) in floating point, which may round up by less
 * than this where `deadline - now` is within a rounding error of a whole number.
 */
const LEASE_END_SLACK_MS = 1e-6;

/**
 * [P3] Grant ids by deadline, earliest first (a binary min-heap: each grant's lease is its own, so
 * the order sent is not the order due), taken once due.
 */
class DueHeap {
  private readonly at: number[] = [];
  private readonly ids: number[] = [];

  push(id: number, at: number): void {
    const ats = this.at;
    const ids = this.ids;
    let i = ats.length;
    ats.push(at);
    ids.push(id);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((ats[parent] as number) <= at) break;
      ats[i] = ats[parent] as number;
      ids[i] = ids[parent] as number;
      i = parent;
    }
    ats[i] = at;
    ids[i] = id;
  }

  /** Take every id due by `now` (its deadline at or before it), earliest first, handing each to `take`. */
  takeDue(now: number, take: (id: number) => void): void {
    const ats = this.at;
    const ids = this.ids;
    while (ats.length > 0 && (ats[0] as number) <= now) {
      const id = ids[0] as number;
      const lastAt = ats.pop() as number;
      const lastId = ids.pop() as number;
      const n = ats.length;
      if (n > 0) {
        let i = 0;
        for (;;) {
          const l = 2 * i + 1;
          if (l >= n) break;
          const c = l + 1 < n && (ats[l + 1] as number) < (ats[l] as number) ? l + 1 : l;
          if (lastAt <= (ats[c] as number)) break;
          ats[i] = ats[c] as number;
          ids[i] = ids[c] as number;
          i = c;
        }
        ats[i] = lastAt;
        ids[i] = lastId;
      }
      take(id);
    }
  }
}

interface Grant {
  readonly keyId: string;
  readonly holder: string;
  /** `holder` NUL `keyId`: its key in {@link GrantLedger}'s per consumer and item maps. */
  readonly holderKey: string;
  /** The attempt id of the ReadRequest it answers. */
  readonly attemptId: number;
  /** The holder's epoch that ReadRequest was sent under (0: unknown) [P8]. */
  readonly epoch: number;
  readonly leaseEnd: number;
  /** Its lease's length, ms (how long it is remembered after its lease end). */
  readonly leaseMs: number;
  /** Ended (ACKed or lease over); kept until its lease end, as the producer may still send it again. */
  ended: boolean;
  /**
   * The producer may have ended it early (see {@link GrantLedger.peerGone}, {@link GrantLedger.newEpoch},
   * {@link GrantLedger.grant}, {@link GrantLedger.refused}, {@link GrantLedger.shutDown}): it owes no
   * pin from then on. Open and not excused, it is held.
   */
  excused: boolean;
}

/** Add `g` to its consumer and item's list in `byHolderKey`. */
function addTo(byHolderKey: Map<string, Grant[]>, g: Grant): void {
  const list = byHolderKey.get(g.holderKey);
  if (list === undefined) byHolderKey.set(g.holderKey, [g]);
  else list.push(g);
}

/** Take `g` out of its consumer and item's list in `byHolderKey`, if it is there. */
function removeFrom(byHolderKey: Map<string, Grant[]>, g: Grant): void {
  const list = byHolderKey.get(g.holderKey);
  const i = list === undefined ? -1 : list.indexOf(g);
  if (list === undefined || i < 0) return;
  if (list.length === 1) byHolderKey.delete(g.holderKey);
  else list.splice(i, 1);
}

/** The wire's grants of one producer epoch (a restarted producer gets a new ledger). */
export class GrantLedger {
  /**
   * Grants sent whose lease has not ended, open or ended: a grant the producer sends again (a
   * duplicated ReadRequest handled before its ACK in the same pump) is the same grant. Past its
   * lease end a correct producer never sends it again, so it moves to `expired` then.
   */
  private readonly grants = new Map<number, Grant>();
  private readonly openByKey = new Map<string, number>();
  /** [P3] Grant ids by lease end, each grant's own (its `lease_ms` from when it was sent). */
  private readonly byLease = new DueHeap();
  /**
   * [P3] Grants whose lease is over, by id, each until one more lease length has passed (so the
   * ledger stays bounded): sending one again is reported, not taken as a new grant.
   */
  private readonly expired = new Map<number, Grant>();
  /** Ids of `expired` by when they are forgotten (lease end plus their own lease length). */
  private readonly byExpiry = new DueHeap();
  /** Items whose open grants fell since the last check. */
  private readonly fell = new Set<string>();
  /** Grants sent since the last check and still open. */
  private readonly sent = new Set<number>();
  /** Consumers reported gone (see {@link GrantLedger.peerGone}) since the last check (it may have released their grants). */
  private readonly gone = new Set<string>();
  /**
   * Per consumer and item (`holder` NUL `keyId`), its open grants (not ACKed, lease not over) but
   * those released with their holder gone [P8]: those not excused are held, and a newer attempt of
   * the consumer replaces them [P3]; excused ones too make a request go unanswered, generously
   * ({@link GrantLedger.mayLeaveUnanswered} [I1]).
   */
  private readonly openOf = new Map<string, Grant[]>();
  /** [I3][P2] Per item, its held grants (open, not excused): the pins it holds at the least. */
  private readonly heldByKey = new Map<string, number>();
  /** Per item held short of pins, how many it lacked at the last check (a shortfall is reported when it grows). */
  private readonly shortOf = new Map<string, number>();
  /** The producer was shut down [P7]: it may end every grant. */
  private closed = false;
  /** [P8] The greatest epoch of each consumer that has reached the producer (see {@link GrantLedger.newEpoch}). */
  private readonly epochs = new Map<string, number>();

  /**
   * The producer sent a ReadGrant at `now`. A grant id seen before is the same grant resent (its
   * lease unchanged): returned is what is wrong with it when it names another holder, item or
   * attempt than it was granted with, when its `leaseMs` would end it later than it was granted to,
   * or when its lease is already over [P3]; otherwise `undefined`. `attemptId`
   * is the attempt the grant answers (0: unknown), for {@link GrantLedger.mayLeaveUnanswered}.
   * `replaces` is false for a grant answering a ReadRequest of a stale epoch of `holder` (stale when
   * handed over: one the producer had to ignore [P8], section 3.7): it replaces no grant of the
   * holder's current epoch. `epoch` is the holder's epoch the ReadRequest was sent under (by default
   * its greatest so far); a grant that answers one current when handed over, and older than the
   * holder's greatest now, is void as it is sent [P8].
   */
  grant(
    grantId: number,
    keyId: string,
    holder: string,
    leaseMs: number,
    now: number,
    attemptId = 0,
    replaces = true,
    epoch = this.epochOf(holder),
  ): string | undefined {
    const lease = leaseMs > 0 ? leaseMs : DEFAULT_LEASE_MS;
    const known = this.grants.get(grantId);
    if (known !== undefined) {
      // [P3] SPEC.md 4.3: a grant sent again is the same grant: same holder, item and attempt.
      const otherAttempt = attemptId !== 0 && known.attemptId !== 0 && attemptId !== known.attemptId;
      if (holder !== known.holder || keyId !== known.keyId || otherAttempt)
        return `grant ${grantId} sent to ${holder} for item ${keyId} (attempt ${attemptId}), but it was granted to ${known.holder} for item ${known.keyId} (attempt ${known.attemptId}): a grant id sent again must be that same grant [P3]`;
      const end = now + lease;
      if (end <= known.leaseEnd + LEASE_END_SLACK_MS) return undefined;
      return `grant ${grantId} (item ${known.keyId}) sent again to ${holder} with lease_ms ${leaseMs}, which would end its lease at ${end.toFixed(3)} ms; it was granted to end at ${known.leaseEnd.toFixed(3)} ms (at most ${Math.floor(known.leaseEnd - now)} ms left) [P3]`;
    }
    const expired = this.expired.get(grantId);
    if (expired !== undefined)
      return `grant ${grantId} (item ${expired.keyId}) sent again to ${holder} with lease_ms ${leaseMs} after its lease ended at ${expired.leaseEnd.toFixed(3)} ms [P3]`;
    // [P8] Answering a ReadRequest current when the producer took it, of an epoch older than its
    // holder's greatest now: the newer epoch came later in the same pump, and released it.
    const voided = replaces && epoch < this.epochOf(holder);
    // Sent to a holder reported gone in this pump (queued before the notice came), or after a shutdown: excused at once.
    const excused = this.closed || this.gone.has(holder) || voided;
    const hk = `${holder}\u0000${keyId}`;
    const g: Grant = { keyId, holder, holderKey: hk, attemptId, epoch, leaseEnd: now + lease, leaseMs: lease, ended: false, excused };
    this.grants.set(grantId, g);
    if (replaces) {
      // [P3] A newer attempt's grant replaces the holder's older grant of the item.
      this.replaceOlder(hk, attemptId, epoch);
      addTo(this.openOf, g);
    }
    this.openByKey.set(keyId, (this.openByKey.get(keyId) ?? 0) + 1);
    if (!excused) this.heldByKey.set(keyId, (this.heldByKey.get(keyId) ?? 0) + 1);
    this.byLease.push(grantId, g.leaseEnd);
    if (!voided) this.sent.add(grantId); // (a voided one may be released in the pump that sent it)
    return undefined;
  }

  /** A ReadComplete from `from` reached the producer: it ends the grant if `from` holds it [P2]. */
  complete(grantId: number, from: string): void {
    const g = this.grants.get(grantId);
    if (g !== undefined && !g.ended && g.holder === from) this.end(grantId, g);
  }

  /**
   * The producer was told `peer` is unreachable, or declared it gone (its `disconnect-peer`): the
   * grants it made to `peer` may end now, the ones it sends in the same pump included (queued before
   * the notice came) [P8]. Those made so far are released, and stay released (SPEC.md 8,
   * reconnection): no longer live, they make none of `peer`'s later ReadRequests, of the same epoch
   * included, a duplicate or stale (see {@link GrantLedger.mayLeaveUnanswered}).
   */
  peerGone(peer: string): void {
    this.gone.add(peer);
    for (const g of this.grants.values()) {
      if (g.holder !== peer) continue;
      this.excuse(g);
      removeFrom(this.openOf, g); // [I1][P8] released: a producer serves a gone consumer's requests anew (SPEC.md 4)
    }
  }

  /**
   * A message of `peer`'s `epoch` reached the producer: when it is greater than any before, the
   * grants it made to `peer`'s older epochs may end now [P8] (and no longer make its ReadRequests
   * duplicates or stale: see {@link GrantLedger.mayLeaveUnanswered}).
   */
  newEpoch(peer: string, epoch: number): void {
    if (epoch <= this.epochOf(peer)) return;
    this.epochs.set(peer, epoch);
    for (const g of this.grants.values()) if (g.holder === peer && g.epoch < epoch) this.excuse(g);
  }

  /** [P8] The greatest epoch of `peer` that has reached the producer (0: none). */
  epochOf(peer: string): number {
    return this.epochs.get(peer) ?? 0;
  }

  /**
   * The producer refused `holder`'s ReadRequest for `keyId` with `attemptId`, one of the holder's
   * `epoch` (current when handed over; by default its greatest so far), with a reason that may come
   * after [P7] check 8 (OVERLOADED, INTERNAL): an attempt newer than the holder's live grant of the
   * item, of that epoch, may have replaced it, the older grant released before the refusal [P3].
   * (Its grant replaces it too: see {@link GrantLedger.grant}.)
   */
  refused(holder: string, keyId: string, attemptId: number, epoch = this.epochOf(holder)): void {
    this.replaceOlder(`${holder}\u0000${keyId}`, attemptId, epoch);
  }

  /** The producer was shut down [P7]: it releases every grant (and grants no more). */
  shutDown(): void {
    this.closed = true;
    for (const g of this.grants.values()) this.excuse(g);
  }

  /**
   * [I3][P2] How many grants of `keyId` are held at `now` (open: not ACKed, lease not over; not
   * ended early by a rule that allows it): while one is, the item must stay pinned and its memory
   * must not be freed or reused [P6]. Ends the grants whose lease ended by `now` first.
   */
  heldGrants(keyId: string, now: number): number {
    this.expire(now);
    return this.heldByKey.get(keyId) ?? 0;
  }

  /**
   * [I1] Whether a producer may leave a ReadRequest of `holder`'s `epoch` for `keyId` with `attemptId`,
   * handed to it at `now`, without an answer (SPEC.md 4.3): when a grant of `holder`'s `epoch` for the
   * item with that attempt id (a duplicate: it MAY be resent) or a greater one (a stale request) is
   * live now: not ACKed, its lease not over [P3]. Asked before the request is handed over: an ACK
   * handed over after it, in the same pump, ended the grant after the producer took the request as a
   * duplicate. Generous: a grant the producer may have let go early (excused) still counts, so only a
   * request the producer surely owes an answer gets `false`; but a grant of another epoch never does
   * ([P8]): one of an older epoch is void once a newer one reaches the producer, which releases it (the
   * newer epoch's requests meet no live grant, even where their attempt ids repeat the older's), and
   * a request of an older epoch than the greatest is stale whatever it meets. Nor does one released
   * when its holder was declared gone or reported unreachable ({@link GrantLedger.peerGone}).
   */
  mayLeaveUnanswered(holder: string, keyId: string, attemptId: number, now: number, epoch = this.epochOf(holder)): boolean {
    this.expire(now);
    const open = this.openOf.get(`${holder}\u0000${keyId}`);
    return open?.some((g) => g.epoch === epoch && g.attemptId >= attemptId) === true;
  }

  /**
   * End the grants whose lease ended by `now`, then compare the store's pins (`pinsOf`) with
   * the open grants of every item changed since the last check, and with the held grants of every
   * item that has one. Returns what they contradict.
   */
  check(now: number, pinsOf: (keyId: string) => number): string[] {
    this.expire(now);
    const problems: string[] = [];
    for (const keyId of this.fell) {
      const pins = pinsOf(keyId);
      const open = this.openByKey.get(keyId) ?? 0;
      if (pins > open)
        problems.push(`item ${keyId} holds ${pins} pins, but only ${open} of its grants are live on the wire (not ACKed, lease not over) [P2][P3]`);
    }
    // Each item just granted holds a pin per consumer it went to (a newer grant to the same
    // consumer replaces the older [P3]), but for consumers reported unreachable meanwhile.
    const holders = new Map<string, Set<string>>();
    for (const id of this.sent) {
      const g = this.grants.get(id) as Grant;
      if (this.gone.has(g.holder)) continue;
      const set = holders.get(g.keyId);
      if (set === undefined) holders.set(g.keyId, new Set([g.holder]));
      else set.add(g.holder);
    }
    let reported: Set<string> | undefined;
    for (const [keyId, set] of holders) {
      const pins = pinsOf(keyId);
      if (pins >= set.size) continue;
      problems.push(`item ${keyId} was just granted to ${set.size} consumer(s) (${[...set].join(", ")}), but holds ${pins} pins [P2]`);
      reported ??= new Set();
      reported.add(keyId);
    }
    // [I3][P2] Every item holds a pin per held grant: one short was released early (before its ACK
    // or lease end, by no rule that allows it), though the producer's own counts may agree. Reported
    // when the shortfall grows (not again at every check while it lasts), unless reported just above.
    for (const [keyId, held] of this.heldByKey) {
      const pins = pinsOf(keyId);
      const short = held - pins;
      if (short > (this.shortOf.get(keyId) ?? 0) && reported?.has(keyId) !== true)
        problems.push(
          `item ${keyId} holds ${pins} pins, but ${held} of its grants are live on the wire (not ACKed, lease not over), none of which the producer may end early (holder gone or of a newer epoch, a newer attempt, shutdown): a grant was released before its ACK or lease end [I3][P2]`,
        );
      if (short > 0) this.shortOf.set(keyId, short);
      else this.shortOf.delete(keyId);
    }
    this.fell.clear();
    this.sent.clear();
    this.gone.clear();
    return problems;
  }

  /** End the grants whose lease ended by `now`, and forget those expired for one more lease. */
  private expire(now: number): void {
    this.byExpiry.takeDue(now, (id) => this.expired.delete(id));
    this.byLease.takeDue(now, (id) => {
      const g = this.grants.get(id) as Grant;
      if (!g.ended) this.end(id, g);
      this.grants.delete(id);
      this.expired.set(id, g);
      this.byExpiry.push(id, g.leaseEnd + g.leaseMs);
    });
  }

  private end(grantId: number, g: Grant): void {
    if (!g.excused) this.unhold(g.keyId);
    removeFrom(this.openOf, g);
    g.ended = true;
    const left = (this.openByKey.get(g.keyId) ?? 1) - 1;
    if (left === 0) this.openByKey.delete(g.keyId);
    else this.openByKey.set(g.keyId, left);
    this.fell.add(g.keyId);
    // Ended before the check (the producer may be pumped again before it): no pin owed for it.
    this.sent.delete(grantId);
  }

  /** The producer may end `g` early from now on (a no-op for a grant ended or excused already). */
  private excuse(g: Grant): void {
    if (g.ended || g.excused) return;
    g.excused = true;
    this.unhold(g.keyId);
  }

  /**
   * [P3] An attempt `attemptId` of the consumer's `epoch` and item `hk` passed the checks before the
   * replacement: the producer may have released each of their held grants of an older attempt of
   * that epoch (those of its older epochs were excused when the newer one came [P8]).
   */
  private replaceOlder(hk: string, attemptId: number, epoch: number): void {
    for (const g of this.openOf.get(hk) ?? []) if (g.epoch === epoch && g.attemptId < attemptId) this.excuse(g); // (one excused already: a no-op)
  }

  /** One held grant of `keyId` fewer. */
  private unhold(keyId: string): void {
    const left = (this.heldByKey.get(keyId) ?? 1) - 1;
    if (left > 0) {
      this.heldByKey.set(keyId, left);
      return;
    }
    this.heldByKey.delete(keyId);
    this.shortOf.delete(keyId);
  }
}
