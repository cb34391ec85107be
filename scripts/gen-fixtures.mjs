#!/usr/bin/env node
// Writes the golden wire fixtures under spec/testdata/v1 (see spec/testdata/README.md).
//
//   node scripts/gen-fixtures.mjs          regenerate the files
//   node scripts/gen-fixtures.mjs --check  fail if the committed files differ (CI)
//
// Each fixture is one representative message, as lowercase hex of its protobuf
// encoding (<name>.hex) and as its proto3 JSON mapping (<name>.json). Other
// implementations decode the hex and compare with the JSON (and the reverse) to
// prove wire compatibility. The values are fixed here, never random, so the files
// only change when the messages below or the schema change.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ectp } from "../packages/protocol/src/gen/ectp.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(root, "spec", "testdata", "v1");
const v1 = ectp.v1;

const hash = Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + 11) & 0xff);
const version = { major: 1, minor: 0 };
const fingerprint = {
  model: "Qwen/Qwen3.5-35B-A3B@0123abcd",
  dtype: v1.Dtype.DTYPE_BFLOAT16,
  rowBytes: 4096,
  layoutVersion: 1,
};
const key = { contentHash: hash, fingerprint };
// 2 (bfloat16) x 576 x 2048 = 2359296 bytes.
const descriptor = {
  key,
  sizeBytes: 2359296,
  dtype: v1.Dtype.DTYPE_BFLOAT16,
  shape: [576, 2048],
  checksum: { algorithm: v1.ChecksumAlgorithm.CHECKSUM_ALGORITHM_CRC32C, value: Uint8Array.of(0xe3, 0x06, 0x92, 0x83) },
  producerId: "encoder-0",
  epoch: 1700000000001,
  location: Uint8Array.of(0x01, 0x02, 0xfe, 0xff),
};
const envelope = (body) => ({ version, senderId: "encoder-0", senderEpoch: 1700000000001, ...body });
const consumerEnvelope = (body) => ({ version, senderId: "prefill-3", senderEpoch: 42, ...body });

/**
 * The fixtures: file name (without extension) -> [message type, value]. The
 * name prefix tells readers the type: `envelope-*` is ectp.v1.Envelope,
 * `announcement*` ectp.v1.Announcement, `framed-*` a framed stream of envelopes.
 * There is one `envelope-<body>` per Envelope body kind; the protocol tests fail
 * when a body kind has no fixture.
 */
export const FIXTURES = {
  "envelope-hello": [
    "Envelope",
    consumerEnvelope({
      hello: {
        role: v1.Role.ROLE_CONSUMER,
        capabilities: ["events.v1"],
        fingerprint,
        transportMetadata: Uint8Array.of(0xde, 0xad, 0xbe, 0xef),
        heartbeatIntervalMs: 2000,
      },
    }),
  ],
  "envelope-handshake-reject": [
    "Envelope",
    envelope({
      handshakeReject: {
        reason: v1.FailureReason.FAILURE_REASON_INCOMPATIBLE,
        detail: "fingerprint.model differs",
        supported: version,
      },
    }),
  ],
  "envelope-read-request": [
    "Envelope",
    consumerEnvelope({
      readRequest: { attemptId: 7, key, expectedEpoch: 1700000000001, expectedSizeBytes: 2359296 },
    }),
  ],
  "envelope-read-grant": [
    "Envelope",
    envelope({ readGrant: { attemptId: 7, grantId: 9007199254740991, item: descriptor, leaseMs: 30000 } }),
  ],
  "envelope-read-reject": [
    "Envelope",
    envelope({
      readReject: {
        attemptId: 8,
        reason: v1.FailureReason.FAILURE_REASON_OVERLOADED,
        retryable: true,
        retryAfterMs: 250,
        detail: "consumer over its pinned-bytes quota",
      },
    }),
  ],
  "envelope-read-complete": [
    "Envelope",
    consumerEnvelope({
      readComplete: { grantId: 9007199254740991, status: v1.CompletionStatus.COMPLETION_STATUS_OK, detail: "" },
    }),
  ],
  "envelope-heartbeat": ["Envelope", envelope({ heartbeat: { sequence: 3 } })],
  "envelope-event-batch": [
    "Envelope",
    envelope({
      eventBatch: {
        sequence: 5,
        events: [
          { stored: { item: descriptor } },
          { removed: { key, cause: v1.RemovedCause.REMOVED_CAUSE_EVICTED } },
          { cleared: { cause: v1.ClearedCause.CLEARED_CAUSE_SHUTDOWN } },
        ],
      },
    }),
  ],
  "envelope-replay-request": ["Envelope", consumerEnvelope({ replayRequest: { fromSequence: 4 } })],
  "envelope-replay-unavailable": [
    "Envelope",
    envelope({ replayUnavailable: { oldestAvailable: 100, latest: 164 } }),
  ],
  // An empty body message still marks which body is set (field 20, length 0).
  "envelope-snapshot-request": ["Envelope", consumerEnvelope({ snapshotRequest: {} })],
  "envelope-snapshot": ["Envelope", envelope({ snapshot: { sequence: 164, items: [descriptor], snapshotId: 7 } })],
  // A variant of a body kind is named envelope-<body>--<variant>: one part of a split snapshot [E2].
  "envelope-snapshot--part": ["Envelope", envelope({ snapshot: { sequence: 164, items: [descriptor], part: 1, parts: 3, snapshotId: 8 } })],
  "envelope-announcement": [
    "Envelope",
    envelope({ announcement: { version, item: descriptor, transportMetadata: Uint8Array.of(0x00, 0x7f) } }),
  ],
  announcement: ["Announcement", { version, item: descriptor, transportMetadata: new Uint8Array(0) }],
  // Two frames: a Hello, then a ReadRequest, each with a 4-byte big-endian length.
  "framed-two-envelopes": ["Framed", ["envelope-hello", "envelope-read-request"]],
};

/** The proto3 JSON mapping of a message, as protobufjs writes it (toJSON options). */
const JSON_OPTIONS = { longs: String, enums: String, bytes: String, json: true };

function hex(bytes) {
  return Buffer.from(bytes).toString("hex");
}

function frame(payload) {
  const out = new Uint8Array(4 + payload.length);
  new DataView(out.buffer).setUint32(0, payload.length, false); // big-endian, SPEC.md "Framing"
  out.set(payload, 4);
  return out;
}

function encode(type, value) {
  const T = v1[type];
  const message = T.fromObject(value);
  const err = T.verify(message);
  if (err) throw new Error(`gen-fixtures: ${type} is invalid: ${err}`);
  return { bytes: T.encode(message).finish(), json: T.toObject(T.decode(T.encode(message).finish()), JSON_OPTIONS) };
}

/** name -> { hex, json } file contents. */
export function renderFixtures() {
  const files = {};
  for (const [name, [type, value]] of Object.entries(FIXTURES)) {
    if (type === "Framed") {
      const parts = value.map((n) => encode(...FIXTURES[n]));
      const stream = Buffer.concat(parts.map((p) => frame(p.bytes)));
      files[name] = { hex: `${hex(stream)}\n`, json: `${JSON.stringify(parts.map((p) => p.json), null, 2)}\n` };
    } else {
      const { bytes, json } = encode(type, value);
      files[name] = { hex: `${hex(bytes)}\n`, json: `${JSON.stringify(json, null, 2)}\n` };
    }
  }
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes("--check");
  const files = renderFixtures();
  const problems = [];
  if (!check) mkdirSync(outDir, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    for (const ext of ["hex", "json"]) {
      const path = join(outDir, `${name}.${ext}`);
      if (check) {
        if (!existsSync(path) || readFileSync(path, "utf8") !== content[ext]) problems.push(`${name}.${ext}`);
      } else writeFileSync(path, content[ext]);
    }
  }
  if (check) {
    const known = new Set(Object.keys(files).flatMap((n) => [`${n}.hex`, `${n}.json`]));
    for (const f of existsSync(outDir) ? readdirSync(outDir) : [])
      if (!known.has(f)) problems.push(`${f} (not produced by the generator)`);
    if (problems.length > 0) {
      console.error(
        `gen-fixtures: spec/testdata/v1 is out of date: ${problems.join(", ")}.\n` +
          "Run `node scripts/gen-fixtures.mjs` and commit the result (and say why the wire bytes changed).",
      );
      process.exit(1);
    }
    console.log(`gen-fixtures: ${Object.keys(files).length} fixtures up to date`);
  } else console.log(`gen-fixtures: wrote ${Object.keys(files).length} fixtures to spec/testdata/v1`);
}
