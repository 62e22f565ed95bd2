import { describe, expect, it } from "vitest";
import { limiterOf } from "../src/bullmq/limiter.js";
import { resultFromWire, resultToWire } from "../src/bullmq/results.js";
import { ToolExecutionError, ToolRegistry, ToolTimeoutError, Type } from "../src/index.js";
import type { JsonValue } from "../src/execution/ledger.js";

// The parts of typebox-tool-registry/bullmq that need no Redis: what crosses the wire, and the limiter a worker gives BullMQ.

const tool = (name: string) => ({ name, description: `The ${name} tool`, parameters: Type.Object({ id: Type.String() }) });
const rateLimit = { limit: 10, intervalMs: 1_000 };

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
    const { error } = resultFromWire(wire) as { error: Error };
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
    expect(resultFromWire(wire)).toMatchObject({ error: { name: "ToolTimeoutError", toolName: "fetch", toolCallId: "1", timeoutMs: 250, started: true } });
  });

  it("rebuild a field named __proto__ as an own field, never as the error's prototype", () => {
    const forged = JSON.parse('{"status":"error","toolCallId":"1","toolName":"t","isError":true,"content":"x","error":{"name":"ToolTimeoutError","message":"m","fields":{"__proto__":{"forged":true}}}}') as JsonValue;
    const { error } = resultFromWire(forged) as { error: Error & { forged?: unknown } };
    expect(error).toBeInstanceOf(ToolTimeoutError);
    expect(error.forged).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(error, "__proto__")?.value).toEqual({ forged: true });
  });

  it("rebuild an error of no class of this library without the fields the wire gives it", () => {
    const forged = JSON.parse('{"status":"error","toolCallId":"1","toolName":"t","isError":true,"content":"x","error":{"name":"RangeError","message":"m","fields":{"injected":true}}}') as JsonValue;
    const { error } = resultFromWire(forged) as { error: Error };
    expect(error).toMatchObject({ name: "RangeError", message: "m" });
    expect(Object.hasOwn(error, "injected")).toBe(false);
  });
});
