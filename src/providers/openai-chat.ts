import type { ToolRegistry } from "../registry/registry.js";
import type { ToolCallContent, ToolResult } from "../types.js";
import { ProviderFormatError } from "./errors.js";
import { field, type FromOpenAIOptions, openAIFunctionCall, stringField } from "./calls.js";
import { OPENAI_NAMES } from "./names.js";
import { resultText } from "../text/result-text.js";
import { OPENAI_MAX_TOOLS, providerTools, type ToOpenAIToolsOptions } from "./tools.js";

const PROVIDER = "OpenAI Chat Completions";

/**
 * A tool call of an OpenAI Chat Completions assistant message
 * (`choices[0].message.tool_calls[i]`), as the `openai` SDK returns it.
 * Custom tool calls are typed in, so the SDK's union is accepted, and refused at run time.
 */
export interface OpenAIChatToolCall {
  id: string;
  type: string;
  function?: { name: string; arguments: string };
}

/** A function tool for the Chat Completions `tools` parameter. */
export interface OpenAIChatTool {
  type: "function";
  function: {
    name: string;
    description: string;
    parameters: Record<string, unknown>;
    /** Present (true) only with the `strict` option. */
    strict?: boolean;
  };
}

/** A `role: "tool"` message answering one tool call. */
export interface OpenAIChatToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

/**
 * Reads a Chat Completions tool call into a {@link ToolCallContent}. The
 * arguments text is parsed when it is a JSON object; text that is not (a
 * model cut it short) is kept in `arguments` as the text, so that dispatch
 * reports it to the model as `/: arguments must be valid JSON` (never a native error).
 * @throws ProviderFormatError when `toolCall` is not a function tool call
 * @example
 * ```ts
 * const calls = (completion.choices[0]?.message.tool_calls ?? []).map((toolCall) => fromOpenAIChat(toolCall));
 * const results = await registry.dispatchAll(calls);
 * ```
 */
export function fromOpenAIChat(toolCall: OpenAIChatToolCall, options?: FromOpenAIOptions): ToolCallContent {
  const type = field(PROVIDER, toolCall, "type");
  if (type !== "function" && type !== undefined) {
    throw new ProviderFormatError(PROVIDER, '"type" must be "function" (custom tool calls carry free text, not function arguments)');
  }
  return openAIFunctionCall(PROVIDER, stringField(PROVIDER, toolCall, "id"), field(PROVIDER, toolCall, "function"), "function.", options);
}

/**
 * The registry's tools for the Chat Completions `tools` parameter.
 * @throws ProviderLimitError for more tools than one request may carry (OpenAI: 128); send a subset with `only`
 * @throws ProviderNameError for a name OpenAI rejects (unless `names` maps it)
 * @throws ProviderSchemaError for a schema that cannot be sent (in strict mode: that strict mode cannot express)
 */
export function toOpenAIChatTools(registry: ToolRegistry, options?: ToOpenAIToolsOptions): OpenAIChatTool[] {
  const strict = options?.strict === true;
  return providerTools(registry, { ...OPENAI_NAMES, provider: PROVIDER, maxTools: OPENAI_MAX_TOOLS }, options, strict).map(({ name, description, parameters }) => ({
    type: "function",
    function: strict ? { name, description, parameters, strict: true } : { name, description, parameters },
  }));
}

/**
 * The `role: "tool"` message for one result of `dispatchAll`: the value as
 * text (a string as is, anything else as JSON), or for a failure the text
 * written for the model. Chat Completions has no error flag; the text says it.
 */
export function toOpenAIChatToolMessage(result: ToolResult): OpenAIChatToolMessage {
  return { role: "tool", tool_call_id: result.toolCallId, content: resultText(result).text };
}
