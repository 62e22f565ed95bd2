import type { ToolRegistry } from "../registry/registry.js";
import type { ToolDefinition } from "../types.js";
import { ProviderLimitError, type ProviderName, ProviderSchemaError } from "./errors.js";
import { type NameRule, providerNamer, type ToolNamesOption } from "./names.js";
import { plainObjectSchema } from "../schema/plain.js";
import { toStrictSchema } from "./strict.js";
import { describeName } from "../text/describe.js";

/** Options of every `to*Tools` function. */
export interface ToProviderToolsOptions {
  /**
   * What to do with tool names the provider rejects.
   * @default "strict" (throw a ProviderNameError naming the tool)
   */
  names?: ToolNamesOption;
  /**
   * The registry names of the tools to send (in registry order), for a
   * request that needs only some of them. All tools when unset.
   * @throws TypeError for a name that is not registered
   */
  only?: Iterable<string>;
  /**
   * The most tools one request may carry: more throws a ProviderLimitError
   * naming the limit, before the provider refuses the request.
   * @default 128 for OpenAI (Chat Completions and Responses), which refuses more; no limit for Anthropic and Gemini
   */
  maxTools?: number;
}

/** Options of `toOpenAIChatTools` and `toOpenAIResponsesTools`. */
export interface ToOpenAIToolsOptions extends ToProviderToolsOptions {
  /**
   * Send each tool with OpenAI's `strict: true` (Structured Outputs): the
   * schema is converted to the subset strict mode accepts, with
   * `additionalProperties: false` on every object and every property required,
   * optional ones made nullable. Pass the registry as `nullsAsOmitted` to the
   * matching `from*` function to turn those nulls back into omissions.
   * A schema strict mode cannot express throws a ProviderSchemaError naming the
   * tool and the JSON Pointer of the construct.
   * @default false
   */
  strict?: boolean;
}

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

/**
 * The registry's tools (or those of `options.only`), named and converted for one provider.
 * @throws ProviderLimitError for more tools than `options.maxTools` (else the provider's limit)
 * @throws ProviderNameError for a name the provider rejects (in `names: "strict"` mode)
 * @throws ProviderSchemaError for a schema that cannot be sent
 * @throws TypeError when `registry` is not a registry, or for a bad `names`, `only` or `maxTools` option
 */
export function providerTools(registry: ToolRegistry, rule: ProviderRule, options: ToProviderToolsOptions | undefined, strict: boolean): ProviderTool[] {
  if (typeof registry?.list !== "function") throw new TypeError("registry must be a ToolRegistry");
  const maxTools = options?.maxTools ?? rule.maxTools;
  if (!(maxTools === Infinity || (Number.isSafeInteger(maxTools) && maxTools > 0))) {
    throw new TypeError(`maxTools must be a positive integer or Infinity, got ${String(maxTools)}`);
  }
  const definitions = selected(registry, options?.only);
  if (definitions.length > maxTools) throw new ProviderLimitError(rule.provider, maxTools, definitions.length);
  const nameOf = providerNamer(registry, options?.names, rule);
  return definitions.map((definition) => ({
    name: nameOf(definition.name),
    description: definition.description,
    parameters: convert(definition.name, definition.parameters, rule.provider, strict),
  }));
}

/** The registry's definitions, or those `only` names, in registry order. */
function selected(registry: ToolRegistry, only: Iterable<string> | undefined): ToolDefinition[] {
  if (only === undefined) return registry.list();
  if (typeof only === "string" || typeof (only as { [Symbol.iterator]?: unknown })?.[Symbol.iterator] !== "function") {
    throw new TypeError("only must be a list of registry tool names");
  }
  const wanted = new Set(only);
  for (const name of wanted) {
    if (!registry.has(name)) throw new TypeError(`only names a tool that is not registered: ${describeName(String(name))}`);
  }
  return registry.list().filter((definition) => wanted.has(definition.name));
}

function convert(toolName: string, schema: object, provider: ProviderName, strict: boolean): Record<string, unknown> {
  const plain = plainObjectSchema(schema);
  if ("problem" in plain) throw new ProviderSchemaError(toolName, provider, plain.problem.pointer, plain.problem.problem);
  if (!strict) return plain.schema;
  const converted = toStrictSchema(plain.schema);
  if ("problem" in converted) throw new ProviderSchemaError(toolName, provider, converted.problem.pointer, converted.problem.problem);
  return converted.schema;
}
