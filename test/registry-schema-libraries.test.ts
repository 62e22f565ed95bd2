import { z } from "zod";
import { z as z3 } from "zod/v3";
import { describe, expect, it } from "vitest";
import { ToolDefinitionError, ToolRegistry, type ToolDefinition } from "../src/index.js";
import { thrownBy, toolCall } from "./support/fixtures.js";

// Schema objects of other libraries carry Standard Schema's `~standard`; they are not JSON Schema.
const weather = z.object({ city: z.string(), days: z.number().int().min(1).optional() });

function registerAsParameters(parameters: unknown): unknown {
  // A schema from another library does not type-check as parameters (see types.test-d.ts): this is the untyped path.
  const definition = { name: "weather", description: "Forecast", parameters } as unknown as ToolDefinition;
  return thrownBy(() => new ToolRegistry().register(definition, () => "sunny"));
}

describe("register refuses a schema object of another library", () => {
  it("names the tool and tells how to convert a Zod 4 schema", () => {
    const error = registerAsParameters(weather);
    expect(error).toBeInstanceOf(ToolDefinitionError);
    expect((error as ToolDefinitionError).toolName).toBe("weather");
    expect((error as Error).message).toBe(
      'Invalid definition for tool "weather": parameters is a zod schema (a Standard Schema object), not a JSON Schema: pass its JSON Schema instead (for Zod 4, z.toJSONSchema(schema))',
    );
  });

  it("refuses a Zod 3 schema the same way", () => {
    expect((registerAsParameters(z3.object({ city: z3.string() })) as Error).message).toContain("parameters is a zod schema");
  });

  it.each([
    ["Valibot (a plain object with ~standard of its own)", { kind: "schema", type: "object", "~standard": { version: 1, vendor: "valibot", validate: () => ({}) } }, "toJsonSchema(schema) from @valibot/to-json-schema"],
    ["ArkType (a callable type)", Object.assign(() => true, { "~standard": { version: 1, vendor: "arktype", validate: () => ({}) } }), "schema.toJsonSchema()"],
    ["an unknown library", { type: "object", "~standard": { version: 1, vendor: "my lib!", validate: () => ({}) } }, "for Zod 4, z.toJSONSchema(schema)"],
  ])("refuses %s and says how to get its JSON Schema", (_library, parameters, advice) => {
    const error = registerAsParameters(parameters);
    expect(error).toBeInstanceOf(ToolDefinitionError);
    expect((error as Error).message).toContain("not a JSON Schema");
    expect((error as Error).message).toContain(advice);
  });

  it("never shows a vendor name that is not a short word", () => {
    const message = (registerAsParameters({ "~standard": { vendor: "x\n".repeat(100) } }) as Error).message;
    expect(message).toContain("parameters is a Standard Schema object, not a JSON Schema");
  });

  it("accepts the JSON Schema that z.toJSONSchema returns (it carries ~standard, hidden), and checks with it", async () => {
    const registry = new ToolRegistry();
    registry.register({ name: "weather", description: "Forecast", parameters: z.toJSONSchema(weather) }, (args) => args);
    expect(await registry.dispatch(toolCall("weather", { city: "Oslo", days: 2 }))).toEqual({ city: "Oslo", days: 2 });
    await expect(registry.dispatch(toolCall("weather", { city: "Oslo", days: 0 }))).rejects.toThrow("/days: must be >= 1");
  });
});
