import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Precompiled validators in a project installed the way pnpm installs it: no hoisting, so the
// application reaches typebox-tool-registry and nothing it depends on (not typebox). The project is
// TypeScript under strict settings; tsc type-checks and emits the generated module like any source.
const root = resolve(import.meta.dirname, "..", "..");
const tsc = join(root, "node_modules", ".bin", "tsc");
let folder: string;

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { cwd: folder, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed:\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

function write(path: string, text: string): void {
  mkdirSync(join(folder, path, ".."), { recursive: true });
  writeFileSync(join(folder, path), text);
}

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), "ttr-linked-"));
  // dist/ was built by the global setup.
  execFileSync("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", folder], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  const tarball = readdirSync(folder).find((file) => file.endsWith(".tgz"));
  if (tarball === undefined) throw new Error("npm pack wrote no tarball");
  write("package.json", JSON.stringify({ name: "linked-app", private: true, type: "module" }));
  // Node's types for the build script; the version this repository pins, from npm's cache.
  const nodeTypes = JSON.parse(readFileSync(join(root, "node_modules", "@types", "node", "package.json"), "utf8")) as { version: string };
  run("npm", ["install", "--install-strategy=linked", "--no-audit", "--no-fund", "--prefer-offline", join(folder, tarball), `@types/node@${nodeTypes.version}`]);
}, 120_000);

afterAll(() => rmSync(folder, { recursive: true, force: true }));

const tools = `import { Type, type ToolDefinition } from "typebox-tool-registry";

const readParameters = Type.Object({
  path: Type.String({ pattern: "^[a-z./]+$" }),
  offset: Type.Optional(Type.Integer({ minimum: 0 })),
  tags: Type.Optional(Type.Array(Type.String(), { uniqueItems: true })),
  mode: Type.Optional(Type.Literal("text")),
});
export const read = { name: "read", description: "Read a file", parameters: readParameters } satisfies ToolDefinition<typeof readParameters>;
export const locate = {
  name: "locate",
  description: "Locate",
  parameters: { type: "object", properties: { where: { const: { x: 1 } } }, unevaluatedProperties: false },
} as const;
`;

const precompile = `import { writeFile } from "node:fs/promises";
import { precompileValidators } from "typebox-tool-registry";
import { locate, read } from "./tools.js";

await writeFile(new URL("../src/validators.generated.ts", import.meta.url), precompileValidators([read, locate]));
`;

const main = `import { ToolRegistry, ToolArgumentsValidationError } from "typebox-tool-registry";
import { locate, read } from "./tools.js";
import { validators } from "./validators.generated.js";

let evalBlocked = false;
try {
  new Function("return 1");
} catch {
  evalBlocked = true;
}
const registry = new ToolRegistry({ precompiled: validators });
registry.register(read, ({ path, offset }) => \`\${path}@\${offset ?? 0}\`);
registry.register(locate, () => "found");
const outcomes: unknown[] = [];
for (const [name, args] of [
  ["read", { path: "a/b.txt", offset: 2, tags: ["x", "y"] }],
  ["read", { path: "UPPER" }],
  ["read", { path: "a", tags: ["x", "x"] }],
  ["locate", { where: { x: 1 } }],
  ["locate", { where: { x: 2 } }],
] as const) {
  outcomes.push(await registry.dispatch({ type: "tool_call", id: "1", name, arguments: args }).catch((error: unknown) => (error instanceof ToolArgumentsValidationError ? error.issues : String(error))));
}
console.log(JSON.stringify({ evalBlocked, outcomes, stats: registry.compileStats() }));
`;

const tsconfig = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    lib: ["ES2022", "DOM"],
    types: ["node"],
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    noUnusedLocals: true,
    noUnusedParameters: true,
    noImplicitOverride: true,
    verbatimModuleSyntax: true,
    isolatedModules: true,
    skipLibCheck: false,
    rootDir: "src",
    outDir: "dist",
  },
  include: ["src"],
};

describe("precompiled validators in a pnpm-style install (npm --install-strategy=linked)", () => {
  it("cannot reach typebox from the application, which is why generated code must not import it", () => {
    expect(existsSync(join(folder, "node_modules", "typebox"))).toBe(false);
    const probe = spawnSync(process.execPath, ["--input-type=module", "-e", 'await import("typebox/guard")'], { cwd: folder, encoding: "utf8" });
    expect(probe.status).not.toBe(0);
    expect(probe.stderr).toContain("ERR_MODULE_NOT_FOUND");
  });

  it("generates a .ts module that tsc type-checks under strict settings and emits, and that checks without code generation", () => {
    write("tsconfig.json", JSON.stringify(tsconfig));
    write("src/tools.ts", tools);
    write("src/precompile.ts", precompile);
    write("src/main.ts", main);
    // No validators yet: the module precompileValidators writes for no schemas stands in until the first generation.
    write("src/validators.generated.ts", "export const validators = {};\n");
    run(tsc, ["-p", "tsconfig.json"]);
    run("node", ["dist/precompile.js"]);
    const generated = readdirSync(join(folder, "src")).includes("validators.generated.ts");
    expect(generated).toBe(true);
    run(tsc, ["-p", "tsconfig.json"]);
    expect(existsSync(join(folder, "dist", "validators.generated.js"))).toBe(true);

    const output = JSON.parse(run("node", ["--disallow-code-generation-from-strings", "dist/main.js"])) as Record<string, unknown>;
    expect(output.evalBlocked).toBe(true);
    expect(output.outcomes).toEqual([
      "a/b.txt@2",
      ['/path: must match pattern "^[a-z./]+$"'],
      expect.arrayContaining([expect.stringMatching(/^\/tags: /)]),
      "found",
      expect.arrayContaining([expect.stringMatching(/^\/where: /)]),
    ]);
    expect(output.stats).toMatchObject({ codeGeneration: false, interpreted: 0 });
  });
});
