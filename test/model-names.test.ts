import { describe, expect, it } from "vitest";
import { failureContent, ToolRegistry, Type, UnknownToolError, type ToolResult } from "../src/index.js";
import { fromAnthropic, fromGemini, fromOpenAIChat, fromOpenAIResponses, ToolNameMap } from "../src/providers/index.js";
import { rejectionOf } from "./support/fixtures.js";

// The model was sent "uber_ride" for the registry's "uber.ride": text written for it must never say "uber.ride".
function rideRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  registry.register({ name: "uber.ride", description: "Book a ride", parameters: Type.Object({ time: Type.Integer({ minimum: 0 }) }) }, ({ time }) => {
    if (time > 60) throw new Error("no rides that far ahead");
    return "booked";
  });
  registry.register({ name: "uber.slow", description: "Slow", parameters: Type.Object({}) }, () => new Promise(() => {}), { timeoutMs: 10 });
  registry.register({ name: "lyft.ride", description: "Book a Lyft", parameters: Type.Object({}) }, () => "booked");
  return registry;
}

/** The text for the model of a failed result (a success fails the test). */
function contentOf(result: ToolResult | undefined): string {
  if (result?.isError !== true) throw new Error("expected a failed result");
  return result.content;
}

const openAIChat = (name: string, args: string, names: ToolNameMap) => fromOpenAIChat({ id: "c1", type: "function", function: { name, arguments: args } }, { names });
const fromEachProvider: Array<[string, (name: string, args: Record<string, unknown>, names: ToolNameMap) => ReturnType<typeof fromOpenAIChat>]> = [
  ["OpenAI Chat Completions", (name, args, names) => openAIChat(name, JSON.stringify(args), names)],
  ["OpenAI Responses", (name, args, names) => fromOpenAIResponses({ type: "function_call", call_id: "c1", name, arguments: JSON.stringify(args) }, { names })],
  ["Anthropic", (name, args, names) => fromAnthropic({ type: "tool_use", id: "c1", name, input: args }, { names })],
  ["Gemini", (name, args, names) => fromGemini({ functionCall: { id: "c1", name, args } }, { names })],
];

describe("text for the model names tools as the model knows them", () => {
  it.each(fromEachProvider)("%s: a validation failure names uber_ride, not uber.ride", async (_provider, read) => {
    const registry = rideRegistry();
    const names = new ToolNameMap(registry);
    const [result] = await registry.dispatchAll([read("uber_ride", { time: -1 }, names)]);
    expect(result).toMatchObject({ isError: true, toolName: "uber.ride" });
    const content = contentOf(result);
    expect(content).toContain('Invalid arguments for tool "uber_ride":\n  - /time: must be >= 0');
    expect(content).not.toContain("uber.ride");
  });

  it("suggests close names and lists available tools in the names the model was sent", async () => {
    const registry = rideRegistry();
    const names = new ToolNameMap(registry);
    const [misspelt, unrelated] = await registry.dispatchAll([openAIChat("uber_rid", "{}", names), openAIChat("weather", "{}", names)]);
    expect(contentOf(misspelt)).toBe('Unknown tool "uber_rid". Did you mean "uber_ride"? Call one of the available tools instead.');
    expect(contentOf(unrelated)).toBe(
      'Unknown tool "weather". Available tools: "uber_ride", "uber_slow", "lyft_ride". Call one of the available tools instead.',
    );
  });

  it("names the tool the model knows when a mapped tool was unregistered since the tools were sent", async () => {
    const registry = rideRegistry();
    const names = new ToolNameMap(registry);
    registry.unregister("uber.ride");
    const [result] = await registry.dispatchAll([openAIChat("uber_ride", "{}", names)]);
    expect(contentOf(result)).toMatch(/^Unknown tool "uber_ride"\./);
  });

  it("names the tool the model knows when the handler fails or times out", async () => {
    const registry = rideRegistry();
    const names = new ToolNameMap(registry);
    const [failed, timedOut] = await registry.dispatchAll([openAIChat("uber_ride", '{"time":90}', names), openAIChat("uber_slow", "{}", names)]);
    expect(contentOf(failed)).toBe('Tool "uber_ride" failed: no rides that far ahead');
    expect(contentOf(timedOut)).toBe('Tool "uber_slow" timed out after 10 ms');
  });

  it("keeps the registry's names in the typed error, for code and logs", async () => {
    const registry = rideRegistry();
    const names = new ToolNameMap(registry);
    const [result] = await registry.dispatchAll([openAIChat("uber_ride", '{"time":-1}', names)]);
    expect(result?.isError === true && result.error.message).toContain('Invalid arguments for tool "uber.ride"');
  });

  it("uses the registry's names for calls that did not come through a name map", async () => {
    const registry = rideRegistry();
    const [result] = await registry.dispatchAll([{ type: "tool_call", id: "1", name: "uber.ride", arguments: { time: -1 } }]);
    expect(contentOf(result)).toContain('Invalid arguments for tool "uber.ride"');
  });

  it("failureContent(error, names) does the same for an error caught from dispatch", async () => {
    const registry = rideRegistry();
    const names = new ToolNameMap(registry);
    const error = await rejectionOf(registry.dispatch(openAIChat("uber_rid", "{}", names)));
    expect(error).toBeInstanceOf(UnknownToolError);
    expect(failureContent(error, names)).toContain('Did you mean "uber_ride"?');
    expect(failureContent(error)).toContain('Did you mean "uber.ride"?');
  });
});
