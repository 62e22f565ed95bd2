export { fromOpenAIChat, toOpenAIChatTools, toOpenAIChatToolMessage } from "./openai-chat.js";
export type { OpenAIChatToolCall, OpenAIChatTool, OpenAIChatToolMessage } from "./openai-chat.js";
export { fromOpenAIResponses, toOpenAIResponsesTools, toOpenAIResponsesOutput } from "./openai-responses.js";
export type { OpenAIResponsesFunctionCall, OpenAIResponsesTool, OpenAIResponsesOutput } from "./openai-responses.js";
export { fromAnthropic, toAnthropicTools, toAnthropicToolResult } from "./anthropic.js";
export type { AnthropicToolUseBlock, AnthropicTool, AnthropicToolResult } from "./anthropic.js";
export { fromGemini, toGeminiTools, toGeminiFunctionResponse, GENERATED_GEMINI_ID_PREFIX } from "./gemini.js";
export type {
  GeminiFunctionCall,
  GeminiFunctionCallPart,
  GeminiFunctionDeclaration,
  GeminiTool,
  GeminiFunctionResponsePart,
  ToGeminiFunctionResponseOptions,
} from "./gemini.js";
export { ToolNameMap } from "./names.js";
export type { ToolNamesOption } from "./names.js";
export { ProviderNameError, ProviderSchemaError, ProviderFormatError, ProviderLimitError } from "./errors.js";
export type { ProviderName } from "./errors.js";
export type { FromProviderOptions, FromOpenAIOptions } from "./calls.js";
export type { ToProviderToolsOptions, ToOpenAIToolsOptions } from "./tools.js";
