export { Type } from "typebox";
export type { Static, TSchema } from "typebox";

export { ToolRegistry } from "./registry.js";
export type { ToolRegistryOptions, RegisterOptions } from "./registry.js";
export { validateToolArguments, parseToolArguments } from "./arguments.js";
export { ValidatorCache, DEFAULT_CACHE_SIZE } from "./validators.js";
export type { CacheKey, ValidatorCacheOptions } from "./validators.js";
export {
  ToolRegistryError,
  ToolDefinitionError,
  ToolArgumentsValidationError,
  UnknownToolError,
  ToolExecutionError,
  ToolTimeoutError,
  ToolAbortedError,
} from "./errors.js";
export { failureContent } from "./results.js";
export type {
  ToolDefinition,
  ToolCallContent,
  ToolCall,
  ToolContext,
  ToolHandler,
  ToolResult,
  ToolSuccess,
  ToolFailure,
  DispatchOptions,
  DispatchAllOptions,
  CacheStats,
} from "./types.js";
