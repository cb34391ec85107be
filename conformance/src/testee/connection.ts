/**
 * The runner's side of one testee: send a request, get its response.
 * @module
 */
import type { ectp } from "../proto.js";

/** Why a testee could not answer: the case fails with this, and the testee is restarted. */
export type TesteeFaultKind = "hung" | "exited" | "malformed" | "spawn-failed";

/**
 * A testee failed at the process level (crash, hang, malformed output), as opposed to
 * answering `Error`. Carries the tail of its stderr so the report shows what it said.
 */
export class TesteeFault extends Error {
  /** What went wrong. */
  readonly kind: TesteeFaultKind;
  /** Last bytes of the testee's stderr (empty for in-process testees). */
  readonly stderrTail: string;
  /** The message without its kind and stderr tail. */
  readonly detail: string;

  /**
   * @param kind - what went wrong.
   * @param message - details (exit code, timeout, parse error).
   * @param stderrTail - the tail of the testee's stderr.
   */
  constructor(kind: TesteeFaultKind, message: string, stderrTail = "") {
    super(`testee ${kind}: ${message}${stderrTail ? `\n--- testee stderr (tail) ---\n${stderrTail}` : ""}`);
    this.name = "TesteeFault";
    this.kind = kind;
    this.stderrTail = stderrTail;
    this.detail = message;
  }

  /** The same fault, naming the command that was waiting for its answer (`what`, e.g. "putItem at t=0"). */
  during(what: string): TesteeFault {
    return new TesteeFault(this.kind, `${this.detail} (while ${what} waited for its answer)`, this.stderrTail);
  }
}

/**
 * One live testee. Requests are answered one at a time, in order; `request` rejects with
 * a {@link TesteeFault} when the testee hangs, exits or writes garbage, after which the
 * connection is dead and {@link TesteeFactory} makes a new one.
 */
export interface TesteeConnection {
  /** Send one request (command_id is filled in) and wait for its response. */
  request(req: ectp.conformance.v1.ITesteeRequest): Promise<ectp.conformance.v1.TesteeResponse>;
  /** Whether the connection can still take requests. */
  readonly alive: boolean;
  /**
   * Why the connection died, when the testee did something wrong (exited, hung, wrote garbage or
   * an unasked response), possibly after its last answer; undefined while alive or once closed.
   */
  readonly fault?: TesteeFault;
  /** The testee's answer to Init. Its `features` are informative: the runner follows the features file and warns about differences. */
  readonly initResult?: ectp.conformance.v1.IInitResult;
  /** Stop the testee (EOF, then SIGTERM, then SIGKILL). Never throws. */
  close(): Promise<void>;
}

/** Makes fresh testee connections (one per restart). */
export type TesteeFactory = () => Promise<TesteeConnection>;
