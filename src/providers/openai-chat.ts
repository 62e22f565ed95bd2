import type { ToolRegistry } from "../registry/registry.js";
import { adapterBase, type OpenAIAdapterOptions, type ProviderAdapter } from "./adapter.js";
import { ProviderFormatError } from "./errors.js";
import { field, openAIFunctionCall, stringField } from "./calls.js";
import { OPENAI_NAMES } from "./names.js";
import { OPENAI_ADAPTER_OPTIONS } from "./options.js";
import { resultText } from "../text/result-text.js";
import { OPENAI_MAX_TOOLS, type ProviderRule } from "./tools.js";

const PROVIDER = "OpenAI Chat Completions";
const RULE: ProviderRule = { ...OPENAI_NAMES, provider: PROVIDER, maxTools: OPENAI_MAX_TOOLS };

/**
 * A tool call of an OpenAI Chat Completions assistant message
 * (`choices[0].message.tool_calls[i]`), as the `openai` SDK returns it
 * (`ChatCompletionMessageToolCall`). Custom tool calls are typed in, so the
 * SDK's union is accepted, and refused at run time.
 */
export interface OpenAIChatToolCall {
  id: string;
  type: string;
  function?: { name: string; arguments: string };
}

/** A function tool for the Chat Completions `tools` parameter (the SDK's `ChatCompletionFunctionTool`). */
export interface OpenAIChatTool {
  type: "function";
  function: {
    name: string;
    description: string;
    parameters: Record<string, unknown>;
    /** Present (true) only for an adapter made with `strict: true`. */
    strict?: boolean;
  };
}

/** A `role: "tool"` message answering one tool call (the SDK's `ChatCompletionToolMessageParam`). */
export interface OpenAIChatToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

/** The OpenAI Chat Completions adapter: what {@link openAIChat} returns. */
export type OpenAIChatAdapter = ProviderAdapter<OpenAIChatToolCall, OpenAIChatTool, OpenAIChatToolMessage>;

/**
 * The OpenAI Chat Completions dialect of a registry:
 * - `tools()`: function tools for the `tools` parameter;
 * - `call(toolCall)`: a `message.tool_calls[i]` as a `ToolCallContent`. The
 *   arguments text is parsed when it is a JSON object; other text (a model cut
 *   it short) is kept as the text, so that dispatch reports it to the model as
 *   `/: arguments must be valid JSON`;
 * - `result(toolResult)`: the `role: "tool"` message. Chat Completions has no
 *   error flag: a failure's text says it.
 * @throws TypeError when `registry` is not a ToolRegistry, or naming a bad option
 * @example
 * ```ts
 * const chat = openAIChat(registry, { names: "map" });
 * const completion = await openai.chat.completions.create({ model, messages, tools: chat.tools() });
 * const results = await registry.dispatchAll((completion.choices[0]?.message.tool_calls ?? []).map(chat.call));
 * messages.push(...results.map(chat.result));
 * ```
 */
export function openAIChat(registry: ToolRegistry, options?: OpenAIAdapterOptions): OpenAIChatAdapter {
  const base = adapterBase(registry, RULE, options, OPENAI_ADAPTER_OPTIONS);
  return Object.freeze({
    provider: PROVIDER,
    nameMap: base.nameMap,
    tools: (toolsOptions) =>
      base.tools(toolsOptions).map(({ name, description, parameters }) => ({
        type: "function",
        function: base.strict ? { name, description, parameters, strict: true } : { name, description, parameters },
      })),
    call: (toolCall) => {
      const type = field(PROVIDER, toolCall, "type");
      if (type !== "function" && type !== undefined) {
        throw new ProviderFormatError(PROVIDER, '"type" must be "function" (custom tool calls carry free text, not function arguments)');
      }
      const id = stringField(PROVIDER, toolCall, "id");
      return openAIFunctionCall(PROVIDER, id, field(PROVIDER, toolCall, "function"), "function.", base, registry);
    },
    result: (toolResult) => ({ role: "tool", tool_call_id: toolResult.toolCallId, content: resultText(toolResult).text }),
  } satisfies OpenAIChatAdapter);
}
