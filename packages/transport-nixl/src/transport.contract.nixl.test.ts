/**
 * The shared Transport contract (packages/transport-mock/src/contract) run over two real
 * NIXL agents in this process. Skipped, with the reason in the title, without the addon.
 */
import { describe } from "vitest";
import { describeTransportContract } from "../../transport-mock/src/contract/transport-contract.js";
import { NIXL_MISSING, NIXL_SKIP_REASON, connectedPair, until } from "./test/helpers.js";

describe.skipIf(NIXL_MISSING)(`NixlTransport contract${NIXL_SKIP_REASON}`, () => {
  describeTransportContract("NixlTransport (two agents, UCX)", async () => {
    const { a, b } = await connectedPair();
    return {
      a,
      b,
      until: (done, what) => until([a, b], done, what),
      async dispose() {
        await a.close();
        await b.close();
      },
    };
  });
});
