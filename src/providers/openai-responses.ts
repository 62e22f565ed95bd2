import type { ToolRegistry } from "../registry/registry.js";
import { adapterBase, type OpenAIAdapterOptions, type ProviderAdapter } from "./adapter.js";
import { ProviderFormatError } from "./errors.js";
import { field, openAIFunctionCall, stringField } from "./calls.js";
import { OPENAI_NAMES } from "./names.js";
import { OPENAI_ADAPTER_OPTIONS } from "./options.js";
import { resultText } from "../text/result-text.js";
import { OPENAI_MAX_TOOLS, type ProviderRule } from "./tools.js";

const PROVIDER = "OpenAI Responses";
const RULE: ProviderRule = { ...OPENAI_NAMES, provider: PROVIDER, maxTools: OPENAI_MAX_TOOLS };

/** A `function_call` output item of the Responses API (`response.output[i]`, the SDK's `ResponseFunctionToolCall`). */
export interface OpenAIResponsesFunctionCall {
  type: string;
  /** The id the result must echo (not `id`, which names the output item). */
  call_id: string;
  name: string;
  arguments: string;
}

/** A function tool for the Responses API `tools` parameter (the SDK's `FunctionTool`). */
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

/** The OpenAI Responses adapter: what {@link openAIResponses} returns. */
export type OpenAIResponsesAdapter = ProviderAdapter<OpenAIResponsesFunctionCall, OpenAIResponsesTool, OpenAIResponsesOutput>;

/**
 * The OpenAI Responses dialect of a registry:
 * - `tools()`: function tools for the `tools` parameter, each with `strict`
 *   set (to `false` unless the adapter was made with `strict: true`), because
 *   the Responses API treats a missing `strict` as true;
 * - `call(item)`: a `function_call` output item as a `ToolCallContent`, its
 *   `call_id` the call's id, its arguments read as Chat Completions' are;
 * - `result(toolResult)`: the `function_call_output` input item.
 * @throws TypeError when `registry` is not a ToolRegistry, or naming a bad option
 * @example
 * ```ts
 * const responses = openAIResponses(registry);
 * const response = await openai.responses.create({ model, input, tools: responses.tools() });
 * const calls = response.output.flatMap((item) => (item.type === "function_call" ? [responses.call(item)] : []));
 * ```
 */
export function openAIResponses(registry: ToolRegistry, options?: OpenAIAdapterOptions): OpenAIResponsesAdapter {
  const base = adapterBase(registry, RULE, options, OPENAI_ADAPTER_OPTIONS);
  return Object.freeze({
    provider: PROVIDER,
    nameMap: base.nameMap,
    tools: (toolsOptions) =>
      base.tools(toolsOptions).map(({ name, description, parameters }) => ({ type: "function", name, description, parameters, strict: base.strict })),
    call: (item) => {
      if (field(PROVIDER, item, "type") !== "function_call") throw new ProviderFormatError(PROVIDER, '"type" must be "function_call"');
      return openAIFunctionCall(PROVIDER, stringField(PROVIDER, item, "call_id"), item, "", base, registry);
    },
    result: (toolResult) => ({ type: "function_call_output", call_id: toolResult.toolCallId, output: resultText(toolResult).text }),
  } satisfies OpenAIResponsesAdapter);
}
