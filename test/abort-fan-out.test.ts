import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { AbortFanOut } from "../src/dispatch/abort-fan-out.js";
import { ToolAbortedError, ToolRegistry, Type } from "../src/index.js";

describe("one listener on the caller's signal", () => {
  it("runs 50 calls at once under one signal with one listener on it, no MaxListenersExceededWarning, and aborts them all", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on("warning", onWarning);
    const controller = new AbortController();
    let started = 0;
    let listenersWhileRunning = -1;
    const registry = new ToolRegistry().register({ name: "wait", description: "", parameters: Type.Object({}) }, (_args, { signal }) => {
      started++;
      if (started === 50) {
        listenersWhileRunning = getEventListeners(controller.signal, "abort").length;
        controller.abort("enough");
      }
      return new Promise((resolve) => signal.addEventListener("abort", () => resolve("late")));
    });
    const calls = Array.from({ length: 50 }, (_, index) => ({ type: "tool_call" as const, id: String(index), name: "wait", arguments: {} }));
    const results = await registry.dispatchAll(calls, { signal: controller.signal, concurrency: 50 });
    await new Promise((resolve) => setImmediate(resolve));
    process.off("warning", onWarning);
    expect(listenersWhileRunning).toBe(1);
    expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
    expect(results.every((result) => result.isError && result.error instanceof ToolAbortedError)).toBe(true);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("leaves no listener on the signal once every call has settled", async () => {
    const controller = new AbortController();
    const registry = new ToolRegistry().register({ name: "ok", description: "", parameters: Type.Object({}) }, () => 1);
    const calls = Array.from({ length: 20 }, (_, index) => ({ type: "tool_call" as const, id: String(index), name: "ok", arguments: {} }));
    await registry.dispatchAll(calls, { signal: controller.signal, concurrency: 20 });
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });
});

describe("AbortFanOut", () => {
  it("holds one listener for any number of subscribers, tells each once, and lets go when the last leaves", () => {
    const controller = new AbortController();
    const fanOut = new AbortFanOut(controller.signal);
    const told: number[] = [];
    const leave = Array.from({ length: 30 }, (_, index) => fanOut.subscribe(() => told.push(index)));
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    leave[0]!();
    controller.abort();
    expect(told).toHaveLength(29);
    for (const unsubscribe of leave) unsubscribe();
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });
});
