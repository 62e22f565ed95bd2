import { mkdirSync, writeFileSync } from "node:fs";
import type { BehaviourRow } from "./behaviour.js";
import type { CacheKeyResult } from "./cache-key.js";
import type { CacheSweepResult } from "./cache-sweep.js";
import { renderChart } from "./chart.js";
import type { ColdStartRow } from "./cold-start.js";
import type { Goal } from "./goals.js";
import type { TimedGroup } from "./groups.js";
import { renderHtmlReport } from "./html-report.js";
import type { MachineInfo } from "./machine.js";
import type { McpResult } from "./mcp-round-trip.js";
import type { MemoryResult } from "./memory.js";
import { repositoryPath } from "./paths.js";
import type { PerCallResult } from "./per-call.js";
import type { BenchSettings } from "./settings.js";
import type { StreamingResult } from "./streaming.js";

/** The cold-start section: start-up costs by number of tools, and the interleaved comparison with a bare `Compile`. */
export interface ColdStartResult {
  readonly rows: readonly ColdStartRow[];
  readonly group: TimedGroup;
}

/** Everything one run measured, as results.json holds it. */
export interface BenchResults {
  readonly machine: MachineInfo;
  readonly settings: BenchSettings;
  /** The command line after `npm run bench --`. */
  readonly argv: readonly string[];
  readonly perCall: PerCallResult;
  readonly mcp: McpResult;
  readonly coldStart: ColdStartResult;
  /** What each library did with the arguments, found by trying. */
  readonly behaviour: readonly BehaviourRow[];
  readonly goals: readonly Goal[];
  readonly cacheSweep: CacheSweepResult;
  readonly cacheKey: CacheKeyResult;
  readonly memory: MemoryResult;
  readonly streaming: StreamingResult;
  /** `instrument(registry)` with no OpenTelemetry SDK registered, against a plain registry. */
  readonly tracing: TimedGroup;
  /** Wall time of each section, in seconds. */
  readonly sectionSeconds: Readonly<Record<string, number>>;
  readonly durationSeconds: number;
}

/**
 * Writes bench/results/results.json, chart.svg and report.html (with a
 * `-quick` suffix for a quick run, so a smoke run never overwrites a real one).
 * @returns the paths written, relative to the repository root
 */
export function writeResults(results: BenchResults): string[] {
  const suffix = results.settings.quick ? "-quick" : "";
  const files = [`bench/results/results${suffix}.json`, `bench/results/chart${suffix}.svg`, `bench/results/report${suffix}.html`] as const;
  mkdirSync(repositoryPath("bench/results"), { recursive: true });
  const json = JSON.stringify(results, (_key, value: unknown) => (value === Infinity ? "Infinity" : value), 2);
  writeFileSync(repositoryPath(files[0]), `${json}\n`);
  writeFileSync(repositoryPath(files[1]), renderChart(results));
  writeFileSync(repositoryPath(files[2]), renderHtmlReport(results));
  return [...files];
}
