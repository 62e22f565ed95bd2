import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { BudgetRow } from "../../bench/refusal-budget.js";

// The cost of refusing a call is bounded by a small multiple of accepting a call of the same
// size: at most 5x the time, the event loop held at most 5x as long as a valid call takes, and at
// most 2x the peak memory. Measured on dist-free sources compiled into bench-dist/ (global setup),
// in a child process, over schema shapes (plain, $ref, record, contains, tuple, anyOf items,
// uniqueItems) and sizes from 1 KB to just under 16 MiB. On a shared machine one measurement can
// be disturbed (a call of 1 KB takes microseconds, and a compilation or a collection in its window
// can triple it): a case over a limit is measured again, in a fresh process, up to twice more, and
// fails only if it is over every time.
const REMEASUREMENTS = 2;
const root = resolve(import.meta.dirname, "..", "..");
const MAX_TIME_RATIO = 5;
const MAX_MEMORY_RATIO = 2;

function measure(...args: string[]): BudgetRow[] {
  const output = execFileSync(process.execPath, ["--expose-gc", "bench-dist/bench/refusal-budget-main.js", "--json", ...args], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(output) as BudgetRow[];
}

function overBudget(row: BudgetRow): string[] {
  const problems: string[] = [];
  if (row.invalidMs > MAX_TIME_RATIO * row.validMs) problems.push(`time ${(row.invalidMs / row.validMs).toFixed(2)}x`);
  if (row.invalidBlockMs > MAX_TIME_RATIO * row.validMs) problems.push(`event loop held ${(row.invalidBlockMs / row.validMs).toFixed(2)}x the valid time`);
  if (row.validPeakMiB !== undefined && row.invalidPeakMiB! > MAX_MEMORY_RATIO * row.validPeakMiB) problems.push(`memory ${(row.invalidPeakMiB! / row.validPeakMiB).toFixed(2)}x`);
  return problems;
}

describe("the refusal budget", () => {
  it("refuses every shape at every size within 5x the time and 2x the memory of accepting", () => {
    const rows = measure();
    expect(rows.map((row) => row.shape)).toEqual(expect.arrayContaining(["plain", "$ref", "record", "contains", "tuple", "anyOf items", "uniqueItems"]));
    expect(Math.max(...rows.map((row) => row.bytes))).toBeGreaterThan(15_000_000);
    const failures: string[] = [];
    for (const row of rows) {
      let problems = overBudget(row);
      for (let attempt = 0; problems.length > 0 && attempt < REMEASUREMENTS; attempt++) {
        const [again] = measure("--only", row.shape, String(row.bytes));
        problems = overBudget(again!);
      }
      if (problems.length > 0) failures.push(`${row.shape} at ${row.bytes} bytes: ${problems.join(", ")}`);
    }
    expect(failures).toEqual([]);
  }, 900_000);
});
