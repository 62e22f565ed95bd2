import { describe, expect, it } from "vitest";
import { isRecord } from "../src/objects.js";
import { fromAnthropic, fromGemini, fromOpenAIChat, fromOpenAIResponses, ProviderFormatError } from "../src/providers/index.js";

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

describe("provider adapters given a revoked proxy", () => {
  it.each([
    ["fromOpenAIChat, the call", () => fromOpenAIChat(revoked() as never)],
    ["fromOpenAIChat, its function", () => fromOpenAIChat({ id: "1", type: "function", function: revoked() } as never)],
    ["fromOpenAIChat, its arguments", () => fromOpenAIChat({ id: "1", type: "function", function: { name: "a", arguments: revoked() } } as never)],
    ["fromOpenAIResponses, the item", () => fromOpenAIResponses(revoked() as never)],
    ["fromAnthropic, the block", () => fromAnthropic(revoked() as never)],
    ["fromAnthropic, its input", () => fromAnthropic({ type: "tool_use", id: "1", name: "a", input: revoked() } as never)],
    ["fromGemini, the part", () => fromGemini(revoked() as never)],
    ["fromGemini, its functionCall", () => fromGemini({ functionCall: revoked() } as never)],
    ["fromGemini, its args", () => fromGemini({ functionCall: { name: "a", args: revoked() } } as never)],
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
