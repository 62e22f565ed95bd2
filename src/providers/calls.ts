import type { ToolRegistry } from "../registry/registry.js";
import type { ToolCallContent } from "../types.js";
import type { AdapterBase } from "./adapter.js";
import { type ProviderName, ProviderFormatError } from "./errors.js";
import { isRecord } from "../objects.js";
import { dropOptionalNulls } from "./strict.js";
import { argumentLimitOf } from "../registry/argument-limits.js";
import { exceedsUtf8Bytes } from "../validation/arguments.js";

/** Reads one field of a provider object; a throwing getter or proxy becomes a typed error. */
export function field(provider: ProviderName, value: unknown, key: string): unknown {
  if (!isRecord(value)) throw new ProviderFormatError(provider, "expected an object");
  try {
    return value[key];
  } catch {
    throw new ProviderFormatError(provider, `its "${key}" could not be read`);
  }
}

/** Reads a string field of a provider object. */
export function stringField(provider: ProviderName, value: unknown, key: string): string {
  const found = field(provider, value, key);
  if (typeof found !== "string") throw new ProviderFormatError(provider, `"${key}" must be a string`);
  return found;
}

/**
 * The call of an OpenAI function: its `name` and `arguments` text read from
 * `holder` (the `function` object of a Chat Completions tool call, or a
 * Responses `function_call` item itself), with the arguments parsed as
 * {@link openAIArguments} does. In strict mode, the nulls strict mode made the
 * model send for optional properties are dropped against the tool's schema in `registry`.
 * @param path how the holder's fields are named in messages (`"function."` for Chat Completions)
 * @throws ProviderFormatError when the name or the arguments text is missing
 */
export function openAIFunctionCall(provider: ProviderName, id: string, holder: unknown, path: string, base: AdapterBase, registry: ToolRegistry): ToolCallContent {
  const name = base.registryName(stringField(provider, holder, "name"));
  const text = field(provider, holder, "arguments");
  if (typeof text !== "string") throw new ProviderFormatError(provider, `"${path}arguments" must be a string`);
  return base.toolCall(id, name, openAICallArguments(name, text, base, registry));
}

/**
 * The arguments of an OpenAI call as the adapter gives them to dispatch: the text parsed as
 * {@link openAIArguments} does, and in strict mode without the nulls strict mode made the model
 * send for optional properties (dropped against the tool's schema in `registry`).
 */
export function openAICallArguments(name: string, text: string, base: AdapterBase, registry: ToolRegistry): Record<string, unknown> | string {
  const args = openAIArguments(text, argumentLimitOf(registry));
  if (base.strict && typeof args !== "string") {
    try {
      dropOptionalNulls(registry.get(name)?.parameters, args);
    } catch {
      // Too deep to walk: leave the arguments as they came; dispatch will report them.
    }
  }
  return args;
}

/**
 * OpenAI's arguments text, parsed when it is a JSON object. Text that is not
 * one (a model cut it short), or that is larger than the registry's
 * `maxArgumentBytes`, stays the text, so that dispatch reports it to the model
 * (`/: arguments must be valid JSON`) or refuses it by size. Never throws.
 */
function openAIArguments(text: string, maxBytes: number): Record<string, unknown> | string {
  if (exceedsUtf8Bytes(text, maxBytes)) return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  return isRecord(parsed) ? parsed : text;
}
