import * as errorClasses from "../errors.js";
import { ToolRegistryError, ToolResultValidationError } from "../errors.js";
import { NOT_JSON, recordable, revive } from "../execution/effects.js";
import type { JsonValue } from "../execution/ledger.js";
import { defineOwn, isRecord } from "../objects.js";
import { describeThrown } from "../text/describe.js";
import { toFailure } from "../text/results.js";
import type { ToolResult } from "../types.js";
import { ToolJobFailedError, ToolQueueConnectionError } from "./errors.js";

/** An error as JSON: its class's name, its message, its own fields (this library's errors only), and its cause. */
interface WireError {
  name: string;
  message: string;
  fields: { [key: string]: JsonValue };
  cause?: WireError | { value: JsonValue };
}

// Every error class of this package, by name: a failure crosses the queue as the class it was.
const CLASSES = new Map<string, new (...args: never[]) => Error>();
for (const value of [...Object.values(errorClasses), ToolJobFailedError, ToolQueueConnectionError]) {
  if (typeof value === "function" && (value === ToolRegistryError || value.prototype instanceof ToolRegistryError)) CLASSES.set(value.name, value as new (...args: never[]) => Error);
}

/**
 * A result as JSON, to cross a queue: a value as the ledger keeps one (rich content included), a
 * failure's error with its class name and fields. A value with no JSON form becomes a failure
 * that says the tool ran.
 */
export function resultToWire(result: ToolResult): JsonValue {
  switch (result.status) {
    case "ok": {
      const value = recordable(result.value);
      if (value === NOT_JSON) return resultToWire(toFailure(result.toolCallId, result.toolName, new ToolResultValidationError(result.toolName, result.toolCallId, ["/: has no JSON form to send back"])));
      return { ...(JSON.parse(JSON.stringify({ ...result, value: undefined })) as { [key: string]: JsonValue }), value };
    }
    case "error":
      return { status: "error", toolCallId: result.toolCallId, toolName: result.toolName, isError: true, content: result.content, error: errorToWire(result.error, 0) as unknown as JsonValue };
    default:
      return JSON.parse(JSON.stringify(result)) as JsonValue;
  }
}

/**
 * A result from its JSON: the value rebuilt (rich content included), a failure's error as an
 * instance of its class. What this package's worker writes is read; anything else (a job another
 * program completed, a result for another call) is not a result of this call.
 * @returns the call's result, or `undefined` when `wire` is not one
 */
export function resultFromWire(wire: JsonValue, toolCallId: string, toolName: string): ToolResult | undefined {
  if (!isRecord(wire) || wire.toolCallId !== toolCallId || wire.toolName !== toolName) return undefined;
  switch (wire.status) {
    case "ok":
      return wire.isError === false ? ({ ...(wire as unknown as ToolResult), value: revive(wire.value as JsonValue) } as ToolResult) : undefined;
    case "error":
      return wire.isError === true && typeof wire.content === "string" && isWireError(wire.error) ? ({ ...(wire as unknown as ToolResult), error: errorFromWire(wire.error, 0) } as ToolResult) : undefined;
    case "approval-required":
      return wire.isError === false && isRecord(wire.request) ? (wire as unknown as ToolResult) : undefined;
    case "denied":
      return wire.isError === false && typeof wire.content === "string" ? (wire as unknown as ToolResult) : undefined;
    default:
      return undefined;
  }
}

/** An error as {@link errorToWire} writes one: a name and a message that are text. */
function isWireError(value: unknown): value is WireError {
  return isRecord(value) && typeof value.name === "string" && typeof value.message === "string";
}

const MAX_CAUSES = 4;

/**
 * An error as it crosses the wire. This library's errors keep their own fields (they hold no
 * argument values); any other error (a handler's own, as a cause) sends only its name and
 * message: its fields (an HTTP client's request headers, say) and its causes stay where it ran.
 */
function errorToWire(error: Error, depth: number): WireError {
  if (!isOwnError(error)) return { name: String(error.name), message: String(error.message), fields: {} };
  const wire: WireError = { name: error.name, message: error.message, fields: ownFields(error) };
  if ("cause" in error && error.cause !== undefined && depth < MAX_CAUSES) wire.cause = causeToWire(error.cause, depth);
  return wire;
}

/** One of this library's error classes, which the other side rebuilds as such. */
function isOwnError(error: Error): boolean {
  return error instanceof ToolRegistryError && CLASSES.get(error.name) !== undefined;
}

function ownFields(error: Error): { [key: string]: JsonValue } {
  const fields: { [key: string]: JsonValue } = {};
  for (const [key, value] of Object.entries(error)) {
    if (key === "name" || key === "message" || key === "stack" || key === "cause") continue;
    const json = jsonOf(value);
    if (json !== undefined) defineOwn(fields, key, json);
  }
  return fields;
}

/** A cause: an error as above; anything else thrown as its text (a string as it is, an object by its type only). */
function causeToWire(cause: unknown, depth: number): WireError | { value: JsonValue } {
  return cause instanceof Error ? errorToWire(cause, depth + 1) : { value: describeThrown(cause) };
}

function errorFromWire(wire: WireError, depth: number): Error {
  const found = CLASSES.get(wire.name);
  // A real Error (what `instanceof`, inspectors and equality read as one), given its class after.
  const error = new Error(String(wire.message));
  Object.setPrototypeOf(error, (found ?? Error).prototype as object);
  // An own field of every class here (set explicitly, as minifiers rename classes), first as the constructors set it.
  Object.defineProperty(error, "name", { value: String(wire.name), writable: true, configurable: true, enumerable: found !== undefined });
  // Fields only for this library's classes, each defined as an own field: a "__proto__" key stays a key.
  if (found !== undefined && isRecord(wire.fields)) {
    for (const [key, value] of Object.entries(wire.fields)) defineOwn(error, key, Array.isArray(value) ? Object.freeze(value) : value);
  }
  Object.defineProperty(error, "stack", { value: `${wire.name}: ${wire.message}\n    (where the tool ran)`, writable: true, configurable: true });
  // As many causes as the other side sends, and only of the shapes it writes.
  const cause: unknown = wire.cause;
  if (depth < MAX_CAUSES && isRecord(cause) && ("value" in cause || isWireError(cause))) {
    Object.defineProperty(error, "cause", { value: "value" in cause ? cause.value : errorFromWire(cause as unknown as WireError, depth + 1), writable: true, configurable: true });
  }
  return error;
}

function jsonOf(value: unknown): JsonValue | undefined {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : (JSON.parse(text) as JsonValue);
  } catch {
    return undefined;
  }
}
