import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { GOALS } from "../../bench/goals.js";
import { goalsOf } from "../../bench/goal-runs.js";
import { REPORT_SECTIONS } from "../../bench/html-report.js";
import { attribute, elementsByTag, parseHtml } from "../support/html.js";

// A smoke run of the benchmark code (`--quick`): it must run and report, not meet any speed goal.
// bench-dist/ was compiled by the global setup.
const root = resolve(import.meta.dirname, "..", "..");

describe("npm run bench -- --quick", () => {
  it("runs every section, prints the goals and the cache figures, and writes its results and its HTML report", () => {
    // The project's own BFCL-dialect fixtures stand in for the corpus, which a clone does not have.
    const output = execFileSync(process.execPath, ["--expose-gc", "bench-dist/bench/main.js", "--quick", "--corpus", "test/fixtures/bfcl"], {
      cwd: root,
      encoding: "utf8",
    });
    for (const heading of ["Per-call cost", "What each library does with the arguments", "MCP server", "Cold start", "Cache sweep", "Cache key", "Memory", "Streaming tool calls", "partial-json", "20-byte delta", "Latency", "Tracing", "Goals"]) {
      expect(output).toContain(heading);
    }
    // Not a terminal: no progress line, no escape codes.
    expect(output).not.toContain("\u001b");
    expect(output).toMatch(/hit rate/);
    expect(output).toContain("Node v");
    expect(output).toContain("distinct BFCL tools from test/fixtures/bfcl");
    const resultsFile = join(root, "bench", "results", "results-quick.json");
    expect(existsSync(resultsFile)).toBe(true);
    const results = JSON.parse(readFileSync(resultsFile, "utf8")) as Record<string, unknown>;
    expect(Object.keys(results)).toEqual(expect.arrayContaining(["machine", "perCall", "mcp", "coldStart", "behaviour", "goals", "memory"]));
    const { document, errors } = parseHtml(readFileSync(join(root, "bench", "results", "report-quick.html"), "utf8"));
    expect(errors).toEqual([]);
    expect(elementsByTag(document, "section").map((section) => attribute(section, "id"))).toEqual(REPORT_SECTIONS.map(([id]) => id));
    expect(elementsByTag(document, "svg")).toHaveLength(1);
    expect(existsSync(join(root, "bench", "results", "chart-quick.svg"))).toBe(true);
  }, 120_000);

  it("with --check, exits with status 1 when a goal is missed or the run is too noisy to trust, and says why", () => {
    execFileSync("npx", ["tsc", "-p", "bench/tsconfig.json"], { cwd: root, stdio: "pipe" });
    // A quick run's few, short rounds cannot tell a close goal: it never passes --check.
    const run = spawnSync(process.execPath, ["--expose-gc", "bench-dist/bench/main.js", "--quick", "--check", "--corpus", "test/fixtures/bfcl"], { cwd: root, encoding: "utf8" });
    expect(run.status).toBe(1);
    // GOALS, and the streaming section's two.
    expect(run.stdout).toMatch(new RegExp(`\\n--check failed: of ${GOALS.length + 2} goals, a --quick run is too short to trust.*\\n$`));
  }, 120_000);

  it("measures the goals' groups again in a fresh process for --check, and writes their goals as one line", () => {
    const run = spawnSync(process.execPath, ["--expose-gc", "bench-dist/bench/goal-run-main.js", "--quick"], { cwd: root, encoding: "utf8" });
    expect(run.status).toBe(0);
    const goals = goalsOf(run.stdout);
    expect(goals.map((goal) => goal.name)).toEqual(GOALS.map((spec) => spec.name));
    expect(goals.every((goal) => Number.isFinite(goal.value) && goal.value > 0)).toBe(true);
  }, 120_000);

  it("says in one line that a missing corpus folder is missing, without a stack trace", () => {
    const run = spawnSync(process.execPath, ["bench-dist/bench/main.js", "--corpus", "no/such/folder"], { cwd: root, encoding: "utf8" });
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toBe("npm run bench: --corpus: no folder at no/such/folder (the BFCL corpus is not part of this repository)");
  }, 60_000);
});

describe("npm run bench:bfcl", () => {
  it("replays the fixtures' answers, prints the share accepted and every refusal's class, and exits with status 0 for no library error", () => {
    const run = spawnSync(process.execPath, ["bench-dist/bench/bfcl-replay-main.js", "--corpus", "test/fixtures/bfcl"], { cwd: root, encoding: "utf8" });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("accepted:              40 of 44 (90.9%)");
    expect(run.stdout).toContain("refused:               4: dataset errors 4, library errors 0");
    expect(run.stdout).toMatch(/\n\s+1 {2}a string outside its enum\n/);
    expect(run.stdout.trimEnd().endsWith("library errors: 0")).toBe(true);
  }, 60_000);

  it("says in one line where it looked when there is no corpus, and exits with status 2", () => {
    const run = spawnSync(process.execPath, ["bench-dist/bench/bfcl-replay-main.js", "--corpus", "no/such/folder"], { cwd: root, encoding: "utf8" });
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toMatch(/^npm run bench:bfcl: no BFCL_v4_\*\.json files at no\/such\/folder/);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
  }, 60_000);
});
