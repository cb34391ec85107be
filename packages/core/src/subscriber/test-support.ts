/** Helpers shared by the subscriber's tests (not exported from the package). */
import { itemKeyId } from "@ectp/protocol";
import { FP, desc } from "../producer/test-helpers.js";
import { EventSubscriber } from "./subscriber.js";

/** The producer every test follows. */
export const P = "E";

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
