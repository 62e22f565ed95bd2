import { ToolArgumentsValidationError, ToolDefinitionError, ToolRegistryError, UnknownToolError } from "./errors.js";
import { cut, describeName, describeThrown } from "./text.js";
import type { ToolFailure } from "./types.js";

/** The most characters of text about one failed call that reach the model. */
export const MAX_FAILURE_CONTENT_CHARACTERS = 8_192;

/**
 * Text for the model about a failed call: what went wrong, in words that let
 * it correct the call. Never contains argument values, and never more than
 * {@link MAX_FAILURE_CONTENT_CHARACTERS} characters.
 */
export function failureContent(error: unknown): string {
  return cut(describeFailure(error), MAX_FAILURE_CONTENT_CHARACTERS);
}

function describeFailure(error: unknown): string {
  if (error instanceof ToolArgumentsValidationError) {
    return `${error.message}\nCorrect the arguments to match the tool's parameters and call it again.`;
  }
  if (error instanceof UnknownToolError) return `${error.message} Call one of the available tools instead.`;
  // A broken definition is the application's fault; the model can only try another tool.
  if (error instanceof ToolDefinitionError) return `Tool ${describeName(error.toolName)} is unavailable because its definition is invalid.`;
  if (error instanceof ToolRegistryError) return error.message;
  return `Tool call failed: ${describeThrown(error)}`;
}

/** Builds the failure result of one call from `dispatchAll`. */
export function toFailure(toolCallId: string, toolName: string, error: unknown): ToolFailure {
  const typed = error instanceof Error ? error : new Error(describeThrown(error), { cause: error });
  return { toolCallId, toolName, isError: true, error: typed, content: failureContent(error) };
}
