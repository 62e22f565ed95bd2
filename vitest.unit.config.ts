import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// The edit-test loop (`npm run test:unit`): every unit test, on source files only. No build, no
// packed package, no corpus-wide suite; those run in `npm test`.
export default defineConfig({
  test: {
    include: ["test/*.test.ts"],
    testTimeout: 30_000,
    pool: "forks",
    // Every core: vitest keeps one free by default, which on a 2-core machine runs the files one at a time (60 s, against 38 s).
    maxWorkers: availableParallelism(),
  },
});
