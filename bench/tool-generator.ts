import type { ToolDefinition } from "../src/index.js";
import type { JsonSchema } from "./json-schema.js";
import { chance, pickOne, randomInt, seededRandom, type Random } from "./random.js";

const VERBS = ["get", "list", "search", "create", "update", "delete", "read", "write", "run", "fetch", "send", "summarize", "convert", "schedule"];
const NOUNS = ["file", "issue", "pull_request", "message", "event", "user", "invoice", "ticket", "page", "record", "branch", "image", "order", "report"];
const PROPERTY_NAMES = [
  "path", "query", "limit", "offset", "page", "page_size", "recursive", "encoding", "owner", "repo", "branch", "title",
  "body", "labels", "tags", "assignees", "timeout_ms", "format", "language", "units", "start_date", "end_date", "location",
  "city", "country", "currency", "amount", "priority", "status", "include_archived", "sort_by", "order", "max_results",
  "dry_run", "verbose", "channel", "recipients", "subject", "url", "method", "filters", "options", "content", "pattern",
  "depth", "ids", "author", "since",
];
const ENUMS = [
  ["asc", "desc"], ["low", "medium", "high"], ["json", "yaml", "csv", "xml"], ["open", "closed", "all"],
  ["celsius", "fahrenheit"], ["GET", "POST", "PUT", "DELETE", "PATCH"], ["draft", "review", "published", "archived", "deleted"],
];

/**
 * `count` tool definitions shaped like real ones (MCP servers, function-calling
 * APIs): objects of 1–12 properties, strings with descriptions and enums,
 * bounded numbers and integers, booleans, arrays of strings or small objects,
 * some nested objects, and a required subset. The same seed gives the same tools.
 */
export function generateTools(count: number, seed: number, namePrefix = ""): Array<ToolDefinition<JsonSchema>> {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, index) => {
    const verb = pickOne(random, VERBS);
    const noun = pickOne(random, NOUNS);
    return {
      name: `${namePrefix}${verb}_${noun}_${index}`,
      description: `${verb} a ${noun.replace("_", " ")} (tool #${index} of ${namePrefix || "the"} set).`,
      parameters: generateObject(random, propertyCount(random), 0),
    };
  });
}

/** Mostly 2 to 5 properties, sometimes up to 12. */
function propertyCount(random: Random): number {
  return Math.min(12, randomInt(random, 1, 4) + (chance(random, 0.4) ? randomInt(random, 1, 8) : 0));
}

function generateObject(random: Random, size: number, depth: number): JsonSchema {
  const names = [...PROPERTY_NAMES];
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (let index = 0; index < size; index++) {
    const name = names.splice(Math.floor(random() * names.length), 1)[0]!;
    properties[name] = generateProperty(random, depth);
    if (chance(random, index === 0 ? 0.8 : 0.35)) required.push(name);
  }
  return required.length > 0 ? { type: "object", properties, required } : { type: "object", properties };
}

function generateProperty(random: Random, depth: number): JsonSchema {
  const schema = generateType(random, depth);
  if (chance(random, 0.9)) schema.description = `The ${pickOne(random, NOUNS).replace("_", " ")} ${pickOne(random, ["to use", "to match", "of the result", "filter"])}.`;
  return schema;
}

function generateType(random: Random, depth: number): JsonSchema {
  const roll = random();
  if (roll < 0.38) return chance(random, 0.3) ? { type: "string", enum: [...pickOne(random, ENUMS)] } : { type: "string" };
  if (roll < 0.53) return chance(random, 0.6) ? { type: "integer", minimum: randomInt(random, 0, 1), maximum: pickOne(random, [10, 100, 1000, 10000]) } : { type: "integer" };
  if (roll < 0.62) return chance(random, 0.5) ? { type: "number", minimum: 0, maximum: pickOne(random, [1, 100, 1e6]) } : { type: "number" };
  if (roll < 0.74) return { type: "boolean" };
  if (roll < 0.84) return chance(random, 0.4) ? { type: "array", items: { type: "string" }, maxItems: 20 } : { type: "array", items: { type: "string" } };
  if (depth > 0) return { type: "string" };
  if (roll < 0.91) return { type: "array", items: generateObject(random, randomInt(random, 2, 4), depth + 1) };
  return generateObject(random, randomInt(random, 2, 5), depth + 1);
}
