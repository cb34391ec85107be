/**
 * A message sent right before close() on a connection that has carried nothing yet (UCX wires an
 * endpoint up on its first use) was dropped by close() though the peer was alive and polling: no
 * send failure, no unreachable report, so a producer's last words (Cleared with cause SHUTDOWN
 * [P7]) were lost. close() now lets the worker progress briefly after a recent send. Skipped
 * without the addon.
 */
import type { ReceivedMessage } from "@ectp/core";
import { afterEach, describe, expect, it } from "vitest";
import { NIXL_MISSING, NIXL_SKIP_REASON, open, pair, pattern, until } from "./test/helpers.js";

describe.skipIf(NIXL_MISSING)(`NixlTransport messages sent before close()${NIXL_SKIP_REASON}`, () => {
  afterEach(async () => {
    await Promise.all(open.splice(0).map((t) => t.close()));
  }, 30_000);

  it("a message sent just before close() reaches its live peer, also as the connection's first", async () => {
    let lost = 0;
    for (let k = 0; k < 10; k++) {
      const { a, b } = await pair();
      a.send(b.localId, pattern(100, k));
      const closing = a.close();
      const got: ReceivedMessage[] = [];
      try {
        await until([b], () => got.push(...b.poll().messages) >= 1, "the message", 2000);
      } catch {
        lost++;
      }
      await closing;
      await Promise.all(open.splice(0).map((t) => t.close()));
    }
    expect(lost).toBe(0);
  }, 60_000);
});
