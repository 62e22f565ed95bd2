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
  /**
   * Told the moment a call's arguments passed their check, before its handler runs (and before
   * the handler can change its private copy): `call.arguments` is set. What it throws is ignored.
   */
  checked?(call: ObservedCall): void;
  /**
   * Whether it observes calls now. A registry whose observers all say no takes the plain path,
   * at no cost: an OpenTelemetry observer says no while no SDK is registered. Asked on every
   * call, so it must be cheap. Always yes when absent.
   */
  active?(): boolean;
  /** The W3C `traceparent` of the current context, for an envelope to carry; `undefined` for none. */
  traceparent?(): string | undefined;
}

/** The observed call the registry fills in as the call goes on. */
export class CallObservation implements ObservedCall {
  #arguments: unknown = undefined;
  #observers: readonly CallObserver[] = [];

  constructor(
    readonly toolCallId: string,
    readonly toolName: string,
    readonly traceparent: string | undefined,
  ) {}

  get arguments(): unknown {
    return this.#arguments;
  }

  /** Set once the arguments passed their check: each observer's `checked` hears of it. */
  set arguments(value: unknown) {
    this.#arguments = value;
    for (const observer of this.#observers) {
      try {
        observer.checked?.(this);
      } catch {
        // An observer's failure never reaches the call.
      }
    }
  }

  /** The observers told of the check. */
  watchedBy(observers: readonly CallObserver[]): void {
    this.#observers = observers;
  }
}

/** Whether any of `observers` observes calls now (see {@link CallObserver.active}). */
export function observing(observers: readonly CallObserver[]): boolean {
  // An indexed loop: asked on every call, inlined into dispatch inside its try block, where a for-of measured slower.
  for (let index = 0; index < observers.length; index++) {
    const observer = observers[index]!;
    if (observer.active === undefined) return true;
    try {
      if (observer.active()) return true;
    } catch {
      // An observer that cannot say is not observing.
    }
  }
  return false;
}

/** The first W3C `traceparent` an observer gives for the current context, if any. */
export function observersTraceparent(observers: readonly CallObserver[]): string | undefined {
  for (const observer of observers) {
    try {
      const traceparent = observer.traceparent?.();
      if (typeof traceparent === "string") return traceparent;
    } catch {
      // An observer's failure never reaches the call.
    }
  }
  return undefined;
}

/**
 * `run` wrapped by each observer in turn, the first outermost. An observer that fails before
 * calling `proceed` is skipped; one that fails after leaves the result `proceed` gave.
 */
export function observed(observers: readonly CallObserver[], call: CallObservation, run: () => Promise<ToolResult>): Promise<ToolResult> {
  call.watchedBy(observers);
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
