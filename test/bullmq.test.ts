import { describe, expect, it } from "vitest";
import { limiterOf } from "../src/bullmq/limiter.js";
import { ToolRegistry, Type } from "../src/index.js";

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
