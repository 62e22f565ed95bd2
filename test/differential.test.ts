import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe } from "vitest";
import type { ToolDefinition } from "../src/index.js";
import { BFCL_FIXTURES } from "./support/corpus.js";
import { differentialSuite, loadDistinctTools } from "./support/differential.js";

// The project's own fixtures, on every clone: BFCL-dialect tools and JSON Schema tools shaped like
// MCP servers' and pydantic's ($defs, $ref, nullable unions, patterns, formats, dependentRequired).
const fixtureTools = [
  ...loadDistinctTools(BFCL_FIXTURES),
  ...(JSON.parse(readFileSync(resolve(import.meta.dirname, "fixtures", "json-schema-tools.json"), "utf8")) as Array<ToolDefinition<Record<string, unknown>>>),
];

describe("differential test against Ajv on the project's fixture tools", () => {
  differentialSuite(fixtureTools, 20, 120);
});
