import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// The edit-test loop (`npm run test:unit`): every unit test, on source files only. No build, no
// packed package, no corpus-wide suite; those run in `npm test`.
//
// Files share a worker's modules (no isolation): importing the sources again for each of 80 files
// was most of the run (82 s of imports against 48 s of tests, 86 s in all on 2 cores; 23 s shared).
// The files that replace a module with `vi.mock` run isolated, each with its own modules.
const MOCKING = ["test/second-use.test.ts", "test/precompiled.test.ts"];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    pool: "forks",
    // Every core: vitest keeps one free by default, which on a 2-core machine runs the files one at a time.
    maxWorkers: availableParallelism(),
    projects: [
      { extends: true, test: { name: "shared modules", include: ["test/*.test.ts"], exclude: MOCKING, isolate: false } },
      { extends: true, test: { name: "mocking", include: MOCKING } },
    ],
  },
});
