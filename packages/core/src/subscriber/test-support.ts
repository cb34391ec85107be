/** Helpers shared by the subscriber's tests (not exported from the package). */
import { SPEC_VERSION, type ectp, itemKeyId } from "@ectp/protocol";
import type { MemoryItemStore } from "../producer/memory-store.js";
import { FP, desc } from "../producer/test-helpers.js";
import { EventSubscriber, type SubscriberOutput } from "./subscriber.js";

/** The producer every test follows. */
export const P = "E";

/** The key ids of the store's ready items, sorted: the set a subscriber's view must converge to. */
export function readyKeys(store: MemoryItemStore): string[] {
  return [...store.readyItems()].map((e) => e.keyId).sort();
}

/** The key ids of `sub`'s view of {@link P}, sorted; undefined while it has none. */
export function viewKeys(sub: EventSubscriber): string[] | undefined {
  const v = sub.view(P);
  return v === undefined ? undefined : [...v.keys()].sort();
}

/** The item key id of test item `n` (`desc(n)`). */
export function key(n: number): string {
  const r = itemKeyId(desc(n).key);
  if (!r.ok) throw r.error;
  return r.value;
}

/** A subscriber R (epoch 1) following P since time 0, its first Hello and SnapshotRequest polled. */
export function following(options: Partial<ConstructorParameters<typeof EventSubscriber>[0]> = {}): EventSubscriber {
  const sub = new EventSubscriber({ id: "R", epoch: 1, fingerprint: FP, ...options });
  sub.follow(P, 0);
  sub.poll(0);
  return sub;
}

/** An envelope from P at `epoch` carrying `body`. */
export function env(epoch: number, body: ectp.v1.IEnvelope): ectp.v1.IEnvelope {
  return { version: SPEC_VERSION, senderId: P, senderEpoch: epoch, ...body };
}

/** An EventBatch body: batch `sequence` storing test item `n`. */
export function batch(sequence: number, n: number): ectp.v1.IEnvelope {
  return { eventBatch: { sequence, events: [{ stored: { item: desc(n) } }] } };
}

/** What each output is: the body name of a send, else the output's type. */
export function bodies(outs: SubscriberOutput[]): (string | undefined)[] {
  return outs.map((o) => (o.type === "send" ? Object.keys(o.envelope).find((k) => !["version", "senderId", "senderEpoch"].includes(k)) : o.type));
}

/** The from_sequence of every ReplayRequest among `outs`. */
export function replayFrom(outs: SubscriberOutput[]): unknown[] {
  return outs.flatMap((o) => (o.type === "send" && o.envelope.replayRequest ? [o.envelope.replayRequest.fromSequence] : []));
}
