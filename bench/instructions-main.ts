// Run by `npm run bench:instructions`: the speed goals' ratios in instructions per call, counted by
// valgrind's callgrind (Debian package `valgrind`), two processes per case. About 15 minutes on 2 cores.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { GOALS } from "./goals.js";
import { INSTRUCTION_GROUPS } from "./instruction-groups.js";
import { caseKey, collectedInstructions, type InstructionCount, instructionGoals, instructionsPerCall, printInstructionGoals } from "./instructions.js";
import { describeMachine } from "./machine.js";
import { repositoryPath } from "./paths.js";

interface Job {
  readonly group: string;
  readonly id: string;
  readonly calls: number;
}

const version = spawnSync("valgrind", ["--version"], { encoding: "utf8" });
if (version.error !== undefined || version.status !== 0) {
  console.error("npm run bench:instructions counts instructions with valgrind, which is not installed (Debian: apt-get install valgrind).");
  process.exit(1);
}

const driver = fileURLToPath(new URL("./instruction-driver.js", import.meta.url));
const jobs: Job[] = [];
for (const group of INSTRUCTION_GROUPS) {
  const available = new Set(group.cases().map((benchCase) => benchCase.id));
  const ids = new Set(GOALS.filter((spec) => spec.group === group.id && available.has(spec.numerator) && available.has(spec.denominator)).flatMap((spec) => [spec.numerator, spec.denominator]));
  for (const id of ids) for (const calls of group.calls) jobs.push({ group: group.id, id, calls });
}

/** The valgrind processes running now: stopped if one job fails, rather than left to run for minutes. */
const running = new Set<ChildProcess>();

/** Runs one case's calls under callgrind (single-threaded, so that the count repeats) and reads its count. */
function count(job: Job): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      "valgrind",
      ["--tool=callgrind", "--callgrind-out-file=/dev/null", process.execPath, "--single-threaded", driver, job.group, job.id, String(job.calls)],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    running.add(child);
    let report = "";
    child.stderr.setEncoding("utf8").on("data", (text: string) => (report += text));
    child.on("error", reject);
    child.on("close", (code) => {
      running.delete(child);
      const instructions = collectedInstructions(report);
      if (code === 0 && instructions !== undefined) resolve(instructions);
      else reject(new Error(`${caseKey(job.group, job.id)} with ${job.calls} calls failed (exit ${String(code)}):\n${report.slice(-2000)}`));
    });
  });
}

const started = performance.now();
const counts = new Map<string, InstructionCount[]>();
let next = 0;
let done = 0;
async function worker(): Promise<void> {
  while (next < jobs.length) {
    const job = jobs[next++]!;
    const instructions = await count(job);
    const key = caseKey(job.group, job.id);
    counts.set(key, [...(counts.get(key) ?? []), { calls: job.calls, instructions }]);
    done++;
    if (process.stderr.isTTY) process.stderr.write(`\r  counted ${done} of ${jobs.length} (${key}, ${job.calls} calls)\x1b[K`);
  }
}
try {
  await Promise.all(Array.from({ length: Math.max(1, Math.min(availableParallelism(), jobs.length)) }, worker));
} catch (error) {
  for (const child of running) child.kill("SIGKILL");
  throw error;
}
if (process.stderr.isTTY) process.stderr.write("\r\x1b[K");

const perCall = new Map<string, number>();
for (const [key, pair] of counts) {
  const [fewer, more] = [...pair].sort((left, right) => left.calls - right.calls);
  perCall.set(key, instructionsPerCall(fewer!, more!));
}
const goals = instructionGoals(perCall);
const machine = describeMachine();
console.log(`\n== Speed goals in instructions per call (${machine.cpu}, ${machine.cores} cores, Node ${machine.node}, ${version.stdout.trim()}) ==\n`);
printInstructionGoals(goals);
console.log("\n  Instructions are not time (the goals are met in time, by npm run bench), but they repeat within a few percent where timings on a shared machine spread by 20% to 40%.");
const directory = repositoryPath("bench/results");
mkdirSync(directory, { recursive: true });
writeFileSync(`${directory}/instructions.json`, `${JSON.stringify({ machine, valgrind: version.stdout.trim(), perCall: Object.fromEntries(perCall), goals }, null, 2)}\n`);
console.log(`\n  Took ${((performance.now() - started) / 1000).toFixed(0)} s. Wrote bench/results/instructions.json`);
