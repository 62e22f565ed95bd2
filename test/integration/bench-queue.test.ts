import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { redisMissing, startRedis } from "../support/redis.js";

// A smoke run of `npm run bench:queue -- --quick` (bench-dist/ was compiled by the global setup): it
// must run and report against a real Redis, not meet any figure.
const root = resolve(import.meta.dirname, "..", "..");
const redis = await startRedis();
const title = redis === undefined ? `skipped: no Redis (${redisMissing})` : "npm run bench:queue -- --quick";
if (redis === undefined) console.warn(`test/integration/bench-queue.test.ts ${title}`);
await redis?.stop();

describe.skipIf(redis === undefined)(title, () => {
  it("measures local dispatch and the queue with worker processes, and writes its table, results and chart", () => {
    const output = execFileSync(process.execPath, ["bench-dist/bench/queue-main.js", "--quick"], { cwd: root, encoding: "utf8" });
    expect(output).toContain("| handler | runs on | calls/s | p50 latency | p99 latency | added p50 | added p99 |");
    for (const row of ["local `dispatch`", "queue, 1 worker", "queue, 2 workers"]) expect(output).toContain(row);
    expect(output).toMatch(/instant: 1 -> 2 workers: [\d.]+x the calls per second, on \d+ cores/);
    const results = JSON.parse(readFileSync(join(root, "bench", "results", "queue-quick.json"), "utf8")) as { rows: unknown[] };
    expect(results.rows).toHaveLength(6);
    expect(existsSync(join(root, "bench", "results", "queue-quick.svg"))).toBe(true);
  }, 120_000);
});
