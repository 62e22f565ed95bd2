import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { precompileValidators, Type } from "../../src/index.js";

// Node's --disallow-code-generation-from-strings forbids eval and new Function, as a
// Content-Security-Policy without 'unsafe-eval' does in a browser.
const root = resolve(import.meta.dirname, "..", "..");
mkdirSync(join(root, ".test-tmp"), { recursive: true });
const folder = mkdtempSync(join(root, ".test-tmp", "no-eval-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const parameters = Type.Object({ path: Type.String({ pattern: "^[a-z./]+$" }), offset: Type.Optional(Type.Integer({ minimum: 0 })) });

function runWithoutCodeGeneration(usePrecompiled: boolean): Record<string, unknown> {
  writeFileSync(join(folder, "validators.mjs"), precompileValidators([{ name: "read", description: "", parameters }]));
  const script = join(folder, `main-${usePrecompiled}.mjs`);
  writeFileSync(
    script,
    `import { ToolRegistry, Type } from ${JSON.stringify(join(root, "dist", "index.js"))};
import { validators } from "./validators.mjs";
let evalBlocked = false;
try { new Function("return 1"); } catch { evalBlocked = true; }
const registry = new ToolRegistry(${usePrecompiled ? "{ precompiled: validators }" : ""});
registry.register({ name: "read", description: "", parameters: ${JSON.stringify(parameters)} }, (args) => args);
const valid = await registry.dispatch({ type: "tool_call", id: "1", name: "read", arguments: { path: "a/b.txt", offset: 1 } });
const outcomes = [];
for (const args of [{ path: "UPPER" }, { path: "a", offset: -1 }, { offset: 1 }, '{"path":"a","offset":"1"}']) {
  outcomes.push(await registry.dispatch({ type: "tool_call", id: "2", name: "read", arguments: args }).then(() => "accepted", (error) => error.issues));
}
console.log(JSON.stringify({ evalBlocked, valid, outcomes, stats: { ...registry.cacheStats(), ...registry.compileStats() } }));
`,
  );
  const output = execFileSync(process.execPath, ["--disallow-code-generation-from-strings", script], { cwd: folder, encoding: "utf8" });
  return JSON.parse(output) as Record<string, unknown>;
}

const expectedOutcomes = [
  ["/path: must match pattern \"^[a-z./]+$\""],
  ["/offset: must be >= 0"],
  ['/path: must have required properties path'],
  ["/offset: must be integer (>= 0)"],
];

describe("where code generation is forbidden", () => {
  it.each([
    ["keeps validating with TypeBox's interpreter, and says so in the stats", false, 1],
    ["uses precompiled validators instead of the interpreter", true, 0],
  ])("%s", (_behaviour, usePrecompiled, interpreted) => {
    const result = runWithoutCodeGeneration(usePrecompiled);
    expect(result.evalBlocked).toBe(true);
    expect(result.valid).toEqual({ path: "a/b.txt", offset: 1 });
    expect(result.outcomes).toEqual(expectedOutcomes);
    expect(result.stats).toMatchObject({ codeGeneration: false, interpreted });
  });
});

describe("precompileValidators", () => {
  it("writes one validator per distinct schema", () => {
    const source = precompileValidators([parameters, Type.Object({ id: Type.Integer() }), JSON.parse(JSON.stringify(parameters)) as typeof parameters]);
    expect(source.match(/return \{ SetExternal, Check(?:, Fused| \})/g)).toHaveLength(2);
    expect(source).toContain("export const validators");
  });
});
