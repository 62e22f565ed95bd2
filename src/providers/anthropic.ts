import type { ToolRegistry } from "../registry/registry.js";
import { type AdapterOptions, adapterBase, type ProviderAdapter } from "./adapter.js";
import { ProviderFormatError } from "./errors.js";
import { field, stringField } from "./calls.js";
import { ANTHROPIC_NAMES } from "./names.js";
import { ADAPTER_OPTIONS } from "./options.js";
import { onEventOf } from "./deltas/context.js";
import { stoppableDeltas } from "./deltas/stoppable.js";
import { type AnthropicStreamEvent, anthropicDeltas } from "./deltas/anthropic.js";
import { resultText } from "../text/result-text.js";
import { isRecord } from "../objects.js";
import type { ProviderRule } from "./tools.js";
import { type MediaRule, type ProviderItem, richItems } from "./rich-content.js";

const PROVIDER = "Anthropic";
const RULE: ProviderRule = { ...ANTHROPIC_NAMES, provider: PROVIDER, maxTools: Infinity };
/** The image types the Messages API takes (`Base64ImageSource`); it takes no audio. */
const MEDIA: MediaRule = { provider: PROVIDER, images: new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]) };

/** A `tool_use` content block of an Anthropic Messages response (the SDK's `ToolUseBlock`). */
export interface AnthropicToolUseBlock {
  type: string;
  id: string;
  name: string;
  input: unknown;
}

/** A client tool for the Messages API `tools` parameter (the SDK's `Tool`). */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: { type: "object"; [keyword: string]: unknown };
}

/** An image type the Messages API takes. */
export type AnthropicImageMediaType = "image/jpeg" | "image/png" | "image/gif" | "image/webp";

/** One block of a rich `tool_result`'s content: text, a base64 image, or a base64 PDF document (the SDK's block params). */
export type AnthropicToolResultContent =
  | { type: "text"; text: string }
  | { type: "image"; source: { type: "base64"; media_type: AnthropicImageMediaType; data: string } }
  | { type: "document"; source: { type: "base64"; media_type: "application/pdf"; data: string }; title: string };

/** A `tool_result` content block answering one `tool_use` block, sent in a user message (the SDK's `ToolResultBlockParam`). */
export interface AnthropicToolResult {
  type: "tool_result";
  tool_use_id: string;
  /**
   * The result as text, or for a `toolContent` result its blocks; left out when the handler
   * returned nothing (or only empty text).
   */
  content?: string | AnthropicToolResultContent[];
  /** Present (true) only for a failure, as Anthropic documents it. */
  is_error?: true;
}

/** The Anthropic Messages adapter: what {@link anthropic} returns. */
export type AnthropicAdapter = ProviderAdapter<AnthropicToolUseBlock, AnthropicTool, AnthropicToolResult, AnthropicStreamEvent>;

/**
 * The Anthropic Messages dialect of a registry:
 * - `tools()`: client tools for the `tools` parameter, each schema as `input_schema`;
 * - `call(block)`: a `tool_use` content block as a `ToolCallContent` (its
 *   `input` is already an object);
 * - `result(toolResult)`: the `tool_result` block, with `is_error: true` for a
 *   failure, and no `content` when the handler returned nothing. A `toolContent`
 *   result's items become text, image and document (PDF) blocks; audio, and an image
 *   type Anthropic does not take (only JPEG, PNG, GIF and WebP), become a text block saying it was left out.
 * @throws TypeError when `registry` is not a ToolRegistry, or naming a bad option
 * @example
 * ```ts
 * const claude = anthropic(registry, { names: "map" });
 * const message = await client.messages.create({ model, max_tokens: 1024, messages, tools: claude.tools() });
 * const calls = message.content.flatMap((block) => (block.type === "tool_use" ? [claude.call(block)] : []));
 * ```
 */
export function anthropic(registry: ToolRegistry, options?: AdapterOptions): AnthropicAdapter {
  const base = adapterBase(registry, RULE, options, ADAPTER_OPTIONS);
  const deltaContext = base.deltaContext();
  return Object.freeze({
    provider: PROVIDER,
    nameMap: base.nameMap,
    // The root's type is "object": the plain copy adds it where missing and refuses any other.
    tools: (toolsOptions) =>
      base.tools(toolsOptions).map(({ name, description, parameters }) => ({ name, description, input_schema: parameters as AnthropicTool["input_schema"] })),
    call: (block) => {
      if (field(PROVIDER, block, "type") !== "tool_use") throw new ProviderFormatError(PROVIDER, '"type" must be "tool_use"');
      const id = stringField(PROVIDER, block, "id");
      const name = base.registryName(stringField(PROVIDER, block, "name"));
      const input = field(PROVIDER, block, "input");
      if (!isRecord(input)) throw new ProviderFormatError(PROVIDER, '"input" must be an object');
      return base.toolCall(id, name, input);
    },
    result: (toolResult) => {
      const block: AnthropicToolResult = { type: "tool_result", tool_use_id: toolResult.toolCallId };
      const items = richItems(toolResult, MEDIA);
      if (items !== undefined) {
        if (items.length > 0) block.content = items.map(anthropicBlock);
        return block;
      }
      const { text, isError } = resultText(toolResult, base.nameMap);
      if (text !== "") block.content = text;
      if (isError) block.is_error = true;
      return block;
    },
    deltas: (stream, deltasOptions) => {
      const onEvent = onEventOf(deltasOptions);
      return stoppableDeltas(stream, (events) => anthropicDeltas(events, deltaContext, onEvent));
    },
  } satisfies AnthropicAdapter);
}

function anthropicBlock(item: ProviderItem): AnthropicToolResultContent {
  switch (item.kind) {
    case "text":
      return { type: "text", text: item.text };
    case "image":
      // richItems passed only the types MEDIA lists.
      return { type: "image", source: { type: "base64", media_type: item.mimeType as AnthropicImageMediaType, data: item.data } };
    case "pdf":
      return { type: "document", source: { type: "base64", media_type: "application/pdf", data: item.data }, title: item.filename };
  }
}
