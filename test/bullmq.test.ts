import { describe, expect, it, vi } from "vitest";
import { createToolQueue, createToolWorker, RedisLedger } from "../src/bullmq/index.js";
import { inspect } from "node:util";
import { withoutCommand } from "../src/bullmq/connection.js";
import { ToolQueueConnectionError } from "../src/bullmq/errors.js";
import { limiterOf } from "../src/bullmq/limiter.js";
import { EarlyCancels } from "../src/bullmq/worker.js";
import { resultFromWire, resultToWire } from "../src/bullmq/results.js";
import { ToolExecutionError, ToolRegistry, ToolTimeoutError, Type } from "../src/index.js";
import type { JsonValue } from "../src/execution/ledger.js";
import { rejectionOf, thrownBy } from "./support/fixtures.js";

// The parts of typebox-tool-registry/bullmq that need no Redis: what crosses the wire, and the limiter a worker gives BullMQ.

const tool = (name: string) => ({ name, description: `The ${name} tool`, parameters: Type.Object({ id: Type.String() }) });
const rateLimit = { limit: 10, intervalMs: 1_000 };

describe("the options of the queue, the worker and the ledger", () => {
  // No server listens on port 1: each refusal comes before any connection is made.
  const connection = "redis://127.0.0.1:1";

  it("refuse an option they do not know, naming it and the ones they take", async () => {
    const registry = new ToolRegistry();
    expect(thrownBy(() => createToolQueue(registry, { connection, queueName: "q", connectTimeout: 100 } as never))).toEqual(
      new TypeError('unknown option "connectTimeout": the options are connection, queueName, prefix, connectTimeoutMs, jobOptions'),
    );
    expect(thrownBy(() => createToolWorker(registry, { connection, queueName: "q", lockDuration: 100 } as never))).toEqual(
      new TypeError('unknown option "lockDuration": the options are connection, queueName, prefix, concurrency, workerOptions'),
    );
    expect(thrownBy(() => new RedisLedger({ connection, prefix: "x:" } as never))).toEqual(new TypeError('unknown option "prefix": the options are connection, keyPrefix, commandTimeoutMs'));
  });

  it("refuse a ledger's connection option misspelt, rather than take the options for ioredis options", () => {
    expect(thrownBy(() => new RedisLedger({ conection: connection, keyPrefix: "x:" } as never))).toEqual(
      new TypeError('unknown option "conection": the options are connection, keyPrefix, commandTimeoutMs'),
    );
    expect(thrownBy(() => new RedisLedger({ Connection: connection } as never))).toEqual(new TypeError('unknown option "Connection": the options are connection, keyPrefix, commandTimeoutMs'));
  });

  it("take ioredis options for a ledger's connection, their connectionName and keyPrefix included", async () => {
    const ledger = new RedisLedger({ host: "127.0.0.1", port: 1, lazyConnect: true, connectionName: "ledger", keyPrefix: "x:" });
    await ledger.close();
  });

  it("refuse, in a queue's dispatch and dispatchAll, an option the registry's would refuse", async () => {
    const queue = createToolQueue(new ToolRegistry(), { connection, queueName: "q", connectTimeoutMs: 100 });
    try {
      const call = { id: "c1", name: "read", arguments: {} };
      expect(await rejectionOf(queue.dispatch(call, { timeoutMs: 5 } as never))).toEqual(new TypeError('unknown option "timeoutMs": the options are signal, approval, data, allow'));
      expect(await rejectionOf(queue.dispatchAll([call], { approval: "t" } as never))).toEqual(
        new TypeError('unknown option "approval": the options are signal, data, allow, concurrency, approvals, order'),
      );
    } finally {
      await queue.close();
    }
  });
});

describe("the causes of Redis failures", () => {
  it("keep a Redis error's name and message without the command's arguments, which hold a call's envelope", () => {
    const failed = Object.assign(new Error("OOM command not allowed when used memory > 'maxmemory'."), { name: "ReplyError", command: { name: "evalsha", args: ['{"invoice":"SECRET-4111"}'] } });
    const cause = withoutCommand(failed);
    expect(cause).toMatchObject({ name: "ReplyError", message: failed.message });
    expect(inspect(new ToolQueueConnectionError("pay", "redis://127.0.0.1:6390/0", { cause, refused: true }))).not.toContain("SECRET");
  });

  it("leave an error that holds no command as it is", () => {
    const refused = new Error("connect ECONNREFUSED 127.0.0.1:1");
    expect(withoutCommand(refused)).toBe(refused);
  });

  it("say that Redis refused the job when it answered the enqueue with an error, and that it could not be reached otherwise", () => {
    expect(new ToolQueueConnectionError("pay", "redis://127.0.0.1:6390/0", { refused: true }).message).toBe('Tool "pay" was not run: its queue at redis://127.0.0.1:6390/0 refused the job. Try again later.');
    expect(new ToolQueueConnectionError("pay", "redis://127.0.0.1:6390/0").message).toBe('Tool "pay" was not run: its queue at redis://127.0.0.1:6390/0 could not be reached. Try again later.');
  });
});

describe("a worker's cancels for jobs it does not run yet", () => {
  const job = (id: string, timestamp: number) => ({ id, timestamp }) as never;

  it("abort a job made before its caller gave up, once, when the worker starts it", () => {
    const early = new EarlyCancels();
    early.add("j1", "aborted", 2_000);
    const signal = early.take(job("j1", 1_000));
    expect(signal?.aborted).toBe(true);
    expect(early.take(job("j1", 1_000))).toBeUndefined();
  });

  it("leave a job of that id made after its caller gave up (the call dispatched again) to run", () => {
    const early = new EarlyCancels();
    early.add("j1", "aborted", 2_000);
    expect(early.take(job("j1", 3_000))).toBeUndefined();
    expect(early.take(job("j2", 1_000))).toBeUndefined();
  });

  it("forget a cancel after 2 s: the moment between BullMQ taking a job and starting it is short", () => {
    vi.useFakeTimers({ now: 10_000 });
    try {
      const early = new EarlyCancels();
      early.add("j1", "aborted", 10_000);
      vi.setSystemTime(12_001);
      expect(early.take(job("j1", 9_000))).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it("keep at most 10,000, the oldest going first", () => {
    const early = new EarlyCancels();
    for (let index = 0; index <= 10_000; index++) early.add(`j${index}`, "aborted", 2_000);
    expect(early.take(job("j0", 1_000))).toBeUndefined();
    expect(early.take(job("j1", 1_000))?.aborted).toBe(true);
  });
});

describe("limiterOf", () => {
  it("gives BullMQ the limit of a worker's one tool, when the limit has no key", () => {
    expect(limiterOf(new ToolRegistry().register(tool("pay"), () => 1, { rateLimit }))).toEqual({ max: 10, duration: 1_000 });
  });

  it("gives none for a worker of two tools with equal limits, whose registry allows each tool its own limit", () => {
    const registry = new ToolRegistry().register(tool("pay"), () => 1, { rateLimit }).register(tool("refund"), () => 1, { rateLimit });
    expect(limiterOf(registry)).toBeUndefined();
  });

  it("gives none for a limit kept per key, nor for a tool without a limit", () => {
    expect(limiterOf(new ToolRegistry().register(tool("pay"), () => 1, { rateLimit: { ...rateLimit, key: () => "user" } }))).toBeUndefined();
    expect(limiterOf(new ToolRegistry().register(tool("pay"), () => 1))).toBeUndefined();
  });
});

describe("resultToWire and resultFromWire", () => {
  const failing = (thrown: unknown) => new ToolRegistry().register(tool("fetch"), () => Promise.reject(thrown));
  const wireOf = async (thrown: unknown) => resultToWire((await failing(thrown).dispatchAll([{ id: "1", name: "fetch", arguments: { id: "a" } }]))[0]!);

  it("send a handler's own error as its name and message only, never its fields", async () => {
    const thrown = Object.assign(new TypeError("Request failed with status code 500"), { config: { headers: { Authorization: "Bearer secret" } } });
    const wire = await wireOf(thrown);
    expect(JSON.stringify(wire)).not.toContain("secret");
    const { error } = resultFromWire(wire, "1", "fetch") as { error: Error };
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect(error.cause).toMatchObject({ name: "TypeError", message: "Request failed with status code 500" });
    expect(Object.keys(error.cause as object)).toEqual([]);
  });

  it("send a thrown value that is not an error by its type only", async () => {
    const wire = await wireOf({ token: "secret" });
    expect(JSON.stringify(wire)).not.toContain("secret");
  });

  it("keep this library's errors' own fields", async () => {
    const wire = resultToWire({ status: "error", toolCallId: "1", toolName: "fetch", isError: true, content: "timed out", error: new ToolTimeoutError("fetch", "1", 250) });
    expect(resultFromWire(wire, "1", "fetch")).toMatchObject({ error: { name: "ToolTimeoutError", toolName: "fetch", toolCallId: "1", timeoutMs: 250, started: true } });
  });

  it("rebuild a field named __proto__ as an own field, never as the error's prototype", () => {
    const forged = JSON.parse('{"status":"error","toolCallId":"1","toolName":"t","isError":true,"content":"x","error":{"name":"ToolTimeoutError","message":"m","fields":{"__proto__":{"forged":true}}}}') as JsonValue;
    const { error } = resultFromWire(forged, "1", "t") as { error: Error & { forged?: unknown } };
    expect(error).toBeInstanceOf(ToolTimeoutError);
    expect(error.forged).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(error, "__proto__")?.value).toEqual({ forged: true });
  });

  it("rebuild an error of no class of this library without the fields the wire gives it", () => {
    const forged = JSON.parse('{"status":"error","toolCallId":"1","toolName":"t","isError":true,"content":"x","error":{"name":"RangeError","message":"m","fields":{"injected":true}}}') as JsonValue;
    const { error } = resultFromWire(forged, "1", "t") as { error: Error };
    expect(error).toMatchObject({ name: "RangeError", message: "m" });
    expect(Object.hasOwn(error, "injected")).toBe(false);
  });

  it.each([
    ["nothing", null],
    ["a number", 42],
    ["an unknown status", { status: "bogus", toolCallId: "1", toolName: "t", isError: false }],
    ["another call's result", { status: "ok", toolCallId: "2", toolName: "t", isError: false, value: 1 }],
    ["another tool's result", { status: "ok", toolCallId: "1", toolName: "u", isError: false, value: 1 }],
    ["a success marked as an error", { status: "ok", toolCallId: "1", toolName: "t", isError: true, value: 1 }],
    ["a failure with no error", { status: "error", toolCallId: "1", toolName: "t", isError: true, content: "x" }],
    ["a failure whose error has no message", { status: "error", toolCallId: "1", toolName: "t", isError: true, content: "x", error: { name: "ToolTimeoutError" } }],
    ["a failure with no text for the model", { status: "error", toolCallId: "1", toolName: "t", isError: true, error: { name: "E", message: "m", fields: {} } }],
  ])("read %s as no result of the call", (_name, wire) => {
    expect(resultFromWire(wire as JsonValue, "1", "t")).toBeUndefined();
  });

  it("keep of a cause only the shapes the worker writes, and at most four deep", () => {
    const nested = (depth: number): JsonValue => (depth === 0 ? { name: "E", message: "bottom", fields: {} } : { name: "ToolExecutionError", message: `level ${depth}`, fields: {}, cause: nested(depth - 1) });
    const { error } = resultFromWire({ status: "error", toolCallId: "1", toolName: "t", isError: true, content: "x", error: nested(10) }, "1", "t") as { error: Error };
    let depth = 0;
    for (let cause: unknown = error.cause; cause instanceof Error; cause = cause.cause) depth++;
    expect(depth).toBe(4);
    const odd = resultFromWire({ status: "error", toolCallId: "1", toolName: "t", isError: true, content: "x", error: { name: "E", message: "m", fields: {}, cause: 5 } }, "1", "t") as { error: Error };
    expect(odd.error.cause).toBeUndefined();
  });
});
