import { describe, expect, it } from "vitest";
import { ToolRegistry, Type, type TSchema } from "../src/index.js";
import { anthropic, gemini, openAIChat, openAIResponses, ProviderSchemaError } from "../src/providers/index.js";
import { thrownBy } from "./support/fixtures.js";

function registryWith(parameters: TSchema): ToolRegistry {
  return new ToolRegistry()
    .register({ name: "plain", description: "", parameters: Type.Object({ q: Type.String() }) }, () => "ok")
    .register({ name: "search", description: "", parameters }, () => "ok");
}

const intersect = Type.Intersect([Type.Object({ a: Type.String() }), Type.Object({ b: Type.Number() })]);
const union = Type.Union([Type.Object({ a: Type.String() }), Type.Object({ b: Type.Number() })]);
const oneOf = Type.Unsafe<Record<string, unknown>>({ type: "object", oneOf: [{ required: ["a"] }, { required: ["b"] }] });
const enumerated = Type.Unsafe<Record<string, unknown>>({ type: "object", enum: [{ a: 1 }] });
const negated = Type.Unsafe<Record<string, unknown>>({ type: "object", not: { required: ["a"] } });

const openAIAdapters = [
  ["OpenAI Chat Completions", (registry: ToolRegistry) => openAIChat(registry).tools()],
  ["OpenAI Responses", (registry: ToolRegistry) => openAIResponses(registry).tools()],
] as const;

describe("a tool whose parameters have a root the provider refuses", () => {
  it.each([...openAIAdapters, ["Anthropic", (registry: ToolRegistry) => anthropic(registry).tools()]] as const)(
    "%s: tools() throws a ProviderSchemaError naming the tool and the keyword, for a root anyOf, oneOf or allOf, rather than a request the API answers with a 400",
    (provider, tools) => {
      for (const [parameters, keyword] of [
        [union, "anyOf"],
        [oneOf, "oneOf"],
        [intersect, "allOf"],
      ] as const) {
        const error = thrownBy(() => tools(registryWith(parameters)));
        expect(error).toBeInstanceOf(ProviderSchemaError);
        expect(error).toMatchObject({ toolName: "search", provider, pointer: `/${keyword}` });
        expect((error as Error).message).toContain(`${provider} refuses "${keyword}" at the root of a tool's parameters`);
      }
    },
  );

  it.each(openAIAdapters)("%s: refuses a root enum and not as well", (_provider, tools) => {
    expect(thrownBy(() => tools(registryWith(enumerated)))).toMatchObject({ pointer: "/enum" });
    expect(thrownBy(() => tools(registryWith(negated)))).toMatchObject({ pointer: "/not" });
  });

  it("Anthropic takes a root enum and not, which it does not refuse", () => {
    expect(anthropic(registryWith(enumerated)).tools()[1]!.input_schema).toHaveProperty("enum");
    expect(anthropic(registryWith(negated)).tools()[1]!.input_schema).toHaveProperty("not");
  });

  it("Gemini takes them all, in parametersJsonSchema", () => {
    const declarations = gemini(registryWith(intersect)).tools()[0]!.functionDeclarations;
    expect(declarations[1]!.parametersJsonSchema).toHaveProperty("allOf");
  });

  it("says how to write an intersection instead, and the schema it names is accepted", () => {
    expect((thrownBy(() => anthropic(registryWith(intersect)).tools()) as Error).message).toContain("Type.Evaluate");
    const evaluated = Type.Evaluate(intersect) as TSchema;
    expect(anthropic(registryWith(evaluated)).tools()[1]!.input_schema).toEqual({
      type: "object",
      required: ["a", "b"],
      properties: { a: { type: "string" }, b: { type: "number" } },
    });
  });

  it("is found with only the tools a request sends: another tool's schema is not asked", () => {
    expect(openAIChat(registryWith(union)).tools({ only: ["plain"] })).toHaveLength(1);
  });
});
