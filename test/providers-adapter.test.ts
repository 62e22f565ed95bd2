import { describe, expect, it } from "vitest";
import { failureContent, ToolRegistry, Type } from "../src/index.js";
import { anthropic, gemini, openAIChat, openAIResponses } from "../src/providers/index.js";
import { weatherAndRideRegistry } from "./fixtures/providers/tools.js";
import { rejectionOf, thrownBy } from "./support/fixtures.js";

const adapters = [openAIChat, openAIResponses, anthropic, gemini] as const;
const each = adapters.map((adapter) => [adapter.name, adapter] as const);

describe("a provider adapter's options", () => {
  it.each(each)("%s: a bad option throws a TypeError naming it when the adapter is made", (_name, adapter) => {
    const registry = weatherAndRideRegistry();
    expect(thrownBy(() => adapter(registry, { names: "loose" as never }))).toEqual(new TypeError('names must be "strict" or "map", got "loose"'));
    expect(thrownBy(() => adapter(registry, { names: {} as never }))).toEqual(new TypeError('names must be "strict" or "map", got object'));
    expect(thrownBy(() => adapter(registry, { maxTools: 0 }))).toEqual(new TypeError("maxTools must be a positive integer or Infinity, got 0"));
    expect(thrownBy(() => adapter(registry, { maxTools: "5" as never }))).toEqual(new TypeError('maxTools must be a positive integer or Infinity, got "5"'));
    expect(thrownBy(() => adapter(registry, { only: "get_weather" as never }))).toEqual(new TypeError('only must be a list of registry tool names, got "get_weather"'));
    expect(thrownBy(() => adapter(registry, [] as never))).toEqual(new TypeError("options must be an object, got an array"));
    expect(thrownBy(() => adapter({} as ToolRegistry))).toEqual(new TypeError("registry must be a ToolRegistry, got object"));
  });

  it.each([
    ["openAIChat", openAIChat],
    ["openAIResponses", openAIResponses],
  ] as const)("%s: strict must be a boolean", (_name, adapter) => {
    expect(thrownBy(() => adapter(weatherAndRideRegistry(), { strict: "yes" as never }))).toEqual(new TypeError('strict must be a boolean, got "yes"'));
  });

  it.each([
    ["anthropic", anthropic],
    ["gemini", gemini],
  ] as const)("%s: refuses strict, an option only the OpenAI adapters take, instead of ignoring it", (_name, adapter) => {
    expect(thrownBy(() => adapter(weatherAndRideRegistry(), { strict: true } as never))).toEqual(
      new TypeError('unknown option "strict": the options are names, only, maxTools'),
    );
  });

  it("refuses an option it does not know, naming the ones it takes", () => {
    expect(thrownBy(() => openAIChat(weatherAndRideRegistry(), { nullsAsOmitted: true } as never))).toEqual(
      new TypeError('unknown option "nullsAsOmitted": the options are names, only, maxTools, strict'),
    );
  });

  it("reads an option set to undefined as unset", () => {
    expect(openAIChat(new ToolRegistry(), { names: undefined, strict: undefined, maxTools: undefined, only: undefined } as never).tools()).toEqual([]);
  });
});

describe("a provider adapter", () => {
  it.each(each)("%s: is a frozen object whose methods work unbound, as callbacks", (_name, adapter) => {
    const made = adapter(new ToolRegistry());
    expect(Object.isFrozen(made)).toBe(true);
    const { tools, result } = made;
    expect(tools()).toEqual([]);
    expect(result({ status: "ok", toolCallId: "c1", toolName: "t", isError: false, value: "ok" })).toBeTypeOf("object");
  });

  it("names its provider as errors do", () => {
    expect(adapters.map((adapter) => adapter(new ToolRegistry()).provider)).toEqual(["OpenAI Chat Completions", "OpenAI Responses", "Anthropic", "Gemini"]);
  });

  it('keeps one name map for both directions with names: "map", and has none with names: "strict"', () => {
    const registry = weatherAndRideRegistry();
    const chat = openAIChat(registry, { names: "map" });
    expect(openAIChat(registry).nameMap).toBeUndefined();
    expect(chat.nameMap?.entries()).toEqual([
      ["get_weather", "get_weather"],
      ["uber.ride", "uber_ride"],
    ]);
    // A tool registered later under the name already sent for uber.ride gets a name of its own, and both read back.
    registry.register({ name: "uber_ride", description: "", parameters: Type.Object({}) }, () => "");
    expect(chat.tools().map((tool) => tool.function.name)).toEqual(["get_weather", "uber_ride", "uber_ride_2"]);
    const call = (name: string) => chat.call({ id: "c", type: "function", function: { name, arguments: "{}" } }).name;
    expect([call("uber_ride"), call("uber_ride_2")]).toEqual(["uber.ride", "uber_ride"]);
  });

  it("gives failureContent its name map, for an error caught from dispatch", async () => {
    const registry = weatherAndRideRegistry();
    const chat = openAIChat(registry, { names: "map" });
    const call = chat.call({ id: "c", type: "function", function: { name: "uber_rid", arguments: "{}" } });
    const error = await rejectionOf(registry.dispatch(call));
    expect(failureContent(error, chat.nameMap)).toContain('Did you mean "uber_ride"?');
  });
});
