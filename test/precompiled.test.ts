import { Guard } from "typebox/guard";
import { CheckContext } from "typebox/schema";
import { Hashing } from "typebox/system";
import { mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { precompileValidators, ToolArgumentsValidationError, ToolRegistry, Type, type PrecompiledValidators } from "../src/index.js";
import { ValidatorCache } from "../src/validation/cache.js";
import { rejectionOf, toolCall } from "./support/fixtures.js";
import * as runtime from "../src/precompiled/index.js";

const schemas = [
  Type.Object({ path: Type.String({ pattern: "^[a-z]+$" }), tags: Type.Array(Type.String(), { uniqueItems: true }) }),
  { type: "object", properties: { name: { type: "string", minLength: 2 } }, unevaluatedProperties: false },
  Type.Object({ id: Type.Integer() }),
];

afterEach(() => {
  vi.doUnmock("typebox/compile");
  vi.resetModules();
});

describe("precompileValidators", () => {
  it("writes a module that imports from typebox-tool-registry/precompiled only", () => {
    const imports = precompileValidators(schemas)
      .split("\n")
      .filter((line) => line.startsWith("import "));
    expect(imports).toHaveLength(1);
    expect(imports[0]).toMatch(/^import \{ [\w, ]+ \} from "typebox-tool-registry\/precompiled";$/);
  });

  it("imports only what its checks call", () => {
    expect(precompileValidators([Type.Object({ id: Type.Integer() })])).not.toContain("import ");
    expect(precompileValidators([schemas[1]!])).toContain('import { Guard, CheckContext } from "typebox-tool-registry/precompiled";');
  });

  it("re-exports from typebox-tool-registry/precompiled the very objects TypeBox's generated code imports", () => {
    expect(runtime).toMatchObject({ Guard, Hashing, CheckContext });
  });

  it("refuses to write a module that would import something typebox-tool-registry/precompiled does not re-export", async () => {
    vi.doMock("typebox/compile", () => ({ Code: () => ({ Code: 'import { Novelty } from "typebox/novelty"\nexport function Check(value) { return true }', External: {} }) }));
    const { precompileValidators: withNewTypeBox } = await import("../src/validation/precompiled.js");
    expect(() => withNewTypeBox([Type.Object({})])).toThrow('precompileValidators does not know this import of TypeBox\'s generated code: import { Novelty } from "typebox/novelty"');
  });
});

/** Loads a module written by precompileValidators, its package import pointed at this checkout's source. */
async function loadGenerated(source: string, name: string): Promise<PrecompiledValidators> {
  const folder = resolve(import.meta.dirname, "..", ".test-tmp");
  mkdirSync(folder, { recursive: true });
  const file = resolve(folder, `${name}.ts`);
  writeFileSync(file, source.replace('"typebox-tool-registry/precompiled"', JSON.stringify(resolve(import.meta.dirname, "..", "src", "precompiled", "index.js"))));
  return ((await import(file)) as { validators: PrecompiledValidators }).validators;
}

describe("a precompiled validator", () => {
  it("is exactly the validator of the schema it is used for, whatever order the schema's keys are written in", async () => {
    const written = { type: "object", properties: { account: { type: "string", pattern: "^[0-9]{8}$" }, name: { type: "string", pattern: "^[a-z]+$" } }, required: ["account", "name"] };
    const reordered = { required: ["account", "name"], properties: { name: { pattern: "^[a-z]+$", type: "string" }, account: { pattern: "^[0-9]{8}$", type: "string" } }, type: "object" };
    const validators = await loadGenerated(precompileValidators([written]), "key-order");
    const registry = new ToolRegistry({ precompiled: validators }).register({ name: "pay", description: "", parameters: reordered }, (args) => args);
    // Each value would pass the other property's pattern: swapped patterns would let it through.
    const error = await rejectionOf(registry.dispatch(toolCall("pay", { account: "bob", name: "12345678" })));
    expect(error).toBeInstanceOf(ToolArgumentsValidationError);
    expect(await registry.dispatch(toolCall("pay", { account: "12345678", name: "bob" }))).toEqual({ account: "12345678", name: "bob" });
    expect(registry.compileStats().interpreted).toBe(0);
  });

  it("carries the fused copy-and-check too, so a runtime without code generation copies and checks in one pass", async () => {
    const schema = Type.Object({ path: Type.String({ pattern: "^[a-z]+$" }), depth: Type.Optional(Type.Integer({ minimum: 0 })) });
    const validators = await loadGenerated(precompileValidators([schema]), "fused");
    const entry = new ValidatorCache(16, { precompiled: validators }).get("read", schema);
    expect(entry.fused).toBeDefined();
    const state = { invalid: false, unchecked: false };
    expect(entry.fused!({ path: "abc", depth: 2 }, state)).toEqual({ path: "abc", depth: 2 });
    expect(state).toEqual({ invalid: false, unchecked: false });
    entry.fused!({ path: "ABC", depth: -1 }, state);
    expect(state.invalid).toBe(true);
  });

  it("writes the fused copy-and-check for the properties in their declared order, the order a model writes them in", async () => {
    const schema = Type.Object({ query: Type.String(), limit: Type.Integer() });
    const source = precompileValidators([schema]);
    expect(source).toContain('keys[0] === "query" && keys[1] === "limit"');
    const entry = new ValidatorCache(16, { precompiled: await loadGenerated(source, "declared-order") }).get("search", schema);
    const state = { invalid: false, unchecked: false };
    expect(Object.keys(entry.fused!({ query: "a", limit: 1 }, state))).toEqual(["query", "limit"]);
    expect(state).toEqual({ invalid: false, unchecked: false });
  });

  it("uses a module's fused copy-and-check only where this version writes the very same source for the schema, else its check alone", async () => {
    // A record before a pattern: a generator that reads the record's pattern as an external shifts every later one.
    const schema = Type.Object({ meta: Type.Optional(Type.Record(Type.String(), Type.Number())), name: Type.String({ pattern: "^a" }) });
    const source = precompileValidators([schema]);
    expect(source).toMatch(/FusedKey: "[0-9a-z]+-[0-9a-z]+"/);
    const unstamped = await loadGenerated(source.replace(/FusedKey: "[^"]+", /, ""), "fused-unstamped");
    const otherSource = await loadGenerated(source.replace(/FusedKey: "[^"]+"/, 'FusedKey: "0-0"'), "fused-other-source");
    for (const validators of [unstamped, otherSource]) {
      expect(new ValidatorCache(16, { precompiled: validators }).get("tag", schema).fused).toBeUndefined();
      const registry = new ToolRegistry({ precompiled: validators }).register({ name: "tag", description: "", parameters: schema }, (args) => args);
      for (let call = 0; call < 100; call++) expect(await rejectionOf(registry.dispatch(toolCall("tag", { name: "zzz" })))).toBeInstanceOf(ToolArgumentsValidationError);
      expect(await registry.dispatch(toolCall("tag", { name: "abc" }))).toEqual({ name: "abc" });
    }
    expect(new ValidatorCache(16, { precompiled: await loadGenerated(source, "fused-stamped") }).get("tag", schema).fused).toBeDefined();
  });

  it("carries the JSON reader too, used only where this version writes the very same source for the schema", async () => {
    const schema = Type.Object({ path: Type.String(), offset: Type.Optional(Type.Integer({ minimum: 0 })) });
    const source = precompileValidators([schema]);
    expect(source).toMatch(/ReaderKey: "[0-9a-z]+-[0-9a-z]+"/);
    const stamped = new ValidatorCache(16, { precompiled: await loadGenerated(source, "reader-stamped") }).get("read", schema);
    // At hand from the first call: nothing is generated where code generation is forbidden.
    expect(stamped.reader!('{"offset":3,"path":"a"}')).toEqual({ offset: 3, path: "a" });
    const unstamped = await loadGenerated(source.replace(/, ReaderKey: "[^"]+"/, ""), "reader-unstamped");
    const otherSource = await loadGenerated(source.replace(/ReaderKey: "[^"]+"/, 'ReaderKey: "0-0"'), "reader-other-source");
    for (const validators of [unstamped, otherSource]) {
      expect(new ValidatorCache(16, { precompiled: validators }).get("read", schema).reader).toBeUndefined();
      const registry = new ToolRegistry({ precompiled: validators }).register({ name: "read", description: "", parameters: schema }, (args) => args);
      for (let call = 0; call < 100; call++) expect(await registry.dispatch(toolCall("read", '{"path":"a"}'))).toEqual({ path: "a" });
    }
  });

  it("follows JSON Schema where the transform corrects TypeBox: an array-like object never passes an array enum", async () => {
    const schema = { type: "object", properties: { modes: { enum: [["read", "write"]] } } };
    const validators = await loadGenerated(precompileValidators([schema]), "array-enum");
    const registry = new ToolRegistry({ precompiled: validators }).register({ name: "open", description: "", parameters: schema }, () => "ok");
    expect(await rejectionOf(registry.dispatch(toolCall("open", { modes: { 0: "read", 1: "write", length: 2 } })))).toBeInstanceOf(ToolArgumentsValidationError);
    expect(await registry.dispatch(toolCall("open", { modes: ["read", "write"] }))).toBe("ok");
  });
});
