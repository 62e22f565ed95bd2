import { type ChildProcess, fork } from "node:child_process";
import { resolve } from "node:path";
import { Redis } from "ioredis";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createToolQueue, type ToolQueue } from "../../src/bullmq/index.js";
import { callFingerprint, ToolLedgerError, ToolRegistry, Type, type ToolResult } from "../../src/index.js";
import { redisMissing, startRedis, uniqueName } from "../support/redis.js";

// Worker processes of the built package (test/fixtures/bullmq/tool-worker.mjs, forked), one queue,
// one real Redis: the queue's promises across processes, and what happens when a worker dies.
const redis = await startRedis();
const title = redis === undefined ? `skipped: no Redis (${redisMissing})` : "tool workers in other processes";
if (redis === undefined) console.warn(`test/integration/bullmq-processes.test.ts ${title}`);
const script = resolve(import.meta.dirname, "..", "fixtures", "bullmq", "tool-worker.mjs");

interface WorkerProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** The call ids whose handlers started in this process. */
  readonly running: Set<string>;
}

const children: ChildProcess[] = [];
const queues: ToolQueue[] = [];
afterEach(async () => {
  await Promise.all(queues.splice(0).map((queue) => queue.close()));
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});
afterAll(async () => {
  await redis?.stop();
});

function startWorker(environment: Record<string, string>): Promise<WorkerProcess> {
  const child = fork(script, [], { env: { ...process.env, REDIS_URL: redis!.url, ...environment }, stdio: ["ignore", "inherit", "inherit", "ipc"] });
  children.push(child);
  const running = new Set<string>();
  return new Promise((resolvePromise, reject) => {
    child.on("message", (message: { ready?: number; running?: string }) => {
      if (message.ready !== undefined) resolvePromise({ child, pid: message.ready, running });
      if (message.running !== undefined) running.add(message.running);
    });
    child.once("exit", (code) => reject(new Error(`worker exited with ${code} before it was ready`)));
  });
}

/** The sender's registry: the same tools, never run here. */
function senderRegistry(): ToolRegistry {
  const never = (): never => {
    throw new Error("the sender never runs a tool");
  };
  return new ToolRegistry()
    .register({ name: "add", description: "Add two numbers", parameters: Type.Object({ a: Type.Number(), b: Type.Number() }) }, never)
    .register({ name: "charge", description: "Charge an invoice, once", parameters: Type.Object({ invoice: Type.String() }) }, never, { effects: "once" })
    .register({ name: "lookup", description: "Look an invoice up", parameters: Type.Object({ invoice: Type.String() }) }, never, { effects: "idempotent" });
}

describe.skipIf(redis === undefined)(title, () => {
  it("runs 1,000 calls through one queue on three worker processes, every result matched to its call", async () => {
    const environment = { QUEUE_NAME: uniqueName("q"), KEY_PREFIX: uniqueName("k"), CONCURRENCY: "16" };
    const workers = await Promise.all([startWorker(environment), startWorker(environment), startWorker(environment)]);
    const queue = createToolQueue(senderRegistry(), { connection: redis!.url, queueName: environment.QUEUE_NAME });
    queues.push(queue);
    const calls = Array.from({ length: 1_000 }, (_, index) => ({ type: "tool_call" as const, id: `call_${index}`, name: "add", arguments: { a: index, b: index * 2 } }));
    const results = await queue.dispatchAll(calls);
    expect(results).toHaveLength(1_000);
    results.forEach((result, index) => {
      expect(result).toMatchObject({ status: "ok", toolCallId: `call_${index}`, toolName: "add", value: { sum: index * 3 } });
    });
    const pids = new Set(results.map((result) => (result as { value: { pid: number } }).value.pid));
    expect([...pids].sort()).toEqual(workers.map((worker) => worker.pid).sort());
  });

  it("finishes a killed worker's jobs on the others, loses none, and never runs a once tool twice", async () => {
    const keyPrefix = uniqueName("k");
    const environment = { QUEUE_NAME: uniqueName("q"), KEY_PREFIX: keyPrefix, CONCURRENCY: "4", LOCK_MS: "1000", STALLED_MS: "500", HANDLER_MS: "400" };
    const workers = await Promise.all([startWorker(environment), startWorker(environment), startWorker(environment)]);
    const queue = createToolQueue(senderRegistry(), { connection: redis!.url, queueName: environment.QUEUE_NAME });
    queues.push(queue);
    // 24 charges of 16 invoices (8 of them charged twice, under two call ids) and 12 idempotent look-ups.
    const charges = Array.from({ length: 24 }, (_, index) => ({ type: "tool_call" as const, id: `charge_${index}`, name: "charge", arguments: { invoice: `inv_${index % 16}` } }));
    const lookups = Array.from({ length: 12 }, (_, index) => ({ type: "tool_call" as const, id: `lookup_${index}`, name: "lookup", arguments: { invoice: `inv_${index}` } }));
    const pending = queue.dispatchAll([...charges, ...lookups]);
    const victim = workers[0]!;
    await expect.poll(() => victim.running.size, { timeout: 10_000, interval: 5 }).toBeGreaterThan(0);
    victim.child.kill("SIGKILL");
    const killedMidRun = new Set(victim.running);
    const results = await pending;

    // Nothing lost: one result per call, in order.
    expect(results.map((result) => result.toolCallId)).toEqual([...charges, ...lookups].map((call) => call.id));
    // The look-ups are safe to repeat: every one completes, those the killed worker was running included.
    for (const result of results.slice(24)) expect(result).toMatchObject({ status: "ok", value: { invoice: expect.any(String) } });
    for (const id of killedMidRun) if (id.startsWith("lookup_")) expect((results.find((result) => result.toolCallId === id) as { value: { pid: number } }).value.pid).not.toBe(victim.pid);

    // The once tool: each invoice's side effect happened at most once, and the accounting is exact.
    const counter = new Redis(redis!.url);
    try {
      for (let invoice = 0; invoice < 16; invoice++) {
        const effects = Number((await counter.get(`${keyPrefix}:effects:inv_${invoice}`)) ?? "0");
        const own = results.slice(0, 24).filter((result) => (result as { toolCallId: string }).toolCallId !== "" && charges[Number(result.toolCallId.split("_")[1])]!.arguments.invoice === `inv_${invoice}`);
        expect(effects, `inv_${invoice}`).toBeLessThanOrEqual(1);
        const fresh = own.filter((result) => result.status === "ok" && result.reused === undefined);
        const replayed = own.filter((result) => result.status === "ok" && result.reused !== undefined);
        const inDoubt = own.filter(isInDoubt);
        // Every call of it is a run, a replay of the run, or refused as in doubt: nothing else.
        expect(fresh.length + replayed.length + inDoubt.length, `inv_${invoice}`).toBe(own.length);
        // At most one fresh run per invoice, and it is the one side effect counted.
        expect(fresh.length, `inv_${invoice}`).toBeLessThanOrEqual(1);
        if (fresh.length + replayed.length > 0) expect(effects, `inv_${invoice}`).toBe(1);
        for (const result of [...fresh, ...replayed]) expect(result).toMatchObject({ value: `charged inv_${invoice}` });
        // A call in doubt has a ledger record that never says done: its run started and never recorded an outcome.
        if (inDoubt.length > 0 && fresh.length + replayed.length === 0) {
          const fingerprint = await callFingerprint("charge", { invoice: `inv_${invoice}` });
          expect(JSON.parse((await counter.get(`${keyPrefix}:ledger:once:${fingerprint}`)) ?? "null"), `inv_${invoice}`).toMatchObject({ state: "running" });
        }
      }
      // A charge the killed worker was running when it died is never run again: it is in doubt (or replayed, had it recorded its outcome).
      const killedCharges = [...killedMidRun].filter((id) => id.startsWith("charge_"));
      for (const id of killedCharges) {
        const result = results.find((candidate) => candidate.toolCallId === id)!;
        expect(isInDoubt(result) || (result.status === "ok" && result.reused === "ledger"), id).toBe(true);
      }
      if (process.env.SHOW_ACCOUNTING === "1") console.log({ killedMidRun: [...killedMidRun], statuses: results.map((result) => (isInDoubt(result) ? "in-doubt" : result.status === "ok" ? (result.reused ?? "ran") : result.status)) });
      expect(killedCharges.length + [...killedMidRun].filter((id) => id.startsWith("lookup_")).length).toBeGreaterThan(0);
    } finally {
      counter.disconnect();
    }
  }, 60_000);
});

function isInDoubt(result: ToolResult): boolean {
  return result.status === "error" && result.error instanceof ToolLedgerError && result.error.reason === "in-doubt";
}
