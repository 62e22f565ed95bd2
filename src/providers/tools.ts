import type { ToolRegistry } from "../registry.js";
import { type ProviderName, ProviderSchemaError } from "./errors.js";
import { type NameRule, providerNamer, type ToolNamesOption } from "./names.js";
import { plainObjectSchema, SchemaProblem } from "./schema.js";
import { toStrictSchema } from "./strict.js";

/** Options of every `to*Tools` function. */
export interface ToProviderToolsOptions {
  /**
   * What to do with tool names the provider rejects.
   * @default "strict" (throw a ProviderNameError naming the tool)
   */
  names?: ToolNamesOption;
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

/**
 * Every tool of the registry, named and converted for one provider.
 * @throws ProviderNameError for a name the provider rejects (in `names: "strict"` mode)
 * @throws ProviderSchemaError for a schema that cannot be sent
 * @throws TypeError when `registry` is not a registry, or for a bad `names` option
 */
export function providerTools(registry: ToolRegistry, rule: NameRule, names: ToolNamesOption | undefined, strict: boolean): ProviderTool[] {
  if (typeof registry?.list !== "function") throw new TypeError("registry must be a ToolRegistry");
  const nameOf = providerNamer(registry, names, rule);
  return registry.list().map((definition) => ({
    name: nameOf(definition.name),
    description: definition.description,
    parameters: convert(definition.name, definition.parameters, rule.provider, strict),
  }));
}

function convert(toolName: string, schema: object, provider: ProviderName, strict: boolean): Record<string, unknown> {
  try {
    const plain = plainObjectSchema(schema);
    return strict ? toStrictSchema(plain) : plain;
  } catch (error) {
    if (error instanceof SchemaProblem) throw new ProviderSchemaError(toolName, provider, error.pointer, error.problem);
    if (error instanceof RangeError) throw new ProviderSchemaError(toolName, provider, "/", "the schema is nested too deeply to convert", { cause: error });
    throw error;
  }
}
