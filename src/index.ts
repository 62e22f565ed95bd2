export { Type } from "typebox";
export type { Static, TSchema } from "typebox";

export { ToolRegistry } from "./registry/registry.js";
export type {
  ToolRegistryOptions,
  RegisterOptions,
  RepairReport,
  ToolRegistryChange,
  ExecutionStats,
  LateSettleReport,
  LedgerStats,
  DenyOptions,
  CallObserver,
  ObservedCall,
  ToolCallEnvelope,
  EnvelopeOptions,
  ExecuteOptions,
} from "./registry/registry.js";
export type { ExecutionOptions, ToolEffects, CallContext, ApprovalPredicate } from "./policy/policy.js";
export type { RateLimit } from "./policy/rate-limit.js";
export type { CircuitBreakerOptions } from "./policy/circuit-breaker.js";
export type { RetryOptions } from "./policy/retry.js";
export type { AllowList } from "./dispatch/allow.js";
export type { ToolHooks, HookCall, HookResult, BeforeDecision, AfterDecision } from "./execution/hooks.js";
export { callFingerprint } from "./execution/fingerprint.js";
export { MemoryLedger } from "./execution/ledger.js";
export type { LedgerStore, LedgerSetOptions, MemoryLedgerOptions, JsonValue } from "./execution/ledger.js";
export type { ApprovalRequest, ApproveOptions } from "./execution/approvals.js";
export { toolContent, isToolContent } from "./results/content.js";
export type { ToolContent, ToolContentOptions, ContentItem, TextContent, ImageContent, AudioContent, ResourceContent } from "./results/content.js";
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
  ToolApprovalRequiredError,
  ToolApprovalError,
  ToolDeniedError,
  ToolResultValidationError,
  ToolLedgerError,
  ToolNotAllowedError,
  ToolRateLimitedError,
  ToolUnavailableError,
  ToolHookError,
  ToolEnvelopeError,
  ToolMismatchError,
} from "./errors.js";
export type { DefinitionProblem, ApprovalRefusal, LedgerRefusal, EnvelopeRefusal, ToolMismatch } from "./errors.js";
export type { ArgumentStream, ArgumentStreamState, ArgumentStreamOptions, DeepPartial } from "./streaming/argument-stream.js";
export { failureContent } from "./text/results.js";
export type { ModelNames } from "./text/model-names.js";
export type {
  ToolDefinition,
  NoSchemaLibraryObject,
  ToolCallContent,
  ToolContext,
  ToolHandler,
  ToolResult,
  ToolOutput,
  ToolSuccess,
  ToolFailure,
  ToolApprovalPending,
  ToolDenial,
  ReuseKind,
  DispatchOptions,
  DispatchAllOptions,
  DispatchStreamOptions,
  ToolCallDelta,
  ToolStreamEvent,
  ToolStreamEventBase,
  ToolCallStartEvent,
  ToolCallDeltaEvent,
  ToolCallInvalidEvent,
  ToolResultEvent,
  CacheStats,
  CompileStats,
  FailureStats,
} from "./types.js";
