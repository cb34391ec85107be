/**
 * A testee living in the runner's own process: the same protocol, minus the pipe.
 * @module
 */
import { TESTEE_PROTOCOL_VERSION, TesteeRequest, TesteeResponse, type ectp } from "../proto.js";
import { type TesteeConnection, TesteeFault } from "./connection.js";
import { thrownStack } from "../thrown.js";

/**
 * Anything that answers testee requests synchronously or asynchronously, e.g. the TS
 * adapter of `testees/ts` over `@ectp/core`. Implement this to run the suite against
 * your own in-process implementation without writing a subprocess testee.
 */
export interface TesteeHandler {
  /** Answer one request (command_id already set; echo it). Throwing counts as a crash. */
  handle(request: ectp.conformance.v1.TesteeRequest): ectp.conformance.v1.ITesteeResponse | Promise<ectp.conformance.v1.ITesteeResponse>;
}

/**
 * Wrap a handler as a connection. Requests and responses still go through the binary
 * encoding, so an in-process run exercises the same wire forms as a subprocess run; a
 * handler that throws is reported like a crashed process.
 */
export async function inProcessTestee(handler: TesteeHandler): Promise<TesteeConnection> {
  let nextId = 1;
  let dead: TesteeFault | undefined;
  let initResult: ectp.conformance.v1.IInitResult | undefined;
  const conn: TesteeConnection = {
    get alive() {
      return dead === undefined;
    },
    get initResult() {
      return initResult;
    },
    async request(req) {
      if (dead) throw dead;
      const commandId = nextId++;
      const bytes = TesteeRequest.encode(TesteeRequest.fromObject({ ...req, commandId } as Record<string, unknown>)).finish();
      let out: ectp.conformance.v1.ITesteeResponse;
      try {
        out = await handler.handle(TesteeRequest.decode(bytes));
      } catch (err) {
        dead = new TesteeFault("exited", `handler threw: ${thrownStack(err)}`);
        throw dead;
      }
      let res: ectp.conformance.v1.TesteeResponse;
      try {
        res = TesteeResponse.decode(TesteeResponse.encode(TesteeResponse.fromObject(out as Record<string, unknown>)).finish());
      } catch (err) {
        dead = new TesteeFault("malformed", `handler returned an unencodable response: ${(err as Error).message}`);
        throw dead;
      }
      if (Number(res.commandId) !== commandId) {
        dead = new TesteeFault("malformed", `response echoes command_id ${String(res.commandId)}; expected ${commandId}`);
        throw dead;
      }
      return res;
    },
    async close() {
      dead ??= new TesteeFault("exited", "closed by the runner");
    },
  };
  const init = await conn.request({ init: { protocolVersion: TESTEE_PROTOCOL_VERSION } });
  if (!init.init) throw new TesteeFault("malformed", "in-process testee did not answer Init with InitResult");
  if (Number(init.init.protocolVersion) !== TESTEE_PROTOCOL_VERSION)
    throw new TesteeFault("malformed", `in-process testee answered Init with protocol_version ${String(init.init.protocolVersion)}; it MUST be ${TESTEE_PROTOCOL_VERSION}`);
  initResult = init.init;
  return conn;
}
