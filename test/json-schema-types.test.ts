import { describe, expect, expectTypeOf, it } from "vitest";
import { ToolArgumentsValidationError, ToolRegistry, validateToolArguments, type Static, type ToolDefinition } from "../src/index.js";
import { rejectionOf } from "./support/fixtures.js";

// Plain JSON Schema, as MCP servers list it (inputSchema) and OpenAI takes it (function parameters).
// TypeBox 1.4's Static infers from such a schema written `as const`; register needs no TypeBox types.
const weather = {
  type: "object",
  properties: {
    city: { type: "string", description: "City name" },
    days: { type: "integer", minimum: 1, maximum: 7 },
    unit: { enum: ["celsius", "fahrenheit"] },
    hourly: { type: "boolean" },
    stations: { type: "array", items: { type: "object", properties: { id: { type: "string" }, weight: { type: "number" } }, required: ["id"] } },
  },
  required: ["city"],
  additionalProperties: false,
} as const;

type Weather = { city: string; days?: number; unit?: "celsius" | "fahrenheit"; hourly?: boolean; stations?: Array<{ id: string; weight?: number }> };

describe("plain JSON Schema tools", () => {
  it("infers the handler's arguments from an inline `as const` schema", () => {
    new ToolRegistry().register({ name: "forecast", description: "Forecast", parameters: weather }, (args) => {
      expectTypeOf(args).toEqualTypeOf<Weather>();
      expectTypeOf(args.stations).toEqualTypeOf<Array<{ id: string; weight?: number }> | undefined>();
      return args.city;
    });
  });

  it("infers from a definition declared apart with satisfies, as an MCP inputSchema would be", () => {
    const forecast = { name: "forecast", description: "Forecast", parameters: weather } satisfies ToolDefinition<typeof weather>;
    expectTypeOf<Static<typeof weather>>().toEqualTypeOf<Weather>();
    expectTypeOf(() => validateToolArguments(forecast, {})).returns.toEqualTypeOf<Weather>();
  });

  it("refuses, at compile time, a handler that misreads the schema", () => {
    // @ts-expect-error days is a number in the schema
    new ToolRegistry().register({ name: "forecast", description: "", parameters: weather }, (args: { city: string; days: string }) => args.days);
    // @ts-expect-error the schema has no property "country"
    new ToolRegistry().register({ name: "forecast", description: "", parameters: weather }, (args) => args.country);
  });

  it("validates a plain JSON Schema as strictly as a TypeBox one", async () => {
    const registry = new ToolRegistry().register({ name: "forecast", description: "", parameters: weather }, (args) => args.days ?? 1);
    expect(await registry.dispatch({ id: "1", name: "forecast", arguments: { city: "Oslo", days: 3 } })).toBe(3);
    const error = await rejectionOf(registry.dispatch({ id: "2", name: "forecast", arguments: { city: "Oslo", days: "3", wind: true } }));
    expect(error).toBeInstanceOf(ToolArgumentsValidationError);
    expect((error as ToolArgumentsValidationError).issues.map((issue) => issue.split(":")[0]).sort()).toEqual(["/days", "/wind"]);
  });
});
