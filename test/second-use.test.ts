import fc from "fast-check";
import { Check } from "typebox/schema";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { ToolArgumentsValidationError, ToolDefinitionError, ToolRegistry, Type } from "../src/index.js";
import { copyArguments } from "../src/validation/copy.js";
import { hasAtMostNodes, MAX_INTERPRETED_NODES } from "../src/validation/second-use.js";
import { transformSchema } from "../src/validation/transform.js";
import { argumentsArbitrary, schemaArbitrary } from "./support/schema-arbitraries.js";

// Every TypeBox Compile in this file is counted, and can be made to fail.
const compiler = vi.hoisted(() => ({ compiled: 0, failing: false }));
vi.mock("typebox/compile", async (importOriginal) => {
  const original = await importOriginal<typeof import("typebox/compile")>();
  return {
    ...original,
    Compile: (...args: Parameters<typeof original.Compile>) => {
      compiler.compiled++;
      if (compiler.failing) throw new Error("TypeBox gave up");
      return original.Compile(...args);
    },
  };
});
const { Compile } = await import("typebox/compile");

beforeEach(() => {
  compiler.compiled = 0;
  compiler.failing = false;
});

const search = { name: "search", description: "Search the docs", parameters: Type.Object({ query: Type.String({ minLength: 1 }), limit: Type.Optional(Type.Integer({ minimum: 1 })) }) };
const call = (args: Record<string, unknown>, id = "c1") => ({ id, name: "search", arguments: args });

describe("a schema's check, compiled on its second use", () => {
  it("checks a new schema's first call with TypeBox's interpreter, and compiles the schema on its second, once", async () => {
    const registry = new ToolRegistry().register(search, ({ query }) => query);
    // Registering may compile the meta-schema's validator, once per process.
    const atRegister = compiler.compiled;
    expect(await registry.dispatch(call({ query: "lru" }))).toBe("lru");
    expect(compiler.compiled - atRegister).toBe(0);
    expect(await registry.dispatch(call({ query: "ttl" }))).toBe("ttl");
    expect(compiler.compiled - atRegister).toBe(1);
    for (let index = 0; index < 5; index++) await registry.dispatch(call({ query: "more" }));
    expect(compiler.compiled - atRegister).toBe(1);
  });

  it("compiles every schema at compileAll, parameters and output, so that no call compiles; and fails there on one that cannot", async () => {
    const withOutput = { ...search, name: "counted", outputSchema: Type.Object({ count: Type.Integer() }) };
    const registry = new ToolRegistry().register(search, () => 1).register(withOutput, () => ({ count: 1 }));
    compiler.compiled = 0;
    registry.compileAll();
    // The two tools share one parameters schema (one validator); the output schema is the other.
    expect(compiler.compiled).toBe(2);
    for (const name of ["search", "counted", "search", "counted"]) await registry.dispatch({ id: "c1", name, arguments: { query: "a" } });
    expect(compiler.compiled).toBe(2);
    const broken = new ToolRegistry().register({ ...search, name: "broken" }, () => 1);
    compiler.failing = true;
    expect(() => broken.compileAll()).toThrow(ToolDefinitionError);
  });

  it("compiles at once for a first call too large to interpret", async () => {
    const tags = { name: "tag", description: "", parameters: Type.Object({ tags: Type.Array(Type.String()) }) };
    const registry = new ToolRegistry().register(tags, ({ tags }) => tags.length);
    compiler.compiled = 0;
    expect(await registry.dispatch({ id: "c1", name: "tag", arguments: { tags: Array.from({ length: MAX_INTERPRETED_NODES }, () => "x") } })).toBe(MAX_INTERPRETED_NODES);
    expect(compiler.compiled).toBe(1);
  });

  it("refuses a first call as every later call is refused, with the same issues", async () => {
    const registry = new ToolRegistry().register(search, () => 1);
    const first = await registry.dispatch(call({ query: "", limit: "20" })).catch((error: unknown) => error);
    const second = await registry.dispatch(call({ query: "", limit: "20" })).catch((error: unknown) => error);
    expect(first).toBeInstanceOf(ToolArgumentsValidationError);
    expect((first as ToolArgumentsValidationError).issues).toEqual((second as ToolArgumentsValidationError).issues);
    expect((first as ToolArgumentsValidationError).issues).toEqual(["/query: must not have fewer than 1 characters", "/limit: must be integer (>= 1)"]);
  });

  it("fails the call that compiles a schema TypeBox cannot compile with a ToolDefinitionError naming the tool, and runs no handler", async () => {
    const handler = vi.fn(() => 1);
    const registry = new ToolRegistry().register(search, handler);
    await registry.dispatch(call({ query: "a" }));
    compiler.failing = true;
    const error = await registry.dispatch(call({ query: "b" })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolDefinitionError);
    expect((error as ToolDefinitionError).message).toContain('"search"');
    expect((error as ToolDefinitionError).message).toContain("cannot compile (TypeBox gave up)");
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it("fails every call after a failed compile with the same ToolDefinitionError at once, without compiling again", async () => {
    const registry = new ToolRegistry().register(search, () => 1);
    await registry.dispatch(call({ query: "a" }));
    compiler.failing = true;
    const first = await registry.dispatch(call({ query: "b" })).catch((caught: unknown) => caught);
    expect(first).toBeInstanceOf(ToolDefinitionError);
    const compiles = compiler.compiled;
    for (const query of ["c", "d"]) expect(await registry.dispatch(call({ query })).catch((caught: unknown) => caught)).toBe(first);
    expect(() => registry.compileAll()).toThrow(first as ToolDefinitionError);
    expect(compiler.compiled).toBe(compiles);
  });

  it("refuses a chain of 10,000 $refs at register from its analysis, compiling nothing", () => {
    const chain = (hops: number): object => {
      const $defs: Record<string, object> = { [`d${hops}`]: { type: "string" } };
      for (let hop = 0; hop < hops; hop++) $defs[`d${hop}`] = { $ref: `#/$defs/d${hop + 1}` };
      return { type: "object", $defs, properties: { a: { $ref: "#/$defs/d0" } }, required: ["a"] };
    };
    const register = (hops: number) => new ToolRegistry().register({ name: "chain", description: "", parameters: chain(hops) as never }, () => 1);
    // Registering a first schema with $defs compiles the 2020-12 meta-schema's validator, once per process.
    register(3);
    compiler.compiled = 0;
    expect(() => register(10_000)).toThrow(/\/\$defs\/d297\/\$ref: leads too deep to compile/);
    expect(compiler.compiled).toBe(0);
  });

  it("fails a result checked against an output schema that cannot compile with a ToolDefinitionError, not a result error", async () => {
    const withOutput = { ...search, name: "counted", outputSchema: Type.Object({ count: Type.Integer() }) };
    const registry = new ToolRegistry().register(withOutput, () => ({ count: 1 }));
    // A refusal uses the parameters schema only: the next call compiles it, and uses the output schema a first time.
    await registry.dispatch({ id: "c1", name: "counted", arguments: { query: 1 } }).catch(() => undefined);
    expect(await registry.dispatch({ id: "c2", name: "counted", arguments: { query: "a" } })).toEqual({ count: 1 });
    compiler.failing = true;
    const error = await registry.dispatch({ id: "c3", name: "counted", arguments: { query: "b" } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolDefinitionError);
    expect((error as ToolDefinitionError).message).toContain("its outputSchema cannot compile (TypeBox gave up)");
  });

  it("decides as the compiled check on random schemas and values: TypeBox's interpreter and its compiled code agree", () => {
    fc.assert(
      fc.property(schemaArbitrary, fc.array(argumentsArbitrary, { minLength: 1, maxLength: 6 }), (schema, values) => {
        const transformed = transformSchema(schema);
        const compiled = Compile(transformed as never);
        for (const value of values) {
          const copy = copyArguments(value);
          expect(Check(transformed as never, copy), fc.stringify({ schema, value })).toBe(compiled.Check(copy));
        }
      }),
      { seed: 20261201, numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
    );
  }, 600_000);
});

describe("hasAtMostNodes", () => {
  it("counts a value, each object, array and value inside, and stops past the bound", () => {
    expect(hasAtMostNodes("text", 1)).toBe(true);
    expect(hasAtMostNodes({ a: 1, b: [1, 2] }, 5)).toBe(true);
    expect(hasAtMostNodes({ a: 1, b: [1, 2] }, 4)).toBe(false);
    expect(hasAtMostNodes(Array.from({ length: 1e6 }, () => 0), 128)).toBe(false);
  });

  it("ends on a cycle, and never throws on a value it cannot read through", () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(hasAtMostNodes(cycle, 100)).toBe(false);
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    expect(hasAtMostNodes({ inner: revoked.proxy }, 100)).toBe(false);
  });
});
