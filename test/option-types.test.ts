import { describe, expect, it } from "vitest";
import { ToolRegistry, Type, type DispatchOptions, type RegisterOptions, type ToolRegistryOptions } from "../src/index.js";
import { toolCall } from "./support/fixtures.js";

// Compiled by `npm test` under `exactOptionalPropertyTypes`, as a strict user's project is: an option
// whose value may be `undefined` is passed as it is, since an option set to `undefined` is unset.
function maybe<T>(value: T, present: boolean): T | undefined {
  return present ? value : undefined;
}

describe("options that may be undefined", () => {
  it("type-check under exactOptionalPropertyTypes, and an undefined one is unset", async () => {
    const registryOptions: ToolRegistryOptions = { timeoutMs: maybe(1_000, false), maxResultBytes: maybe(100, false), onRepair: maybe(() => undefined, false) };
    const registerOptions: RegisterOptions = { timeoutMs: maybe(5, false), effects: maybe("read-only" as const, false), retry: maybe({ retries: 1, minDelayMs: maybe(10, false) }, false) };
    const dispatchOptions: DispatchOptions = { signal: maybe(new AbortController().signal, false), approval: maybe("token", false) };
    const registry = new ToolRegistry(registryOptions).register({ name: "echo", description: "", parameters: Type.Object({ text: Type.String() }) }, ({ text }) => text, registerOptions);
    expect(await registry.dispatch(toolCall("echo", { text: "x".repeat(200) }), dispatchOptions)).toBe("x".repeat(200));
  });
});
