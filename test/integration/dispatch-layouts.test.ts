import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// V8 drops a class's object layouts when no instance is left, and discards the optimized code built
// on them. The classes a guarded call and a refusal make (the call's stop, its caller's fan-out and
// context, the explanation's walk, the hasher, the error) keep one instance each for the life of
// their module, so that calls after a full garbage collection run on the code of the calls before.
// Each function is optimized on demand (V8's natives syntax), so that the outcome does not depend
// on when the engine would have optimized it.
const root = resolve(import.meta.dirname, "..", "..");
mkdirSync(join(root, ".test-tmp"), { recursive: true });
const folder = mkdtempSync(join(root, ".test-tmp", "dispatch-layouts-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const dist = (path: string): string => JSON.stringify(join(root, "dist", path));

describe("guarded calls and refusals after a full garbage collection", () => {
  it("keep the optimized code of the calls before: none of it is discarded when their objects are collected", () => {
    const script = join(folder, "main.mjs");
    writeFileSync(
      script,
      `import { ToolRegistry, Type } from ${dist("index.js")};
import { SchemaExplainer } from ${dist("validation/explainer.js")};
import { valueHash } from ${dist("validation/argument-hash.js")};
const parameters = Type.Object({ path: Type.String(), offset: Type.Optional(Type.Integer({ minimum: 0 })), limit: Type.Optional(Type.Integer({ minimum: 1 })) });
const plain = new ToolRegistry().register({ name: "read", description: "", parameters }, () => 1);
const timed = new ToolRegistry({ timeoutMs: 60000 }).register({ name: "read", description: "", parameters }, () => 1);
const valid = { id: "1", name: "read", arguments: { path: "a", offset: 1, limit: 2 } };
const invalid = { id: "2", name: "read", arguments: { path: "a", offset: -1, limit: "2" } };
const { signal } = new AbortController();
const paths = {
  "a call with a time limit": [() => timed.dispatch(valid), ToolRegistry.prototype.dispatch],
  "a call with a caller's signal": [() => plain.dispatch(valid, { signal }), ToolRegistry.prototype.dispatch],
  "the explanation of a refusal": [() => plain.dispatch(invalid).catch(() => undefined), SchemaExplainer.prototype.explain],
  "the fingerprint of a refusal": [() => plain.dispatch(invalid).catch(() => undefined), valueHash],
};
const kept = {};
for (const [name, [call, fn]] of Object.entries(paths)) {
  %PrepareFunctionForOptimization(fn);
  for (let i = 0; i < 200; i++) await call();
  %OptimizeFunctionOnNextCall(fn);
  for (let i = 0; i < 200; i++) await call();
  const optimized = %ActiveTierIsTurbofan(fn);
  globalThis.gc();
  kept[name] = optimized && %ActiveTierIsTurbofan(fn);
  %DeoptimizeFunction(fn);
}
console.log(JSON.stringify(kept));
`,
    );
    const output = execFileSync(process.execPath, ["--expose-gc", "--allow-natives-syntax", script], { cwd: folder, encoding: "utf8" });
    expect(JSON.parse(output.trim().split("\n").at(-1)!)).toEqual({
      "a call with a time limit": true,
      "a call with a caller's signal": true,
      "the explanation of a refusal": true,
      "the fingerprint of a refusal": true,
    });
  }, 120_000);
});
