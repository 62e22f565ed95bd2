import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// V8 drops a class's object layouts when no instance is left, and discards the optimized code built
// on them. The streaming classes keep one instance each for the life of the module, so a stream
// after a full garbage collection, with no stream open, runs on the code of the streams before it.
const root = resolve(import.meta.dirname, "..", "..");
mkdirSync(join(root, ".test-tmp"), { recursive: true });
const folder = mkdtempSync(join(root, ".test-tmp", "layouts-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("streamed arguments after a full garbage collection", () => {
  it("run on the optimized code of the streams before: none of it is discarded when their objects are collected", () => {
    const script = join(folder, "main.mjs");
    writeFileSync(
      script,
      `import { ToolRegistry, Type } from ${JSON.stringify(join(root, "dist", "index.js"))};
const record = Type.Object({ id: Type.Integer(), name: Type.String(), price: Type.Number(), tags: Type.Array(Type.String()), on: Type.Boolean(), note: Type.Union([Type.String(), Type.Null()]) }, { additionalProperties: false });
const registry = new ToolRegistry().register({ name: "save", description: "", parameters: Type.Object({ records: Type.Array(record) }) }, () => 1);
const text = JSON.stringify({ records: Array.from({ length: 400 }, (_, id) => ({ id, name: "item \\"" + id + "\\"", price: id * 1.25, tags: ["a", "b"], on: id % 2 === 0, note: id % 3 ? null : "x\\ny" })) });
const pieces = [];
for (let start = 0, size = 1; start < text.length; start += size, size = 1 + (start % 61)) pieces.push(text.slice(start, start + size));
const stream = () => { const s = registry.argumentStream("save"); for (const piece of pieces) s.push(piece).value; return s.end(); };
for (let round = 0; round < 4; round++) {
  for (let i = 0; i < 30; i++) stream();
  console.log("collected");
  globalThis.gc();
}
`,
    );
    const trace = execFileSync(process.execPath, ["--expose-gc", "--trace-deopt", script], { cwd: folder, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    const afterFirstCollection = trace.slice(trace.indexOf("collected"));
    const discarded = afterFirstCollection.split("\n").filter((line) => line.includes("reason: weak objects") && /dist\/streaming|SharedFunctionInfo (write|#\w+|push|member|item|begin|complete|get issues|get value|read|prepare)>/.test(line));
    expect(discarded).toEqual([]);
  }, 120_000);
});
