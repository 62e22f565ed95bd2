import type { ToolRegistry } from "../registry/registry.js";
import type { ToolDefinition } from "../types.js";
import { ProviderLimitError, type ProviderName, ProviderSchemaError } from "./errors.js";
import { type NameRule, providerNames, type ToolNameMap } from "./names.js";
import { plainObjectSchema } from "../schema/plain.js";
import { toStrictSchema } from "./strict.js";
import { describeName } from "../text/describe.js";

/** One tool as every provider describes it: a name it accepts, a description, a plain JSON Schema. */
export interface ProviderTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** A provider's rules for a request's tools: its name rule, and how many tools it accepts. */
export interface ProviderRule extends NameRule {
  /** The provider's limit on tools per request (`Infinity` for none known). */
  readonly maxTools: number;
}

/** OpenAI refuses a request with more than 128 tools (`array_above_max_length`). */
export const OPENAI_MAX_TOOLS = 128;

/** What one request's tools are made from: checked options and the adapter's name map. */
export interface ToolsRequest {
  /** The registry names to send, or `undefined` for every tool. */
  readonly only: readonly string[] | undefined;
  readonly maxTools: number;
  /** The adapter's map (`names: "map"`), or `undefined` to send registry names as they are. */
  readonly nameMap: ToolNameMap | undefined;
  /** Convert each schema for OpenAI's strict mode. */
  readonly strict: boolean;
}

/**
 * The registry's tools (or those of `request.only`), named and converted for one provider.
 * @throws ProviderLimitError for more tools than `request.maxTools`
 * @throws ProviderNameError for a name the provider rejects (with no name map)
 * @throws ProviderSchemaError for a schema that cannot be sent
 * @throws TypeError when `only` names a tool that is not registered
 */
export function providerTools(registry: ToolRegistry, rule: ProviderRule, request: ToolsRequest): ProviderTool[] {
  const definitions = selected(registry, request.only);
  // The limit comes first: converting 500 schemas to refuse the request would be work thrown away.
  if (definitions.length > request.maxTools) throw new ProviderLimitError(rule.provider, request.maxTools, definitions.length);
  const names = providerNames(
    definitions.map((definition) => definition.name),
    request.nameMap,
    rule,
  );
  return definitions.map((definition, index) => ({
    name: names[index]!,
    description: definition.description,
    parameters: convert(definition.name, definition.parameters, rule.provider, request.strict),
  }));
}

/** Why `keyword` cannot be sent at the root, and how to write the schema instead. */
function rootKeywordProblem(provider: ProviderName, keyword: string): string {
  const advice =
    keyword === "allOf"
      ? "merge its branches into one object schema (TypeBox's Type.Evaluate does so for a Type.Intersect of objects)"
      : "make the root one object schema, and move the choice into its properties";
  return `${provider} refuses "${keyword}" at the root of a tool's parameters: ${advice}`;
}

/** The registry's definitions, or those `only` names, in registry order. */
function selected(registry: ToolRegistry, only: readonly string[] | undefined): ToolDefinition[] {
  if (only === undefined) return registry.list();
  const wanted = new Set(only);
  for (const name of wanted) {
    if (!registry.has(name)) throw new TypeError(`only names a tool that is not registered: ${describeName(name)}`);
  }
  return registry.list().filter((definition) => wanted.has(definition.name));
}

/**
 * The keywords each provider refuses at the root of a tool's parameters, as their APIs answer
 * with a 400: OpenAI's "schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/
 * 'enum'/'not' at the top level", Anthropic's "input_schema does not support oneOf, allOf, or
 * anyOf at the top level". Gemini's `parametersJsonSchema` takes them.
 */
const REFUSED_AT_ROOT: Readonly<Record<ProviderName, readonly string[]>> = {
  "OpenAI Chat Completions": ["anyOf", "oneOf", "allOf", "enum", "not"],
  "OpenAI Responses": ["anyOf", "oneOf", "allOf", "enum", "not"],
  Anthropic: ["anyOf", "oneOf", "allOf"],
  Gemini: [],
};

function convert(toolName: string, schema: object, provider: ProviderName, strict: boolean): Record<string, unknown> {
  const plain = plainObjectSchema(schema);
  if ("problem" in plain) throw new ProviderSchemaError(toolName, provider, plain.problem.pointer, plain.problem.problem);
  const refused = REFUSED_AT_ROOT[provider].find((keyword) => Object.hasOwn(plain.schema, keyword));
  if (refused !== undefined) throw new ProviderSchemaError(toolName, provider, `/${refused}`, rootKeywordProblem(provider, refused));
  if (!strict) return plain.schema;
  const converted = toStrictSchema(plain.schema);
  if ("problem" in converted) throw new ProviderSchemaError(toolName, provider, converted.problem.pointer, converted.problem.problem);
  return converted.schema;
}
