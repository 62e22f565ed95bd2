import { type Context, isSpanContextValid, type SpanContext, trace } from "@opentelemetry/api";

// W3C Trace Context, version 00: version-traceid-parentid-flags, lower-case hex.
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The W3C `traceparent` of the span in `context`, or `undefined` when it holds no valid span. */
export function traceparentOf(context: Context): string | undefined {
  const span = trace.getSpanContext(context);
  if (span === undefined || !isSpanContextValid(span)) return undefined;
  return `00-${span.traceId}-${span.spanId}-${(span.traceFlags & 0xff).toString(16).padStart(2, "0")}`;
}

/**
 * `context` with the remote span a W3C `traceparent` names as its parent; `context` itself when
 * the text is not a valid version-00 `traceparent`.
 */
export function withTraceparent(context: Context, traceparent: string): Context {
  const match = TRACEPARENT.exec(traceparent);
  if (match === null) return context;
  const parent: SpanContext = { traceId: match[1]!, spanId: match[2]!, traceFlags: Number.parseInt(match[3]!, 16), isRemote: true };
  return isSpanContextValid(parent) ? trace.setSpanContext(context, parent) : context;
}
