export { openAIChat } from "./openai-chat.js";
export type {
  OpenAIChatAdapter,
  OpenAIChatToolCall,
  OpenAIChatTool,
  OpenAIChatToolMessage,
  OpenAIChatUserMessage,
  OpenAIChatContentPart,
} from "./openai-chat.js";
export { openAIResponses } from "./openai-responses.js";
export type {
  OpenAIResponsesAdapter,
  OpenAIResponsesFunctionCall,
  OpenAIResponsesTool,
  OpenAIResponsesOutput,
  OpenAIResponsesOutputItem,
} from "./openai-responses.js";
export { anthropic } from "./anthropic.js";
export type {
  AnthropicAdapter,
  AnthropicToolUseBlock,
  AnthropicTool,
  AnthropicToolResult,
  AnthropicToolResultContent,
  AnthropicImageMediaType,
} from "./anthropic.js";
export { gemini, GENERATED_GEMINI_ID_PREFIX } from "./gemini.js";
export type {
  GeminiAdapter,
  GeminiFunctionCall,
  GeminiFunctionCallPart,
  GeminiFunctionDeclaration,
  GeminiTool,
  GeminiFunctionResponsePart,
  GeminiFunctionResponseMedia,
} from "./gemini.js";
export type { ProviderAdapter, AdapterOptions, OpenAIAdapterOptions, ToolsOptions } from "./adapter.js";
export type { DeltasOptions } from "./deltas/context.js";
export type { OpenAIChatChunk, OpenAIChatToolCallDelta } from "./deltas/openai-chat.js";
export type { OpenAIResponsesStreamEvent } from "./deltas/openai-responses.js";
export type { AnthropicStreamEvent } from "./deltas/anthropic.js";
export type { GeminiStreamChunk } from "./deltas/gemini.js";
export type { ToolCallDelta } from "../types.js";
export type { ToolNameMap } from "./names.js";
export { ProviderNameError, ProviderSchemaError, ProviderFormatError, ProviderLimitError } from "./errors.js";
export type { ProviderName } from "./errors.js";
