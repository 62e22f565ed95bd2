import { optionalFunction } from "../../options.js";
import { rememberStreamDialect, type StreamDialect } from "../../streaming/call-dialect.js";
import type { ToolCallDelta } from "../../types.js";
import { type ProviderName, ProviderFormatError } from "../errors.js";

/** Options of an adapter's `deltas(stream, options)`. */
export interface DeltasOptions<TEvent> {
  /**
   * Called with every event of the SDK's stream as it passes, before its deltas are yielded:
   * the model's text, its reasoning, usage, and the tool calls' own events. The adapter reads
   * the tool calls and lets everything else through here, so nothing is swallowed.
   */
  onEvent?: ((event: TEvent) => void) | undefined;
}

/** What a stream reader needs of its adapter: names, and what the adapter's `call()` does with a call's text. */
export interface DeltaContext {
  /** The registry name behind a provider's tool name. */
  registryName(providerName: string): string;
  /** Told to the stream dispatcher with each call's first delta. */
  readonly dialect: StreamDialect;
  /** The registry's `maxArgumentBytes`: an adapter keeps no more of a call's text than that (a longer text is refused all the same). */
  readonly maxArgumentBytes: number;
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

/**
 * The ids of one stream's calls. `dispatchStream` knows a call by its id alone, so a second call
 * sent with an id already taken would be read as more of the first, and vanish: each call's id is
 * taken here, and a call whose id is missing or taken gets a stand-in.
 */
export class StreamIds {
  readonly #taken = new Set<string>();

  /** Takes `id` for a call; `false` when an earlier call of the stream has it. */
  take(id: string): boolean {
    if (this.#taken.has(id)) return false;
    this.#taken.add(id);
    return true;
  }

  /**
   * A stand-in id, `base` (made from where the call sits in the stream, such as
   * `anthropic-block-2`), taken for a call whose own id is missing or taken. Should the provider
   * have sent that very id already, `-2`, `-3`… is added.
   */
  standIn(base: string): string {
    let id = base;
    for (let suffix = 2; !this.take(id); suffix++) id = `${base}-${suffix}`;
    return id;
  }
}

/**
 * The delta that fails a call the stream could not give whole (a missing or repeated id, a piece
 * of it lost in an unreadable chunk): it gets its `tool-call-start`, if it had none, and its
 * `tool-result`, a failure with a {@link ProviderFormatError}, whose message names fields, never values.
 * @param toolName the registry name, when the stream named the call's tool
 */
export function failingDelta(context: DeltaContext, provider: ProviderName, toolCallId: string, toolName: string | undefined, problem: string): ToolCallDelta {
  const error = new ProviderFormatError(provider, problem);
  return toolName === undefined ? { toolCallId, error } : namingDelta(context, { toolCallId, toolName, error });
}

/** Why a chunk of the stream could not be read, thrown by the functions that read one and caught by the reader of the stream. */
export class UnreadableChunk {
  constructor(readonly problem: string) {}
}

/**
 * Reads a field of a chunk the reader must understand: `undefined` when absent.
 * @throws UnreadableChunk when `value` is not an object, or its field cannot be read (a throwing getter)
 */
export function chunkField(value: unknown, key: string, what: string): unknown {
  if (typeof value !== "object" || value === null) throw new UnreadableChunk(`${what} is not an object`);
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    throw new UnreadableChunk(`the "${key}" of ${what} could not be read`);
  }
}

/**
 * What `problem` says when the reading of a chunk threw: an {@link UnreadableChunk}'s own words,
 * else (a proxy or getter throwing something else inside the reading) that it could not be read.
 */
export function problemOf(thrown: unknown): string {
  return thrown instanceof UnreadableChunk ? thrown.problem : "a chunk of the stream could not be read";
}

/** Reads a field of an SDK object, or `undefined` when the object is not one or the field cannot be read (a throwing getter). */
export function fieldOf(value: unknown, key: string): unknown {
  if (typeof value !== "object" || value === null) return undefined;
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/** A field that is a string, else `undefined`. */
export function stringOf(value: unknown, key: string): string | undefined {
  const found = fieldOf(value, key);
  return typeof found === "string" ? found : undefined;
}
