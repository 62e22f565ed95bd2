import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { NEVER_ABORTED_SIGNAL } from "../src/dispatch/context.js";
import { ToolRegistry, Type } from "../src/index.js";

/** Everything a handler might try to make the shared signal abort, or look aborted, for other calls. */
function tamperWith(signal: AbortSignal): void {
  const attempts: Array<() => unknown> = [
    () => Object.defineProperty(signal, "aborted", { get: () => true }),
    () => Object.defineProperty(signal, "reason", { value: "tampered" }),
    () => Object.defineProperty(signal, "throwIfAborted", { value: () => { throw new Error("tampered"); } }),
    () => Object.assign(signal, { aborted: true }),
    () => Object.setPrototypeOf(signal, { aborted: true }),
    () => Object.defineProperty(signal, "addEventListener", { value: () => undefined }),
    ...Object.getOwnPropertySymbols(signal).map((symbol) => () => Object.assign(signal, { [symbol]: true })),
    () => { signal.onabort = () => undefined; },
    () => signal.addEventListener("abort", () => undefined),
    () => EventTarget.prototype.dispatchEvent.call(signal, new Event("abort")),
    () => signal.dispatchEvent(new Event("abort")),
  ];
  for (const attempt of attempts) {
    try {
      attempt();
    } catch {
      // Refused: what a frozen signal does.
    }
  }
}

describe("the shared never-aborting signal", () => {
  it("cannot be made to read as aborted, by any handler, for any other call", async () => {
    const seen: AbortSignal[] = [];
    const registry = new ToolRegistry()
      .register({ name: "tamper", description: "", parameters: Type.Object({}) }, (_args, { signal }) => tamperWith(signal))
      .register({ name: "observe", description: "", parameters: Type.Object({}) }, (_args, { signal }) => {
        seen.push(signal);
        return { aborted: signal.aborted, reason: signal.reason, onabort: signal.onabort, prototype: Object.getPrototypeOf(signal) === AbortSignal.prototype };
      });
    await registry.dispatch({ type: "tool_call", id: "1", name: "tamper", arguments: {} }).catch(() => undefined);
    const observed = await new ToolRegistry()
      .register({ name: "observe", description: "", parameters: Type.Object({}) }, (_args, { signal }) => ({ aborted: signal.aborted, reason: signal.reason, onabort: signal.onabort, prototype: Object.getPrototypeOf(signal) === AbortSignal.prototype }))
      .dispatch({ type: "tool_call", id: "2", name: "observe", arguments: {} });
    expect(observed).toEqual({ aborted: false, reason: undefined, onabort: null, prototype: true });
    expect(await registry.dispatch({ type: "tool_call", id: "3", name: "observe", arguments: {} })).toEqual(observed);
    expect(seen[0]).toBe(NEVER_ABORTED_SIGNAL);
    expect(() => NEVER_ABORTED_SIGNAL.throwIfAborted()).not.toThrow();
    expect(getEventListeners(NEVER_ABORTED_SIGNAL, "abort")).toHaveLength(0);
  });

  it("refuses a new property outright", () => {
    expect(Object.isFrozen(NEVER_ABORTED_SIGNAL)).toBe(true);
    expect(() => Object.defineProperty(NEVER_ABORTED_SIGNAL, "aborted", { get: () => true })).toThrow(TypeError);
  });

  it("still works with AbortSignal.any, and the composite can still abort by its other sources", () => {
    const controller = new AbortController();
    const composite = AbortSignal.any([NEVER_ABORTED_SIGNAL, controller.signal]);
    expect(composite.aborted).toBe(false);
    controller.abort("stop");
    expect(composite.aborted).toBe(true);
    expect(NEVER_ABORTED_SIGNAL.aborted).toBe(false);
  });
});
