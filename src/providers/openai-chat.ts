import type { ToolRegistry } from "../registry/registry.js";
import { adapterBase, type OpenAIAdapterOptions, type ProviderAdapter } from "./adapter.js";
import { ProviderFormatError } from "./errors.js";
import { field, openAICallArguments, openAIFunctionCall, stringField } from "./calls.js";
import { onEventOf } from "./deltas/context.js";
import { stoppableDeltas } from "./deltas/stoppable.js";
import { type OpenAIChatChunk, openAIChatDeltas } from "./deltas/openai-chat.js";
import { OPENAI_NAMES, type ToolNameMap } from "./names.js";
import { OPENAI_ADAPTER_OPTIONS } from "./options.js";
import { resultText } from "../text/result-text.js";
import { OPENAI_MAX_TOOLS, type ProviderRule } from "./tools.js";
import { dataUrl, joinedText, type MediaRule, type ProviderItem, richItems } from "./rich-content.js";
import { attachmentsFollowNote, attachmentsHeading } from "../text/content-notes.js";
import type { ToolResult } from "../types.js";

const PROVIDER = "OpenAI Chat Completions";
const RULE: ProviderRule = { ...OPENAI_NAMES, provider: PROVIDER, maxTools: OPENAI_MAX_TOOLS };
/** The image types OpenAI documents for vision input; audio is left out (it needs an audio model). */
const MEDIA: MediaRule = { provider: PROVIDER, images: new Set(["image/png", "image/jpeg", "image/webp", "image/gif"]) };

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

/** One part of the follow-up user message: text, an image or a PDF file, as `data:` URLs (the SDK's `ChatCompletionContentPart`). */
export type OpenAIChatContentPart =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string } }
  | { type: "file"; file: { file_data: string; filename: string } };

/** The `role: "user"` message that carries tool results' images and documents (the SDK's `ChatCompletionUserMessageParam`). */
export interface OpenAIChatUserMessage {
  role: "user";
  content: OpenAIChatContentPart[];
}

/** The OpenAI Chat Completions adapter: what {@link openAIChat} returns. */
export interface OpenAIChatAdapter extends ProviderAdapter<OpenAIChatToolCall, OpenAIChatTool, OpenAIChatToolMessage, OpenAIChatChunk> {
  /**
   * The user message that carries the images and PDF documents of `toolResults` (each after a
   * line naming its tool call), since a Chat Completions tool message takes only text: an array
   * of that one message, or an empty array when no result has any. Push it after the tool
   * messages, which must directly follow the assistant message that made the calls.
   * @param toolResults the results of `dispatchAll`, as passed to `result()`
   * @throws TypeError when `toolResults` is not an array
   * @example
   * ```ts
   * messages.push(...results.map(chat.result), ...chat.followUp(results));
   * ```
   */
  followUp(toolResults: readonly ToolResult[]): OpenAIChatUserMessage[];
}

/**
 * The OpenAI Chat Completions dialect of a registry:
 * - `tools()`: function tools for the `tools` parameter;
 * - `call(toolCall)`: a `message.tool_calls[i]` as a `ToolCallContent`. The
 *   arguments text is parsed when it is a JSON object; other text (a model cut
 *   it short) is kept as the text, so that dispatch reports it to the model as
 *   `/: arguments must be valid JSON`;
 * - `result(toolResult)`: the `role: "tool"` message. Chat Completions has no
 *   error flag: a failure's text says it. A tool message takes only text: for a
 *   `toolContent` result it holds the text items and a line saying that the images
 *   and PDF documents follow in the next user message, which `followUp(results)` makes;
 * - `followUp(results)`: that user message, when any result has images or documents;
 * - `deltas(stream)`: the tool calls of a streamed completion (the chunks
 *   `chat.completions.create({ stream: true })` or `.stream()` yields) as the
 *   deltas `registry.dispatchStream` takes. Chat Completions never says when one
 *   call's arguments end: a call is done when its text is a complete JSON value
 *   and the next call's first piece arrives, or when the choice finishes.
 * @throws TypeError when `registry` is not a ToolRegistry, or naming a bad option
 * @example
 * ```ts
 * const chat = openAIChat(registry, { names: "map" });
 * const completion = await openai.chat.completions.create({ model, messages, tools: chat.tools() });
 * const results = await registry.dispatchAll((completion.choices[0]?.message.tool_calls ?? []).map(chat.call));
 * messages.push(...results.map(chat.result), ...chat.followUp(results));
 * ```
 */
export function openAIChat(registry: ToolRegistry, options?: OpenAIAdapterOptions): OpenAIChatAdapter {
  const base = adapterBase(registry, RULE, options, OPENAI_ADAPTER_OPTIONS);
  const deltaContext = base.deltaContext(base.strict ? (name, text) => openAICallArguments(name, text, base, registry) : undefined);
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
    result: (toolResult) => ({ role: "tool", tool_call_id: toolResult.toolCallId, content: toolMessageText(toolResult, base.nameMap) }),
    followUp: (toolResults) => {
      if (!Array.isArray(toolResults)) throw new TypeError("followUp takes the array of results dispatchAll returned");
      const content: OpenAIChatContentPart[] = [];
      for (const toolResult of toolResults) {
        const media = (richItems(toolResult, MEDIA) ?? []).filter((item) => item.kind !== "text");
        if (media.length === 0) continue;
        content.push({ type: "text", text: attachmentsHeading(toolResult.toolCallId) }, ...media.map(chatPart));
      }
      return content.length === 0 ? [] : [{ role: "user", content }];
    },
    deltas: (stream, deltasOptions) => {
      const onEvent = onEventOf(deltasOptions);
      return stoppableDeltas(stream, (events) => openAIChatDeltas(events, deltaContext, onEvent));
    },
  } satisfies OpenAIChatAdapter);
}

/** A tool message's text: as before, or for a `toolContent` result its text and where its media went. */
function toolMessageText(toolResult: ToolResult, names: ToolNameMap | undefined): string {
  const items = richItems(toolResult, MEDIA);
  if (items === undefined) return resultText(toolResult, names).text;
  const images = items.filter((item) => item.kind === "image").length;
  const documents = items.filter((item) => item.kind === "pdf").length;
  const text = joinedText(items);
  if (images + documents === 0) return text;
  const note = attachmentsFollowNote(images, documents);
  return text === "" ? note : `${text}\n${note}`;
}

function chatPart(item: Exclude<ProviderItem, { kind: "text" }>): OpenAIChatContentPart {
  if (item.kind === "image") return { type: "image_url", image_url: { url: dataUrl(item.mimeType, item.data) } };
  return { type: "file", file: { file_data: dataUrl("application/pdf", item.data), filename: item.filename } };
}
