import { describe, expect, it, vi } from "vitest";
import { ToolRegistry, Type, type CallObserver } from "../src/index.js";

const add = { name: "add", description: "Add", parameters: Type.Object({ a: Type.Number(), b: Type.Number() }) };

function addRegistry(observer: CallObserver): ToolRegistry {
  const registry = new ToolRegistry().register(add, (args) => {
    const sum = args.a + args.b;
    args.a = -1; // the handler owns its private copy, and may change it
    return sum;
  });
  registry.observe(observer);
  return registry;
}

describe("registry.observe", () => {
  it("wraps every call, refused ones included", async () => {
    const names: string[] = [];
    const registry = addRegistry({ observe: (call, proceed) => (names.push(call.toolName), proceed()) });
    await registry.dispatchAll([{ id: "1", name: "add", arguments: { a: 1, b: 2 } }, { id: "2", name: "sub", arguments: {} }]);
    expect(names).toEqual(["add", "sub"]);
  });

  it("tells checked before the handler runs, with the arguments as checked", async () => {
    const seen: unknown[] = [];
    const registry = addRegistry({ observe: (_call, proceed) => proceed(), checked: (call) => seen.push(structuredClone(call.arguments)) });
    expect(await registry.dispatch({ id: "1", name: "add", arguments: { a: 1, b: 2 } })).toBe(3);
    expect(seen).toEqual([{ a: 1, b: 2 }]);
  });

  it("never tells checked for a call that failed its check", async () => {
    const checked = vi.fn();
    const registry = addRegistry({ observe: (_call, proceed) => proceed(), checked });
    await registry.dispatchAll([{ id: "1", name: "add", arguments: { a: "1", b: 2 } }]);
    expect(checked).not.toHaveBeenCalled();
  });

  it("skips an observer that is not active, on dispatch and dispatchAll alike", async () => {
    let active = false;
    const observe = vi.fn((_call, proceed: () => Promise<never>) => proceed());
    const registry = addRegistry({ observe, active: () => active });
    await registry.dispatch({ id: "1", name: "add", arguments: { a: 1, b: 2 } });
    await registry.dispatchAll([{ id: "2", name: "add", arguments: { a: 1, b: 2 } }]);
    expect(observe).not.toHaveBeenCalled();
    active = true;
    await registry.dispatch({ id: "3", name: "add", arguments: { a: 1, b: 2 } });
    expect(observe).toHaveBeenCalledOnce();
  });

  it("goes on when an observer's checked or active throws", async () => {
    const registry = addRegistry({
      observe: (_call, proceed) => proceed(),
      checked: () => {
        throw new Error("broken");
      },
      active: () => {
        throw new Error("broken");
      },
    });
    expect(await registry.dispatch({ id: "1", name: "add", arguments: { a: 1, b: 2 } })).toBe(3);
  });
});
