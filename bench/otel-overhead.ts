import { instrument } from "../src/otel/index.js";
import { ToolRegistry, type ToolCallContent } from "../src/index.js";
import { goal, type Goal } from "./goals.js";
import { type CaseTiming, measureInterleaved, type MeasureSettings } from "./measure.js";
import { fixtures } from "./schemas.js";

/** What the tracing section measured, and its goal. */
export interface OtelOverheadResult {
  readonly timings: readonly CaseTiming[];
  readonly goal: Goal;
}

/** The most an instrumented registry may cost over a plain one while no OpenTelemetry SDK is registered. */
const IDLE_OVER_PLAIN = 1.1;

/**
 * `dispatch` on the small schema, plain and instrumented with `typebox-tool-registry/otel` while
 * `@opentelemetry/api` is loaded and no SDK is registered (what a library user's service does when
 * tracing is off): the instrumented call must take the plain path.
 */
export async function runOtelOverhead(settings: MeasureSettings): Promise<OtelOverheadResult> {
  const { schema, validArguments } = fixtures.find((fixture) => fixture.size === "small")!;
  const handler = (): number => 1;
  const plain = new ToolRegistry().register({ name: "tool", description: "benchmark tool", parameters: schema }, handler);
  const traced = new ToolRegistry().register({ name: "tool", description: "benchmark tool", parameters: schema }, handler);
  instrument(traced);
  const call: ToolCallContent = { type: "tool_call", id: "call_1", name: "tool", arguments: validArguments };
  const timings = await measureInterleaved(
    [
      { id: "dispatch", label: "registry.dispatch", run: async (n) => { for (let i = 0; i < n; i++) await plain.dispatch(call); } },
      { id: "otel-idle", label: "instrumented, no SDK registered", run: async (n) => { for (let i = 0; i < n; i++) await traced.dispatch(call); } },
    ],
    settings,
  );
  const [base, idle] = timings as [CaseTiming, CaseTiming];
  return { timings, goal: goal("otel idle / dispatch, small object", idle.medianNs / base.medianNs, "<=", IDLE_OVER_PLAIN, idle.spread + base.spread) };
}

/** Prints the section's table. */
export function printOtelOverhead(result: OtelOverheadResult): void {
  console.log("\n== Tracing: typebox-tool-registry/otel with @opentelemetry/api loaded and no SDK registered ==");
  for (const timing of result.timings) console.log(`  ${timing.label.padEnd(36)} ${timing.medianNs.toFixed(0).padStart(6)} ns  ±${(timing.spread * 100).toFixed(1)}%`);
  console.log(`  ratio ${result.goal.value.toFixed(3)}x (goal <= ${result.goal.target}x)`);
}
