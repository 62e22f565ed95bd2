import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ToolDefinition } from "../src/index.js";
import { type BfclFunction, fromBfclFunction, parseJsonLines } from "../src/bfcl/index.js";
import type { JsonSchema } from "./json-schema.js";

const BFCL_FILE = /^BFCL_v4_.*\.json$/;

/**
 * Every distinct function definition of the BFCL files (`BFCL_v4_*.json`,
 * JSON Lines) in `directory`, mapped to JSON Schema by the library's own
 * BFCL loader. Definitions that share a name but differ get `:2`, `:3`…
 * suffixes, since a registry needs unique names.
 */
export function loadBfclTools(directory: string): Array<ToolDefinition<JsonSchema>> {
  const files = readdirSync(directory).filter((file) => BFCL_FILE.test(file)).sort();
  if (files.length === 0) throw new Error(`no BFCL_v4_*.json files in ${directory}`);
  const seen = new Set<string>();
  const usedNames = new Set<string>();
  const tools: Array<ToolDefinition<JsonSchema>> = [];
  for (const file of files) {
    for (const entry of parseJsonLines(readFileSync(join(directory, file), "utf8")) as Array<{ function?: BfclFunction[] }>) {
      for (const fn of entry.function ?? []) {
        const definition = fromBfclFunction(fn) as ToolDefinition<JsonSchema>;
        const fingerprint = JSON.stringify(definition);
        if (seen.has(fingerprint)) continue;
        seen.add(fingerprint);
        tools.push({ ...definition, name: uniqueName(definition.name, usedNames) });
      }
    }
  }
  return tools;
}

function uniqueName(name: string, usedNames: Set<string>): string {
  let candidate = name;
  for (let suffix = 2; usedNames.has(candidate); suffix++) candidate = `${name}:${suffix}`;
  usedNames.add(candidate);
  return candidate;
}
