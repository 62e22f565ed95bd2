import { defineConfig } from "vitest/config";

// The full suite (`npm test`, what CI runs): unit tests, the build-dependent integration tests
// (they run dist/, built once by the global setup) and the corpus-wide suites.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 60_000,
    pool: "forks",
  },
});
