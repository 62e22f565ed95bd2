import { optionalFunction } from "../../options.js";
import { rememberStreamDialect, type StreamDialect } from "../../streaming/call-dialect.js";
import type { ToolCallDelta } from "../../types.js";

/** Options of an adapter's `deltas(stream, options)`. */
export interface DeltasOptions<TEvent> {
  /**
   * Called with every event of the SDK's stream as it passes, before its deltas are yielded:
   * the model's text, its reasoning, usage, and the tool calls' own events. The adapter reads
   * the tool calls and lets everything else through here, so nothing is swallowed.
   */
  onEvent?: (event: TEvent) => void;
}

/** What a stream reader needs of its adapter: names, and what the adapter's `call()` does with a call's text. */
export interface DeltaContext {
  /** The registry name behind a provider's tool name. */
  registryName(providerName: string): string;
  /** Told to the stream dispatcher with each call's first delta. */
  readonly dialect: StreamDialect;
}

/**
 * Checks `deltas()` options once, before the stream is read.
 * @throws TypeError naming `onEvent` when it is not a function
 */
export function onEventOf<TEvent>(options: DeltasOptions<TEvent> | undefined): ((event: TEvent) => void) | undefined {
  return optionalFunction<(event: TEvent) => void>("onEvent", options?.onEvent);
}

/** The delta that names a call's tool, carrying the adapter's dialect to the stream dispatcher. */
export function namingDelta(context: DeltaContext, delta: ToolCallDelta): ToolCallDelta {
  if (context.dialect.names !== undefined || context.dialect.argumentsOf !== undefined) rememberStreamDialect(delta, context.dialect);
  return delta;
}

/** An id for a call the provider sent without one. */
export function generatedId(prefix: string): string {
  return `${prefix}${crypto.randomUUID()}`;
}

/** Reads a field of an SDK object, or `undefined` when the object is not one. */
export function fieldOf(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** A field that is a string, else `undefined`. */
export function stringOf(value: unknown, key: string): string | undefined {
  const found = fieldOf(value, key);
  return typeof found === "string" ? found : undefined;
}
