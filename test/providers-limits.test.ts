import { describe, expect, it } from "vitest";
import { ToolRegistry, Type } from "../src/index.js";
import { anthropic, gemini, openAIChat, openAIResponses, ProviderLimitError } from "../src/providers/index.js";
import { thrownBy } from "./support/fixtures.js";

function registryOf(count: number): ToolRegistry {
  const registry = new ToolRegistry();
  const parameters = Type.Object({ city: Type.String(), days: Type.Optional(Type.Integer({ minimum: 1, maximum: 14 })) });
  for (let index = 0; index < count; index++) registry.register({ name: `tool_${index}`, description: `Tool number ${index}`, parameters }, () => index);
  return registry;
}

const adapters = [openAIChat, openAIResponses, anthropic, gemini] as const;
const toolCount = (tools: unknown[]): number => (tools[0] !== undefined && "functionDeclarations" in (tools[0] as object) ? (tools[0] as { functionDeclarations: unknown[] }).functionDeclarations.length : tools.length);

describe("provider limits on tools per request", () => {
  it.each([
    ["OpenAI Chat Completions", openAIChat],
    ["OpenAI Responses", openAIResponses],
  ] as const)("%s: 500 tools are refused before OpenAI refuses them, naming the limit of 128 and how to send a subset", (provider, adapter) => {
    const error = thrownBy(() => adapter(registryOf(500)).tools());
    expect(error).toBeInstanceOf(ProviderLimitError);
    expect(error).toMatchObject({ provider, limit: 128, count: 500 });
    expect((error as Error).message).toBe(
      `${provider} accepts at most 128 tools in one request, and 500 would be sent. Send the tools this request needs: pass { only: [...names] } with at most 128 registry names.`,
    );
  });

  it("sends 128 tools, and a subset of a larger registry with the adapter's only, in registry order", () => {
    expect(openAIChat(registryOf(128)).tools()).toHaveLength(128);
    const subset = openAIChat(registryOf(500), { only: ["tool_7", "tool_3"] }).tools();
    expect(subset.map((tool) => tool.function.name)).toEqual(["tool_3", "tool_7"]);
  });

  it("takes another limit from maxTools, for every provider", () => {
    const registry = registryOf(5);
    for (const adapter of adapters) {
      expect(thrownBy(() => adapter(registry, { maxTools: 4 }).tools())).toMatchObject({ limit: 4, count: 5 });
    }
    expect(openAIResponses(registryOf(200), { maxTools: Infinity }).tools()).toHaveLength(200);
  });

  it("knows no limit for Anthropic and Gemini unless maxTools sets one", () => {
    expect(anthropic(registryOf(200)).tools()).toHaveLength(200);
    expect(gemini(registryOf(200)).tools()[0]?.functionDeclarations).toHaveLength(200);
  });
});

describe("tools({ only }): one request's subset", () => {
  it.each(adapters.map((adapter) => [adapter.name, adapter] as const))("%s: sends the request's only, in registry order, in place of the adapter's", (_name, adapter) => {
    const made = adapter(registryOf(10), { only: ["tool_1", "tool_2"] });
    expect(toolCount(made.tools())).toBe(2);
    expect(toolCount(made.tools({ only: ["tool_9", "tool_4", "tool_5"] }))).toBe(3);
    expect(toolCount(made.tools({}))).toBe(2);
  });

  it("chooses from the whole registry, not only from the adapter's only", () => {
    const chat = openAIChat(registryOf(10), { only: ["tool_1"] });
    expect(chat.tools({ only: ["tool_8", "tool_2"] }).map((tool) => tool.function.name)).toEqual(["tool_2", "tool_8"]);
  });

  it("holds the request's only to the adapter's maxTools", () => {
    const chat = openAIChat(registryOf(10), { maxTools: 2 });
    expect(thrownBy(() => chat.tools({ only: ["tool_1", "tool_2", "tool_3"] }))).toMatchObject({ limit: 2, count: 3 });
    expect(chat.tools({ only: ["tool_1", "tool_2"] })).toHaveLength(2);
  });

  it("reads an only given as any iterable, even one that can be read once", () => {
    function* names() {
      yield "tool_3";
      yield "tool_1";
    }
    const chat = openAIChat(registryOf(5), { only: names() });
    expect(chat.tools()).toHaveLength(2);
    expect(chat.tools()).toHaveLength(2);
    expect(chat.tools({ only: new Set(["tool_4"]) })).toHaveLength(1);
  });

  it("refuses a name that is not registered when the tools are made, since the registry may change", () => {
    const registry = registryOf(3);
    const chat = openAIChat(registry, { only: ["tool_1", "tool_9"] });
    expect(thrownBy(() => chat.tools())).toEqual(new TypeError('only names a tool that is not registered: "tool_9"'));
    registry.register({ name: "tool_9", description: "", parameters: Type.Object({}) }, () => 9);
    expect(chat.tools()).toHaveLength(2);
    expect(thrownBy(() => chat.tools({ only: ["nope"] }))).toEqual(new TypeError('only names a tool that is not registered: "nope"'));
  });

  it("refuses a request's only that is not a list of names, and any other request option", () => {
    const chat = openAIChat(registryOf(3));
    expect(thrownBy(() => chat.tools({ only: "tool_1" as never }))).toEqual(new TypeError('only must be a list of registry tool names, got "tool_1"'));
    expect(thrownBy(() => chat.tools({ only: ["tool_1", 1] as never }))).toEqual(new TypeError("only must be a list of registry tool names, got a list holding 1"));
    expect(thrownBy(() => chat.tools({ maxTools: 1 } as never))).toEqual(new TypeError('unknown option "maxTools": the options are only'));
    expect(thrownBy(() => chat.tools(null as never))).toEqual(new TypeError("options must be an object, got null"));
  });
});

describe("the registry's maxArgumentBytes through the OpenAI adapters", () => {
  it.each([
    ["OpenAI Chat Completions", (registry: ToolRegistry, text: string) => openAIChat(registry).call({ id: "c", type: "function", function: { name: "tool_0", arguments: text } })],
    ["OpenAI Responses", (registry: ToolRegistry, text: string) => openAIResponses(registry).call({ type: "function_call", call_id: "c", name: "tool_0", arguments: text })],
  ] as const)("%s: a text over the limit is left for dispatch, which refuses it by size", async (_provider, callOf) => {
    const runs: unknown[] = [];
    const registry = new ToolRegistry({ maxArgumentBytes: 1_024 }).register({ name: "tool_0", description: "echo", parameters: Type.Object({ city: Type.String() }) }, (args) => runs.push(args));
    const large = JSON.stringify({ city: "x".repeat(5_000) });
    const call = callOf(registry, large);
    expect(call.arguments).toBe(large);
    const [result] = await registry.dispatchAll([call]);
    expect(result).toMatchObject({ isError: true, error: { issues: ["/: arguments must not be larger than 1024 bytes"] } });
    expect(runs).toHaveLength(0);
    expect(callOf(registry, '{"city":"Paris"}').arguments).toEqual({ city: "Paris" });
  });
});
