import type { BehaviourRow } from "./behaviour.js";
import type { CacheKeyResult } from "./cache-key.js";
import type { CacheSweepResult } from "./cache-sweep.js";
import { formatBytes, formatCacheSize, formatCount, formatNs, formatPercent, formatRatio, printTable } from "./format.js";
import { type Goal, verdict } from "./goals.js";
import type { TimedGroup } from "./groups.js";
import type { MachineInfo } from "./machine.js";
import type { MemoryResult } from "./memory.js";
import type { ColdStartResult } from "./results.js";
import { RIVALS } from "./rivals/all.js";
import { COLD_START_COLUMNS, coldStartCells, LATENCY_COLUMNS, latencyRows, PAYLOAD_COLUMNS, payloadRows } from "./tables.js";
import type { BenchSettings } from "./settings.js";
import { type StreamingResult, timingOf } from "./streaming.js";

/** Prints the run's header: the kind of run, the machine, Node and the measured libraries. */
export function printMachine(machine: MachineInfo, settings: BenchSettings): void {
  console.log(`typebox-tool-registry benchmark (${settings.quick ? "quick smoke run: numbers are not meaningful" : "full run"})`);
  console.log(`Machine: ${machine.cpu}, ${machine.cores} cores, ${formatBytes(machine.totalMemoryBytes)} RAM, ${machine.platform}`);
  console.log(`Node ${machine.node} (V8 ${machine.v8})`);
  console.log(`Libraries: ${Object.entries(machine.libraries).map(([name, version]) => `${name} ${version}`).join(", ")}`);
}

/** Prints one table per per-call group. */
export function printPerCall(groups: readonly TimedGroup[], settings: BenchSettings): void {
  const { rounds, batchMs } = settings.perCall;
  section(`1. Per-call cost (median of ${rounds} interleaved rounds of ~${batchMs} ms batches per case; handler () => 1)`);
  console.log("  ± is half the interquartile range of the rounds; the ratio is to the group's first row.");
  console.log("  Each rival runs on the forms it takes: the JSON-text tables hold those that take text.");
  for (const group of groups) {
    printGroup(group);
    const missing = RIVALS.filter((rival) => /object|json/.test(group.id) && !group.timings.some((timing) => timing.id === rival.id));
    if (missing.length > 0) console.log(`  Not here (they take ${group.id.endsWith("json") ? "objects" : "JSON text"} only): ${missing.map((rival) => rival.label).join("; ")}.`);
  }
}

/** Prints what each library did with the arguments. */
export function printBehaviour(rows: readonly BehaviourRow[]): void {
  section("2. What each library does with the arguments (found by trying each, on a small schema)");
  printTable(
    ["library and path", "version", "takes", "wrong type", '"20" for an integer', "unknown key", "handler gets", "values in errors"],
    rows.map((row) => [row.label, row.version, row.form, row.validates === "yes" ? "refused" : "accepted", row.coercion, row.unknownKeys, row.handlerGets, row.valuesInErrors]),
  );
}

/** Prints the MCP round trips. */
export function printMcp(groups: readonly TimedGroup[]): void {
  section("3. MCP server: one tools/call from the SDK's Client over its InMemoryTransport");
  for (const group of groups) printGroup(group);
}

/** Prints the interleaved cold-start comparison, then registration, compileAll and first-call costs. */
export function printColdStart(result: ColdStartResult): void {
  section("4. Cold start (generated tools; schema objects new to the library, none compiled before)");
  printGroup(result.group);
  console.log("");
  printTable(COLD_START_COLUMNS, result.rows.map(coldStartCells));
}

/** Prints the cache-size sweep. */
export function printCacheSweep(result: CacheSweepResult): void {
  section(`5. Cache sweep: ${result.source}, ${formatCount(result.calls)} calls, Zipf s=${result.zipfExponent}, each cache size starts cold`);
  printTable(
    ["cache size", "hit rate", "misses", "evictions", "compile time", "calls/s", "heap held", "args refused"],
    result.rows.map((row) => [
      formatCacheSize(row.cacheSize),
      formatPercent(row.hitRate),
      formatCount(row.misses),
      formatCount(row.evictions),
      formatNs(row.compileMs * 1e6),
      formatCount(row.callsPerSecond),
      formatBytes(row.heapBytes),
      formatCount(row.rejected),
    ]),
  );
}

/** Prints the identity-vs-content key comparison. */
export function printCacheKey(result: CacheKeyResult): void {
  section(`5b. Cache key: ValidatorCache(${result.cacheSize}) over ${formatCount(result.calls)} Zipf calls, get(name, schema).Check(args)`);
  printTable(
    ["schemas and key", "compiles (misses)", "hit rate", "per call"],
    result.rows.map((row) => [row.label, formatCount(row.misses), formatPercent(row.hitRate), formatNs(row.microsecondsPerCall * 1e3)]),
  );
}

/** Prints heap per validator and the churn checkpoints. */
export function printMemory(result: MemoryResult): void {
  section("6. Memory (heapUsed after a full GC)");
  const { perValidator, churn } = result;
  console.log(`  Heap per cached validator (${formatCount(perValidator.schemas)} distinct schemas in an unbounded cache, each compiled and run once):`);
  console.log(`    heap growth / schemas: ${formatBytes(perValidator.growthBytes)}; freed when the cache is dropped: ${formatBytes(perValidator.heldBytes)}`);
  console.log(`\n  Churn: ${formatCount(churn.schemas)} distinct schemas streamed through each cache (heap growth since the start)`);
  printTable(
    ["schemas seen", `cacheSize ${churn.cacheSize}`, "unbounded"],
    churn.checkpoints.map((checkpoint) => [formatCount(checkpoint.schemasSeen), formatBytes(checkpoint.boundedBytes), formatBytes(checkpoint.unboundedBytes)]),
  );
  console.log(`  Of that, held by the cache itself (freed when it is dropped): ${formatBytes(churn.boundedHeldBytes)} bounded, ${formatBytes(churn.unboundedHeldBytes)} unbounded`);
}

/** Prints the streaming figures: each payload's cases, partial-json, one delta's cost, and latency. */
export function printStreaming(result: StreamingResult, settings: BenchSettings): void {
  const { rounds, batchMs } = settings.streaming;
  section(`7. Streaming tool calls (median of ${rounds} interleaved rounds of ~${batchMs} ms batches per case)`);
  console.log("  One call's arguments streamed in deltas of 1 to 64 bytes; the ratio is to one JSON.parse plus compiled check of the whole text.");
  for (const payload of result.payloads) {
    console.log(`\n  ${payload.name}: ${formatCount(payload.bytes)} bytes in ${formatCount(payload.deltas)} deltas`);
    printTable(PAYLOAD_COLUMNS, payloadRows(payload));
    console.log(`  partial-json / stream: ${formatRatio(payload.partialJsonNs / timingOf(payload, "stream").medianNs)}`);
  }
  console.log(`\n  One push of a 20-byte delta: ${formatNs(result.perDeltaNs.insideString)} inside a long string, ${formatNs(result.perDeltaNs.structured)} in structured data`);
  const { latency } = result;
  console.log(`\n  Latency: ${latency.calls} streamed calls, handlers of ${latency.handlerMs} ms, the model streaming for ${latency.streamMs.toFixed(0)} ms`);
  printTable(LATENCY_COLUMNS, latencyRows(latency));
  console.log("\n  Goals");
  printGoals(result.goals);
}

/** Prints the tracing section: dispatch plain and instrumented while no OpenTelemetry SDK is registered. */
export function printTracing(group: TimedGroup): void {
  section("8. Tracing: typebox-tool-registry/otel while tracing is off");
  printGroup(group);
}

/**
 * Prints the goals with the run's timing at the end of the run, and says so
 * when the run is too noisy to trust.
 */
export function printSummary(goals: readonly Goal[], sectionSeconds: Readonly<Record<string, number>>, durationSeconds: number, files: readonly string[], processes = 1): void {
  const { noisy } = verdict(goals);
  const noise = noisy.length === 0 ? "" : `; ${noisy.length} too noisy to trust`;
  section(`Goals: ${goals.filter((goal) => goal.pass).length} of ${goals.length} met${noise}`);
  if (processes > 1) console.log(`\n  Each per-call, MCP, cold-start and tracing goal: the median of ${processes} processes (this run and ${processes - 1} fresh ones), its ± at least half their range.`);
  printGoals(goals);
  if (noisy.length > 0) {
    console.log(
      `\n  This run's spread is too wide to trust ${noisy.length} of its ${goals.length} goals: each is met or missed by less than ` +
        `the ± of its ratio (${noisy.map((goal) => goal.name).join("; ")}). Run it again on a quieter machine.`,
    );
  }
  const sections = Object.entries(sectionSeconds).map(([name, seconds]) => `${name} ${seconds.toFixed(1)} s`);
  console.log(`\n  Run took ${durationSeconds.toFixed(1)} s (${sections.join(", ")})`);
  console.log(`\n  Wrote ${files.join(", ")}`);
}

/** The one line `--check` ends with, and whether the run passed. A `--quick` run never does: it is too short to tell. */
export function checkLine(goals: readonly Goal[], quick = false): { line: string; ok: boolean } {
  const { failed, noisy, ok } = verdict(goals);
  if (ok && !quick) return { line: `--check: all ${goals.length} goals met, each by more than its spread`, ok };
  const reasons = [
    quick ? "a --quick run is too short to trust" : "",
    failed.length > 0 ? `${failed.length} missed` : "",
    noisy.length > 0 ? `${noisy.length} too noisy to trust` : "",
  ].filter((reason) => reason !== "");
  return { line: `--check failed: of ${goals.length} goals, ${reasons.join(", ")}`, ok: false };
}

function printGroup(group: TimedGroup): void {
  console.log(`\n  ${group.title}`);
  const first = group.timings[0]!.medianNs;
  printTable(
    ["case", "per call", "±", "ratio"],
    group.timings.map((timing) => [timing.label, formatNs(timing.medianNs), formatPercent(timing.spread), formatRatio(timing.medianNs / first)]),
  );
}

function printGoals(goals: readonly Goal[]): void {
  printTable(
    ["goal", "measured", "±", "target", "result"],
    goals.map((goal) => [
      goal.name,
      formatRatio(goal.value),
      formatPercent(goal.spread),
      `${goal.comparison === "<=" ? "≤" : "≥"} ${formatRatio(goal.target)}`,
      `${goal.pass ? "PASS" : "FAIL"}${goal.trusted ? "" : " (too noisy to trust)"}`,
    ]),
  );
}

function section(title: string): void {
  console.log(`\n== ${title} ==`);
}
