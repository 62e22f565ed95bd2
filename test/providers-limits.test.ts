import { describe, expect, it } from "vitest";
import { ToolRegistry, Type } from "../src/index.js";
import { ProviderLimitError, toAnthropicTools, toGeminiTools, toOpenAIChatTools, toOpenAIResponsesTools } from "../src/providers/index.js";
import { thrownBy } from "./support/fixtures.js";

function registryOf(count: number): ToolRegistry {
  const registry = new ToolRegistry();
  const parameters = Type.Object({ city: Type.String(), days: Type.Optional(Type.Integer({ minimum: 1, maximum: 14 })) });
  for (let index = 0; index < count; index++) registry.register({ name: `tool_${index}`, description: `Tool number ${index}`, parameters }, () => index);
  return registry;
}

describe("provider limits on tools per request", () => {
  it.each([
    ["OpenAI Chat Completions", toOpenAIChatTools],
    ["OpenAI Responses", toOpenAIResponsesTools],
  ] as const)("%s: 500 tools are refused before OpenAI refuses them, naming the limit of 128 and how to send a subset", (provider, toTools) => {
    const error = thrownBy(() => toTools(registryOf(500)));
    expect(error).toBeInstanceOf(ProviderLimitError);
    expect(error).toMatchObject({ provider, limit: 128, count: 500 });
    expect((error as Error).message).toBe(
      `${provider} accepts at most 128 tools in one request, and 500 would be sent. Send the tools this request needs: pass { only: [...names] } with at most 128 registry names.`,
    );
  });

  it("sends 128 tools, and a subset of a larger registry with only, in registry order", () => {
    expect(toOpenAIChatTools(registryOf(128))).toHaveLength(128);
    const subset = toOpenAIChatTools(registryOf(500), { only: ["tool_7", "tool_3"] });
    expect(subset.map((tool) => tool.function.name)).toEqual(["tool_3", "tool_7"]);
  });

  it("takes another limit from maxTools, for every provider", () => {
    const registry = registryOf(5);
    for (const toTools of [toOpenAIChatTools, toOpenAIResponsesTools, toAnthropicTools, toGeminiTools]) {
      expect(thrownBy(() => toTools(registry, { maxTools: 4 }))).toMatchObject({ limit: 4, count: 5 });
    }
    expect(toOpenAIResponsesTools(registryOf(200), { maxTools: Infinity })).toHaveLength(200);
  });

  it("knows no limit for Anthropic and Gemini unless maxTools sets one", () => {
    expect(toAnthropicTools(registryOf(200))).toHaveLength(200);
    expect(toGeminiTools(registryOf(200))[0]?.functionDeclarations).toHaveLength(200);
  });

  it("refuses only with a name that is not registered, or that is not a list, and a bad maxTools", () => {
    const registry = registryOf(3);
    expect(thrownBy(() => toOpenAIChatTools(registry, { only: ["tool_1", "tool_9"] }))).toEqual(new TypeError('only names a tool that is not registered: "tool_9"'));
    expect(thrownBy(() => toOpenAIChatTools(registry, { only: "tool_1" as never }))).toBeInstanceOf(TypeError);
    expect(thrownBy(() => toOpenAIChatTools(registry, { maxTools: 0 }))).toEqual(new TypeError("maxTools must be a positive integer or Infinity, got 0"));
  });
});
