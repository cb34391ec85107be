import { defineConfig } from "vitest/config";

// On a loaded 2-core CI machine (turbo runs the packages' suites side by side) a test can take
// longer than vitest's 5 s default. The limit only stops a hang: nothing is timed.
export default defineConfig({
  test: { testTimeout: 60_000 },
});
