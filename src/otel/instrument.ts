import { type Attributes, context, type Histogram, type Meter, type Span, SpanKind, SpanStatusCode, trace, type Tracer } from "@opentelemetry/api";
import {
  ToolAbortedError,
  ToolApprovalError,
  ToolArgumentsValidationError,
  ToolDefinitionError,
  ToolEnvelopeError,
  ToolHookError,
  ToolLedgerError,
  ToolMismatchError,
  ToolNotAllowedError,
  ToolRateLimitedError,
  ToolResultValidationError,
  ToolTimeoutError,
  ToolUnavailableError,
  UnknownToolError,
} from "../errors.js";
import type { CallObserver, ObservedCall } from "../execution/observers.js";
import { describeOption } from "../options.js";
import type { ToolRegistry } from "../registry/registry.js";
import { describeName } from "../text/describe.js";
import type { ToolFailure, ToolResult } from "../types.js";
import { traceparentOf, withTraceparent } from "./trace-context.js";

/** Options of {@link instrument}. */
export interface InstrumentOptions {
  /** The tracer spans are made with. @default the global tracer provider's tracer for this package */
  tracer?: Tracer | undefined;
  /** A meter for the `gen_ai.execute_tool.duration` histogram (seconds); no metric without one. */
  meter?: Meter | undefined;
  /**
   * Whether spans carry the checked arguments as `gen_ai.tool.call.arguments` (JSON text). Never
   * for a call refused at its check. Off by default: arguments may hold personal data.
   */
  recordArguments?: boolean | undefined;
  /**
   * Whether spans of successful calls carry the result as `gen_ai.tool.call.result` (JSON text, a
   * string as is), and the status of a failed handler's span its error's own text (which often
   * repeats arguments: a path, a query). Off by default: the status then says only
   * `Tool "<name>" failed`, with the error's class in `error.type`.
   */
  recordResults?: boolean | undefined;
}

/** The instrumentation scope of the spans and the histogram. */
export const INSTRUMENTATION_SCOPE = "typebox-tool-registry";

/** Bucket boundaries in seconds, as the GenAI conventions advise for operation durations. */
const DURATION_BUCKETS_S = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];

// Where @opentelemetry/api 1.x keeps what is registered globally, shared by every copy of the API
// in the process. Reading it directly spares the API's version check on every call.
const API_GLOBALS = Symbol.for("opentelemetry.js.api.1");

/**
 * Traces every call of `registry` with OpenTelemetry, after the GenAI semantic conventions: a span
 * `execute_tool {gen_ai.tool.name}` (kind internal) around the call's whole way, a child of the
 * caller's active context (or of the trace an envelope carried, in `execute`), with the handler
 * running inside it so that its own spans nest. On failure the span has `error.type` (the error's
 * class) and status ERROR, whose message never holds a handler's own text unless `recordResults`
 * is on (see {@link statusMessage}). Without a `tracer`, while no SDK is registered, calls take the plain
 * path and cost nothing more.
 * @returns a function that stops the tracing
 * @throws TypeError for a registry that is not one, or an option of the wrong kind
 * @example
 * ```ts
 * const stop = instrument(registry, { recordArguments: true });
 * ```
 */
export function instrument(registry: ToolRegistry, options: InstrumentOptions = {}): () => void {
  if (typeof (registry as Partial<ToolRegistry> | null)?.observe !== "function") throw new TypeError(`registry must be a ToolRegistry, got ${describeOption(registry)}`);
  return registry.observe(new ToolCallTracing(checkOptions(options ?? {})));
}

/** The observer behind {@link instrument}: one span per call, one histogram record per call when a meter is given. */
class ToolCallTracing implements CallObserver {
  readonly #tracer: Tracer | undefined;
  readonly #duration: Histogram | undefined;
  readonly #recordArguments: boolean;
  readonly #recordResults: boolean;
  readonly #spans = new WeakMap<ObservedCall, Span>();
  /** Whether it was given a tracer or a meter, and so observes every call whatever is registered globally. */
  readonly #ownTelemetry: boolean;

  constructor(options: InstrumentOptions) {
    this.#tracer = options.tracer;
    this.#duration = options.meter?.createHistogram("gen_ai.execute_tool.duration", {
      description: "Duration of tool execution",
      unit: "s",
      advice: { explicitBucketBoundaries: DURATION_BUCKETS_S },
    });
    this.#recordArguments = options.recordArguments === true;
    this.#recordResults = options.recordResults === true;
    this.#ownTelemetry = this.#tracer !== undefined || this.#duration !== undefined;
  }

  active(): boolean {
    return this.#ownTelemetry || sdkRegistered();
  }

  async observe(call: ObservedCall, proceed: () => Promise<ToolResult>): Promise<ToolResult> {
    const tracer = this.#tracer ?? (sdkRegistered() ? trace.getTracer(INSTRUMENTATION_SCOPE) : undefined);
    const started = performance.now();
    if (tracer === undefined) {
      const result = await proceed();
      this.#record(call, result, started);
      return result;
    }
    const parent = call.traceparent === undefined ? context.active() : withTraceparent(context.active(), call.traceparent);
    const span = tracer.startSpan(call.toolName === "" ? "execute_tool" : `execute_tool ${call.toolName}`, { kind: SpanKind.INTERNAL, attributes: spanAttributes(call) }, parent);
    this.#spans.set(call, span);
    let result: ToolResult | undefined;
    try {
      result = await context.with(trace.setSpan(parent, span), proceed);
      return result;
    } finally {
      if (result !== undefined) this.#finish(span, result);
      span.end();
      if (result !== undefined) this.#record(call, result, started);
    }
  }

  checked(call: ObservedCall): void {
    if (!this.#recordArguments) return;
    const text = jsonText(call.arguments);
    if (text !== undefined) this.#spans.get(call)?.setAttribute("gen_ai.tool.call.arguments", text);
  }

  traceparent(): string | undefined {
    return traceparentOf(context.active());
  }

  #finish(span: Span, result: ToolResult): void {
    if (result.status === "error") {
      span.setAttribute("error.type", result.error.name);
      span.setStatus({ code: SpanStatusCode.ERROR, message: statusMessage(result, this.#recordResults) });
    } else if (result.status === "ok" && this.#recordResults) {
      const text = typeof result.value === "string" ? result.value : jsonText(result.value);
      if (text !== undefined) span.setAttribute("gen_ai.tool.call.result", text);
    }
  }

  #record(call: ObservedCall, result: ToolResult, started: number): void {
    if (this.#duration === undefined) return;
    const attributes: Record<string, string> = call.toolName === "" ? { "gen_ai.operation.name": "execute_tool" } : { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": call.toolName };
    if (result.status === "error") attributes["error.type"] = result.error.name;
    this.#duration.record((performance.now() - started) / 1000, attributes);
  }
}

/**
 * A span's attributes at its start. A call with no tool name (an envelope too malformed to carry
 * one) has no `gen_ai.tool.name`, and its span is named `execute_tool` alone, as the conventions
 * name a span whose tool is not known.
 */
function spanAttributes(call: ObservedCall): Attributes {
  const { toolName, toolCallId } = call;
  if (toolName === "") return { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.call.id": toolCallId, "gen_ai.tool.type": "function" };
  return { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": toolName, "gen_ai.tool.call.id": toolCallId, "gen_ai.tool.type": "function" };
}

/**
 * A tracing observer kept for the life of the module: V8 drops a class's object layouts once no
 * instance of it is left, and with them the optimized code built on them (see
 * `WALK_LAYOUT_KEEPER`). Without it, a registry whose tracing was stopped and started again
 * across a full garbage collection deoptimized `dispatch` at its first call, at the check of
 * its observers.
 */
export const TRACING_LAYOUT_KEEPER: CallObserver = new ToolCallTracing({});

/**
 * Errors whose message is the library's own text: names, limits, schema words and issue lines,
 * never an argument value nor a handler's text. (A handler's failure, `ToolExecutionError`, says
 * what the handler threw; a timeout's and an abort's subclasses do not.)
 */
const OWN_TEXT_ERRORS: ReadonlyArray<abstract new (...args: never[]) => Error> = [
  ToolArgumentsValidationError,
  UnknownToolError,
  ToolNotAllowedError,
  ToolDefinitionError,
  ToolTimeoutError,
  ToolAbortedError,
  ToolResultValidationError,
  ToolApprovalError,
  ToolLedgerError,
  ToolRateLimitedError,
  ToolUnavailableError,
  ToolHookError,
  ToolEnvelopeError,
  ToolMismatchError,
];

/**
 * A failed call's span status message: the error's message when it is the library's own text
 * (or when `recordResults` opted in to the handler's), else `Tool "<name>" failed`: a handler's
 * error text often repeats its arguments, and any other error's text is not the library's to vouch for.
 */
function statusMessage(result: ToolFailure, recordResults: boolean): string {
  const error = result.error;
  if (recordResults || OWN_TEXT_ERRORS.some((type) => error instanceof type)) return error.message;
  return `Tool ${describeName(result.toolName)} failed`;
}

/** Whether a tracer provider is registered in the globals every copy of the API shares (a read that misses costs about 10 ns). */
function globalTracerRegistered(): boolean {
  return (globalThis as { [API_GLOBALS]?: { trace?: unknown } })[API_GLOBALS]?.trace !== undefined;
}

/** What `trace` (the API's `TraceAPI`) holds: the provider it hands out, to which `setGlobalTracerProvider` delegates. */
interface TraceApiInternals {
  _proxyTracerProvider?: { _delegate?: unknown; setDelegate?: unknown };
}

/**
 * Whether a tracer provider (an SDK's) is registered as the global one: asked on every call of an
 * instrumented registry that has no tracer of its own, so it must cost next to nothing while none is.
 *
 * `trace.setGlobalTracerProvider(provider)` makes the API's own proxy provider delegate to
 * `provider`, and `trace.disable()` replaces that proxy with a new one: the current proxy's delegate
 * (two property reads) says whether this copy of the API has a provider. A provider registered
 * through another copy of `@opentelemetry/api` in the process (a peer dependency installed twice)
 * shows only in the globals the copies share, whose read costs more: it is made on every 64th call
 * while neither says so, and on every call once it did (until it no longer does), so such a
 * provider is traced from at most 63 calls after it was registered. An API without that proxy
 * (not 1.x) is asked through the globals on every call.
 */
const sdkRegistered: () => boolean = (() => {
  const api = trace as unknown as TraceApiInternals;
  if (typeof api._proxyTracerProvider?.setDelegate !== "function") return globalTracerRegistered;
  let callsSinceGlobalRead = 0;
  let foreign = false;
  return () => {
    if (api._proxyTracerProvider?._delegate !== undefined) return true;
    if (!foreign && ++callsSinceGlobalRead < 64) return false;
    callsSinceGlobalRead = 0;
    foreign = globalTracerRegistered();
    return foreign;
  };
})();

/** A value's JSON text, or `undefined` when it has none. */
function jsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

function checkOptions(options: InstrumentOptions): InstrumentOptions {
  for (const name of ["recordArguments", "recordResults"] as const) {
    const value = options[name];
    if (value !== undefined && typeof value !== "boolean") throw new TypeError(`${name} must be a boolean, got ${describeOption(value)}`);
  }
  if (options.tracer !== undefined && typeof options.tracer?.startSpan !== "function") throw new TypeError(`tracer must be an OpenTelemetry Tracer, got ${describeOption(options.tracer)}`);
  if (options.meter !== undefined && typeof options.meter?.createHistogram !== "function") throw new TypeError(`meter must be an OpenTelemetry Meter, got ${describeOption(options.meter)}`);
  return options;
}
