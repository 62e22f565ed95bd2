import { runCacheKeyComparison } from "./cache-key.js";
import { runCacheSweep } from "./cache-sweep.js";
import { runColdStart } from "./cold-start.js";
import { describeMachine } from "./machine.js";
import { runMemory } from "./memory.js";
import { runPerCall } from "./per-call.js";
import { buildPopulation } from "./population.js";
import { checkLine, printCacheKey, printCacheSweep, printColdStart, printMachine, printMemory, printPerCall, printStreaming, printSummary, writeResults } from "./report.js";
import { type BenchSettings, parseSettings, SettingsError } from "./settings.js";
import { runStreaming } from "./streaming.js";

// Run by `npm run bench [-- --quick] [-- --check] [-- --corpus <dir>]`, under node --expose-gc.
const started = performance.now();
const sectionSeconds: Record<string, number> = {};

/** Runs one section and records how long it took. */
async function section<T>(name: string, run: () => T | Promise<T>): Promise<T> {
  const sectionStarted = performance.now();
  const result = await run();
  sectionSeconds[name] = (performance.now() - sectionStarted) / 1e3;
  return result;
}

let settings: BenchSettings;
try {
  settings = parseSettings(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof SettingsError)) throw error;
  console.error(`npm run bench: ${error.message}`);
  process.exit(2);
}
const machine = describeMachine();
printMachine(machine, settings);

const perCall = await section("per-call", () => runPerCall(settings.perCall));
printPerCall(perCall, settings);

const coldStart = await section("cold start", () => runColdStart(settings.coldStartSizes, settings.coldStartRepeats));
printColdStart(coldStart);

const population = buildPopulation(settings.corpusDirectory, settings.populationSize);
const cacheSweep = await section("cache sweep", () => runCacheSweep(population, settings.cacheSizes, settings.sweepCalls));
printCacheSweep(cacheSweep);
const cacheKey = await section("cache key", () => runCacheKeyComparison(population, settings.cacheKeyCalls));
printCacheKey(cacheKey);

const memory = await section("memory", () => runMemory(settings.memorySchemas, settings.churnSchemas, settings.churnCacheSize, settings.churnCheckpoints));
printMemory(memory);

const streaming = await section("streaming", () => runStreaming(settings.streaming));
printStreaming(streaming, settings);

const durationSeconds = (performance.now() - started) / 1e3;
const files = writeResults({ machine, settings, perCall, coldStart, cacheSweep, cacheKey, memory, streaming, sectionSeconds, durationSeconds });
const goals = [...perCall.goals, ...streaming.goals];
printSummary(goals, sectionSeconds, durationSeconds, files);
if (settings.check) {
  const { line, ok } = checkLine(goals, settings.quick);
  console.log(`\n${line}`);
  if (!ok) process.exitCode = 1;
}
