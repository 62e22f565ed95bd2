import { Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { createToolQueue, createToolWorker, RedisLedger, ToolJobFailedError, ToolQueueConnectionError, type ToolQueue, type ToolWorker } from "../../src/bullmq/index.js";
import { limiterOf } from "../../src/bullmq/limiter.js";
import { redisClientsOf } from "../../src/bullmq/queue.js";
import { resultToWire } from "../../src/bullmq/results.js";
import {
  ToolAbortedError,
  ToolApprovalRequiredError,
  ToolArgumentsValidationError,
  ToolEnvelopeError,
  ToolExecutionError,
  ToolMismatchError,
  ToolNotAllowedError,
  ToolRateLimitedError,
  ToolRegistry,
  ToolTimeoutError,
  Type,
  type ToolContext,
  type ToolResult,
} from "../../src/index.js";
import { freePort, redisMissing, redisProxy, silentServer, startRedis, uniqueName } from "../support/redis.js";

// What a worker does for a call happens in its own time, later on a loaded machine: waited for up to 10 s.
const EVENTUALLY = { timeout: 10_000, interval: 50 };

// A real Redis (REDIS_URL, or a redis-server of the test's own), BullMQ's real Queue and Worker, in this process.
const redis = await startRedis();
const title = redis === undefined ? `skipped: no Redis (${redisMissing})` : "the BullMQ queue and worker on a real Redis";
if (redis === undefined) console.warn(`test/integration/bullmq.test.ts ${title}`);

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((closable) => closable.close()));
});
afterAll(async () => {
  await redis?.stop();
});

const pay = { name: "pay", description: "Pay an invoice", parameters: Type.Object({ invoice: Type.String(), amount: Type.Integer({ minimum: 1 }) }) };
type PayArgs = { invoice: string; amount: number };

function payRegistry(handler: (args: PayArgs, context: ToolContext) => unknown = (args) => `paid ${args.invoice}`, options: Parameters<ToolRegistry["register"]>[2] = {}): ToolRegistry {
  return new ToolRegistry().register(pay, handler, options);
}

function queueAndWorker(sender: ToolRegistry, worker: ToolRegistry, queueName = uniqueName("q")): { queue: ToolQueue; worker: ToolWorker; queueName: string } {
  const queue = createToolQueue(sender, { connection: redis!.url, queueName });
  const running = createToolWorker(worker, { connection: redis!.url, queueName, concurrency: 4 });
  open.push(queue, running);
  return { queue, worker: running, queueName };
}

/** The ids of the jobs waiting in a queue, once there are `count` of them (read straight from Redis). */
async function jobsWaiting(queueName: string, count: number): Promise<string[]> {
  const client = new Redis(redis!.url);
  try {
    let jobIds: string[] = [];
    await vi.waitFor(async () => {
      jobIds = await client.lrange(`bull:${queueName}:wait`, 0, -1);
      expect(jobIds).toHaveLength(count);
    }, EVENTUALLY);
    return jobIds;
  } finally {
    await client.quit();
  }
}

const call = (id: string, args: Record<string, unknown> = { invoice: "inv_1", amount: 10 }) => ({ type: "tool_call" as const, id, name: "pay", arguments: args });

/**
 * One call waiting in a queue of its own with no worker, whose jobs it looks at after 1 s
 * (`connectTimeoutMs: 400`), and a client to change its job in Redis behind its back.
 */
async function oneCallWaiting(): Promise<{ queueName: string; client: Redis; waiting: Promise<unknown>; jobId: string }> {
  const queueName = uniqueName("q");
  const queue = createToolQueue(payRegistry(), { connection: redis!.url, queueName, connectTimeoutMs: 400 });
  const client = new Redis(redis!.url);
  open.push(queue, { close: () => client.quit().then(() => undefined) });
  const waiting = queue.dispatch(call("1")).catch((caught: unknown) => caught);
  const [jobId] = await jobsWaiting(queueName, 1);
  return { queueName, client, waiting, jobId: jobId! };
}

describe.skipIf(redis === undefined)(title, () => {
  describe("RedisLedger", () => {
    it("gets, sets, deletes and adds JSON values, add only when the key is free", async () => {
      const ledger = new RedisLedger({ connection: redis!.url, keyPrefix: `${uniqueName("ledger")}:` });
      open.push(ledger);
      expect(await ledger.get("a")).toBeUndefined();
      await ledger.set("a", { state: "done", result: [1, "two"] }, { ttlMs: 10_000 });
      expect(await ledger.get("a")).toEqual({ state: "done", result: [1, "two"] });
      expect(await ledger.add("a", 1, { ttlMs: 10_000 })).toBe(false);
      await ledger.delete("a");
      expect(await ledger.add("a", 2, { ttlMs: Infinity })).toBe(true);
      expect(await ledger.get("a")).toBe(2);
    });

    it("takes the connection alone, as the queue and the worker do", async () => {
      const ledger = new RedisLedger(redis!.url);
      open.push(ledger);
      const key = uniqueName("bare");
      expect(await ledger.add(key, "first", { ttlMs: 10_000 })).toBe(true);
      expect(await ledger.get(key)).toBe("first");
      await ledger.delete(key);
      expect(() => new RedisLedger(42 as never)).toThrow(TypeError);
    });

    it("forgets an entry when its time to live runs out", async () => {
      const ledger = new RedisLedger({ connection: redis!.url, keyPrefix: `${uniqueName("ledger")}:` });
      open.push(ledger);
      await ledger.add("short", true, { ttlMs: 50 });
      await new Promise((resolve) => setTimeout(resolve, 120));
      expect(await ledger.get("short")).toBeUndefined();
    });
  });

  describe("RedisLedger while Redis does not answer", () => {
    const payOnce = (ledger: RedisLedger) => new ToolRegistry({ ledger }).register(pay, () => "paid", { effects: "once" });
    const within = (pending: Promise<unknown>, ms: number) => Promise.race([pending, new Promise((resolve) => setTimeout(() => resolve("still waiting"), ms))]);

    it("refuses a once call as unavailable within its 2 s default when Redis took the connection and stopped answering", async () => {
      const proxy = await redisProxy(redis!.url);
      const ledger = new RedisLedger({ connection: proxy.url, keyPrefix: `${uniqueName("ledger")}:` });
      open.push({ close: () => proxy.stop().then(() => ledger.close()) });
      const registry = payOnce(ledger);
      expect(await registry.dispatch(call("1"))).toBe("paid");
      proxy.freeze();
      const [result] = (await within(registry.dispatchAll([call("2")]), 5_000)) as ToolResult[];
      expect(result?.status === "error" && result.error).toMatchObject({ name: "ToolLedgerError", reason: "unavailable" });
    });

    it("refuses a once call as unavailable after commandTimeoutMs when Redis takes the connection and never answers", async () => {
      const silent = await silentServer();
      const ledger = new RedisLedger({ connection: silent.url, commandTimeoutMs: 300 });
      open.push({ close: () => silent.stop().then(() => ledger.close()) });
      const started = performance.now();
      const [result] = (await within(payOnce(ledger).dispatchAll([call("1")]), 3_000)) as ToolResult[];
      expect(result?.status === "error" && result.error).toMatchObject({ name: "ToolLedgerError", reason: "unavailable" });
      expect(performance.now() - started).toBeLessThan(1_500);
    });
  });

  describe("createToolQueue and createToolWorker", () => {
    it("give the results the local dispatchAll gives, each matched to its call", async () => {
      const handler = (args: PayArgs) => {
        if (args.invoice === "bad") throw new Error("card declined");
        return { paid: args.invoice, amount: args.amount };
      };
      const { queue } = queueAndWorker(payRegistry(), payRegistry(handler));
      const calls = [call("1"), call("2", { invoice: "bad", amount: 5 }), call("3", { invoice: "inv_3", amount: 0 }), { type: "tool_call" as const, id: "4", name: "pya", arguments: {} }];
      const remote = await queue.dispatchAll(calls);
      const local = await payRegistry(handler).dispatchAll(calls);
      expect(remote).toEqual(local);
      expect(remote.map((result) => result.status === "error" && result.error.constructor.name)).toEqual([false, "ToolExecutionError", "ToolArgumentsValidationError", "UnknownToolError"]);
    });

    it("rejects dispatch with the local error's class and fields, and resolves to the value", async () => {
      const { queue } = queueAndWorker(payRegistry(), payRegistry(() => Promise.reject(new TypeError("no such invoice"))));
      const error = await queue.dispatch(call("1")).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolExecutionError);
      expect(error).toMatchObject({ toolName: "pay", toolCallId: "1", message: 'Tool "pay" failed: no such invoice' });
      expect((error as Error).cause).toMatchObject({ name: "TypeError", message: "no such invoice" });
      const ok = queueAndWorker(payRegistry(), payRegistry()).queue;
      expect(await ok.dispatch(call("2"))).toBe("paid inv_1");
    });

    it("refuses invalid arguments here, without enqueueing them", async () => {
      const { queue, queueName } = queueAndWorker(payRegistry(), payRegistry());
      await expect(queue.dispatch(call("1", { invoice: "inv_1" }))).rejects.toBeInstanceOf(ToolArgumentsValidationError);
      const inspector = new Queue(queueName, { connection: new Redis(redis!.url, { maxRetriesPerRequest: null }) });
      open.push(inspector);
      expect(await inspector.getJobCountByTypes("waiting", "active", "completed", "failed")).toBe(0);
    });

    it("refuses a tool outside this turn's allow-list here, without enqueueing it, and runs sequential calls in order", async () => {
      const order: string[] = [];
      const { queue, queueName } = queueAndWorker(payRegistry(), payRegistry((args) => order.push(args.invoice)));
      const [refused] = await queue.dispatchAll([call("1")], { allow: ["refund"] });
      expect(refused?.status === "error" && refused.error).toBeInstanceOf(ToolNotAllowedError);
      const inspector = new Queue(queueName, { connection: new Redis(redis!.url, { maxRetriesPerRequest: null }) });
      open.push(inspector);
      expect(await inspector.getJobCountByTypes("waiting", "active", "completed", "failed")).toBe(0);
      const calls = ["a", "b", "c", "d"].map((invoice, index) => call(`s${index}`, { invoice, amount: 1 }));
      await queue.dispatchAll(calls, { order: "sequential", allow: (name) => name === "pay" });
      expect(order).toEqual(["a", "b", "c", "d"]);
    });

    it("runs a call enqueued twice while it is in flight as one job, and again once it finished, as the local registry does", async () => {
      const handler = vi.fn(async (args: PayArgs) => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return `paid ${args.invoice}`;
      });
      const { queue } = queueAndWorker(payRegistry(), payRegistry(handler));
      const [first, second] = await Promise.all([queue.dispatch(call("same")), queue.dispatch(call("same"))]);
      expect([first, second]).toEqual(["paid inv_1", "paid inv_1"]);
      expect(handler).toHaveBeenCalledOnce();
      expect(await queue.dispatch(call("same"))).toBe("paid inv_1");
      expect(handler).toHaveBeenCalledTimes(2);
      expect(await queue.dispatch(call("same", { invoice: "inv_2", amount: 1 }))).toBe("paid inv_2");
      expect(handler).toHaveBeenCalledTimes(3);
    });

    it("never gives a call another conversation's result for the same call id: it runs anew", async () => {
      let runs = 0;
      const now = { name: "now", description: "The time", parameters: Type.Object({}) };
      const nowRegistry = () => new ToolRegistry().register(now, () => ++runs);
      const queueName = uniqueName("q");
      open.push(createToolWorker(nowRegistry(), { connection: redis!.url, queueName }));
      for (const id of ["0", ""]) {
        // Two conversations, each numbering its calls from 0 (or sending no id), with a queue of its own.
        const [first, second] = [0, 1].map(() => createToolQueue(nowRegistry(), { connection: redis!.url, queueName }));
        open.push(first!, second!);
        const before = runs;
        expect(await first!.dispatch({ id, name: "now", arguments: {} })).toBe(before + 1);
        const [result] = await second!.dispatchAll([{ id, name: "now", arguments: {} }]);
        expect(result).toMatchObject({ status: "ok", value: before + 2 });
        expect(result?.status === "ok" && result.reused).toBeUndefined();
      }
    });

    it("fails a repeat whose finished job could not be replaced (Redis failed meanwhile) as a connection error, rather than leaving it waiting", async () => {
      const { queue } = queueAndWorker(payRegistry(), payRegistry());
      expect(await queue.dispatch(call("again"))).toBe("paid inv_1");
      // The finished job is another conversation's once it is older than the clocks' leeway.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const { client } = redisClientsOf(queue)!;
      const set = client.set.bind(client) as (...args: unknown[]) => Promise<unknown>;
      let failed = false;
      (client as unknown as { set: (...args: unknown[]) => Promise<unknown> }).set = (...args) => {
        if (!failed && String(args[0]).includes(":replace:")) {
          failed = true;
          return Promise.reject(new Error("Reached the max retries per request limit (which is 1)"));
        }
        return set(...args);
      };
      const outcome = await Promise.race([queue.dispatch(call("again")).catch((caught: unknown) => caught), new Promise((resolve) => setTimeout(() => resolve("still waiting"), 10_000))]);
      expect(failed).toBe(true);
      expect(outcome).toBeInstanceOf(ToolQueueConnectionError);
    });

    it("runs a call that needs approval once it is dispatched again with its approval token, and refuses a repeat of it as used, as locally", async () => {
      const handler = vi.fn((args: PayArgs) => `paid ${args.invoice}`);
      const approvalSecret = "a secret of at least thirty-two characters";
      const needsApproval = (run: (args: PayArgs) => unknown) => new ToolRegistry({ approvalSecret }).register(pay, run, { needsApproval: true });
      const sender = needsApproval(() => "never here");
      const { queue } = queueAndWorker(sender, needsApproval(handler));
      const waiting = await queue.dispatch(call("1")).catch((caught: unknown) => caught);
      expect(waiting).toBeInstanceOf(ToolApprovalRequiredError);
      const approval = await sender.approve((waiting as ToolApprovalRequiredError).request);
      expect(await queue.dispatch(call("1"), { approval })).toBe("paid inv_1");
      // Run again, as locally: its worker's ledger refuses the token it already used.
      expect(await queue.dispatch(call("1"), { approval }).catch((caught: unknown) => caught)).toMatchObject({ name: "ToolApprovalError", reason: "used" });
      expect(handler).toHaveBeenCalledOnce();
    });

    it("runs a call again when it is repeated after its caller aborted it, as one job for concurrent repeats", async () => {
      let runs = 0;
      const slow = (args: PayArgs, { signal }: ToolContext) =>
        new Promise((resolve, reject) => {
          runs++;
          const timer = setTimeout(() => resolve(`paid ${args.invoice}`), 300);
          signal.addEventListener("abort", () => {
            clearTimeout(timer);
            reject(signal.reason);
          });
        });
      const { queue, queueName } = queueAndWorker(payRegistry(), payRegistry(slow));
      const [aborted] = await queue.dispatchAll([call("1")], { signal: AbortSignal.timeout(100) });
      expect(aborted?.status === "error" && aborted.error).toBeInstanceOf(ToolAbortedError);
      const inspector = new Queue(queueName, { connection: new Redis(redis!.url, { maxRetriesPerRequest: null }) });
      open.push(inspector);
      // The first job is over: it ran until its abort, or (on a busy machine) was removed before it began.
      await vi.waitFor(async () => expect(await inspector.getJobCountByTypes("active", "waiting", "delayed", "prioritized")).toBe(0), EVENTUALLY);
      const runsBefore = runs;
      const repeats = await Promise.all([queue.dispatch(call("1")), queue.dispatch(call("1"))]);
      expect(repeats).toEqual(["paid inv_1", "paid inv_1"]);
      expect(runs).toBe(runsBefore + 1);
    });

    it("runs a call again when it is repeated after it timed out", async () => {
      let timedOut = false;
      let runs = 0;
      // Slow until the caller has seen its time limit pass. On a busy machine the worker may not have
      // taken the first job by then, which the queue then removes: either way the repeat runs anew.
      const slowUntilTimedOut = (args: PayArgs, { signal }: ToolContext) =>
        new Promise((resolve) => {
          runs++;
          if (timedOut) return resolve(`paid ${args.invoice}`);
          signal.addEventListener("abort", () => resolve("too late"));
        });
      const { queue, queueName } = queueAndWorker(payRegistry(undefined, { timeoutMs: 200 }), payRegistry(slowUntilTimedOut, { timeoutMs: 200 }));
      await expect(queue.dispatch(call("1"))).rejects.toBeInstanceOf(ToolTimeoutError);
      timedOut = true;
      const inspector = new Queue(queueName, { connection: new Redis(redis!.url, { maxRetriesPerRequest: null }) });
      open.push(inspector);
      // The first job is over: it ran to its own time limit, or was removed before it began.
      await vi.waitFor(async () => expect(await inspector.getJobCountByTypes("active", "waiting", "delayed", "prioritized")).toBe(0), EVENTUALLY);
      const runsBefore = runs;
      expect(await queue.dispatch(call("1"))).toBe("paid inv_1");
      expect(runs).toBe(runsBefore + 1);
    });

    it("times out at the tool's time limit and aborts the handler on its worker", async () => {
      const aborted = vi.fn();
      const slow = (_args: PayArgs, { signal }: ToolContext) => new Promise((resolve) => signal.addEventListener("abort", () => resolve(aborted(signal.reason))));
      const { queue } = queueAndWorker(payRegistry(undefined, { timeoutMs: 200 }), payRegistry(slow, { timeoutMs: 200 }));
      const started = performance.now();
      const error = await queue.dispatch(call("1")).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolTimeoutError);
      expect((error as ToolTimeoutError).timeoutMs).toBe(200);
      expect(performance.now() - started).toBeLessThan(1_000);
      await vi.waitFor(() => expect(aborted).toHaveBeenCalledOnce(), EVENTUALLY);
    });

    it("says a call aborted before dispatch, or dispatched on a closed queue, never started", async () => {
      const { queue } = queueAndWorker(payRegistry(), payRegistry());
      expect(await queue.dispatch(call("1"), { signal: AbortSignal.abort() }).catch((caught: unknown) => caught)).toMatchObject({ name: "ToolAbortedError", started: false });
      await queue.close();
      const [closed] = await queue.dispatchAll([call("2")]);
      expect(closed?.status === "error" && closed.error).toMatchObject({ name: "ToolAbortedError", started: false });
    });

    it("passes the caller's abort to the handler on its worker", async () => {
      const aborted = vi.fn();
      let started: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      const waiting = (_args: PayArgs, { signal }: ToolContext) => {
        started();
        return new Promise((resolve) => signal.addEventListener("abort", () => resolve(aborted())));
      };
      const { queue } = queueAndWorker(payRegistry(), payRegistry(waiting));
      const controller = new AbortController();
      const pending = queue.dispatch(call("1"), { signal: controller.signal }).catch((caught: unknown) => caught);
      await running;
      controller.abort(new Error("the user left"));
      const error = await pending;
      expect(error).toBeInstanceOf(ToolAbortedError);
      // It was running on its worker.
      expect(error).toMatchObject({ started: true });
      await vi.waitFor(() => expect(aborted).toHaveBeenCalledOnce(), EVENTUALLY);
    });

    it("never runs a call whose caller aborted while it waited for Redis", async () => {
      const handler = vi.fn(() => "sent");
      const { queue, queueName } = queueAndWorker(payRegistry(), payRegistry(handler));
      const controller = new AbortController();
      // The abort comes while the queue sets up its event listener, before the job is enqueued.
      const client = redisClientsOf(queue)!.client;
      const time = client.time.bind(client);
      client.time = (() => {
        controller.abort(new Error("the user pressed stop"));
        return time();
      }) as typeof client.time;
      const error = await queue.dispatch(call("1"), { signal: controller.signal }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolAbortedError);
      expect(error).toMatchObject({ started: false });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(handler).not.toHaveBeenCalled();
      const inspector = new Queue(queueName, { connection: new Redis(redis!.url, { maxRetriesPerRequest: null }) });
      open.push(inspector);
      expect(await inspector.getJobCountByTypes("waiting", "active", "completed", "failed")).toBe(0);
    });

    it("never runs a call whose caller aborted while its job was being enqueued", async () => {
      const handler = vi.fn(() => "sent");
      const queueName = uniqueName("q");
      const queue = createToolQueue(payRegistry(), { connection: redis!.url, queueName });
      open.push(queue);
      const controller = new AbortController();
      const original = Queue.prototype.add;
      const add = vi.spyOn(Queue.prototype, "add").mockImplementationOnce(function (this: Queue, ...args: Parameters<Queue["add"]>) {
        controller.abort(new Error("the user pressed stop"));
        return original.apply(this, args);
      });
      try {
        await expect(queue.dispatch(call("1"), { signal: controller.signal })).rejects.toBeInstanceOf(ToolAbortedError);
      } finally {
        add.mockRestore();
      }
      // The job reached Redis after the abort: it is removed before any worker takes it.
      await new Promise((resolve) => setTimeout(resolve, 200));
      open.push(createToolWorker(payRegistry(handler), { connection: redis!.url, queueName }));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(handler).not.toHaveBeenCalled();
    });

    it("refuses a call whose tool has another schema on the worker, with the worker's typed error", async () => {
      const other = new ToolRegistry().register({ ...pay, parameters: Type.Object({ invoice: Type.String(), amount: Type.Number() }) }, () => "paid");
      const { queue } = queueAndWorker(payRegistry(), other);
      const error = await queue.dispatch(call("1")).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolMismatchError);
      expect((error as ToolMismatchError).reason).toBe("schema");
    });

    it("refuses an envelope tampered with on the wire, without running the handler", async () => {
      const handler = vi.fn(() => "paid");
      const queueName = uniqueName("q");
      const queue = createToolQueue(payRegistry(), { connection: redis!.url, queueName });
      const inspector = new Queue(queueName, { connection: new Redis(redis!.url, { maxRetriesPerRequest: null }) });
      open.push(queue, inspector);
      const pending = queue.dispatch(call("1")).catch((caught: unknown) => caught);
      await vi.waitFor(async () => expect(await inspector.getWaitingCount()).toBe(1), EVENTUALLY);
      const [job] = await inspector.getWaiting();
      await job!.updateData({ ...job!.data, arguments: { invoice: "inv_1", amount: -1_000 } });
      open.push(createToolWorker(payRegistry(handler), { connection: redis!.url, queueName }));
      const error = await pending;
      expect(error).toBeInstanceOf(ToolEnvelopeError);
      expect((error as ToolEnvelopeError).reason).toBe("tampered");
      expect(handler).not.toHaveBeenCalled();
    });

    it("maps the rate limit of a worker's one tool to BullMQ's limiter, held across workers: calls wait for it instead of being refused", async () => {
      const rateLimit = { limit: 2, intervalMs: 400 };
      const limited = () => payRegistry(undefined, { rateLimit });
      expect(limiterOf(limited())).toEqual({ max: 2, duration: 400 });
      expect(limiterOf(payRegistry())).toBeUndefined();
      expect(limiterOf(new ToolRegistry().register(pay, () => 1, { rateLimit: { ...rateLimit, key: () => "user" } }))).toBeUndefined();
      const { queue, queueName } = queueAndWorker(payRegistry(), limited());
      open.push(createToolWorker(limited(), { connection: redis!.url, queueName, concurrency: 4 }));
      const started = performance.now();
      const results = await queue.dispatchAll(Array.from({ length: 6 }, (_, index) => call(`r${index}`, { invoice: `inv_${index}`, amount: 1 })));
      expect(results.every((result: ToolResult) => result.status === "ok")).toBe(true);
      expect(performance.now() - started).toBeGreaterThanOrEqual(800);
    });
    it("refuses a call over a limit kept per key as the worker's registry does, with its retryAfterMs", async () => {
      const perUser = { rateLimit: { limit: 1, intervalMs: 60_000, key: () => "user" } };
      const { queue } = queueAndWorker(payRegistry(undefined, perUser), payRegistry(undefined, perUser));
      const [first, second] = [await queue.dispatchAll([call("1")]), await queue.dispatchAll([call("2", { invoice: "inv_2", amount: 1 })])].map((results) => results[0]!);
      expect(first!.status).toBe("ok");
      const error = second?.status === "error" ? second.error : undefined;
      expect(error).toBeInstanceOf(ToolRateLimitedError);
      expect((error as ToolRateLimitedError).retryAfterMs).toBeGreaterThan(50_000);
    });

    it("retries a failing idempotent tool on its worker, as the local registry does", async () => {
      let runs = 0;
      const flaky = () => {
        if (++runs < 3) throw new Error("try again");
        return "paid";
      };
      const options = { effects: "idempotent" as const, retry: { retries: 2, minDelayMs: 1, maxDelayMs: 5 } };
      const { queue } = queueAndWorker(payRegistry(undefined, options), payRegistry(flaky, options));
      expect(await queue.dispatch(call("1"))).toBe("paid");
      expect(runs).toBe(3);
    });
  });

  it("fails a call whose event listener could not be set up with a typed error, and sets it up again for the next call", async () => {
    const { queue } = queueAndWorker(payRegistry(), payRegistry());
    const client = redisClientsOf(queue)!.client;
    const time = client.time.bind(client);
    client.time = (() => {
      client.time = time;
      return Promise.reject(new Error("Connection is closed."));
    }) as typeof client.time;
    const [failed] = await queue.dispatchAll([call("1")]);
    expect(failed?.status === "error" && failed.error).toBeInstanceOf(ToolQueueConnectionError);
    expect(await queue.dispatch(call("2"))).toBe("paid inv_1");
  });

  it("gives up waiting for the event listener's connection after connectTimeoutMs", async () => {
    const port = await freePort();
    const queue = createToolQueue(payRegistry(), { connection: redis!.url, queueName: uniqueName("q"), connectTimeoutMs: 300 });
    open.push(queue);
    // The listener's own connection goes where no Redis is, and retries for ever.
    const eventsClient = redisClientsOf(queue)!.eventsClient;
    eventsClient.duplicate = () => {
      const nowhere = new Redis(`redis://127.0.0.1:${port}`, { maxRetriesPerRequest: null, retryStrategy: () => 50 });
      nowhere.on("error", () => undefined);
      open.push({ close: async () => nowhere.disconnect() });
      return nowhere;
    };
    const started = performance.now();
    const error = await Promise.race([queue.dispatch(call("1")).catch((caught: unknown) => caught), new Promise((resolve) => setTimeout(() => resolve("still waiting"), 3_000))]);
    expect(error).toBeInstanceOf(ToolQueueConnectionError);
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it("fails a queue's first call with a typed error naming the connection when Redis took it and stopped answering", async () => {
    const proxy = await redisProxy(redis!.url);
    const queue = createToolQueue(payRegistry(), { connection: proxy.url, queueName: uniqueName("q"), connectTimeoutMs: 300 });
    open.push(queue, { close: () => proxy.stop() });
    const { client } = redisClientsOf(queue)!;
    await vi.waitFor(() => expect(client.status).toBe("ready"), EVENTUALLY);
    proxy.freeze();
    const started = performance.now();
    const error = await Promise.race([queue.dispatch(call("1")).catch((caught: unknown) => caught), new Promise((resolve) => setTimeout(() => resolve("still waiting"), 5_000))]);
    expect(error).toBeInstanceOf(ToolQueueConnectionError);
    expect((error as ToolQueueConnectionError).connection).toBe(`${proxy.url}/0`);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("fails a call that waits for its result when Redis is gone longer than connectTimeoutMs, saying the tool may have run", async () => {
    const proxy = await redisProxy(redis!.url);
    const queueName = uniqueName("q");
    const queue = createToolQueue(payRegistry(), { connection: proxy.url, queueName, connectTimeoutMs: 300 });
    open.push(queue, { close: () => proxy.stop() });
    // No worker: the job waits in Redis, and the call for its result.
    const waiting = queue.dispatch(call("1")).catch((caught: unknown) => caught);
    await jobsWaiting(queueName, 1);
    await proxy.stop();
    const started = performance.now();
    const error = await Promise.race([waiting, new Promise((resolve) => setTimeout(() => resolve("still waiting"), 5_000))]);
    expect(error).toBeInstanceOf(ToolJobFailedError);
    expect((error as ToolJobFailedError).reason).toContain("was lost while its result was awaited");
    expect((error as Error).message).toContain("may or may not have taken effect");
    expect(performance.now() - started).toBeLessThan(3_000);
    // And a call made while it is gone is refused before it is sent.
    await expect(queue.dispatch(call("2"))).rejects.toBeInstanceOf(ToolQueueConnectionError);
  });

  it("closes within connectTimeoutMs after Redis went away, while its client still reconnects", async () => {
    const proxy = await redisProxy(redis!.url);
    const queueName = uniqueName("q");
    const queue = createToolQueue(payRegistry(), { connection: proxy.url, queueName, connectTimeoutMs: 300 });
    open.push({ close: () => proxy.stop() });
    const waiting = queue.dispatch(call("1")).catch((caught: unknown) => caught);
    await jobsWaiting(queueName, 1);
    await proxy.stop();
    expect(await waiting).toBeInstanceOf(ToolJobFailedError);
    const closed = await Promise.race([queue.close().then(() => "closed"), new Promise((resolve) => setTimeout(() => resolve("still closing"), 5_000))]);
    expect(closed).toBe("closed");
  });

  it("hears a call's result after a short break in the connection to Redis, and fails none", async () => {
    const proxy = await redisProxy(redis!.url);
    const queueName = uniqueName("q");
    const queue = createToolQueue(payRegistry(), { connection: proxy.url, queueName, connectTimeoutMs: 2_000 });
    open.push(queue, { close: () => proxy.stop() });
    const waiting = queue.dispatch(call("1"));
    await jobsWaiting(queueName, 1);
    proxy.cut();
    // The worker reaches Redis directly, and runs the job while the queue reconnects.
    open.push(createToolWorker(payRegistry(), { connection: redis!.url, queueName }));
    expect(await waiting).toBe("paid inv_1");
  });

  it("settles a call whose job's completion its events never told, from the job itself (an events stream trimmed while the process lagged)", async () => {
    const { queueName, client, waiting, jobId } = await oneCallWaiting();
    // Finished in Redis as a worker would have finished it, with no event written.
    const [result] = await payRegistry().dispatchAll([call("1")]);
    await client.lrem(`bull:${queueName}:wait`, 0, jobId);
    await client.hset(`bull:${queueName}:${jobId}`, "finishedOn", String(Date.now()), "returnvalue", JSON.stringify(resultToWire(result!)));
    expect(await Promise.race([waiting, new Promise((resolve) => setTimeout(() => resolve("still waiting"), 5_000))])).toBe("paid inv_1");
  });

  it("fails a call whose job Redis lost (or another program removed) as one that may have run, rather than wait for ever", async () => {
    const { queueName, client, waiting, jobId } = await oneCallWaiting();
    await client.lrem(`bull:${queueName}:wait`, 0, jobId);
    await client.del(`bull:${queueName}:${jobId}`);
    const error = await Promise.race([waiting, new Promise((resolve) => setTimeout(() => resolve("still waiting"), 5_000))]);
    expect(error).toBeInstanceOf(ToolJobFailedError);
    expect((error as ToolJobFailedError).reason).toBe("its job is no longer in the queue (Redis lost it, or another caller cancelled it)");
  });

  it("hears the completion of a job removed as it completed, when its event comes after the first look found no job", async () => {
    const { queueName, client, waiting, jobId } = await oneCallWaiting();
    // Completed and removed at once (removeOnComplete), its event late: after the first look, before the second.
    await client.lrem(`bull:${queueName}:wait`, 0, jobId);
    await client.del(`bull:${queueName}:${jobId}`);
    const [result] = await payRegistry().dispatchAll([call("1")]);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await client.xadd(`bull:${queueName}:events`, "*", "event", "completed", "jobId", jobId!, "returnvalue", JSON.stringify(resultToWire(result!)));
    expect(await Promise.race([waiting, new Promise((resolve) => setTimeout(() => resolve("still waiting"), 5_000))])).toBe("paid inv_1");
  });

  it("leaves a job to run for a call that joined it when the call that enqueued it is aborted", async () => {
    const queueName = uniqueName("q");
    const queue = createToolQueue(payRegistry(), { connection: redis!.url, queueName });
    open.push(queue);
    const controller = new AbortController();
    const first = queue.dispatch(call("1"), { signal: controller.signal }).catch((caught: unknown) => caught);
    await jobsWaiting(queueName, 1);
    const second = queue.dispatch(call("1"));
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    expect(await first).toBeInstanceOf(ToolAbortedError);
    open.push(createToolWorker(payRegistry(), { connection: redis!.url, queueName }));
    expect(await second).toBe("paid inv_1");
  });

  it("settles every call dispatched just before close, and enqueues none after it", async () => {
    // Closed at several moments of the calls' way to Redis (each wait a turn of the event loop).
    for (let turns = 0; turns < 5; turns++) {
      const queueName = uniqueName("q");
      const queue = createToolQueue(payRegistry(), { connection: redis!.url, queueName });
      const inspector = new Queue(queueName, { connection: new Redis(redis!.url, { maxRetriesPerRequest: null }) });
      open.push(inspector);
      // Warmed up: connected, and listening to the queue's events.
      const warm = queue.dispatch(call("warm")).catch(() => undefined);
      await jobsWaiting(queueName, 1);
      const calls = Array.from({ length: 20 }, (_, index) => queue.dispatch(call(`c${index}`)).then(() => "resolved", () => "rejected"));
      for (let turn = 0; turn < turns; turn++) await new Promise((resolve) => setImmediate(resolve));
      await queue.close();
      const settled = await Promise.race([Promise.all([warm, ...calls]), new Promise((resolve) => setTimeout(() => resolve("still waiting"), 5_000))]);
      expect(settled).toEqual([undefined, ...calls.map(() => "rejected")]);
      const enqueued = await inspector.getJobCountByTypes("waiting");
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await inspector.getJobCountByTypes("waiting")).toBe(enqueued);
    }
  });

  it("fails a call whose job another program completed with what is not its result, as a job that may have run", async () => {
    const queueName = uniqueName("q");
    const queue = createToolQueue(payRegistry(), { connection: redis!.url, queueName });
    const connection = new Redis(redis!.url, { maxRetriesPerRequest: null });
    const rogue = new Worker(queueName, () => Promise.resolve(42), { connection });
    open.push(queue, { close: () => rogue.close().then(() => connection.quit()).then(() => undefined) });
    const [result] = await queue.dispatchAll([call("1")]);
    expect(result?.status === "error" && result.error).toBeInstanceOf(ToolJobFailedError);
    expect(result?.status === "error" && (result.error as ToolJobFailedError).reason).toBe("its job completed with a value that is not this call's result");
  });

  it("fails a call waiting when BullMQ cannot read the queue's events (a completion that is not JSON), and listens anew for the next", async () => {
    const queueName = uniqueName("q");
    const queue = createToolQueue(payRegistry(), { connection: redis!.url, queueName });
    const client = new Redis(redis!.url);
    open.push(queue, { close: () => client.quit().then(() => undefined) });
    const waiting = queue.dispatch(call("1")).catch((caught: unknown) => caught);
    const [jobId] = await jobsWaiting(queueName, 1);
    await client.xadd(`bull:${queueName}:events`, "*", "event", "completed", "jobId", jobId!, "returnvalue", "{not json");
    const error = await Promise.race([waiting, new Promise((resolve) => setTimeout(() => resolve("still waiting"), 5_000))]);
    expect(error).toBeInstanceOf(ToolJobFailedError);
    expect((error as ToolJobFailedError).reason).toBe("the queue's events could not be read while its result was awaited");
    // The next call listens anew, and is heard.
    open.push(createToolWorker(payRegistry(), { connection: redis!.url, queueName }));
    expect(await queue.dispatch(call("2"))).toBe("paid inv_1");
  });

  it("fails a call whose job another program completed with text that is not JSON", async () => {
    const queueName = uniqueName("q");
    const queue = createToolQueue(payRegistry(), { connection: redis!.url, queueName });
    const connection = new Redis(redis!.url, { maxRetriesPerRequest: null });
    const rogue = new Worker(queueName, () => Promise.resolve("{not json"), { connection });
    open.push(queue, { close: () => rogue.close().then(() => connection.quit()).then(() => undefined) });
    const error = await Promise.race([queue.dispatch(call("1")).catch((caught: unknown) => caught), new Promise((resolve) => setTimeout(() => resolve("still waiting"), 5_000))]);
    expect(error).toBeInstanceOf(ToolJobFailedError);
    expect((error as ToolJobFailedError).reason).toBe("its job completed with a value that is not JSON");
  });

  it.each([
    ["while Redis stays", false],
    ["through a short break in its connection", true],
  ])("closes a worker gracefully %s: the job still running finishes first, and is heard", async (_name, breaks) => {
    let started = false;
    let finished = false;
    const slow = async (): Promise<string> => {
      started = true;
      await new Promise((resolve) => setTimeout(resolve, 500));
      finished = true;
      return "paid";
    };
    const proxy = await redisProxy(redis!.url);
    const queueName = uniqueName("q");
    const queue = createToolQueue(payRegistry(), { connection: redis!.url, queueName });
    const worker = createToolWorker(payRegistry(slow), { connection: proxy.url, queueName });
    open.push(queue, { close: () => proxy.stop() });
    const result = queue.dispatch(call("1"));
    await vi.waitFor(() => expect(started).toBe(true), EVENTUALLY);
    if (breaks) proxy.cut();
    await worker.close();
    expect(finished).toBe(true);
    expect(await result).toBe("paid");
  });

  it.each([
    ["whose Redis was never there", async () => ({ url: `redis://127.0.0.1:${await freePort()}`, breakIt: () => Promise.resolve() })],
    [
      "whose Redis went away",
      async () => {
        const proxy = await redisProxy(redis!.url);
        return { url: proxy.url, breakIt: () => proxy.stop() };
      },
    ],
    [
      "whose Redis took the connection and stopped answering",
      async () => {
        const proxy = await redisProxy(redis!.url);
        open.push({ close: () => proxy.stop() });
        return { url: proxy.url, breakIt: () => Promise.resolve(proxy.freeze()) };
      },
    ],
  ])("closes a worker %s without waiting for it", async (_name, setUp) => {
    const { url, breakIt } = await setUp();
    const worker = createToolWorker(payRegistry(), { connection: url, queueName: uniqueName("q") });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await breakIt();
    const closed = await Promise.race([worker.close().then(() => "closed"), new Promise((resolve) => setTimeout(() => resolve("still closing"), 5_000))]);
    expect(closed).toBe("closed");
  });

  it("closes a worker whose Redis stopped answering while a job ran, once it has answered nothing for 2 s", async () => {
    const proxy = await redisProxy(redis!.url);
    open.push({ close: () => proxy.stop() });
    const queueName = uniqueName("q");
    let started: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const slow = async (args: PayArgs) => {
      started();
      await new Promise((resolve) => setTimeout(resolve, 300));
      return `paid ${args.invoice}`;
    };
    const queue = createToolQueue(payRegistry(), { connection: redis!.url, queueName });
    const worker = createToolWorker(payRegistry(slow), { connection: proxy.url, queueName });
    open.push(queue);
    void queue.dispatch(call("1")).catch(() => undefined);
    await running;
    proxy.freeze();
    // The job ends, and its outcome cannot be written: BullMQ's close would wait for it for ever.
    const closed = await Promise.race([worker.close().then(() => "closed"), new Promise((resolve) => setTimeout(() => resolve("still closing"), 6_000))]);
    expect(closed).toBe("closed");
  });

  it("closes within connectTimeoutMs when its Redis takes connections and never answers", async () => {
    const silent = await silentServer();
    const queue = createToolQueue(payRegistry(), { connection: silent.url, queueName: uniqueName("q"), connectTimeoutMs: 300 });
    open.push({ close: () => silent.stop() });
    await expect(queue.dispatch(call("1"))).rejects.toBeInstanceOf(ToolQueueConnectionError);
    const closed = await Promise.race([queue.close().then(() => "closed"), new Promise((resolve) => setTimeout(() => resolve("still closing"), 5_000))]);
    expect(closed).toBe("closed");
  });

  it("settles a call that waits for its connection at its caller's abort or its tool's time limit, not at connectTimeoutMs", async () => {
    const silent = await silentServer();
    const within = (pending: Promise<unknown>) => Promise.race([pending.catch((caught: unknown) => caught), new Promise((resolve) => setTimeout(() => resolve("still waiting"), 2_000))]);
    const queue = createToolQueue(payRegistry(), { connection: silent.url, queueName: uniqueName("q"), connectTimeoutMs: 5_000 });
    const limited = createToolQueue(payRegistry(undefined, { timeoutMs: 200 }), { connection: silent.url, queueName: uniqueName("q"), connectTimeoutMs: 5_000 });
    // Closed once the silent server is gone, which ends their connections at once.
    open.push({ close: () => silent.stop().then(() => Promise.all([queue.close(), limited.close()])).then(() => undefined) });
    const aborted = await within(queue.dispatch(call("1"), { signal: AbortSignal.timeout(100) }));
    expect(aborted).toBeInstanceOf(ToolAbortedError);
    expect(aborted).toMatchObject({ started: false });
    const timedOut = await within(limited.dispatch(call("2")));
    expect(timedOut).toBeInstanceOf(ToolTimeoutError);
    expect(timedOut).toMatchObject({ timeoutMs: 200, started: false, waitedFor: "the tool queue could not be reached in that time" });
    expect((timedOut as Error).message).toBe('Tool "pay" did not start within 200 ms: the tool queue could not be reached in that time. It did not run; you may call it again.');
  });

  it("gives the caller the three verbs and nothing else: no Redis client or setting is reachable from the queue", async () => {
    const queue = createToolQueue(payRegistry(), { connection: `redis://127.0.0.1:${await freePort()}`, queueName: uniqueName("q") });
    open.push(queue);
    expect(Object.keys(queue).sort()).toEqual(["close", "dispatch", "dispatchAll"]);
    expect(Object.isFrozen(queue)).toBe(true);
    const { dispatch } = queue;
    await expect(dispatch(call("1", { invoice: "inv_1", amount: "10" }))).rejects.toBeInstanceOf(ToolArgumentsValidationError);
  });

  it("fails at once with a typed error naming the connection when Redis is not there", async () => {
    const port = await freePort();
    const queue = createToolQueue(payRegistry(), { connection: `redis://127.0.0.1:${port}`, queueName: uniqueName("q") });
    open.push(queue);
    const started = performance.now();
    const error = await queue.dispatch(call("1")).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolQueueConnectionError);
    expect(error).toMatchObject({ connection: `redis://127.0.0.1:${port}/0`, toolName: "pay" });
    expect((error as Error).message).toContain(`redis://127.0.0.1:${port}/0`);
    expect(performance.now() - started).toBeLessThan(2_500);
    const [result] = await queue.dispatchAll([call("2")]);
    expect(result).toMatchObject({ status: "error", isError: true, content: expect.stringContaining("could not be reached") });
  });
});
