import { context, type Meter, type Tracer, trace, SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { AggregationTemporality, MeterProvider, MetricReader, type Histogram as HistogramPoint } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { instrument } from "../src/otel/index.js";
import { ToolRegistry, Type, type ToolContext } from "../src/index.js";

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer: Tracer = provider.getTracer("test");
const contextManager = new AsyncLocalStorageContextManager();

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
});
afterAll(() => {
  context.disable();
  trace.disable();
});
afterEach(() => {
  exporter.reset();
  trace.disable();
});

/** A reader the test collects from when it likes. */
class TestReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const lookup = { name: "lookup", description: "Look a city up", parameters: Type.Object({ city: Type.String() }) };

function tracedRegistry(options: Parameters<typeof instrument>[1] = { tracer }, handler = (args: { city: string }, _context: ToolContext): unknown => `sunny in ${args.city}`): ToolRegistry {
  const registry = new ToolRegistry().register(lookup, handler);
  instrument(registry, options);
  return registry;
}

function finished(): ReadableSpan[] {
  return exporter.getFinishedSpans();
}

function spanNamed(name: string): ReadableSpan {
  const span = finished().find((candidate) => candidate.name === name);
  if (span === undefined) throw new Error(`no span named ${name}: ${finished().map((candidate) => candidate.name).join(", ")}`);
  return span;
}

describe("instrument", () => {
  it("makes one execute_tool span per call with the GenAI attributes", async () => {
    await tracedRegistry().dispatch({ id: "call_1", name: "lookup", arguments: { city: "Oslo" } });
    const span = spanNamed("execute_tool lookup");
    expect(span.kind).toBe(SpanKind.INTERNAL);
    expect(span.attributes).toEqual({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "lookup",
      "gen_ai.tool.call.id": "call_1",
      "gen_ai.tool.type": "function",
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it("makes the span a child of the caller's active span", async () => {
    const registry = tracedRegistry();
    await tracer.startActiveSpan("agent turn", async (turn) => {
      await registry.dispatchAll([{ id: "1", name: "lookup", arguments: { city: "Oslo" } }]);
      turn.end();
    });
    const turn = spanNamed("agent turn");
    const tool = spanNamed("execute_tool lookup");
    expect(tool.spanContext().traceId).toBe(turn.spanContext().traceId);
    expect(tool.parentSpanContext?.spanId).toBe(turn.spanContext().spanId);
  });

  it("runs the handler inside the span, so that the handler's own spans nest under it", async () => {
    const registry = tracedRegistry({ tracer }, async (args) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return tracer.startActiveSpan("fetch forecast", (span) => {
        span.end();
        return args.city;
      });
    });
    await registry.dispatch({ id: "1", name: "lookup", arguments: { city: "Oslo" } });
    expect(spanNamed("fetch forecast").parentSpanContext?.spanId).toBe(spanNamed("execute_tool lookup").spanContext().spanId);
  });

  it("marks a failed call with error.type and status ERROR", async () => {
    const registry = tracedRegistry({ tracer }, () => {
      throw new Error("upstream down");
    });
    await registry.dispatchAll([{ id: "1", name: "lookup", arguments: { city: "Oslo" } }]);
    const span = spanNamed("execute_tool lookup");
    expect(span.attributes["error.type"]).toBe("ToolExecutionError");
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Tool "lookup" failed' });
  });

  it("keeps a handler's error text, which may repeat its arguments, out of the status unless recordResults is on", async () => {
    const failing = async ({ city }: { city: string }) => {
      throw new Error(`ENOENT: no such file or directory, open '/home/alice/${city}.pdf'`);
    };
    await tracedRegistry({ tracer }, failing).dispatchAll([{ id: "1", name: "lookup", arguments: { city: "diagnosis" } }]);
    await tracedRegistry({ tracer, recordResults: true }, failing).dispatchAll([{ id: "2", name: "lookup", arguments: { city: "diagnosis" } }]);
    const [plain, recorded] = finished();
    expect(plain!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Tool "lookup" failed' });
    expect(JSON.stringify([plain!.attributes, plain!.status, plain!.events])).not.toContain("diagnosis");
    expect(recorded!.status.message).toBe(`Tool "lookup" failed: ENOENT: no such file or directory, open '/home/alice/diagnosis.pdf'`);
  });

  it("keeps the library's own messages in the status: a refusal's issues, a timeout", async () => {
    await tracedRegistry({ tracer }).dispatchAll([{ id: "1", name: "lookup", arguments: { city: 7 } }]);
    const slow = new ToolRegistry({ timeoutMs: 5 }).register(lookup, () => new Promise(() => undefined));
    instrument(slow, { tracer });
    await slow.dispatchAll([{ id: "2", name: "lookup", arguments: { city: "Oslo" } }]);
    const [refused, timedOut] = finished();
    expect(refused!.status.message).toBe('Invalid arguments for tool "lookup":\n  - /city: must be string');
    expect(timedOut!.status.message).toMatch(/^Tool "lookup" timed out after 5 ms/);
  });

  it("traces a refused call too, and never records its arguments", async () => {
    const registry = tracedRegistry({ tracer, recordArguments: true });
    await registry.dispatchAll([{ id: "1", name: "lookup", arguments: { city: 7 } }]);
    const span = spanNamed("execute_tool lookup");
    expect(span.attributes["error.type"]).toBe("ToolArgumentsValidationError");
    expect(span.attributes).not.toHaveProperty("gen_ai.tool.call.arguments");
  });

  it("records arguments and results only when asked", async () => {
    await tracedRegistry().dispatch({ id: "1", name: "lookup", arguments: { city: "Oslo" } });
    await tracedRegistry({ tracer, recordArguments: true, recordResults: true }).dispatch({ id: "2", name: "lookup", arguments: { city: "Rome" } });
    const [plain, recorded] = finished();
    expect(plain!.attributes).not.toHaveProperty("gen_ai.tool.call.arguments");
    expect(plain!.attributes).not.toHaveProperty("gen_ai.tool.call.result");
    expect(recorded!.attributes["gen_ai.tool.call.arguments"]).toBe('{"city":"Rome"}');
    expect(recorded!.attributes["gen_ai.tool.call.result"]).toBe("sunny in Rome");
  });

  it("records the arguments as checked, before the handler could change them", async () => {
    const registry = tracedRegistry({ tracer, recordArguments: true }, (args) => {
      args.city = "changed";
      return 1;
    });
    await registry.dispatch({ id: "1", name: "lookup", arguments: { city: "Oslo" } });
    expect(spanNamed("execute_tool lookup").attributes["gen_ai.tool.call.arguments"]).toBe('{"city":"Oslo"}');
  });

  it("uses the global tracer provider when no tracer is given", async () => {
    trace.setGlobalTracerProvider(provider);
    await tracedRegistry({}).dispatch({ id: "1", name: "lookup", arguments: { city: "Oslo" } });
    expect(spanNamed("execute_tool lookup").instrumentationScope.name).toBe("typebox-tool-registry");
  });

  it("takes the plain path while no SDK is registered, and traces once one is", async () => {
    const registry = tracedRegistry({});
    expect(await registry.dispatch({ id: "1", name: "lookup", arguments: { city: "Oslo" } })).toBe("sunny in Oslo");
    expect(finished()).toEqual([]);
    trace.setGlobalTracerProvider(provider);
    await registry.dispatch({ id: "2", name: "lookup", arguments: { city: "Oslo" } });
    expect(finished().map((span) => span.name)).toEqual(["execute_tool lookup"]);
  });

  it("traces a provider registered through another copy of the API within 64 calls, and every call after, until it is gone", async () => {
    const registry = tracedRegistry({});
    const call = { id: "1", name: "lookup", arguments: { city: "Oslo" } };
    // What another copy of @opentelemetry/api 1.x does on registration: the provider in the globals the copies share, not in this copy's proxy.
    const globals = (globalThis as Record<symbol, Record<string, unknown> | undefined>)[Symbol.for("opentelemetry.js.api.1")]!;
    globals.trace = provider;
    try {
      for (let index = 0; index < 64; index++) await registry.dispatch(call);
      expect(finished().length).toBeGreaterThan(0);
      exporter.reset();
      await registry.dispatch(call);
      expect(finished()).toHaveLength(1);
    } finally {
      delete globals.trace;
    }
    exporter.reset();
    await registry.dispatch(call);
    expect(finished()).toEqual([]);
  });

  it("stops tracing when the returned function is called", async () => {
    const registry = new ToolRegistry().register(lookup, () => 1);
    const stop = instrument(registry, { tracer });
    stop();
    await registry.dispatch({ id: "1", name: "lookup", arguments: { city: "Oslo" } });
    expect(finished()).toEqual([]);
  });

  it("records the gen_ai.execute_tool.duration histogram in seconds when a meter is given", async () => {
    const reader = new TestReader();
    const meter: Meter = new MeterProvider({ readers: [reader] }).getMeter("test");
    const registry = tracedRegistry({ meter }, (args) => {
      if (args.city === "") throw new Error("no city");
      return args.city;
    });
    await registry.dispatchAll([
      { id: "1", name: "lookup", arguments: { city: "Oslo" } },
      { id: "2", name: "lookup", arguments: { city: "" } },
    ]);
    const { resourceMetrics } = await reader.collect();
    const metric = resourceMetrics.scopeMetrics[0]!.metrics[0]!;
    expect(metric.descriptor).toMatchObject({ name: "gen_ai.execute_tool.duration", unit: "s" });
    const points = metric.dataPoints.map((point) => ({ attributes: point.attributes, count: (point.value as HistogramPoint).count }));
    expect(points).toEqual([
      { attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup" }, count: 1 },
      { attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup", "error.type": "ToolExecutionError" }, count: 1 },
    ]);
    expect((metric.dataPoints[0]!.value as HistogramPoint).sum).toBeLessThan(1);
  });

  it("puts the active span's traceparent in an envelope, and continues that trace where the envelope runs", async () => {
    const sender = tracedRegistry();
    const worker = tracedRegistry();
    const envelope = await tracer.startActiveSpan("agent turn", async (turn) => {
      const made = await sender.envelope({ id: "1", name: "lookup", arguments: { city: "Oslo" } });
      turn.end();
      return made;
    });
    const turn = spanNamed("agent turn").spanContext();
    expect(envelope.traceparent).toBe(`00-${turn.traceId}-${turn.spanId}-01`);
    await worker.execute(JSON.parse(JSON.stringify(envelope)));
    const tool = spanNamed("execute_tool lookup");
    expect(tool.spanContext().traceId).toBe(turn.traceId);
    expect(tool.parentSpanContext).toMatchObject({ spanId: turn.spanId, isRemote: true });
  });

  it("traces an envelope the worker refuses before running it, in the sender's trace, with the refusal's class", async () => {
    const sender = tracedRegistry();
    const otherSchema = new ToolRegistry().register({ ...lookup, parameters: Type.Object({ city: Type.String(), country: Type.Optional(Type.String()) }) }, () => "never");
    instrument(otherSchema, { tracer });
    const envelope = await tracer.startActiveSpan("agent turn", async (turn) => {
      const made = await sender.envelope({ id: "1", name: "lookup", arguments: { city: "Oslo" } });
      turn.end();
      return made;
    });
    const turn = spanNamed("agent turn").spanContext();
    const refusals = [
      await otherSchema.execute(envelope),
      await tracedRegistry().execute({ ...envelope, arguments: { city: "Bergen" } }),
      await tracedRegistry().execute({ ...envelope, v: 2 } as never),
    ];
    expect(refusals.map((result) => result.status === "error" && result.error.name)).toEqual(["ToolMismatchError", "ToolEnvelopeError", "ToolEnvelopeError"]);
    const spans = finished().filter((span) => span.name === "execute_tool lookup");
    expect(spans.map((span) => [span.attributes["error.type"], span.status.code, span.spanContext().traceId, span.parentSpanContext?.spanId])).toEqual([
      ["ToolMismatchError", SpanStatusCode.ERROR, turn.traceId, turn.spanId],
      ["ToolEnvelopeError", SpanStatusCode.ERROR, turn.traceId, turn.spanId],
      ["ToolEnvelopeError", SpanStatusCode.ERROR, turn.traceId, turn.spanId],
    ]);
    expect(spans.every((span) => span.attributes["gen_ai.tool.call.id"] === "1")).toBe(true);
  });

  it("traces an envelope that runs past its deadline as the timeout it is, as a local time limit is traced", async () => {
    const slow = (): Promise<string> => new Promise((resolve) => setTimeout(() => resolve("late"), 200));
    const make = (): ToolRegistry => {
      const registry = new ToolRegistry().register(lookup, slow, { timeoutMs: 30 });
      instrument(registry, { tracer });
      return registry;
    };
    const envelope = await make().envelope({ id: "1", name: "lookup", arguments: { city: "Oslo" } });
    const result = await make().execute(envelope);
    expect(result).toMatchObject({ status: "error", error: { name: "ToolTimeoutError" } });
    const span = spanNamed("execute_tool lookup");
    expect([span.attributes["error.type"], span.status.code, span.status.message]).toEqual(["ToolTimeoutError", SpanStatusCode.ERROR, result.status === "error" ? result.error.message : ""]);
  });

  it("names the span of an envelope too malformed to carry a tool name execute_tool alone, with no tool name", async () => {
    const result = await tracedRegistry().execute({ v: 1, toolCallId: "9" } as never);
    expect(result.status === "error" && result.error.name).toBe("ToolEnvelopeError");
    const span = finished().find((candidate) => candidate.attributes["gen_ai.tool.call.id"] === "9")!;
    expect([span.name, span.attributes["gen_ai.tool.name"], span.attributes["error.type"]]).toEqual(["execute_tool", undefined, "ToolEnvelopeError"]);
  });

  it("traces a call envelope() refuses here, before anything is sent, without its arguments", async () => {
    const sender = tracedRegistry({ tracer, recordArguments: true });
    await expect(sender.envelope({ id: "7", name: "lookup", arguments: { city: 7 } })).rejects.toThrow(/Invalid arguments for tool "lookup"/);
    await expect(sender.envelope({ id: "8", name: "look_up", arguments: { city: "Oslo" } })).rejects.toThrow(/Unknown tool/);
    await new Promise((resolve) => setImmediate(resolve));
    expect(finished().map((span) => [span.name, span.attributes["gen_ai.tool.call.id"], span.attributes["error.type"], span.attributes["gen_ai.tool.call.arguments"]])).toEqual([
      ["execute_tool lookup", "7", "ToolArgumentsValidationError", undefined],
      ["execute_tool look_up", "8", "UnknownToolError", undefined],
    ]);
    await sender.envelope({ id: "9", name: "lookup", arguments: { city: "Oslo" } });
    await new Promise((resolve) => setImmediate(resolve));
    expect(finished()).toHaveLength(2);
  });

  it("carries no traceparent when no span is active", async () => {
    expect((await tracedRegistry().envelope({ id: "1", name: "lookup", arguments: { city: "Oslo" } })).traceparent).toBeUndefined();
  });

  it("ignores a malformed traceparent and parents the span on the active context", async () => {
    const registry = tracedRegistry();
    const envelope = await registry.envelope({ id: "1", name: "lookup", arguments: { city: "Oslo" } });
    await registry.execute({ ...envelope, traceparent: "00-not-a-trace" });
    expect(spanNamed("execute_tool lookup").parentSpanContext).toBeUndefined();
  });

  it.each([
    ["registry", () => instrument({} as ToolRegistry)],
    ["recordArguments", () => instrument(new ToolRegistry(), { recordArguments: "yes" as never })],
    ["tracer", () => instrument(new ToolRegistry(), { tracer: {} as Tracer })],
  ])("throws a TypeError naming a bad %s", (name, make) => {
    expect(make).toThrow(new RegExp(`^${name} must be`));
  });
});
