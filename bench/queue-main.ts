import { type ChildProcess, fork } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createToolQueue, type ToolQueue } from "../src/bullmq/index.js";
import type { ToolCallContent, ToolResult } from "../src/index.js";
import { startRedis, redisMissing, uniqueName } from "../test/support/redis.js";
import { describeMachine } from "./machine.js";
import { quantile } from "./measure.js";
import { repositoryPath } from "./paths.js";
import { formatMs, type QueueRow, renderQueueChart } from "./queue-chart.js";
import { HANDLER_MS, queueBenchRegistry } from "./queue-tools.js";

// `npm run bench:queue [-- --quick]`: tool calls through a BullMQ queue on a local redis-server, to 1, 2
// and 4 worker processes, against local dispatch; calls per second and added latency per call.
const quick = process.argv.includes("--quick");
const WORKER_COUNTS = quick ? [1, 2] : [1, 2, 4];
const IN_FLIGHT = 128; // calls the sender keeps in flight when measuring throughput
const WORKER_CONCURRENCY = 16; // calls each worker process runs at once
const THROUGHPUT_CALLS: Readonly<Record<string, number>> = quick ? { instant: 200, wait20: 200 } : { instant: 3_000, wait20: 1_500 };
const LATENCY_CALLS: Readonly<Record<string, number>> = quick ? { instant: 20, wait20: 10 } : { instant: 400, wait20: 150 };

const redis = await startRedis();
if (redis === undefined) {
  console.error(`npm run bench:queue: no Redis (${redisMissing})`);
  process.exit(2);
}
const machine = describeMachine();
console.log(`typebox-tool-registry queue bench${quick ? " (quick)" : ""}: ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}, redis-server on ${redis.url}`);
console.log(`  sender keeps ${IN_FLIGHT} calls in flight for throughput; each worker process runs ${WORKER_CONCURRENCY} at once; latency is one call at a time\n`);

let callNumber = 0;
function calls(tool: string, count: number): ToolCallContent[] {
  return Array.from({ length: count }, () => ({ type: "tool_call", id: `c${++callNumber}`, name: tool, arguments: { n: callNumber, label: "bench" } }));
}

/** What is measured of one way to run calls: `dispatchAll` with a cap on calls in flight, and `dispatch` one at a time. */
interface Runner {
  dispatchAll(calls: readonly ToolCallContent[], options: { concurrency: number }): Promise<ToolResult[]>;
  dispatch(call: ToolCallContent): Promise<unknown>;
}

async function measure(runner: Runner, tool: string, scale = 1): Promise<{ callsPerSecond: number; p50Ms: number; p99Ms: number }> {
  await runner.dispatchAll(calls(tool, Math.min(100, THROUGHPUT_CALLS[tool]!) * scale), { concurrency: IN_FLIGHT }); // warm-up
  const batch = calls(tool, THROUGHPUT_CALLS[tool]! * scale);
  const started = performance.now();
  const results = await runner.dispatchAll(batch, { concurrency: IN_FLIGHT });
  const seconds = (performance.now() - started) / 1e3;
  const failed = results.filter((result) => result.status !== "ok").length;
  if (failed > 0) throw new Error(`${failed} of ${results.length} calls failed`);
  const latencies: number[] = [];
  for (const call of calls(tool, LATENCY_CALLS[tool]!)) {
    const callStarted = performance.now();
    await runner.dispatch(call);
    latencies.push(performance.now() - callStarted);
  }
  latencies.sort((a, b) => a - b);
  return { callsPerSecond: batch.length / seconds, p50Ms: quantile(latencies, 0.5), p99Ms: quantile(latencies, 0.99) };
}

function startWorkers(count: number, queueName: string): Promise<ChildProcess[]> {
  const script = repositoryPath("bench-dist/bench/queue-worker.js");
  return Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<ChildProcess>((resolve, reject) => {
          const child = fork(script, [], { env: { ...process.env, REDIS_URL: redis!.url, QUEUE_NAME: queueName, CONCURRENCY: String(WORKER_CONCURRENCY) } });
          child.once("message", () => resolve(child));
          child.once("exit", (code) => reject(new Error(`a worker exited with ${code} before it was ready`)));
        }),
    ),
  );
}

function stopWorkers(workers: readonly ChildProcess[]): Promise<unknown> {
  return Promise.all(
    workers.map(
      (worker) =>
        new Promise<void>((resolve) => {
          worker.removeAllListeners("exit");
          worker.once("exit", () => resolve());
          worker.send("close");
        }),
    ),
  );
}

const rows: QueueRow[] = [];
const local = queueBenchRegistry((handlerMs) => (handlerMs === 0 ? "done" : new Promise((resolve) => setTimeout(() => resolve("done"), handlerMs))));
const localRuns = new Map<string, Awaited<ReturnType<typeof measure>>>();
for (const tool of Object.keys(HANDLER_MS)) {
  // Local calls of an instant handler take microseconds: many more of them, for a timing that means something.
  const measured = await measure(local, tool, HANDLER_MS[tool] === 0 ? 30 : 1);
  localRuns.set(tool, measured);
  rows.push({ tool, workers: 0, ...measured, addedP50Ms: 0, addedP99Ms: 0 });
}
for (const count of WORKER_COUNTS) {
  const queueName = uniqueName("bench");
  const workers = await startWorkers(count, queueName);
  const queue: ToolQueue = createToolQueue(queueBenchRegistry(() => "never run here"), { connection: redis.url, queueName });
  try {
    for (const tool of Object.keys(HANDLER_MS)) {
      const measured = await measure(queue, tool);
      const base = localRuns.get(tool)!;
      rows.push({ tool, workers: count, ...measured, addedP50Ms: measured.p50Ms - base.p50Ms, addedP99Ms: measured.p99Ms - base.p99Ms });
    }
  } finally {
    await queue.close();
    await stopWorkers(workers);
  }
}
await redis.stop();

const table = [
  "| handler | runs on | calls/s | p50 latency | p99 latency | added p50 | added p99 |",
  "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
  ...rows.map(
    (row) =>
      `| ${row.tool === "instant" ? "returns at once" : "waits 20 ms"} | ${row.workers === 0 ? "local `dispatch`" : `queue, ${row.workers} worker${row.workers === 1 ? "" : "s"}`} | ${Math.round(row.callsPerSecond).toLocaleString("en-US")} | ${formatMs(row.p50Ms)} | ${formatMs(row.p99Ms)} | ${row.workers === 0 ? "" : formatMs(row.addedP50Ms)} | ${row.workers === 0 ? "" : formatMs(row.addedP99Ms)} |`,
  ),
];
console.log(table.join("\n"));
for (const tool of Object.keys(HANDLER_MS)) {
  const [fewest, most] = [WORKER_COUNTS[0]!, WORKER_COUNTS.at(-1)!].map((count) => rows.find((row) => row.tool === tool && row.workers === count)!) as [QueueRow, QueueRow];
  console.log(`\n  ${tool}: ${fewest.workers} -> ${most.workers} workers: ${(most.callsPerSecond / fewest.callsPerSecond).toFixed(2)}x the calls per second, on ${machine.cores} cores shared by the sender, Redis and the workers`);
}
const suffix = quick ? "-quick" : "";
mkdirSync(repositoryPath("bench/results"), { recursive: true });
const files = [`bench/results/queue${suffix}.json`, `bench/results/queue${suffix}.svg`];
writeFileSync(repositoryPath(files[0]!), `${JSON.stringify({ machine, quick, inFlight: IN_FLIGHT, workerConcurrency: WORKER_CONCURRENCY, rows }, null, 2)}\n`);
writeFileSync(repositoryPath(files[1]!), renderQueueChart(rows, `${machine.cpu}, ${machine.cores} cores, Node ${machine.node}${quick ? " (quick run)" : ""}`));
console.log(`\n  Wrote ${files.join(" and ")}`);
