import { describe, expect, it } from "vitest";
import { ToolRegistry, Type, type ToolRegistryChange } from "../src/index.js";
import { thrownBy } from "./support/fixtures.js";

const parameters = Type.Object({});

describe("ToolRegistry.onChange", () => {
  it("tells a listener of each register and of each unregister that removed a tool", () => {
    const registry = new ToolRegistry();
    const changes: ToolRegistryChange[] = [];
    registry.onChange((change) => changes.push(change));
    registry.register({ name: "a", description: "", parameters }, () => 1);
    registry.unregister("a");
    registry.unregister("a"); // nothing removed: no change
    expect(changes).toEqual([
      { type: "register", name: "a" },
      { type: "unregister", name: "a" },
    ]);
  });

  it("does not call a listener for a register that was refused", () => {
    const registry = new ToolRegistry().register({ name: "a", description: "", parameters }, () => 1);
    const changes: ToolRegistryChange[] = [];
    registry.onChange((change) => changes.push(change));
    thrownBy(() => registry.register({ name: "a", description: "", parameters }, () => 1));
    expect(changes).toEqual([]);
  });

  it("stops calling a listener once removed", () => {
    const registry = new ToolRegistry();
    const changes: string[] = [];
    const stop = registry.onChange((change) => changes.push(change.name));
    registry.register({ name: "a", description: "", parameters }, () => 1);
    stop();
    stop();
    registry.register({ name: "b", description: "", parameters }, () => 1);
    expect(changes).toEqual(["a"]);
  });

  it("lets what a listener throws reach the caller, with the change made", () => {
    const registry = new ToolRegistry();
    registry.onChange(() => {
      throw new RangeError("listener failed");
    });
    expect(thrownBy(() => registry.register({ name: "a", description: "", parameters }, () => 1))).toBeInstanceOf(RangeError);
    expect(registry.has("a")).toBe(true);
  });

  it("tells every listener the changes in the order they were made, a change a listener makes after the one it hears", () => {
    const registry = new ToolRegistry();
    const heard: string[] = [];
    registry.onChange((change) => {
      heard.push(`first ${change.type} ${change.name}`);
      if (change.name === "a") registry.register({ name: "b", description: "", parameters }, () => 1);
    });
    registry.onChange((change) => void heard.push(`second ${change.type} ${change.name}`));
    registry.register({ name: "a", description: "", parameters }, () => 1);
    expect(heard).toEqual(["first register a", "second register a", "first register b", "second register b"]);
  });

  it("refuses a listener that is not a function", () => {
    expect(thrownBy(() => new ToolRegistry().onChange("listener" as never))).toBeInstanceOf(TypeError);
  });
});
