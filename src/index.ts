export { Type } from "typebox";
export type { Static, TSchema } from "typebox";

export { ToolRegistry } from "./registry/registry.js";
export type { ToolRegistryOptions, RegisterOptions, RepairReport, ToolRegistryChange } from "./registry/registry.js";
export type { ArgumentRepair, JsonTypeName } from "./types.js";
export { validateToolArguments, parseToolArguments } from "./validation/arguments.js";
export { precompileValidators } from "./validation/precompiled.js";
export type { PrecompiledValidators } from "./validation/precompiled.js";
export type { CacheKey } from "./validation/cache.js";
export {
  ToolRegistryError,
  ToolDefinitionError,
  ToolArgumentsValidationError,
  UnknownToolError,
  ToolExecutionError,
  ToolTimeoutError,
  ToolAbortedError,
} from "./errors.js";
export type { DefinitionProblem } from "./errors.js";
export { failureContent } from "./text/results.js";
export type { ModelNames } from "./text/model-names.js";
export type {
  ToolDefinition,
  NoSchemaLibraryObject,
  ToolCallContent,
  ToolContext,
  ToolHandler,
  ToolResult,
  ToolSuccess,
  ToolFailure,
  DispatchOptions,
  DispatchAllOptions,
  CacheStats,
  CompileStats,
  FailureStats,
} from "./types.js";
