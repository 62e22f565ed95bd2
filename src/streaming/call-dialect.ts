import type { ModelNames } from "../text/model-names.js";
import type { ArgumentsOf } from "./argument-reader.js";

/** What a provider adapter knows about the calls of its stream, beyond the deltas' own fields. */
export interface StreamDialect {
  /** The names the model was sent, so that text for the model names tools as it knows them. */
  readonly names: ModelNames | undefined;
  /** What the adapter's `call()` would give dispatch for a call's complete text (OpenAI strict mode drops nulls). */
  readonly argumentsOf: ArgumentsOf | undefined;
}

// The first delta of each call an adapter read, and that adapter's dialect. A WeakMap, so that
// nothing is added to the delta object (a copy of it is a plain delta again) and nothing is kept alive.
const dialects = new WeakMap<object, StreamDialect>();

/** Records that the call `delta` starts was read by an adapter with this dialect. */
export function rememberStreamDialect(delta: object, dialect: StreamDialect): void {
  dialects.set(delta, dialect);
}

/** The dialect of the adapter that read the call `delta` starts, if one was recorded. */
export function streamDialectOf(delta: object): StreamDialect | undefined {
  return dialects.get(delta);
}
