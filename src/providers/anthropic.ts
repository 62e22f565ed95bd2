import type { ToolRegistry } from "../registry/registry.js";
import type { ToolCallContent, ToolResult } from "../types.js";
import { ProviderFormatError } from "./errors.js";
import { field, type FromProviderOptions, readCall, registryName, stringField } from "./calls.js";
import { ANTHROPIC_NAMES } from "./names.js";
import { resultText } from "../text/result-text.js";
import { isRecord } from "../objects.js";
import { providerTools, type ToProviderToolsOptions } from "./tools.js";

const PROVIDER = "Anthropic";

/** A `tool_use` content block of an Anthropic Messages response. */
export interface AnthropicToolUseBlock {
  type: string;
  id: string;
  name: string;
  input: unknown;
}

/** A client tool for the Messages API `tools` parameter. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: { type: "object"; [keyword: string]: unknown };
}

/** A `tool_result` content block answering one `tool_use` block, sent in a user message. */
export interface AnthropicToolResult {
  type: "tool_result";
  tool_use_id: string;
  /** The result as text; left out when the handler returned nothing. */
  content?: string;
  /** Present (true) only for a failure, as Anthropic documents it. */
  is_error?: true;
}

/**
 * Reads an Anthropic `tool_use` block. Its `input` is already an object.
 * @throws ProviderFormatError when `block` is not a `tool_use` block or its input is not an object
 * @example
 * ```ts
 * const calls = message.content.flatMap((block) => (block.type === "tool_use" ? [fromAnthropic(block)] : []));
 * ```
 */
export function fromAnthropic(block: AnthropicToolUseBlock, options?: FromProviderOptions): ToolCallContent {
  if (field(PROVIDER, block, "type") !== "tool_use") throw new ProviderFormatError(PROVIDER, '"type" must be "tool_use"');
  const id = stringField(PROVIDER, block, "id");
  const name = registryName(stringField(PROVIDER, block, "name"), options);
  const input = field(PROVIDER, block, "input");
  if (!isRecord(input)) throw new ProviderFormatError(PROVIDER, '"input" must be an object');
  return readCall({ type: "tool_call", id, name, arguments: input }, options);
}

/**
 * The registry's tools for the Messages API `tools` parameter.
 * @throws ProviderLimitError for more tools than the `maxTools` option allows (no limit unless set); send a subset with `only`
 * @throws ProviderNameError for a name Anthropic rejects (unless `names` maps it)
 * @throws ProviderSchemaError for a schema that is not plain JSON or whose root is not an object schema
 */
export function toAnthropicTools(registry: ToolRegistry, options?: ToProviderToolsOptions): AnthropicTool[] {
  const tools = providerTools(registry, { ...ANTHROPIC_NAMES, provider: PROVIDER, maxTools: Infinity }, options, false);
  // The root's type is "object": providerTools adds it where missing and refuses any other.
  return tools.map(({ name, description, parameters }) => ({ name, description, input_schema: parameters as AnthropicTool["input_schema"] }));
}

/**
 * The `tool_result` block for one result of `dispatchAll`: the value as text
 * (a string as is, anything else as JSON), or for a failure the text written
 * for the model with `is_error: true`.
 */
export function toAnthropicToolResult(result: ToolResult): AnthropicToolResult {
  const { text, isError } = resultText(result);
  const block: AnthropicToolResult = { type: "tool_result", tool_use_id: result.toolCallId };
  if (text !== "") block.content = text;
  if (isError) block.is_error = true;
  return block;
}
