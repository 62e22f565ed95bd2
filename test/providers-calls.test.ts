import { describe, expect, it } from "vitest";
import { ToolRegistry } from "../src/index.js";
import { isRecord } from "../src/objects.js";
import { anthropic, gemini, openAIChat, openAIResponses, ProviderFormatError } from "../src/providers/index.js";

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

const registry = new ToolRegistry();

describe("provider adapters given a revoked proxy", () => {
  it.each([
    ["openAIChat, the call", () => openAIChat(registry).call(revoked() as never)],
    ["openAIChat, its function", () => openAIChat(registry).call({ id: "1", type: "function", function: revoked() } as never)],
    ["openAIChat, its arguments", () => openAIChat(registry).call({ id: "1", type: "function", function: { name: "a", arguments: revoked() } } as never)],
    ["openAIResponses, the item", () => openAIResponses(registry).call(revoked() as never)],
    ["anthropic, the block", () => anthropic(registry).call(revoked() as never)],
    ["anthropic, its input", () => anthropic(registry).call({ type: "tool_use", id: "1", name: "a", input: revoked() } as never)],
    ["gemini, the part", () => gemini(registry).call(revoked() as never)],
    ["gemini, its functionCall", () => gemini(registry).call({ functionCall: revoked() } as never)],
    ["gemini, its args", () => gemini(registry).call({ functionCall: { name: "a", args: revoked() } } as never)],
  ])("%s: throws the adapter's typed error, not a TypeError", (_where, read) => {
    expect(read).toThrow(ProviderFormatError);
  });
});

describe("isRecord", () => {
  it("says no, without throwing, for a revoked proxy", () => {
    expect(isRecord(revoked())).toBe(false);
    expect(isRecord({})).toBe(true);
    expect(isRecord([])).toBe(false);
  });
});
