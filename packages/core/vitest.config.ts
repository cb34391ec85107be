import { defineConfig } from "vitest/config";

// Property tests run hundreds of random schedules; on a loaded 2-core CI machine that can
// take longer than vitest's 5 s default. The limit only stops a hang: nothing is timed.
export default defineConfig({
  test: { testTimeout: 120_000 },
});
