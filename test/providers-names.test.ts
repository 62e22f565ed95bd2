import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ToolRegistry, Type } from "../src/index.js";
import { anthropic, gemini, openAIChat, openAIResponses, ProviderNameError } from "../src/providers/index.js";
import { ToolNameMap } from "../src/providers/names.js";
import { thrownBy } from "./support/fixtures.js";

const OPENAI_AND_ANTHROPIC = /^[a-zA-Z0-9_-]{1,64}$/;
const GEMINI = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;

function registryOf(...names: string[]): ToolRegistry {
  const registry = new ToolRegistry();
  for (const name of names) registry.register({ name, description: "", parameters: Type.Object({}) }, () => name);
  return registry;
}

describe("ToolNameMap", () => {
  it("maps names every provider accepts to themselves", () => {
    const names = new ToolNameMap(["read", "get_weather", "list-files", "_private"]);
    expect(names.entries()).toEqual([
      ["read", "read"],
      ["get_weather", "get_weather"],
      ["list-files", "list-files"],
      ["_private", "_private"],
    ]);
  });

  it("turns uber.ride into uber_ride and back", () => {
    const names = new ToolNameMap(registryOf("uber.ride"));
    expect(names.toProviderName("uber.ride")).toBe("uber_ride");
    expect(names.fromProviderName("uber_ride")).toBe("uber.ride");
  });

  it("never hands a registered tool's own name to another tool, whatever the registration order", () => {
    for (const order of [["uber.ride", "uber_ride"], ["uber_ride", "uber.ride"]]) {
      const names = new ToolNameMap(registryOf(...order));
      expect(names.toProviderName("uber_ride")).toBe("uber_ride");
      expect(names.toProviderName("uber.ride")).toBe("uber_ride_2");
      expect(names.fromProviderName("uber_ride_2")).toBe("uber.ride");
    }
  });

  it("cuts long names to 64 characters and keeps them distinct", () => {
    const long = "a".repeat(70);
    const names = new ToolNameMap([`${long}.one`, `${long}.two`]);
    const [first, second] = [names.toProviderName(`${long}.one`), names.toProviderName(`${long}.two`)];
    expect(first).toHaveLength(64);
    expect(second).toHaveLength(64);
    expect(first).not.toBe(second);
  });

  it("returns a provider name it never handed out unchanged, so dispatch reports an unknown tool", () => {
    expect(new ToolNameMap(["uber.ride"]).fromProviderName("lyft_ride")).toBe("lyft_ride");
    expect(new ToolNameMap(["uber.ride"]).providerNameOf("lyft.ride")).toBeUndefined();
  });

  it("maps a name first seen later without taking a name already handed out", () => {
    const names = new ToolNameMap(["a.b"]);
    expect(names.toProviderName("a_b")).toBe("a_b_2");
    expect(names.fromProviderName("a_b")).toBe("a.b");
  });

  it("refuses a single name where it takes a list", () => {
    expect(thrownBy(() => new ToolNameMap("uber.ride" as never))).toBeInstanceOf(TypeError);
  });

  it("is reversible and provider-safe for any set of registry names", () => {
    const registryName = fc.stringMatching(/^[A-Za-z0-9_.:-]{1,128}$/);
    fc.assert(
      fc.property(fc.uniqueArray(registryName, { maxLength: 30 }), (registryNames) => {
        const names = new ToolNameMap(registryNames);
        const providerNames = registryNames.map((name) => names.toProviderName(name));
        expect(new Set(providerNames).size).toBe(registryNames.length);
        for (const [index, providerName] of providerNames.entries()) {
          expect(providerName).toMatch(OPENAI_AND_ANTHROPIC);
          expect(providerName).toMatch(GEMINI);
          expect(names.fromProviderName(providerName)).toBe(registryNames[index]);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("tool names in each provider's dialect", () => {
  it("refuses uber.ride for OpenAI and Anthropic with a ProviderNameError naming the tool and the rule", () => {
    const registry = registryOf("read", "uber.ride");
    for (const adapter of [openAIChat, openAIResponses, anthropic]) {
      const error = thrownBy(() => adapter(registry).tools());
      expect(error).toBeInstanceOf(ProviderNameError);
      expect((error as ProviderNameError).toolName).toBe("uber.ride");
      expect((error as Error).message).toContain("^[a-zA-Z0-9_-]{1,64}$");
    }
  });

  it("sends uber.ride to Gemini as it is, since Gemini accepts dots", () => {
    expect(gemini(registryOf("uber.ride")).tools()[0]?.functionDeclarations[0]?.name).toBe("uber.ride");
  });

  it('with names: "map", never hands one tool the name of another registered tool, and reads each name back', () => {
    const registry = registryOf("uber.ride", "uber_ride", "x:y");
    const chat = openAIChat(registry, { names: "map" });
    const mapped = chat.tools().map((tool) => tool.function.name);
    expect(mapped).toEqual(["uber_ride_2", "uber_ride", "x_y"]);
    expect(mapped.map((name) => chat.call({ id: "c", type: "function", function: { name, arguments: "{}" } }).name)).toEqual(["uber.ride", "uber_ride", "x:y"]);
  });

  it('with names: "map", claims the safe names of tools registered after the adapter was made before mapping the others', () => {
    const registry = new ToolRegistry();
    const chat = openAIChat(registry, { names: "map" });
    registry.register({ name: "uber.ride", description: "", parameters: Type.Object({}) }, () => "");
    registry.register({ name: "uber_ride", description: "", parameters: Type.Object({}) }, () => "");
    expect(chat.tools().map((tool) => tool.function.name)).toEqual(["uber_ride_2", "uber_ride"]);
  });
});
