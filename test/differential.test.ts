import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../src/canonical.js";
import { fromBfclFunction, parseJsonLines, type BfclFunction } from "../src/json-schema/bfcl.js";
import { ToolArgumentsValidationError, validateToolArguments, type ToolDefinition } from "../src/index.js";

// The oracle: Ajv, strict about values (no coercion, no defaults), on the real BFCL tools.
const corpus = resolve(import.meta.dirname, "..", "..", "shared", "corpus", "bfcl");
const seed = Number(process.env.FUZZ_SEED ?? 20261130);
const runsPerSchema = Number(process.env.FUZZ_RUNS ?? 200) >= 1000 ? 200 : 12;

type JsonSchema = Record<string, unknown>;

function loadDistinctTools(): ToolDefinition<JsonSchema>[] {
  const tools = new Map<string, ToolDefinition<JsonSchema>>();
  for (const file of readdirSync(corpus).filter((name) => name.startsWith("BFCL_v4_") && name.endsWith(".json"))) {
    for (const entry of parseJsonLines(readFileSync(join(corpus, file), "utf8")) as Array<{ function: BfclFunction[] }>) {
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

describe("differential test against Ajv on the BFCL corpus", () => {
  const tools = loadDistinctTools();
  const ajv = new Ajv2020({ strict: false, coerceTypes: false, useDefaults: false, validateFormats: true, allErrors: false });
  // TypeBox checks the formats it knows; give Ajv the same one the corpus uses ("date": a full-date).
  ajv.addFormat("date", /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/);

  it("loads more than 1,300 distinct real tool definitions", () => {
    expect(tools.length).toBeGreaterThan(1_300);
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
        { seed: seed + index, numRuns: runsPerSchema },
      );
    }
    // Both outcomes must be well represented, or the comparison proves little.
    expect(accepted).toBeGreaterThan(compared * 0.2);
    expect(compared - accepted).toBeGreaterThan(compared * 0.2);
  }, 120_000);
});
