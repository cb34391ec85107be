// A stand-in for the native addon in JavaScript (no NIXL, no reads): enough of its surface for
// NixlTransport's constructor, close() and the process-exit hook. stopEngine() prints
// "stopEngine <agent name>" so that exit-child.mjs's parent sees which agents were stopped.
const { writeSync } = require("node:fs");

class Agent {
  /** `onActivity` is the transport's callback for the engine's signal: a test calls it as the engine would. */
  constructor(name, _options, onActivity) {
    this.name = name;
    this.onActivity = onActivity;
  }
  localMetadata() {
    return Buffer.from(this.name);
  }
  /** The engine's activity counter (word 0) and inline CRC word; a test bumps word 0 to say the engine queued something. */
  activityWord() {
    this.words ??= new ArrayBuffer(8);
    return this.words;
  }
  counters() {
    return {};
  }
  close() {
    return Promise.resolve();
  }
  stopEngine() {
    writeSync(1, `stopEngine ${this.name}\n`);
  }
}

// The status codes the tests settle transfers with (nixl_types.h values).
module.exports = { Agent, statusCodes: { NIXL_SUCCESS: 0, NIXL_ERR_BACKEND: -3, NIXL_ERR_NOT_FOUND: -4, NIXL_ERR_REMOTE_DISCONNECT: -10 } };
