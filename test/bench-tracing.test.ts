import { trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { otelIdleCases } from "../bench/otel-overhead.js";

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

afterEach(() => {
  exporter.reset();
  trace.disable();
});

/** Spans made by running `id`'s batch of `calls`, after its set-up, with an SDK registered to see them. */
async function spansOfBatch(cases: ReturnType<typeof otelIdleCases>, id: string, calls: number): Promise<number> {
  const benchCase = cases.find((candidate) => candidate.id === id)!;
  exporter.reset();
  benchCase.setUp?.(calls);
  await benchCase.run(calls);
  return exporter.getFinishedSpans().length;
}

describe("bench tracing cases", () => {
  it("time one registry, traced in the batches of the instrumented case only, batch after batch", async () => {
    trace.setGlobalTracerProvider(provider);
    const cases = otelIdleCases();
    expect(cases.map((benchCase) => benchCase.id)).toEqual(["dispatch", "otel-idle"]);
    // Rounds alternate the cases: each batch must find the registry as its case wants it.
    expect(await spansOfBatch(cases, "otel-idle", 3)).toBe(3);
    expect(await spansOfBatch(cases, "dispatch", 3)).toBe(0);
    expect(await spansOfBatch(cases, "otel-idle", 2)).toBe(2);
    expect(await spansOfBatch(cases, "otel-idle", 2)).toBe(2);
    expect(await spansOfBatch(cases, "dispatch", 2)).toBe(0);
  });
});
