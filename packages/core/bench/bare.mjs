// The same-run baseline of part 1 of run.mjs: a consumer and a producer that do only the
// bookkeeping any implementation of a lifecycle must do, and nothing the protocol adds to it.
//
// Kept, as the cores do them: the same envelopes and outputs as objects, the item key id
// derived by @ectp/protocol (`tryItemKeyId`, its cache included), a table of requests by id,
// of fetches by key id, of attempts, reads and grants by number, and of items by key id, a
// pin count per item, a destination from the pool and back.
// Left out: every check of what a peer or the engine sends (versions, senders, descriptors,
// sizes beyond one compare, epochs), budgets, timers, leases, retries, quotas, events,
// metrics, logs, failure reports and everything about peers. A lifecycle here is therefore a
// floor, not a competitor: the cores' rate divided by this one says what the protocol's rules
// cost on the machine at hand, whatever its speed.
//
// Only the path part 1 drives is served (one item per request, an item the producer holds);
// anything else throws, so a change to the driving loop cannot pass through here unnoticed.

import { SPEC_VERSION, tryItemKeyId } from "@ectp/protocol";

/**
 * A Map that never empties: it holds one entry nobody looks up (`key`, of the type of the real
 * keys). Part 1 runs one lifecycle at a time, so each table would go from one entry to none and
 * back every lifecycle, and V8 shrinks a Map that falls below a quarter of its capacity (a runtime
 * call and a new table per delete, some 200 ns here); an engine's tables are never that empty, and
 * the cores' own tables keep their capacity. `size` counts the resident entry.
 */
function tableWithResident(key) {
  return new Map([[key, undefined]]);
}

/** Outputs queued for the next poll, handed over as a new array (as the cores' queue does). */
class Outputs {
  list = [];
  push(o) {
    this.list.push(o);
  }
  take() {
    if (this.list.length === 0) return [];
    const out = this.list;
    this.list = [];
    return out;
  }
}

/** The decisions of a bare admit (class instances, as the core's are). */
class Decision {
  constructor(action, itemId, destination) {
    this.action = action;
    this.itemId = itemId;
    this.destination = destination;
  }
}
class Admitted {
  constructor(items) {
    this.status = "admitted";
    this.items = items;
  }
}

/** A producer holding items by key id that grants every ReadRequest and unpins on ReadComplete. */
export class BareProducer {
  items = tableWithResident("");
  grants = tableWithResident(0);
  nextGrantId = 0;
  outputs = new Outputs();
  constructor(id) {
    this.id = id;
  }
  put(descriptor, bytes) {
    this.items.set(tryItemKeyId(descriptor.key), { descriptor, bytes, pins: 0 });
  }
  handleEnvelope(from, envelope, _now) {
    if (envelope.readRequest !== undefined) {
      const rr = envelope.readRequest;
      const item = this.items.get(tryItemKeyId(rr.key));
      if (item === undefined || item.descriptor.sizeBytes !== rr.expectedSizeBytes) throw new Error("bare producer: unknown item");
      item.pins++;
      const grantId = ++this.nextGrantId;
      this.grants.set(grantId, { item, from });
      const readGrant = { grantId, attemptId: rr.attemptId, item: item.descriptor, leaseMs: 30_000 };
      this.outputs.push({ type: "send", peerId: from, envelope: { readGrant, version: SPEC_VERSION, senderId: this.id, senderEpoch: 1 } });
    } else if (envelope.readComplete !== undefined) {
      const grantId = envelope.readComplete.grantId;
      const grant = this.grants.get(grantId);
      if (grant === undefined || grant.from !== from) throw new Error("bare producer: unknown grant");
      this.grants.delete(grantId);
      grant.item.pins--;
    } else throw new Error("bare producer: unexpected message");
  }
  poll(_now) {
    return this.outputs.take();
  }
  stats() {
    let pins = 0;
    for (const item of this.items.values()) pins += item?.pins ?? 0;
    return { grants: this.grants.size - 1, pins };
  }
}

/** A consumer that fetches each announced item once and hands it to every request waiting for it. */
export class BareConsumer {
  requests = tableWithResident("");
  fetches = tableWithResident("");
  attempts = tableWithResident(0);
  reads = tableWithResident(0);
  nextAttemptId = 0;
  nextReadId = 0;
  outputs = new Outputs();
  constructor(id, destinations) {
    this.id = id;
    this.destinations = destinations;
  }
  admit(request, _now) {
    let req = this.requests.get(request.requestId);
    if (req === undefined) {
      const { itemId, announcement } = request.items[0];
      const item = announcement.item;
      const keyId = tryItemKeyId(item.key);
      let fetch = this.fetches.get(keyId);
      if (fetch === undefined) {
        fetch = { keyId, item, destination: undefined, holders: 0 };
        this.fetches.set(keyId, fetch);
        const attemptId = ++this.nextAttemptId;
        this.attempts.set(attemptId, fetch);
        const readRequest = { attemptId, key: item.key, expectedEpoch: item.epoch, expectedSizeBytes: item.sizeBytes };
        this.outputs.push({ type: "send", peerId: item.producerId, envelope: { readRequest, version: SPEC_VERSION, senderId: this.id, senderEpoch: 1 } });
      }
      fetch.holders++;
      req = { itemId, fetch, defer: new Admitted([new Decision("defer", itemId, undefined)]) };
      this.requests.set(request.requestId, req);
    }
    const fetch = req.fetch;
    if (fetch.destination === undefined) return req.defer;
    return new Admitted([new Decision("ready", req.itemId, fetch.destination)]);
  }
  handleEnvelope(from, envelope, _now) {
    const grant = envelope.readGrant;
    if (grant === undefined) throw new Error("bare consumer: unexpected message");
    const fetch = this.attempts.get(grant.attemptId);
    if (fetch === undefined || grant.item.sizeBytes !== fetch.item.sizeBytes) throw new Error("bare consumer: unwanted grant");
    this.attempts.delete(grant.attemptId);
    const destination = this.destinations.allocate(fetch.keyId, fetch.item.sizeBytes);
    const readId = ++this.nextReadId;
    this.reads.set(readId, { fetch, grantId: grant.grantId, from, destination });
    this.outputs.push({ type: "start-read", readId, peerId: from, source: grant.item.location, destination, crc32c: false });
  }
  handleReadResult(result, _now) {
    const read = this.reads.get(result.readId);
    if (read === undefined || result.status !== "done" || result.bytesRead !== read.fetch.item.sizeBytes)
      throw new Error("bare consumer: unexpected read result");
    this.reads.delete(result.readId);
    read.fetch.destination = read.destination;
    const readComplete = { grantId: read.grantId, status: 1, detail: "" };
    this.outputs.push({ type: "send", peerId: read.from, envelope: { readComplete, version: SPEC_VERSION, senderId: this.id, senderEpoch: 1 } });
  }
  finishRequest(requestId, _now) {
    const req = this.requests.get(requestId);
    if (req === undefined) return;
    this.requests.delete(requestId);
    const fetch = req.fetch;
    if (--fetch.holders === 0) {
      this.fetches.delete(fetch.keyId);
      if (fetch.destination !== undefined) this.destinations.release(fetch.destination);
    }
  }
  poll(_now) {
    return this.outputs.take();
  }
  stats() {
    return { requests: this.requests.size - 1, grantsHeld: this.reads.size - 1 };
  }
}
