/**
 * A testee running as a child process, spoken to over stdin/stdout
 * (TESTEE-PROTOCOL.md §2-3): size-delimited binary frames (4-byte big-endian length) or
 * proto3 JSON lines.
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { EctpError, FrameDecoder, encodeFrame } from "@ectp/protocol";
import { TESTEE_PROTOCOL_VERSION, TesteeRequest, TesteeResponse, type ectp, RESULT_MEMBERS, requestToJson, responseFromJson, resultsSet } from "../proto.js";
import { type TesteeConnection, TesteeFault } from "./connection.js";

/** Options of {@link spawnTestee}. */
export interface SubprocessTesteeOptions {
  /** Shell command line that starts the testee (run with `sh -c`). */
  command: string;
  /** Speak JSON lines instead of binary frames. Default false. */
  jsonLines?: boolean | undefined;
  /** Milliseconds allowed per command before the testee is killed as hung. Default 5000. */
  commandTimeoutMs?: number | undefined;
  /** Extra environment variables. Default none. */
  env?: Record<string, string> | undefined;
  /** Working directory. Default the runner's. */
  cwd?: string | undefined;
  /** Milliseconds allowed for process start-up plus the answer to Init. Default max(10000, commandTimeoutMs). */
  startupTimeoutMs?: number | undefined;
  /** The last characters (UTF-16 code units: bytes for ASCII) of stderr kept for failure reports. Default 8192. */
  stderrTailBytes?: number | undefined;
  /**
   * Called when the testee breaks TESTEE-PROTOCOL.md §2's exit rules at close: still running 1 s
   * after EOF (then sent SIGTERM), or 1 s after SIGTERM too (then killed). With what it did.
   */
  onExitRuleBroken?: ((what: string) => void) | undefined;
  /** Called with the connection as soon as its process is spawned, before Init is answered (to end it on an interrupt). */
  onStart?: ((conn: TesteeConnection) => void) | undefined;
}

/** The value JSON.parse makes of `text`, or undefined for text that is not JSON. */
function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Whether `v` is a JSON response object echoing command `id` (commandId or command_id, as a string or a number). */
function echoes(v: unknown, id: number): boolean {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  const echoed = o.commandId ?? o.command_id;
  return (typeof echoed === "string" || typeof echoed === "number") && String(echoed) === String(id);
}

/** Largest response frame accepted; anything larger is a malformed (corrupt) stream. */
const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** TESTEE-PROTOCOL.md §2: how long a testee has to exit after EOF, and after SIGTERM, in ms. */
const EXIT_GRACE_MS = 1000;

/** How long, once a closed testee's group is gone, its stdout is still read for what it wrote last, in ms. */
const STDOUT_DRAIN_MS = 200;

/**
 * The process groups of testees still running (each group's leader pid). Killed (SIGKILL) when the
 * runner's process exits without having closed them, as when its standard output is closed under
 * `| head` (exit 141) or on SIGHUP (exit 129, as a shell reports it), so that neither a testee that
 * ignores EOF nor a helper in its group outlives the run (TESTEE-PROTOCOL.md §2). A group leaves the
 * set once it is gone or killed, before its pid could be reused.
 */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function trackGroup(pid: number): void {
  liveGroups.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", killLiveGroups);
  process.on("SIGHUP", () => {
    killLiveGroups();
    process.exit(129);
  });
}

function killLiveGroups(): void {
  for (const pid of liveGroups)
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // gone already
    }
  liveGroups.clear();
}

/**
 * Start a testee process and send it `Init`. Rejects with a {@link TesteeFault} when it
 * cannot be started or does not answer `Init` properly.
 */
export async function spawnTestee(options: SubprocessTesteeOptions): Promise<TesteeConnection> {
  const conn = new SubprocessTestee(options);
  options.onStart?.(conn);
  const res = await conn.request(
    { init: { protocolVersion: TESTEE_PROTOCOL_VERSION } },
    options.startupTimeoutMs ?? Math.max(10_000, options.commandTimeoutMs ?? 5000),
  );
  // Output unasked right after the answer to Init (TESTEE-PROTOCOL.md §2) has no case to fail: the testee does not start.
  const fault = conn.fault;
  if (fault !== undefined) {
    await conn.close();
    throw fault;
  }
  if (!res.init) {
    await conn.close();
    throw new TesteeFault("malformed", `testee answered Init with ${JSON.stringify(res.toJSON())}`, conn.stderrTail());
  }
  if (Number(res.init.protocolVersion) !== TESTEE_PROTOCOL_VERSION) {
    await conn.close();
    throw new TesteeFault(
      "malformed",
      `testee answered Init with protocol_version ${String(res.init.protocolVersion)}; it MUST echo the version asked for, ${TESTEE_PROTOCOL_VERSION} (TESTEE-PROTOCOL.md §2, item 3)`,
      conn.stderrTail(),
    );
  }
  conn.initResult = res.init;
  return conn;
}

/**
 * Whether every process of process group `pgid` is a zombie (Linux /proc): an orphaned helper
 * that exited stays in its group until its new parent reaps it, which a container's PID 1 may
 * never do. False when /proc cannot tell (another OS): the group counts as alive.
 */
function onlyZombiesIn(pgid: number | undefined): boolean {
  if (pgid === undefined) return false;
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return false;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "latin1");
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so read after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === pgid && fields[0] !== "Z") return false;
  }
  return true;
}

/** Bytes of the start of stdout kept for `formatHint`. */
const HEAD_BYTES = 16;

/**
 * A hint when the testee's first output looks like the other encoding (§3): JSON text where
 * binary frames were expected (a frame's length prefix never starts with `{`, that would be
 * over 2 GB), or a zero byte (the high byte of a length prefix) where JSON lines were.
 */
function formatHint(head: Buffer, jsonLines: boolean): string {
  const text = head.toString("latin1").trimStart();
  if (!jsonLines && (text.startsWith("{") || text.startsWith("[")))
    return (
      `; the testee's stdout starts with ${JSON.stringify(text)}, which looks like JSON text: ` +
      "if it speaks JSON lines, run with --json-lines (or make it write binary frames when ECTP_TESTEE_FORMAT=binary)"
    );
  if (jsonLines && head.length > 0 && head[0] === 0)
    return (
      "; the testee's stdout starts with a zero byte, which looks like a binary frame: if it speaks binary frames, " +
      "run without --json-lines (or make it write JSON lines when ECTP_TESTEE_FORMAT=json-lines)"
    );
  return "";
}

class SubprocessTestee implements TesteeConnection {
  initResult: ectp.conformance.v1.IInitResult | undefined;
  private readonly child: ChildProcess;
  private readonly json: boolean;
  private readonly timeoutMs: number;
  private readonly tailBytes: number;
  private stderrBuf = "";
  /** Characters written to stderr so far, kept or not (see {@link SubprocessTestee.stderrWritten}). */
  private stderrChars = 0;
  private nextId = 1;
  private dead: TesteeFault | undefined;
  private readonly decoder = new FrameDecoder({ maxFrameBytes: MAX_RESPONSE_BYTES });
  /** JSON lines: decodes UTF-8 across chunk boundaries (a character split over two reads stays whole). */
  private readonly text = new StringDecoder("utf8");
  /** JSON lines: the pieces of the line read so far (joined once, at its newline: a long line is read in linear time). */
  private lineParts: string[] = [];
  /** Characters in `lineParts`. */
  private lineLength = 0;
  /** Whether the line so far holds more than white space (its first character was checked). */
  private lineBegun = false;
  /** The command id awaiting its response (undefined between requests): a response with none outstanding is a fault. */
  private outstanding: number | undefined;
  /** Complete responses read from stdout so far (to say where in the stream bad output came). */
  private responses = 0;
  private readonly queue: Uint8Array[] | string[] = [];
  private waiter: ((fault?: TesteeFault) => void) | undefined;
  private exited = false;
  private closedByRunner = false;
  /** Output read while the runner closed the testee (after its last answer): reported as {@link fault}. */
  private strayAtClose: TesteeFault | undefined;
  /** The first bytes the testee wrote to stdout (to tell a wrong `--json-lines` setting from garbage). */
  private head = Buffer.alloc(0);
  /**
   * Stdout read since the runner took the last answer (kept until it takes the next): when that answer
   * comes out malformed, to tell whether it is output unasked (part of a line or frame) and then the answer whole.
   */
  private sinceAnswer: Buffer[] = [];
  /** The fault the connection died with when it was output unasked read in front of an answer ({@link strayBeforeAnswer}). */
  private strayInFront: TesteeFault | undefined;

  private readonly onExitRuleBroken: ((what: string) => void) | undefined;

  constructor(options: SubprocessTesteeOptions) {
    this.onExitRuleBroken = options.onExitRuleBroken;
    this.json = options.jsonLines ?? false;
    this.timeoutMs = options.commandTimeoutMs ?? 5000;
    this.tailBytes = options.stderrTailBytes ?? 8192;
    this.child = spawn("sh", ["-c", options.command], {
      cwd: options.cwd,
      env: {
        ...process.env,
        ...options.env,
        ECTP_TESTEE_FORMAT: this.json ? "json-lines" : "binary",
        ECTP_TESTEE_PROTOCOL: String(TESTEE_PROTOCOL_VERSION),
      },
      stdio: ["pipe", "pipe", "pipe"],
      detached: true, // own process group: a kill reaches the testee's children too
    });
    if (this.child.pid !== undefined) trackGroup(this.child.pid);
    this.child.stderr?.setEncoding("utf8");
    this.child.stderr?.on("data", (chunk: string) => {
      this.stderrChars += chunk.length;
      const kept = (this.stderrBuf + chunk).slice(-this.tailBytes);
      // Not from the second half of a surrogate pair: a lone half is no text (XML cannot carry it, strict JSON readers refuse it).
      this.stderrBuf = /^[\udc00-\udfff]/.test(kept) ? kept.slice(1) : kept;
    });
    this.child.stdout?.on("data", (chunk: Buffer) => this.onStdout(chunk));
    this.child.stdin?.on("error", () => {}); // EPIPE after a crash is reported via exit
    this.child.on("error", (err) => this.fail(new TesteeFault("spawn-failed", err.message, this.stderrTail())));
    this.child.on("exit", (code, signal) => {
      this.exited = true;
      this.fail(new TesteeFault("exited", `exited with ${signal ? `signal ${signal}` : `code ${code}`}`, this.stderrTail()));
    });
  }

  get alive(): boolean {
    return this.dead === undefined;
  }

  /** Why the connection died (undefined while alive); once the runner closed it, output written after the last answer. */
  get fault(): TesteeFault | undefined {
    return this.closedByRunner ? this.strayAtClose : this.dead;
  }

  stderrTail(): string {
    return this.stderrBuf;
  }

  stderrWritten(): number {
    return this.stderrChars;
  }

  private onStdout(chunk: Buffer): void {
    if (this.closedByRunner) {
      this.outputAtClose(chunk);
      return;
    }
    if (this.dead) return;
    this.sinceAnswer.push(chunk);
    if (this.head.length < HEAD_BYTES) this.head = Buffer.concat([this.head, chunk.subarray(0, HEAD_BYTES - this.head.length)]);
    try {
      if (this.json) this.readLines(this.text.write(chunk));
      else {
        for (const frame of this.decoder.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))) {
          (this.queue as Uint8Array[]).push(frame);
          this.responses++;
        }
      }
    } catch (err) {
      // Frames completed in the same chunk before the bad bytes were good responses too.
      const good = EctpError.is(err) ? ((err.details as { frames?: Uint8Array[] } | undefined)?.frames ?? []) : [];
      const before = good.length;
      const why = `unreadable output: ${this.unreadable(err, this.responses + before)}`;
      // Read after an answer (in the same chunk), or with no request waiting, it is output unasked
      // (TESTEE-PROTOCOL.md §2): a fault of the command answered last, which keeps its answer.
      if (!this.json) for (const frame of good) (this.queue as Uint8Array[]).push(frame);
      this.responses += this.json ? 0 : before;
      const lastAnswered = this.outstanding === undefined ? this.nextId - 1 : this.queue.length > 0 ? this.outstanding : 0;
      this.fail(
        lastAnswered > 0
          ? new TesteeFault("malformed", `output after the response to command ${lastAnswered}: ${why}`, this.stderrTail(), lastAnswered)
          : new TesteeFault("malformed", why, this.stderrTail()),
      );
      return;
    }
    const answered = this.queue.length > 0;
    // Exactly one response per request, in order (TESTEE-PROTOCOL.md §2): one more is a fault of the
    // command just answered, reported now rather than taken as the next command's answer.
    if (answered && (this.outstanding === undefined || this.queue.length > 1)) {
      const last = this.nextId - 1;
      this.fail(
        new TesteeFault(
          "malformed",
          `a response arrived with no request outstanding (after the response to command ${last}): a command answered twice, or output written unasked`,
          this.stderrTail(),
          last,
        ),
      );
      return;
    }
    // Part of a line or frame after the answer (or with none due) is output unasked as well, though
    // it may never be completed: a fault of the command answered last, reported now.
    if ((answered || this.outstanding === undefined) && this.partialBuffered()) {
      this.fail(this.strayPartial(false));
      return;
    }
    if (answered) this.wake();
  }

  /** Whether part of a line (JSON lines, white space aside) or of a frame (binary) has been read and not yet completed. */
  private partialBuffered(): boolean {
    return this.json ? this.lineBegun : this.decoder.bufferedBytes > 0;
  }

  /**
   * The fault for a partial line or frame read after the last answer (TESTEE-PROTOCOL.md §2:
   * output unasked), found as it arrived or, `atClose`, still held as the runner closed the testee.
   */
  private strayPartial(atClose: boolean): TesteeFault {
    const last = this.nextId - 1;
    let what: string;
    if (this.json) {
      const text = this.lineParts.join("").trimStart();
      const shown = text.length > 32 ? `${JSON.stringify(text.slice(0, 32))}…` : JSON.stringify(text);
      what = `part of a line with no line end (${text.length} characters, starting ${shown})`;
    } else what = `part of a frame (${this.decoder.bufferedBytes} bytes, no whole frame)`;
    return new TesteeFault(
      "malformed",
      `output after the response to command ${last}${atClose ? ", its last answer," : ""}: ${what}${atClose ? ", held as the runner closed it" : ""}: a command answered twice, or output written unasked`,
      this.stderrTail(),
      last,
    );
  }

  /**
   * TESTEE-PROTOCOL.md §2: part of a line or frame written after the last answer but read only once
   * the next command had gone out, then that command's answer whole. Read as one, the two are a
   * malformed answer; told apart, the first is output unasked, a fault of the command answered last
   * (as it is when read before the command went out), named here. Undefined when the output read
   * since the last answer is not such a piece followed by an answer echoing the command waiting.
   */
  private strayBeforeAnswer(): TesteeFault | undefined {
    const waiting = this.outstanding;
    if (waiting === undefined || waiting <= 1 || this.sinceAnswer.length === 0) return undefined;
    const bytes = Buffer.concat(this.sinceAnswer);
    let what: string | undefined;
    if (this.json) {
      const text = bytes.toString("utf8");
      const start = text.length - text.trimStart().length;
      const nl = text.indexOf("\n", start);
      const line = nl < 0 ? "" : text.slice(start, nl);
      // The answer starts at a "{" of the line: try the first few (a piece of a line is short; each try parses the rest).
      for (let at = line.indexOf("{", 1), tries = 0; at > 0 && tries < 64; at = line.indexOf("{", at + 1), tries++) {
        if (!echoes(parseOrUndefined(line.slice(at)), waiting)) continue;
        const piece = line.slice(0, at);
        const shown = piece.length > 32 ? `${JSON.stringify(piece.slice(0, 32))}…` : JSON.stringify(piece);
        what = `part of a line with no line end (${piece.length} characters: ${shown})`;
        break;
      }
    } else {
      // Where whole frames read from the start end: a piece in front of the answer is not one or more of
      // them (those are answers of their own: a command answered twice, said as such).
      const whole = new Set<number>();
      for (let at = 0; at + 4 <= bytes.length; at += 4 + bytes.readUInt32BE(at)) whole.add(at);
      // The answer is the last thing read: a frame that ends where the output does.
      for (let at = 1; at + 4 <= bytes.length; at++) {
        if (whole.has(at) || at + 4 + bytes.readUInt32BE(at) !== bytes.length) continue;
        let echoed: unknown;
        try {
          echoed = TesteeResponse.decode(bytes.subarray(at + 4)).commandId;
        } catch {
          continue;
        }
        if (Number(echoed) !== waiting) continue;
        const hex = bytes.subarray(0, Math.min(at, 32)).toString("hex");
        what = `part of a frame (${at} bytes: ${hex}${at > 32 ? "…" : ""} in hex)`;
        break;
      }
    }
    if (what === undefined) return undefined;
    const last = waiting - 1;
    return new TesteeFault(
      "malformed",
      `output after the response to command ${last}, read once command ${waiting} had gone out and before its answer: ${what}: a command answered twice, or output written unasked`,
      this.stderrTail(),
      last,
    );
  }

  /** JSON lines: take the complete lines of `text` (the next piece of stdout) into the queue. Throws for unreadable output. */
  private readLines(text: string): void {
    let from = 0;
    for (;;) {
      const nl = text.indexOf("\n", from);
      const piece = nl < 0 ? text.slice(from) : text.slice(from, nl);
      if (!this.lineBegun) {
        // Every line is a JSON object: say so at once rather than waiting (maybe for the
        // timeout) for the newline that binary frames never send.
        const start = piece.trimStart();
        if (start.length > 0) {
          if (!start.startsWith("{"))
            throw new Error(`a JSON line must start with "{"; the testee wrote ${JSON.stringify(start.slice(0, 24))}${formatHint(this.head, true)}`);
          this.lineBegun = true;
        }
      }
      if (piece.length > 0) {
        this.lineParts.push(piece);
        this.lineLength += piece.length;
        if (this.lineLength > MAX_RESPONSE_BYTES)
          throw new Error(`a JSON line longer than ${MAX_RESPONSE_BYTES} characters (a response may be at most ${MAX_RESPONSE_BYTES} bytes), with no newline yet`);
      }
      if (nl < 0) return;
      const line = this.lineParts.join("").trim();
      this.lineParts = [];
      this.lineLength = 0;
      this.lineBegun = false;
      if (line.length > 0) {
        (this.queue as string[]).push(line);
        this.responses++;
      }
      from = nl + 1;
    }
  }

  /** Why stdout could not be read, naming where in the stream (after `good` responses) and what was there. */
  private unreadable(err: unknown, good: number): string {
    if (!EctpError.is(err) || err.code !== "FRAME_TOO_LARGE") return (err as Error).message;
    // A frame "too large" is text on stdout read as a length prefix: say so, not how to raise the limit.
    const length = Number((err.details as { length?: number } | undefined)?.length ?? 0);
    const prefix = Buffer.alloc(4);
    prefix.writeUInt32BE(length >>> 0);
    const where =
      good === 0
        ? `its stdout starts with ${JSON.stringify(this.head.toString("latin1"))}, not a binary frame`
        : `after ${good} good ${good === 1 ? "response" : "responses"}, the next frame starts with ${JSON.stringify(prefix.toString("latin1"))} (bytes ${prefix.toString("hex")})`;
    const hint = good === 0 ? formatHint(this.head, false) : "";
    // The same four bytes as a little-endian length: a plausible frame size says which mistake it was.
    const littleEndian = prefix.readUInt32LE(0);
    const byteOrder =
      littleEndian > 0 && littleEndian <= MAX_RESPONSE_BYTES && good > 0
        ? `; read little-endian they are ${littleEndian} bytes: the length prefix is big-endian (network order)`
        : "";
    // A one-byte varint length, then a response's first tag (field 1, command_id: 0x08): the
    // framing of protobuf's "delimited" helpers, which many libraries write by default.
    const first = good === 0 ? this.head : prefix;
    const varint =
      first.length >= 2 && (first[0] as number) > 0 && (first[0] as number) < 0x80 && first[1] === 0x08
        ? "; it looks like a varint length prefix (protobuf's delimited helpers: writeDelimitedTo, protodelim, encode_length_delimited): write a 4-byte big-endian length instead"
        : "";
    return (
      `${where}: read as a big-endian length prefix it is ${length} bytes, over the ${MAX_RESPONSE_BYTES} allowed ` +
      "(text on stdout, or a little-endian or varint length, reads so); stdout must carry only responses framed as TESTEE-PROTOCOL.md §3.1 says; log to stderr" +
      byteOrder +
      varint +
      hint
    );
  }

  private wake(fault?: TesteeFault): void {
    const w = this.waiter;
    this.waiter = undefined;
    w?.(fault);
  }

  /**
   * The connection dies with `fault`, or, when the output it comes from is output unasked and then the
   * answer waited for (see {@link strayBeforeAnswer}), with the fault of that output.
   */
  private fail(fault: TesteeFault): void {
    if (this.dead) return;
    this.strayInFront = this.strayBeforeAnswer();
    this.dead = this.strayInFront ?? fault;
    this.kill();
    this.wake(this.dead);
  }

  /**
   * Signal the testee's whole process group: the shell that ran the command may have exited
   * (dash does not exec the command) while the testee, or a helper it started, lives on.
   * Returns whether anything in the group was still there.
   */
  private signalGroup(signal: NodeJS.Signals | 0): boolean {
    const pid = this.child.pid;
    if (pid === undefined) return false;
    try {
      process.kill(-pid, signal);
      return true;
    } catch {
      // No such group (empty), or no group of our own (detached spawn failed): the child alone.
      if (signal === 0 || this.exited) return false;
      try {
        return this.child.kill(signal);
      } catch {
        return false;
      }
    }
  }

  private kill(): void {
    this.signalGroup("SIGKILL");
    this.releaseStreams();
  }

  /** Let go of the pipes: a process left in the group must not keep the runner's event loop alive. */
  private releaseStreams(): void {
    if (this.child.pid !== undefined) liveGroups.delete(this.child.pid); // (gone, or killed just before)
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
    this.child.stdin?.destroy();
  }

  async request(req: ectp.conformance.v1.ITesteeRequest, timeoutMs = this.timeoutMs): Promise<ectp.conformance.v1.TesteeResponse> {
    if (this.dead) throw this.dead;
    const commandId = this.nextId++;
    const full = { ...req, commandId };
    const payload = this.json
      ? `${JSON.stringify(requestToJson(full))}\n`
      : encodeFrame(TesteeRequest.encode(TesteeRequest.fromObject(full as Record<string, unknown>)).finish(), {
          maxFrameBytes: MAX_RESPONSE_BYTES,
        });
    this.outstanding = commandId;
    this.child.stdin?.write(payload);
    const raw = await this.next(timeoutMs);
    // (`outstanding` stays set while the answer is judged: a malformed one may be output unasked, then the answer.)
    let parsed: unknown;
    if (typeof raw === "string") {
      try {
        parsed = JSON.parse(raw);
      } catch (err) {
        const shown = raw.length > 60 ? `${JSON.stringify(raw.slice(0, 60))}…` : JSON.stringify(raw);
        this.malformed(`unreadable output: a line that is not JSON (${(err as Error).message}): ${shown}`);
      }
    }
    let res: ectp.conformance.v1.TesteeResponse;
    try {
      res = typeof raw === "string" ? responseFromJson(parsed as Record<string, unknown>) : TesteeResponse.decode(raw);
    } catch (err) {
      this.malformed(`response is not a TesteeResponse: ${(err as Error).message}`);
    }
    // testee.proto: the result is a oneof; a second one set would be ignored, hiding the testee's bug.
    const results = resultsSet(res);
    if (results.length > 1)
      this.malformed(
        `the response to command ${commandId} sets ${results.length} results (${results.join(", ")}); TesteeResponse.result is a oneof: set exactly one`,
      );
    if (Number(res.commandId) !== commandId) {
      const echoed = Number(res.commandId);
      // A lower id is a command answered already: its second answer, come late, after the next
      // request went out, or this command's answer with a stale id. The runner cannot tell which.
      if (echoed >= 1 && echoed < commandId)
        this.malformed(
          `response echoes command_id ${echoed}, a command answered already (a second answer to it, or a stale id); expected ${commandId}`,
          commandId - 1,
        );
      this.malformed(`response echoes command_id ${String(res.commandId)}; expected ${commandId}`);
    }
    // None set: in a binary frame usually a misspelt result name, which the decoder drops (a JSON
    // line's unknown names were refused above); the names a JSON line wrote are shown.
    if (results.length === 0) {
      const written =
        typeof raw === "string"
          ? `its fields: ${Object.keys(parsed as object).map((k) => JSON.stringify(k)).join(", ") || "none"}`
          : "fields this runner does not know are dropped when decoding";
      this.malformed(
        `the response to command ${commandId} sets no result (${written}); a TesteeResponse sets exactly one of ${RESULT_MEMBERS.join(", ")}`,
      );
    }
    this.outstanding = undefined;
    this.sinceAnswer = [];
    return res;
  }

  /**
   * Stdout written after the last answer, read while the runner closes the testee: a second answer
   * or output unasked, which fails the case of the command answered last (TESTEE-PROTOCOL.md §2).
   * The first such chunk is kept (white space between JSON lines aside).
   */
  private outputAtClose(chunk: Buffer): void {
    if (this.strayAtClose !== undefined || (this.json && chunk.toString("utf8").trim() === "")) return;
    const last = this.nextId - 1;
    const shown = chunk.subarray(0, 32).toString(this.json ? "utf8" : "hex");
    this.strayAtClose = new TesteeFault(
      "malformed",
      `output after the response to command ${last}, its last answer, read as the runner closed it (${chunk.length} bytes, starting ${JSON.stringify(shown)}${this.json ? "" : " in hex"}): a command answered twice, or output written unasked`,
      this.stderrTail(),
      last,
    );
  }

  /**
   * The answer just read is malformed: the connection dies with that fault, which is thrown.
   * `afterCommand`: it was output no command was waiting for, read after that command's answer.
   */
  private malformed(why: string, afterCommand?: number): never {
    const fault = new TesteeFault("malformed", why, this.stderrTail(), afterCommand);
    this.fail(fault);
    // Output unasked in front of the answer (found now, or as it was read) explains the answer read with it.
    throw this.strayInFront ?? fault;
  }

  private next(timeoutMs: number): Promise<Uint8Array | string> {
    const q = this.queue as (Uint8Array | string)[];
    if (q.length > 0) return Promise.resolve(q.shift() as Uint8Array | string);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const fault = new TesteeFault("hung", `no response within ${timeoutMs} ms`, this.stderrTail());
        this.fail(fault);
      }, timeoutMs);
      this.waiter = (fault) => {
        clearTimeout(timer);
        if (q.length > 0) resolve(q.shift() as Uint8Array | string);
        else reject(fault ?? this.dead ?? new TesteeFault("exited", "no response", this.stderrTail()));
      };
    });
  }

  /**
   * EOF, then (TESTEE-PROTOCOL.md §2) SIGTERM to the testee's process group if anything of it is
   * left 1 s later, then SIGKILL 1 s after that. Resolves once the group is empty (or killed) and
   * the pipes are released, so neither a testee that ignores EOF nor a helper it left behind keeps
   * the runner alive.
   */
  async close(): Promise<void> {
    const wasAlive = !this.dead;
    if (!this.dead) {
      this.closedByRunner = true;
      this.dead = new TesteeFault("exited", "closed by the runner");
      // A partial line or frame still held after the last answer is output unasked (§2), judged as what comes at close is.
      if (this.partialBuffered()) this.strayAtClose = this.strayPartial(true);
    }
    if (!this.json)
      try {
        this.decoder.end(); // (its complaint about a cut-off frame is the fault above)
      } catch {
        // reset either way
      }
    try {
      this.child.stdin?.end(); // EOF: a testee exits promptly
    } catch {
      // ignore
    }
    if (await this.groupGoneWithin(EXIT_GRACE_MS)) {
      // TESTEE-PROTOCOL.md §2: on EOF a testee exits with status 0 (said, not failed: its cases stand).
      const code = wasAlive ? await this.exitCodeWithin(EXIT_GRACE_MS) : 0;
      if (typeof code === "string") this.onExitRuleBroken?.(`it ended by ${code} on EOF on its stdin, not with status 0`);
      else if (code !== 0 && code !== undefined) this.onExitRuleBroken?.(`it exited with status ${code} on EOF on its stdin, not 0`);
      await this.stdoutReadWithin(STDOUT_DRAIN_MS); // what it wrote before exiting is judged (`fault`)
      return this.releaseStreams();
    }
    this.signalGroup("SIGTERM");
    const onTerm = await this.groupGoneWithin(EXIT_GRACE_MS);
    // A testee that broke the rule but kept answering passes its cases: said, not failed.
    this.onExitRuleBroken?.(
      onTerm
        ? `it was still running ${EXIT_GRACE_MS} ms after EOF on its stdin, and ended on SIGTERM`
        : `it was still running ${EXIT_GRACE_MS} ms after EOF on its stdin and ${EXIT_GRACE_MS} ms after SIGTERM, and was killed`,
    );
    if (onTerm) return this.releaseStreams();
    this.kill();
  }

  /** Resolves once stdout has been read to its end, or after `ms` (a process outside the group may hold it open). */
  private stdoutReadWithin(ms: number): Promise<void> {
    const out = this.child.stdout;
    if (!out || out.readableEnded || out.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      out.once("end", done);
      out.once("close", done);
    });
  }

  /**
   * The testee's exit status once Node has reaped it, within `ms`, or the name of the signal that
   * ended it (e.g. "SIGABRT"); undefined when not reaped by then.
   */
  private async exitCodeWithin(ms: number): Promise<number | NodeJS.Signals | undefined> {
    const until = performance.now() + ms;
    while (!this.exited && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 5));
    return this.child.exitCode ?? this.child.signalCode ?? undefined;
  }

  /** Whether the testee's process group is empty (zombies aside) within `ms` (checked every 10 ms). */
  private async groupGoneWithin(ms: number): Promise<boolean> {
    const until = performance.now() + ms;
    for (;;) {
      if (!this.signalGroup(0) || (this.exited && onlyZombiesIn(this.child.pid))) return true;
      if (performance.now() >= until) return false;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}
