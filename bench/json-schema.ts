import { chance, pickOne, randomInt, type Random } from "./random.js";

/** The subset of JSON Schema that tool definitions in the wild use. */
export interface JsonSchema {
  type?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  default?: unknown;
}

const WORDS = ["alpha", "report", "src/index.ts", "main", "blue", "paris", "2024 budget", "user@example.com", "v1.2.3", "summary"];

/**
 * A value that satisfies `schema`, as a model would send it: every required
 * property, and each optional property with probability 0.6.
 */
export function sampleValue(schema: JsonSchema, random: Random): unknown {
  if (schema.enum !== undefined && schema.enum.length > 0) return pickOne(random, schema.enum);
  switch (schema.type) {
    case "object":
      return sampleObject(schema, random);
    case "array":
      return sampleArray(schema, random);
    case "integer":
      return randomInt(random, schema.minimum ?? 0, schema.maximum ?? 1000);
    case "number":
      return sampleNumber(schema, random);
    case "boolean":
      return chance(random, 0.5);
    default:
      return sampleString(schema, random);
  }
}

function sampleObject(schema: JsonSchema, random: Random): Record<string, unknown> {
  const required = new Set(schema.required ?? []);
  const value: Record<string, unknown> = {};
  for (const [key, propertySchema] of Object.entries(schema.properties ?? {})) {
    if (required.has(key) || chance(random, 0.6)) value[key] = sampleValue(propertySchema, random);
  }
  for (const key of required) if (!(key in value)) value[key] = pickOne(random, WORDS);
  return value;
}

function sampleArray(schema: JsonSchema, random: Random): unknown[] {
  const minimum = schema.minItems ?? 1;
  const length = randomInt(random, minimum, Math.max(minimum, Math.min(schema.maxItems ?? 3, 3)));
  const items = schema.items ?? { type: "string" };
  return Array.from({ length }, () => sampleValue(items, random));
}

function sampleNumber(schema: JsonSchema, random: Random): number {
  const minimum = schema.minimum ?? 0;
  const maximum = schema.maximum ?? 1000;
  return Math.round((minimum + random() * (maximum - minimum)) * 100) / 100;
}

function sampleString(schema: JsonSchema, random: Random): string {
  if (schema.format === "date") return `2024-0${randomInt(random, 1, 9)}-1${randomInt(random, 0, 9)}`;
  const word = pickOne(random, WORDS);
  const minimum = schema.minLength ?? 0;
  const maximum = schema.maxLength ?? Infinity;
  return word.padEnd(minimum, "x").slice(0, maximum);
}
