import type { ToolRegistry } from "../registry/registry.js";
import type { ToolCallContent, ToolResult } from "../types.js";
import { ProviderFormatError } from "./errors.js";
import { field, type FromOpenAIOptions, openAIFunctionCall, stringField } from "./calls.js";
import { OPENAI_NAMES } from "./names.js";
import { resultText } from "../text/result-text.js";
import { OPENAI_MAX_TOOLS, providerTools, type ToOpenAIToolsOptions } from "./tools.js";

const PROVIDER = "OpenAI Responses";

/** A `function_call` output item of the Responses API (`response.output[i]`). */
export interface OpenAIResponsesFunctionCall {
  type: string;
  /** The id the result must echo (not `id`, which names the output item). */
  call_id: string;
  name: string;
  arguments: string;
}

/** A function tool for the Responses API `tools` parameter. */
export interface OpenAIResponsesTool {
  type: "function";
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  /** Always sent: the Responses API treats a missing `strict` as true. */
  strict: boolean;
}

/** A `function_call_output` input item answering one function call. */
export interface OpenAIResponsesOutput {
  type: "function_call_output";
  call_id: string;
  output: string;
}

/**
 * Reads a Responses API `function_call` item; its `call_id` becomes the
 * call's id. Arguments are parsed as in {@link fromOpenAIChat}.
 * @throws ProviderFormatError when `item` is not a `function_call` item
 * @example
 * ```ts
 * const calls = response.output.flatMap((item) => (item.type === "function_call" ? [fromOpenAIResponses(item)] : []));
 * ```
 */
export function fromOpenAIResponses(item: OpenAIResponsesFunctionCall, options?: FromOpenAIOptions): ToolCallContent {
  if (field(PROVIDER, item, "type") !== "function_call") throw new ProviderFormatError(PROVIDER, '"type" must be "function_call"');
  return openAIFunctionCall(PROVIDER, stringField(PROVIDER, item, "call_id"), item, "", options);
}

/**
 * The registry's tools for the Responses API `tools` parameter. `strict` is
 * always set, to `false` unless the `strict` option asks for strict mode,
 * because the Responses API defaults it to true.
 * @throws ProviderLimitError for more tools than one request may carry (OpenAI: 128); send a subset with `only`
 * @throws ProviderNameError for a name OpenAI rejects (unless `names` maps it)
 * @throws ProviderSchemaError for a schema that cannot be sent (in strict mode: that strict mode cannot express)
 */
export function toOpenAIResponsesTools(registry: ToolRegistry, options?: ToOpenAIToolsOptions): OpenAIResponsesTool[] {
  const strict = options?.strict === true;
  return providerTools(registry, { ...OPENAI_NAMES, provider: PROVIDER, maxTools: OPENAI_MAX_TOOLS }, options, strict).map(({ name, description, parameters }) => ({
    type: "function",
    name,
    description,
    parameters,
    strict,
  }));
}

/**
 * The `function_call_output` item for one result of `dispatchAll`: the value
 * as text (a string as is, anything else as JSON), or for a failure the text
 * written for the model.
 */
export function toOpenAIResponsesOutput(result: ToolResult): OpenAIResponsesOutput {
  return { type: "function_call_output", call_id: result.toolCallId, output: resultText(result).text };
}
