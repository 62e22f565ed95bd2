import { probeBehaviour } from "./behaviour.js";
import { runCacheKeyComparison } from "./cache-key.js";
import { runCacheSweep } from "./cache-sweep.js";
import { runColdStart } from "./cold-start.js";
import { runColdStartRatio } from "./cold-start-ratio.js";
import { formatCacheSize } from "./format.js";
import { combineRuns, evaluateGoals } from "./goals.js";
import { GOAL_PROCESSES, measureGoalsInFreshProcesses } from "./goal-runs.js";
import { describeMachine } from "./machine.js";
import { runMcpRoundTrip } from "./mcp-round-trip.js";
import { runMemory } from "./memory.js";
import { runOtelOverhead } from "./otel-overhead.js";
import { runPerCall } from "./per-call.js";
import { buildPopulation } from "./population.js";
import { Progress } from "./progress.js";
import { checkLine, printBehaviour, printCacheKey, printCacheSweep, printColdStart, printMachine, printMcp, printMemory, printPerCall, printStreaming, printSummary, printTracing } from "./report.js";
import { writeResults } from "./results.js";
import { PROBED } from "./rivals/all.js";
import { type BenchSettings, parseSettings, SettingsError } from "./settings.js";
import { runStreaming } from "./streaming.js";

// Run by `npm run bench [-- --quick] [-- --check] [-- --corpus <dir>]`, under node --expose-gc.
const started = performance.now();
const sectionSeconds: Record<string, number> = {};
// On a terminal, one line redrawn in place says how far the run is; elsewhere nothing.
const progress = new Progress();

/** Runs one section, records how long it took, and clears the progress line before its tables are printed. */
async function section<T>(name: string, run: () => T | Promise<T>): Promise<T> {
  const sectionStarted = performance.now();
  try {
    return await run();
  } finally {
    sectionSeconds[name] = (performance.now() - sectionStarted) / 1e3;
    progress.clear();
  }
}

const argv = process.argv.slice(2);
let settings: BenchSettings;
try {
  settings = parseSettings(argv);
} catch (error) {
  if (!(error instanceof SettingsError)) throw error;
  console.error(`npm run bench: ${error.message}`);
  process.exit(2);
}
const machine = describeMachine();
printMachine(machine, settings);

const perCall = await section("per-call", () => runPerCall(settings.perCall, progress));
printPerCall(perCall.groups, settings);
// Timed right after the per-call groups, whose dispatch it compares, before the sections below fill
// the heap and V8's caches with other code and thousands of schemas: timed after them, the full
// collection before each round slowed the round's first batch by a third or more, and the goal's
// spread grew from ±2% to ±15% or more. The fresh processes of --check time it in this order too.
// Its table is printed in its place below.
const tracing = await section("tracing", () => runOtelOverhead(settings.perCall, progress));

const behaviour = await section("behaviour", () => {
  progress.begin("behaviour", 1);
  progress.step(1, "trying each library");
  return probeBehaviour(PROBED);
});
printBehaviour(behaviour);

const mcp = await section("MCP", () => runMcpRoundTrip(settings.perCall, progress));
printMcp(mcp.groups);

const coldStart = await section("cold start", async () => {
  progress.begin("cold start", 2);
  const group = await runColdStartRatio(settings.perCall, progress.measuring(1, "register + first dispatch against Compile"));
  progress.step(2, "registration, compileAll and first calls by number of tools");
  return { group, rows: await runColdStart(settings.coldStartSizes, settings.coldStartRepeats) };
});
printColdStart(coldStart);

const population = buildPopulation(settings.corpusDirectory, settings.populationSize);
const cacheSweep = await section("cache sweep", () => {
  progress.begin("cache sweep", settings.cacheSizes.length);
  return runCacheSweep(population, settings.cacheSizes, settings.sweepCalls, (index, cacheSize) => progress.step(index + 1, `cacheSize ${formatCacheSize(cacheSize)}`));
});
printCacheSweep(cacheSweep);
const cacheKey = await section("cache key", () => {
  progress.begin("cache key", 1);
  progress.step(1, "identity and content keys");
  return runCacheKeyComparison(population, settings.cacheKeyCalls);
});
printCacheKey(cacheKey);

const memory = await section("memory", () => {
  progress.begin("memory", 1);
  progress.step(1, "heap per validator, then churn");
  return runMemory(settings.memorySchemas, settings.churnSchemas, settings.churnCacheSize, settings.churnCheckpoints);
});
printMemory(memory);

const streaming = await section("streaming", () => {
  progress.begin("streaming", 1);
  progress.step(1, "deltas, one push, latency");
  return runStreaming(settings.streaming);
});
printStreaming(streaming, settings);

printTracing(tracing);

let timedGoals = evaluateGoals([...perCall.groups, ...mcp.groups, coldStart.group, tracing]);
let goalProcesses = 1;
// Under --check, fresh processes measure the goals' groups again: a verdict must hold across processes, not only within this one.
if (settings.check && !settings.quick) {
  const reruns = await section("goal re-runs", () => {
    progress.begin("goal re-runs", GOAL_PROCESSES);
    return measureGoalsInFreshProcesses(GOAL_PROCESSES, argv, (index) => progress.step(index + 1, `the goals' groups in fresh process ${index + 1} of ${GOAL_PROCESSES}`));
  });
  timedGoals = combineRuns([timedGoals, ...reruns]);
  goalProcesses += reruns.length;
}
const goals = [...timedGoals, ...streaming.goals];
const durationSeconds = (performance.now() - started) / 1e3;
const files = writeResults({ machine, settings, argv, perCall, mcp, coldStart, behaviour, goals, cacheSweep, cacheKey, memory, streaming, tracing, sectionSeconds, durationSeconds });
printSummary(goals, sectionSeconds, durationSeconds, files, goalProcesses);
if (settings.check) {
  const { line, ok } = checkLine(goals, settings.quick);
  console.log(`\n${line}`);
  if (!ok) process.exitCode = 1;
}
