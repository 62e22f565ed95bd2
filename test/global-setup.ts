import { execFileSync } from "node:child_process";
import { resolve } from "node:path";

/** Builds dist/ once before any test runs: the packed-package, stdio and no-code-generation tests run it. */
export default function setup(): void {
  execFileSync("npm", ["run", "build", "--silent"], { cwd: resolve(import.meta.dirname, ".."), stdio: "inherit" });
}
