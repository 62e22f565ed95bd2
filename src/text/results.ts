import {
  abortedBeforeStartMessage,
  abortedMessage,
  executionMessage,
  timeoutMessage,
  ToolAbortedError,
  ToolArgumentsValidationError,
  ToolDefinitionError,
  ToolExecutionError,
  ToolNotAllowedError,
  notAllowedMessage,
  repeatedFailureMessage,
  ToolRegistryError,
  ToolTimeoutError,
  UnknownToolError,
  unknownToolMessage,
  validationMessage,
  waitTimeoutMessage,
} from "../errors.js";
import type { ModelNames } from "./model-names.js";
import { cut, describeName, describeThrown } from "./describe.js";
import type { ToolFailure } from "../types.js";

/** The most characters of text about one failed call that reach the model. */
export const MAX_FAILURE_CONTENT_CHARACTERS = 8_192;

/**
 * Text for the model about a failed call: what went wrong, in words that let
 * it correct the call. Never contains argument values, and never more than
 * {@link MAX_FAILURE_CONTENT_CHARACTERS} characters.
 *
 * @param names the name map the call came through (a `ToolNameMap`), if any:
 * the text then names tools as the model knows them (`uber_ride`, not the
 * registry's `uber.ride`), close names and listed tools included.
 * `dispatchAll` passes it for every call read through one.
 */
export function failureContent(error: unknown, names?: ModelNames): string {
  let described: string;
  try {
    described = describeFailure(error, names);
  } catch {
    // An error that cannot even be asked its class (a revoked proxy).
    described = "Tool call failed: threw an unreadable error";
  }
  return cut(described, MAX_FAILURE_CONTENT_CHARACTERS);
}

function describeFailure(error: unknown, names: ModelNames | undefined): string {
  const shown = names === undefined ? (name: string) => name : (name: string) => names.providerNameOf(name) ?? name;
  const sent = names === undefined ? (name: string) => name : (name: string) => names.toProviderName(name);
  if (error instanceof ToolArgumentsValidationError) {
    const advice = error.repeats > 0 ? repeatedFailureMessage(shown(error.toolName), error.repeats) : "Correct the arguments to match the tool's parameters and call it again.";
    return `${validationMessage(shown(error.toolName), error.issues)}\n${advice}`;
  }
  if (error instanceof UnknownToolError) {
    return `${unknownToolMessage(shown(error.toolName), error.suggestions.map(sent), error.available.map(sent))} Call one of the available tools instead.`;
  }
  // A broken definition is the application's fault; the model can only try another tool.
  if (error instanceof ToolDefinitionError) return `Tool ${describeName(shown(error.toolName))} is unavailable because its definition is invalid.`;
  if (names !== undefined) {
    if (error instanceof ToolTimeoutError) return error.started ? timeoutMessage(shown(error.toolName), error.timeoutMs) : waitTimeoutMessage(shown(error.toolName), error.timeoutMs, error.waitedFor);
    if (error instanceof ToolAbortedError) return (error.started ? abortedMessage : abortedBeforeStartMessage)(shown(error.toolName));
    if (error instanceof ToolExecutionError) return executionMessage(shown(error.toolName), error.cause);
  }
  if (error instanceof ToolNotAllowedError) return `${notAllowedMessage(shown(error.toolName), error.available.map(sent))} Call one of the available tools instead.`;
  if (error instanceof ToolRegistryError) return names === undefined ? error.message : inModelNames(error, shown);
  return `Tool call failed: ${describeThrown(error)}`;
}

/** An error's message with the tool it names (every message names it once, quoted) as the model knows it. */
function inModelNames(error: ToolRegistryError, shown: (name: string) => string): string {
  const toolName = (error as { toolName?: unknown }).toolName;
  if (typeof toolName !== "string") return error.message;
  return error.message.replace(describeName(toolName), () => describeName(shown(toolName)));
}

/** Builds the failure result of one call from `dispatchAll`; `names` as in {@link failureContent}. */
export function toFailure(toolCallId: string, toolName: string, error: unknown, names?: ModelNames): ToolFailure {
  const typed = error instanceof Error ? error : new Error(describeThrown(error), { cause: error });
  return { status: "error", toolCallId, toolName, isError: true, error: typed, content: failureContent(error, names) };
}
