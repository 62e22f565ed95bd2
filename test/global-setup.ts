import { execFileSync } from "node:child_process";
import { resolve } from "node:path";

/**
 * Builds dist/ and bench-dist/ once before any test runs: the packed-package, stdio,
 * no-code-generation and refusal-budget tests run them. Building inside a test file would race
 * the other files.
 */
export default function setup(): void {
  const root = resolve(import.meta.dirname, "..");
  execFileSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit" });
  execFileSync("npx", ["tsc", "-p", "bench/tsconfig.json"], { cwd: root, stdio: "inherit" });
}
