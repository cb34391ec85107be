/**
 * The shape of one `PollResult` output, checked before anything acts on it, by the scripted runner
 * and the randomised levels alike (TESTEE-PROTOCOL.md §5.2).
 * @module
 */
import type { ectp } from "../proto.js";

/** The members of testee.proto's `Output.kind` oneof, as the decoded message names them. */
const OUTPUT_KINDS = ["send", "startRead", "cancelRead", "connectPeer", "disconnectPeer", "eventBatch"] as const;

/** The same members as testee.proto spells them, for the messages. */
const PROTO_NAMES: Record<(typeof OUTPUT_KINDS)[number], string> = {
  send: "send",
  startRead: "start_read",
  cancelRead: "cancel_read",
  connectPeer: "connect_peer",
  disconnectPeer: "disconnect_peer",
  eventBatch: "event_batch",
};

/**
 * What is wrong with output `o` as a whole message starting with `where` (e.g. "poll at t=12,
 * output 3 of 4"), or undefined. An output sets exactly one kind; a `cancel_read` names a read
 * (read_id > 0), a `connect_peer` or `disconnect_peer` a peer, an `event_batch` its batch. Without
 * this check an output that sets no kind, which is what a binary frame decodes to when the testee's
 * testee.proto numbers a kind this runner does not know, was kept unread, and a case failed later
 * on an output it never saw, far from the cause. The checks of each kind's contents (a send's
 * envelope, a read's destination) stay with the code that acts on them.
 */
export function outputProblem(o: ectp.conformance.v1.IOutput, where: string): string | undefined {
  const kinds = OUTPUT_KINDS.filter((k) => o[k] != null);
  if (kinds.length !== 1)
    return (
      `${where} sets ${kinds.length === 0 ? "no kind" : `${kinds.length} kinds (${kinds.map((k) => PROTO_NAMES[k]).join(", ")})`}: ` +
      `an Output sets exactly one of ${OUTPUT_KINDS.map((k) => PROTO_NAMES[k]).join(", ")} (TESTEE-PROTOCOL.md §5.2)` +
      (kinds.length === 0 ? "; binary frames drop a field number this runner does not know when decoding: is the testee's testee.proto current?" : "")
    );
  if (o.cancelRead && !(Number(o.cancelRead.readId ?? 0) > 0))
    return `${where}: cancel_read has read_id ${String(o.cancelRead.readId ?? 0)}; it names the read_id of a start_read, and read ids are > 0 (TESTEE-PROTOCOL.md §5.1; proto3 JSON omits a 0 field)`;
  const peer = o.connectPeer ?? o.disconnectPeer;
  if (peer && !peer.peerId)
    return `${where}: ${o.connectPeer ? "connect_peer" : "disconnect_peer"} has no peer_id; it names the peer to ${o.connectPeer ? "connect to" : "forget"} (TESTEE-PROTOCOL.md §5.2)`;
  if (o.eventBatch && !o.eventBatch.batch) return `${where}: event_batch has no batch; it carries the batch published [E1] (TESTEE-PROTOCOL.md §5.2)`;
  return undefined;
}
