import { instrument } from "../src/otel/index.js";
import { ToolRegistry, type ToolCallContent } from "../src/index.js";
import type { TimedGroup } from "./groups.js";
import { type BenchCase, measureInterleaved, type MeasureSettings } from "./measure.js";
import type { Progress } from "./progress.js";
import { fixtures } from "./schemas.js";

/**
 * `dispatch` on the small schema, plain and instrumented with `typebox-tool-registry/otel` while
 * `@opentelemetry/api` is loaded and no SDK is registered (what a library user's service does when
 * tracing is off): the instrumented call must take the plain path. Goal in `GOALS`: at most 1.1x.
 */
export async function runOtelOverhead(settings: MeasureSettings, progress: Progress): Promise<TimedGroup> {
  const title = "small schema, @opentelemetry/api loaded, no SDK registered";
  progress.begin("tracing", 1);
  const timings = await measureInterleaved(otelIdleCases(), settings, progress.measuring(1, title));
  return { id: "small otel", title, timings };
}

/** Plain `dispatch` on the small schema, and the same through a registry instrumented while no SDK is registered. */
export function otelIdleCases(): BenchCase[] {
  const { schema, validArguments } = fixtures.find((fixture) => fixture.size === "small")!;
  const handler = (): number => 1;
  const plain = new ToolRegistry().register({ name: "tool", description: "benchmark tool", parameters: schema }, handler);
  const traced = new ToolRegistry().register({ name: "tool", description: "benchmark tool", parameters: schema }, handler);
  instrument(traced);
  const call: ToolCallContent = { type: "tool_call", id: "call_1", name: "tool", arguments: validArguments };
  return [
    { id: "dispatch", label: "registry.dispatch", run: async (n) => { for (let i = 0; i < n; i++) await plain.dispatch(call); } },
    { id: "otel-idle", label: "instrument(registry), then dispatch", run: async (n) => { for (let i = 0; i < n; i++) await traced.dispatch(call); } },
  ];
}
