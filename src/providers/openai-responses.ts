import type { ToolRegistry } from "../registry/registry.js";
import { adapterBase, type OpenAIAdapterOptions, type ProviderAdapter } from "./adapter.js";
import { ProviderFormatError } from "./errors.js";
import { field, openAICallArguments, openAIFunctionCall, stringField } from "./calls.js";
import { onEventOf } from "./deltas/context.js";
import { stoppableDeltas } from "./deltas/stoppable.js";
import { type OpenAIResponsesStreamEvent, openAIResponsesDeltas } from "./deltas/openai-responses.js";
import { OPENAI_NAMES } from "./names.js";
import { OPENAI_ADAPTER_OPTIONS } from "./options.js";
import { resultText } from "../text/result-text.js";
import { OPENAI_MAX_TOOLS, type ProviderRule } from "./tools.js";
import { dataUrl, type MediaRule, type ProviderItem, richItems } from "./rich-content.js";

const PROVIDER = "OpenAI Responses";
const RULE: ProviderRule = { ...OPENAI_NAMES, provider: PROVIDER, maxTools: OPENAI_MAX_TOOLS };
/** The image types OpenAI documents for vision input; a function call's output takes no audio. */
const MEDIA: MediaRule = { provider: PROVIDER, images: new Set(["image/png", "image/jpeg", "image/webp", "image/gif"]) };

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

/** One item of a rich `function_call_output`'s output: text, an image or a file, each as a `data:` URL (the SDK's `ResponseFunctionCallOutputItem`). */
export type OpenAIResponsesOutputItem =
  | { type: "input_text"; text: string }
  | { type: "input_image"; image_url: string }
  | { type: "input_file"; file_data: string; filename: string };

/** A `function_call_output` input item answering one function call (the SDK's `ResponseInputItem.FunctionCallOutput`). */
export interface OpenAIResponsesOutput {
  type: "function_call_output";
  call_id: string;
  /** The result as text, or for a `toolContent` result its items. */
  output: string | OpenAIResponsesOutputItem[];
}

/** The OpenAI Responses adapter: what {@link openAIResponses} returns. */
export type OpenAIResponsesAdapter = ProviderAdapter<OpenAIResponsesFunctionCall, OpenAIResponsesTool, OpenAIResponsesOutput, OpenAIResponsesStreamEvent>;

/**
 * The OpenAI Responses dialect of a registry:
 * - `tools()`: function tools for the `tools` parameter, each with `strict`
 *   set (to `false` unless the adapter was made with `strict: true`), because
 *   the Responses API treats a missing `strict` as true;
 * - `call(item)`: a `function_call` output item as a `ToolCallContent`, its
 *   `call_id` the call's id, its arguments read as Chat Completions' are;
 * - `result(toolResult)`: the `function_call_output` input item: its `output` the
 *   result's text, or for a `toolContent` result an array of `input_text`,
 *   `input_image` and `input_file` (PDF) items, images and files as `data:` URLs;
 *   audio, and an image type OpenAI does not take, become text saying it was left out.
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
  const deltaContext = base.deltaContext(base.strict ? (name, text) => openAICallArguments(name, text, base, registry) : undefined);
  return Object.freeze({
    provider: PROVIDER,
    nameMap: base.nameMap,
    tools: (toolsOptions) =>
      base.tools(toolsOptions).map(({ name, description, parameters }) => ({ type: "function", name, description, parameters, strict: base.strict })),
    call: (item) => {
      if (field(PROVIDER, item, "type") !== "function_call") throw new ProviderFormatError(PROVIDER, '"type" must be "function_call"');
      return openAIFunctionCall(PROVIDER, stringField(PROVIDER, item, "call_id"), item, "", base, registry);
    },
    result: (toolResult) => {
      const items = richItems(toolResult, MEDIA);
      const output = items === undefined ? resultText(toolResult, base.nameMap).text : items.length === 0 ? "" : items.map(responsesItem);
      return { type: "function_call_output", call_id: toolResult.toolCallId, output };
    },
    deltas: (stream, deltasOptions) => {
      const onEvent = onEventOf(deltasOptions);
      return stoppableDeltas(stream, (events) => openAIResponsesDeltas(events, deltaContext, onEvent));
    },
  } satisfies OpenAIResponsesAdapter);
}

function responsesItem(item: ProviderItem): OpenAIResponsesOutputItem {
  switch (item.kind) {
    case "text":
      return { type: "input_text", text: item.text };
    case "image":
      return { type: "input_image", image_url: dataUrl(item.mimeType, item.data) };
    case "pdf":
      return { type: "input_file", file_data: dataUrl("application/pdf", item.data), filename: item.filename };
  }
}
