import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Goal } from "./goals.js";

/**
 * Fresh processes that measure the goals' groups again under `--check`: with the main run, three
 * processes, so that the median holds when one of them disagrees.
 */
export const GOAL_PROCESSES = 2;

/** What a goal run writes before its goals' JSON, on a line of its own (a library may print too). */
export const GOALS_LINE = "goals: ";

const run = promisify(execFile);

/**
 * The goals of the per-call, MCP, cold-start and tracing groups measured in `count` fresh
 * processes, one after another (on a 2-core machine, two at once would time each other).
 * @param argv the bench's own arguments, so that each run measures with the same settings
 * @param onStart told before each process starts (for the progress line)
 * @throws Error when a process fails, runs past 10 minutes, or writes no goals
 */
export async function measureGoalsInFreshProcesses(count: number, argv: readonly string[], onStart: (index: number) => void): Promise<Goal[][]> {
  const script = fileURLToPath(new URL("./goal-run-main.js", import.meta.url));
  const runs: Goal[][] = [];
  for (let index = 0; index < count; index++) {
    onStart(index);
    // A run takes about 40 s; one that has not ended in 10 minutes is stuck (an open handle), not slow.
    const { stdout } = await run(process.execPath, ["--expose-gc", script, ...argv], { maxBuffer: 16 * 1024 * 1024, timeout: 600_000, killSignal: "SIGKILL" });
    runs.push(goalsOf(stdout));
  }
  return runs;
}

/** The goals a goal run wrote. */
export function goalsOf(stdout: string): Goal[] {
  const line = stdout.split("\n").findLast((candidate) => candidate.startsWith(GOALS_LINE));
  if (line === undefined) throw new Error("a goal run wrote no goals");
  return JSON.parse(line.slice(GOALS_LINE.length)) as Goal[];
}
