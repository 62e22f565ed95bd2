import { existsSync, readdirSync } from "node:fs";
import type { MeasureSettings } from "./measure.js";
import type { StreamingSettings } from "./streaming.js";

/** What a run measures and how long it takes; `--quick` shrinks everything to a smoke run. */
export interface BenchSettings {
  readonly quick: boolean;
  /** `--check`: exit with status 1 unless every goal is met and the run's spread lets it tell. */
  readonly check: boolean;
  /** A BFCL directory whose tools replace the generated population (`--corpus <dir>`). */
  readonly corpusDirectory: string | undefined;
  readonly perCall: MeasureSettings;
  /** Tool counts of the cold-start section. */
  readonly coldStartSizes: readonly number[];
  /** Repeats of each cold-start timing; the median is reported. */
  readonly coldStartRepeats: number;
  /** Size of the generated tool population of the cache sweep. */
  readonly populationSize: number;
  /** Calls per cache size in the sweep. */
  readonly sweepCalls: number;
  readonly cacheSizes: readonly number[];
  /** Calls per row of the identity-vs-content key comparison. */
  readonly cacheKeyCalls: number;
  /** Distinct schemas compiled to measure heap per validator. */
  readonly memorySchemas: number;
  /** Distinct schemas cycled through the caches of the churn measurement. */
  readonly churnSchemas: number;
  readonly churnCacheSize: number;
  /** Heap samples taken during churn. */
  readonly churnCheckpoints: number;
  /** The streaming section: a call's arguments streamed in small deltas. */
  readonly streaming: StreamingSettings;
}

const FULL: Omit<BenchSettings, "quick" | "check" | "corpusDirectory"> = {
  perCall: { rounds: 28, batchMs: 15, warmupMs: 100 },
  coldStartSizes: [100, 1000],
  coldStartRepeats: 15,
  populationSize: 2000,
  sweepCalls: 100_000,
  cacheSizes: [16, 64, 256, 1024, Infinity],
  cacheKeyCalls: 10_000,
  memorySchemas: 1000,
  churnSchemas: 10_000,
  churnCacheSize: 256,
  churnCheckpoints: 5,
  streaming: { rounds: 15, batchMs: 40, warmupMs: 300, payloadBytes: 100_000 },
};

const QUICK: Omit<BenchSettings, "quick" | "check" | "corpusDirectory"> = {
  perCall: { rounds: 3, batchMs: 2, warmupMs: 10 },
  coldStartSizes: [100],
  coldStartRepeats: 3,
  populationSize: 200,
  sweepCalls: 1000,
  cacheSizes: [16, 64, Infinity],
  cacheKeyCalls: 200,
  memorySchemas: 100,
  churnSchemas: 600,
  churnCacheSize: 256,
  churnCheckpoints: 2,
  streaming: { rounds: 3, batchMs: 2, warmupMs: 10, payloadBytes: 10_000 },
};

const USAGE = "usage: npm run bench -- [--quick] [--check] [--corpus <BFCL directory>]";

/**
 * Reads the command line: `--quick` for a smoke run of a few seconds,
 * `--check` to exit with status 1 when a goal is missed or the run is too noisy to tell,
 * `--corpus <dir>` to sweep the caches over BFCL's tools instead of generated ones.
 * @throws SettingsError with the usage for an unknown flag, or naming a corpus folder that is missing or holds no BFCL files
 */
export function parseSettings(argv: readonly string[]): BenchSettings {
  let quick = false;
  let check = false;
  let corpusDirectory: string | undefined;
  for (let index = 0; index < argv.length; index++) {
    const flag = argv[index];
    if (flag === "--quick") quick = true;
    else if (flag === "--check") check = true;
    else if (flag === "--corpus" && argv[index + 1] !== undefined) corpusDirectory = argv[++index];
    else throw new SettingsError(`unexpected argument ${JSON.stringify(flag)}\n${USAGE}`);
  }
  if (corpusDirectory !== undefined) checkCorpus(corpusDirectory);
  return { quick, check, corpusDirectory, ...(quick ? QUICK : FULL) };
}

/** A command-line mistake: the bench prints its message (one line, no stack) and exits with status 2. */
export class SettingsError extends Error {
  override readonly name = "SettingsError";
}

function checkCorpus(directory: string): void {
  if (!existsSync(directory)) throw new SettingsError(`--corpus: no folder at ${directory} (the BFCL corpus is not part of this repository)`);
  if (!readdirSync(directory).some((file) => /^BFCL_v4_.*\.json$/.test(file))) {
    throw new SettingsError(`--corpus: ${directory} holds no BFCL_v4_*.json files`);
  }
}
