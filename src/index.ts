export { Type } from "typebox";
export type { Static, TSchema } from "typebox";

export { ToolRegistry } from "./registry.js";
export type { ToolRegistryOptions, RegisterOptions, RepairReport, ToolRegistryChange } from "./registry.js";
export { repairArguments } from "./repair.js";
export type { ArgumentRepair, RepairResult } from "./repair.js";
export { validateToolArguments, parseToolArguments, DEFAULT_MAX_ARGUMENT_BYTES } from "./arguments.js";
export { precompileValidators } from "./precompiled.js";
export type { PrecompiledValidators, PrecompiledValidator } from "./precompiled.js";
export { ValidatorCache, DEFAULT_CACHE_SIZE } from "./validators.js";
export type { CacheKey, ValidatorCacheOptions, CompiledValidator } from "./validators.js";
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
export type { ModelNames } from "./model-names.js";
export type {
  ToolDefinition,
  NoSchemaLibraryObject,
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
  CompileStats,
} from "./types.js";
