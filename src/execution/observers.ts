import type { ToolResult } from "../types.js";

/** One call as an observer sees it. */
export interface ObservedCall {
  /** The call's id. */
  readonly toolCallId: string;
  /** The tool's name as the call gave it. */
  readonly toolName: string;
  /**
   * The checked private copy of the arguments, once the call passed its check (before the
   * handler runs); `undefined` until then, and for a call refused before or at the check.
   */
  readonly arguments: unknown;
  /** The W3C `traceparent` the call arrived with (an envelope's, in `execute`), if any. */
  readonly traceparent: string | undefined;
}

/**
 * Watches every call of a registry, around its whole way (look-up, check, policy, handler):
 * what tracing and metrics integrations (`typebox-tool-registry/otel`) are built on. A registry
 * with no observer pays nothing for them.
 */
export interface CallObserver {
  /**
   * Wraps one call: calls `proceed` once (in whatever context it likes, a span's, say) and
   * returns its result. `proceed` never rejects. An observer that throws or rejects is ignored:
   * the call goes on (or its result stands) without it.
   */
  observe(call: ObservedCall, proceed: () => Promise<ToolResult>): Promise<ToolResult>;
  /** The W3C `traceparent` of the current context, for an envelope to carry; `undefined` for none. */
  traceparent?(): string | undefined;
}

/** The observed call the registry fills in as the call goes on. */
export class CallObservation implements ObservedCall {
  arguments: unknown = undefined;
  constructor(
    readonly toolCallId: string,
    readonly toolName: string,
    readonly traceparent: string | undefined,
  ) {}
}

/**
 * `run` wrapped by each observer in turn, the first outermost. An observer that fails before
 * calling `proceed` is skipped; one that fails after leaves the result `proceed` gave.
 */
export function observed(observers: readonly CallObserver[], call: ObservedCall, run: () => Promise<ToolResult>): Promise<ToolResult> {
  let next = run;
  for (let index = observers.length - 1; index >= 0; index--) {
    const observer = observers[index]!;
    const inner = next;
    next = async () => {
      let started: Promise<ToolResult> | undefined;
      const proceed = (): Promise<ToolResult> => (started ??= inner());
      try {
        return await observer.observe(call, proceed);
      } catch {
        return proceed();
      }
    };
  }
  return next();
}
