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
  /**
   * What went wrong ({@link TesteeFaultKind}): `hung` (no response within the command timeout),
   * `exited` (the process ended), `malformed` (output that breaks TESTEE-PROTOCOL.md) or
   * `spawn-failed` (the process could not be started).
   */
  readonly kind: TesteeFaultKind;
  /** Last bytes of the testee's stderr (empty for in-process testees). */
  readonly stderrTail: string;
  /** The message without its kind and stderr tail. */
  readonly detail: string;
  /**
   * Set for output that came when no answer was due (a second answer, or output written unasked,
   * part of a line or frame included, also one read in front of the next command's answer):
   * the id of the command answered last before it. TESTEE-PROTOCOL.md §2: such output fails the case
   * of that command, which may be the case before the one running when it was read.
   */
  readonly afterCommand: number | undefined;

  /**
   * @param kind - what went wrong.
   * @param message - details (exit code, timeout, parse error).
   * @param stderrTail - the tail of the testee's stderr.
   * @param afterCommand - for output no command was waiting for: the id of the command answered last.
   */
  constructor(kind: TesteeFaultKind, message: string, stderrTail = "", afterCommand?: number) {
    super(`testee ${kind}: ${message}${stderrTail ? `\n--- testee stderr (tail) ---\n${stderrTail}` : ""}`);
    this.name = "TesteeFault";
    this.kind = kind;
    this.stderrTail = stderrTail;
    this.detail = message;
    this.afterCommand = afterCommand;
  }

  /** The same fault, naming the command that was waiting for its answer (`what`, e.g. "putItem at t=0"). */
  during(what: string): TesteeFault {
    return new TesteeFault(this.kind, `${this.detail} (while ${what} waited for its answer)`, this.stderrTail, this.afterCommand);
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
   * an unasked response), possibly after its last answer; undefined while alive. Once the runner
   * closed it: what the testee wrote after its last answer, before it exited (else undefined).
   */
  readonly fault?: TesteeFault | undefined;
  /** The testee's answer to Init. Its `features` are informative: the runner follows the features file and warns about differences. */
  readonly initResult?: ectp.conformance.v1.IInitResult | undefined;
  /** Stop the testee (EOF, then SIGTERM, then SIGKILL). Never throws. */
  close(): Promise<void>;
  /** What the runner keeps of the testee's stderr (its last bytes), for a testee that has one (a subprocess). */
  stderrTail?(): string;
  /**
   * How many characters the testee has written to stderr so far, kept or not (with {@link
   * TesteeConnection.stderrTail}): what a case's failure shows is exactly what came after the count
   * taken when the case began.
   */
  stderrWritten?(): number;
}

/** Makes fresh testee connections (one per restart). */
export type TesteeFactory = () => Promise<TesteeConnection>;

/**
 * `conn` with its requests sent through `request` (which calls `conn.request` itself, or refuses):
 * everything else (`alive`, `fault`, `initResult`, `close`) is `conn`'s.
 */
export function withRequests(
  conn: TesteeConnection,
  request: (req: ectp.conformance.v1.ITesteeRequest) => Promise<ectp.conformance.v1.TesteeResponse>,
): TesteeConnection {
  return {
    get alive() {
      return conn.alive;
    },
    get fault() {
      return conn.fault;
    },
    get initResult() {
      return conn.initResult;
    },
    request,
    close: () => conn.close(),
    ...(conn.stderrTail !== undefined ? { stderrTail: () => conn.stderrTail?.() ?? "" } : {}),
    ...(conn.stderrWritten !== undefined ? { stderrWritten: () => conn.stderrWritten?.() ?? 0 } : {}),
  };
}
