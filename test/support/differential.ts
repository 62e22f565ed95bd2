import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { expect, it } from "vitest";
import { canonicalJson } from "../../src/schema/canonical.js";
import { fromBfclFunction, parseJsonLines, type BfclFunction } from "../../src/bfcl/index.js";
import { ToolArgumentsValidationError, validateToolArguments, type ToolDefinition } from "../../src/index.js";
import { jsonReaderFromSource, jsonReaderSource } from "../../src/validation/json-reader.js";


// The oracle: Ajv, strict about values (no coercion, no defaults), on the project's own fixtures
// everywhere, and on the real BFCL tools where that corpus is beside the clone.
const seed = Number(process.env.FUZZ_SEED ?? 20261130);
/** Runs per schema over the whole corpus: 12, or 200 under `npm run fuzz`. */
export const runsPerSchema = Number(process.env.FUZZ_RUNS ?? 200) >= 1000 ? 200 : 12;

type JsonSchema = Record<string, unknown>;

/** Every distinct tool of a BFCL folder, mapped by the library's loader. */
export function loadDistinctTools(directory: string): ToolDefinition<JsonSchema>[] {
  const tools = new Map<string, ToolDefinition<JsonSchema>>();
  for (const file of readdirSync(directory).filter((name) => name.startsWith("BFCL_v4_") && name.endsWith(".json"))) {
    for (const entry of parseJsonLines(readFileSync(join(directory, file), "utf8")) as Array<{ function: BfclFunction[] }>) {
      for (const fn of entry.function) {
        const tool = fromBfclFunction(fn);
        tools.set(`${tool.name}\u0000${canonicalJson(tool.parameters)}`, tool);
      }
    }
  }
  return [...tools.values()];
}

/** Values shaped like the schema (so that many are valid), mixed with arbitrary JSON. */
function shapedLike(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const anything = fc.jsonValue({ maxDepth: 2 });
  if (depth > 3) return anything;
  const shaped: Array<fc.Arbitrary<unknown>> = [];
  if (Array.isArray(schema.enum) && schema.enum.length > 0) shaped.push(fc.constantFrom(...(schema.enum as unknown[])));
  switch (schema.type) {
    case "string":
      shaped.push(fc.string({ maxLength: 8 }), fc.constantFrom("2024-01-31", "2024-13-45", "x@y.z"));
      break;
    case "integer":
      shaped.push(fc.integer({ min: -5, max: 1000 }));
      break;
    case "number":
      shaped.push(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1000, max: 1000 }), fc.integer());
      break;
    case "boolean":
      shaped.push(fc.boolean());
      break;
    case "array":
      shaped.push(fc.array(shapedLike((schema.items ?? {}) as JsonSchema, depth + 1), { maxLength: 3 }));
      break;
    case "object":
      shaped.push(objectShapedLike(schema, depth));
      break;
    default:
      break;
  }
  return shaped.length === 0 ? anything : fc.oneof({ arbitrary: anything, weight: 1 }, ...shaped.map((arbitrary) => ({ arbitrary, weight: 4 })));
}

function objectShapedLike(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const shapedProperties = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, shapedLike(property, depth + 1)]));
  const required = Array.isArray(schema.required) ? (schema.required as string[]).filter((name) => name in shapedProperties) : [];
  return fc.oneof(
    { arbitrary: fc.record(shapedProperties, { requiredKeys: required }), weight: 4 },
    { arbitrary: fc.record(shapedProperties, { requiredKeys: [] }), weight: 1 },
  );
}

function registryAccepts(tool: ToolDefinition<JsonSchema>, value: unknown): boolean {
  try {
    validateToolArguments(tool, value);
    return true;
  } catch (error) {
    if (error instanceof ToolArgumentsValidationError) return false;
    throw error;
  }
}

/** The registry and Ajv 2020 (strict off, no coercion) agree on values shaped like each tool's schema. */
export function differentialSuite(tools: ToolDefinition<JsonSchema>[], minimumTools: number, runs: number): void {
  const ajv = new Ajv2020({ strict: false, coerceTypes: false, useDefaults: false, validateFormats: true, allErrors: false });
  // TypeBox checks the formats it knows; give Ajv the same ones the schemas use.
  ajv.addFormat("date", /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/);
  ajv.addFormat("date-time", { validate: (text: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i.test(text) && !Number.isNaN(Date.parse(text)) });
  ajv.addFormat("email", /^[^\s@]+@[^\s@]+\.[^\s@]+$/);
  ajv.addFormat("uuid", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);

  it(`loads at least ${minimumTools} distinct tool definitions`, () => {
    expect(tools.length).toBeGreaterThanOrEqual(minimumTools);
  });

  it("accepts exactly what Ajv accepts, for values shaped like each schema", () => {
    let compared = 0;
    let accepted = 0;
    for (const [index, tool] of tools.entries()) {
      const oracle = ajv.compile(tool.parameters);
      fc.assert(
        fc.property(objectShapedLike(tool.parameters, 0), (value) => {
          const expected = oracle(value);
          expect({ tool: tool.name, value, accepted: registryAccepts(tool, value) }).toEqual({ tool: tool.name, value, accepted: expected });
          compared++;
          if (expected) accepted++;
        }),
        { seed: seed + index, numRuns: runs },
      );
    }
    // Both outcomes must be well represented, or the comparison proves little.
    expect(accepted).toBeGreaterThan(compared * 0.2);
    expect(compared - accepted).toBeGreaterThan(compared * 0.2);
  }, 120_000);

  it("reads each value's JSON text with the tool's JSON reader as JSON.parse does, or leaves it to JSON.parse", () => {
    let texts = 0;
    let read = 0;
    for (const [index, tool] of tools.entries()) {
      const source = jsonReaderSource(tool.parameters);
      if (source === undefined) continue;
      const reader = jsonReaderFromSource(source);
      fc.assert(
        fc.property(objectShapedLike(tool.parameters, 0), (value) => {
          const text = JSON.stringify(value);
          const value_ = reader(text);
          texts++;
          if (value_ === undefined) return;
          read++;
          // toStrictEqual tells -0 from 0; key order is compared as text.
          expect({ tool: tool.name, text, value: value_ }).toStrictEqual({ tool: tool.name, text, value: JSON.parse(text) as unknown });
          expect(JSON.stringify(value_)).toBe(text);
        }),
        { seed: seed + index, numRuns: runs },
      );
    }
    // Most texts are read: a reader that gave up on everything would pass the rest of this test.
    expect(read).toBeGreaterThan(texts / 4);
  }, 120_000);
}

