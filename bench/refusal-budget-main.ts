import { addPeakMemory, type BudgetRow, runRefusalBudget, SIZES } from "./refusal-budget.js";

/**
 * `node bench-dist/bench/refusal-budget-main.js [--quick] [--json] [--only <shape> <bytes>]`:
 * the refusal-budget sweep on its own (`--only` measures one shape at one size).
 */
const argv = process.argv.slice(2);
const quick = argv.includes("--quick");
const only = argv.indexOf("--only");
const rows: BudgetRow[] =
  only >= 0
    ? addPeakMemory(await runRefusalBudget([Number(argv[only + 2])], 200, [argv[only + 1]!]))
    : addPeakMemory(await runRefusalBudget(quick ? SIZES.slice(0, 3) : SIZES, quick ? 20 : 200));
if (argv.includes("--json")) {
  console.log(JSON.stringify(rows));
} else {
  for (const row of rows) {
    const peak = row.validPeakMiB === undefined ? "" : `  peak ${row.validPeakMiB.toFixed(0)} -> ${row.invalidPeakMiB!.toFixed(0)} MiB`;
    console.log(
      `${row.shape.padEnd(12)} ${String(row.bytes).padStart(9)} B  valid ${row.validMs.toFixed(2)} ms  invalid ${row.invalidMs.toFixed(2)} ms  (${(row.invalidMs / row.validMs).toFixed(2)}x)  block ${row.validBlockMs.toFixed(2)} -> ${row.invalidBlockMs.toFixed(2)} ms${peak}`,
    );
  }
}
