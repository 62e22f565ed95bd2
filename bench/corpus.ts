import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ToolDefinition } from "../src/index.js";
import type { JsonSchema } from "./json-schema.js";

const BFCL_FILE = /^BFCL_v4_.*\.json$/;
const BFCL_TYPES: Readonly<Record<string, string>> = { dict: "object", float: "number", tuple: "array" };

/**
 * Every distinct function definition of the BFCL files (`BFCL_v4_*.json`,
 * JSON Lines) in `directory`, with parameters mapped from BFCL's Python
 * dialect to JSON Schema. Definitions that share a name but differ get
 * `:2`, `:3`… suffixes, since a registry needs unique names.
 */
export function loadBfclTools(directory: string): Array<ToolDefinition<JsonSchema>> {
  const files = readdirSync(directory).filter((file) => BFCL_FILE.test(file)).sort();
  if (files.length === 0) throw new Error(`no BFCL_v4_*.json files in ${directory}`);
  const seen = new Set<string>();
  const usedNames = new Set<string>();
  const tools: Array<ToolDefinition<JsonSchema>> = [];
  for (const file of files) {
    for (const line of readFileSync(join(directory, file), "utf8").split("\n")) {
      if (line.trim() === "") continue;
      const entry = JSON.parse(line) as { function?: unknown };
      for (const raw of Array.isArray(entry.function) ? entry.function : []) {
        const definition = toDefinition(raw);
        const fingerprint = JSON.stringify(definition);
        if (seen.has(fingerprint)) continue;
        seen.add(fingerprint);
        definition.name = uniqueName(definition.name, usedNames);
        tools.push(definition);
      }
    }
  }
  return tools;
}

function toDefinition(raw: unknown): ToolDefinition<JsonSchema> {
  const record = isRecord(raw) ? raw : {};
  return {
    name: String(record.name ?? "unnamed").replace(/[^A-Za-z0-9_.:-]/g, "_").slice(0, 120),
    description: typeof record.description === "string" ? record.description : "",
    parameters: fromBfclDialect(record.parameters),
  };
}

function uniqueName(name: string, usedNames: Set<string>): string {
  let candidate = name;
  for (let suffix = 2; usedNames.has(candidate); suffix++) candidate = `${name}:${suffix}`;
  usedNames.add(candidate);
  return candidate;
}

/** Maps BFCL's schema dialect to JSON Schema, keeping only the keys a validator understands. */
function fromBfclDialect(raw: unknown): JsonSchema {
  if (!isRecord(raw)) return {};
  const schema: JsonSchema = {};
  if (typeof raw.type === "string" && raw.type !== "any") schema.type = BFCL_TYPES[raw.type] ?? raw.type;
  if (typeof raw.description === "string") schema.description = raw.description;
  if (isRecord(raw.properties)) {
    schema.properties = Object.fromEntries(Object.entries(raw.properties).map(([key, value]) => [key, fromBfclDialect(value)]));
  }
  if (Array.isArray(raw.required)) schema.required = raw.required.filter((key): key is string => typeof key === "string");
  if (isRecord(raw.items)) schema.items = fromBfclDialect(raw.items);
  if (Array.isArray(raw.enum)) schema.enum = raw.enum;
  if (typeof raw.minimum === "number") schema.minimum = raw.minimum;
  if (typeof raw.maximum === "number") schema.maximum = raw.maximum;
  if (typeof raw.format === "string") schema.format = raw.format;
  if ("default" in raw) schema.default = raw.default;
  return schema;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
