import type { ToolRegistry } from "../registry/registry.js";
import { rememberModelNames } from "../text/model-names.js";
import type { ToolCallContent } from "../types.js";
import { type ProviderName, ProviderFormatError } from "./errors.js";
import { ToolNameMap } from "./names.js";
import { isRecord } from "../objects.js";
import { dropOptionalNulls } from "./strict.js";

/** Options of every `from*` function. */
export interface FromProviderOptions {
  /** The map the tools were sent with; provider names are turned back into registry names. */
  names?: ToolNameMap;
}

/** Options of `fromOpenAIChat` and `fromOpenAIResponses`. */
export interface FromOpenAIOptions extends FromProviderOptions {
  /**
   * The registry whose tools were sent with `strict: true`. Strict mode makes
   * every optional property nullable, so the model sends `null` for a property
   * it would have left out; with this option such a `null` is removed again
   * (only where the tool's own schema does not accept `null`), so the call
   * validates against the tool's real schema.
   */
  nullsAsOmitted?: ToolRegistry;
}

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
 * The registry name behind a provider's tool name.
 * @throws TypeError when `options.names` is not a ToolNameMap (a programmer error, named as such)
 */
export function registryName(providerName: string, options: FromProviderOptions | undefined): string {
  const names = options?.names;
  if (names === undefined) return providerName;
  if (!(names instanceof ToolNameMap)) throw new TypeError("names must be the ToolNameMap the tools were sent with");
  return names.fromProviderName(providerName);
}

/**
 * The call as read, remembering the name map it came through (if any), so
 * that `dispatchAll` writes its text for the model in the names the model knows.
 */
export function readCall(call: ToolCallContent, options: FromProviderOptions | undefined): ToolCallContent {
  const names = options?.names;
  if (names !== undefined) rememberModelNames(call, names);
  return call;
}

/**
 * The call of an OpenAI function: its `name` and `arguments` text read from
 * `holder` (the `function` object of a Chat Completions tool call, or a
 * Responses `function_call` item itself), with the arguments parsed as {@link openAICall} does.
 * @throws ProviderFormatError when the name or the arguments text is missing
 */
export function openAIFunctionCall(
  provider: ProviderName,
  id: string,
  holder: unknown,
  path: string,
  options: FromOpenAIOptions | undefined,
): ToolCallContent {
  const name = registryName(stringField(provider, holder, "name"), options);
  const text = field(provider, holder, "arguments");
  if (typeof text !== "string") throw new ProviderFormatError(provider, `"${path}arguments" must be a string`);
  return readCall(openAICall(id, name, text, options), options);
}

// Larger text is left for dispatch to parse, under the registry's own `maxArgumentBytes`.
const MAX_PARSED_CHARACTERS = 1024 * 1024;

/**
 * A call with OpenAI's arguments text parsed when it is a JSON object. Text
 * that is not one (a model cut it short), or that is very large, stays the
 * text in `arguments`, so that dispatch reports it to the model (`/: arguments
 * must be valid JSON`) or refuses it by size. Never throws.
 */
function openAICall(id: string, name: string, text: string, options: FromOpenAIOptions | undefined): ToolCallContent {
  // `ToolCallContent` types `arguments` as an object; the text kept for dispatch to report is the one exception.
  const unparsed = (): ToolCallContent => ({ type: "tool_call", id, name, arguments: text as unknown as Record<string, unknown> });
  if (text.length > MAX_PARSED_CHARACTERS) return unparsed();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return unparsed();
  }
  if (!isRecord(parsed)) return unparsed();
  const registry = options?.nullsAsOmitted;
  if (registry !== undefined) {
    if (typeof registry?.get !== "function") throw new TypeError("nullsAsOmitted must be the ToolRegistry the tools were sent from");
    try {
      dropOptionalNulls(registry.get(name)?.parameters, parsed);
    } catch {
      // Too deep to walk: leave the arguments as they came; dispatch will report them.
    }
  }
  return { type: "tool_call", id, name, arguments: parsed };
}
