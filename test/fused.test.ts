import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Type, type TSchema } from "../src/index.js";
import { ValidatorCache } from "../src/validation/cache.js";
import { CopyRefusal, copyArguments } from "../src/validation/copy.js";
import { fusedFromSource, fusedSource } from "../src/validation/fused.js";
import { fusedPrivateCopy } from "../src/validation/arguments.js";
import type { ToolArgumentsValidationError } from "../src/errors.js";
import { argumentsArbitrary, schemaArbitrary, shapedArgumentsArbitrary } from "./support/schema-arbitraries.js";

type Outcome = { refused: string } | { copy: unknown; valid: boolean };

/** The plain path: the private copy, then the compiled check. */
function plainPath(schema: TSchema, value: object): Outcome {
  const entry = new ValidatorCache().get("tool", schema);
  let copy: unknown;
  try {
    copy = copyArguments(value);
  } catch (error) {
    if (error instanceof CopyRefusal) return { refused: error.issue };
    throw error;
  }
  return { copy, valid: entry.Check(copy) };
}

/** The fused path: one pass, then the compiled check only on what it left unchecked. */
function fusedPath(schema: TSchema, value: object): Outcome {
  const entry = new ValidatorCache().get("tool", schema);
  const source = fusedSource(schema);
  if (source === undefined) throw new Error("no fused function for this schema");
  const state = { invalid: false, unchecked: false };
  let copy: Record<string, unknown>;
  try {
    copy = fusedFromSource(source)(value, state);
  } catch (error) {
    if (error instanceof CopyRefusal) return { refused: error.issue };
    throw error;
  }
  return { copy, valid: !state.invalid && (!state.unchecked || entry.Check(copy)) };
}

/** Every object and array reachable from `root`. */
function objectsOf(root: unknown): Set<object> {
  const found = new Set<object>();
  const pending = [root];
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node !== "object" || node === null || found.has(node)) continue;
    found.add(node);
    if (node instanceof Map) for (const [key, item] of node) pending.push(key, item);
    else if (!(node instanceof Date)) for (const key of Object.keys(node)) pending.push((node as Record<string, unknown>)[key]);
  }
  return found;
}

describe("the fused copy-and-check", () => {
  it("decides as the copy followed by the compiled check, copies the same value, and shares no object with the input", () => {
    fc.assert(
      fc.property(schemaArbitrary, fc.array(argumentsArbitrary, { minLength: 1, maxLength: 6 }), (schema, values) => {
        for (const value of values) {
          const plain = plainPath(schema as TSchema, value);
          const fused = fusedPath(schema as TSchema, value);
          expect(fused, fc.stringify({ schema, value })).toEqual(plain);
          if ("copy" in fused) {
            const input = objectsOf(value);
            for (const object of objectsOf(fused.copy)) expect(input.has(object)).toBe(false);
          }
        }
      }),
      { seed: 20261201, numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
    );
  }, 600_000);

  it("decides and copies as the plain path on arguments shaped like the schema, its declared keys in order (the shapes copied without a loop)", () => {
    fc.assert(
      fc.property(
        schemaArbitrary.chain((schema) => fc.tuple(fc.constant(schema), fc.array(shapedArgumentsArbitrary(schema), { minLength: 1, maxLength: 6 }))),
        ([schema, values]) => {
          for (const value of values) {
            const plain = plainPath(schema as TSchema, value);
            const fused = fusedPath(schema as TSchema, value);
            expect(fused, fc.stringify({ schema, value })).toEqual(plain);
            if ("copy" in fused) {
              expect(Object.keys(fused.copy as object)).toEqual(Object.keys(value));
              const input = objectsOf(value);
              for (const object of objectsOf(fused.copy)) expect(input.has(object)).toBe(false);
            }
          }
        },
      ),
      { seed: 20261202, numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
    );
  }, 600_000);

  it("counts a string's length in code points, as the compiled check does, where its UTF-16 length cannot decide", () => {
    const schema = Type.Object({ name: Type.String({ minLength: 2, maxLength: 3 }), tag: Type.Optional(Type.String({ maxLength: 1 })), note: Type.Optional(Type.String({ minLength: 2 })) });
    const cases: Array<[Record<string, unknown>, boolean]> = [
      [{ name: "ab" }, true],
      [{ name: "a" }, false],
      [{ name: "abcd" }, false],
      [{ name: "😀😀" }, true],
      [{ name: "😀😀😀" }, true],
      [{ name: "😀😀😀😀" }, false],
      [{ name: "😀" }, false],
      [{ name: "a😀" }, true],
      [{ name: "ab", tag: "😀" }, true],
      [{ name: "ab", tag: "😀😀" }, false],
      [{ name: "ab", note: "😀" }, false],
      [{ name: "ab", note: "\ud800\udc00".slice(0, 1) + "x" }, true],
    ];
    for (const [value, valid] of cases) {
      expect(fusedPath(schema, value), JSON.stringify(value)).toEqual(plainPath(schema, value));
      expect(fusedPath(schema, value)).toMatchObject({ valid });
    }
  });

  it("reads each property once, as the plain copy does, on the valid and on the invalid path", () => {
    const schema = Type.Object({ a: Type.String(), b: Type.Object({ c: Type.Integer() }) });
    for (const c of [1, "not an integer"]) {
      const reads = { plain: 0, fused: 0 };
      const counted = (path: "plain" | "fused"): object => {
        const inner = {};
        Object.defineProperty(inner, "c", { enumerable: true, get: () => (reads[path]++, c) });
        return { a: "x", b: inner };
      };
      expect(fusedPath(schema, counted("fused"))).toEqual(plainPath(schema, counted("plain")));
      expect(reads).toEqual({ plain: 1, fused: 1 });
    }
  });

  it("keeps a cycle as the plain copy keeps it, and leaves the verdict to the compiled check", () => {
    const schema = Type.Object({ next: Type.Optional(Type.Unknown()), name: Type.String() });
    const value: Record<string, unknown> = { name: "n" };
    value.next = value;
    const fused = fusedPath(schema, value) as { copy: Record<string, unknown>; valid: boolean };
    expect(fused.valid).toBe(true);
    expect(fused.copy.next).toBe(fused.copy);
    expect(fused.copy).not.toBe(value);
  });

  it("decides on the clone alone when data nested past the fast copy sends the whole value to structuredClone, which reads it again", () => {
    const schema = Type.Object({ a: Type.String(), deep: Type.Any() });
    let reads = 0;
    const deep: Record<string, unknown> = {};
    let node = deep;
    for (let level = 0; level < 300; level++) node = (node.c = {}) as Record<string, unknown>;
    // The first read (the fast pass) gives a number, the clone's read a string.
    const make = () => ({ get a() { return reads++ === 0 ? 1 : "ok"; }, deep });
    const plain = plainPath(schema, make());
    reads = 0;
    expect(plain).toMatchObject({ valid: true });
    expect(fusedPath(schema, make())).toEqual(plain);
  });

  it("copies objects that share objects at every level once each, as the plain copy does, where copying every path would take seconds", () => {
    const schema = Type.Object({ name: Type.String(), tree: Type.Array(Type.Unknown()) });
    let shared: unknown = { leaf: 1 };
    for (let level = 0; level < 20; level++) shared = [shared, shared];
    const value = { name: "n", tree: shared as unknown[] };
    const fused = fusedPath(schema, value) as { copy: { tree: unknown[] }; valid: boolean };
    // Compared here, not by expect: its failure message would print the value, path by path.
    expect(fused.valid).toBe(true);
    expect(fused.copy.tree[0] === fused.copy.tree[1]).toBe(true);
    expect(fused.copy.tree === shared).toBe(false);
    expect((fusedPath(schema, { name: 5, tree: shared as unknown[] }) as { valid: boolean }).valid).toBe(false);
  });

  it("counts the keys and items it copies as the plain copy counts them: shared rows past the count go whole to structuredClone on both paths", () => {
    const schema = Type.Object({ name: Type.String(), grid: Type.Array(Type.Array(Type.Number())) });
    const row = new Array(1_000).fill(0.5);
    const value = { name: "n", grid: new Array(2_000).fill(row) };
    const fused = fusedPath(schema, value) as { copy: { grid: unknown[] }; valid: boolean };
    const plain = plainPath(schema, value) as { copy: { grid: unknown[] }; valid: boolean };
    // Compared here, not by expect: its failure message would print two million numbers.
    expect([fused.valid, fused.copy.grid[0] === fused.copy.grid[1999], fused.copy.grid[0] === row]).toEqual([true, true, false]);
    expect([plain.valid, plain.copy.grid[0] === plain.copy.grid[1999]]).toEqual([true, true]);
  });

  it("keeps a cycle in an object whose keys are its declared ones, in order (copied without the key loop)", () => {
    const schema = Type.Object({ name: Type.String(), next: Type.Optional(Type.Unknown()) });
    const value: Record<string, unknown> = { name: "n" };
    value.next = value;
    const fused = fusedPath(schema, value) as { copy: Record<string, unknown>; valid: boolean };
    expect(fused.valid).toBe(true);
    expect(fused.copy.next).toBe(fused.copy);
    expect(Object.keys(fused.copy)).toEqual(["name", "next"]);
  });

  it("matches keys as the compiled check does: every key of a Type.Record, and a hand-written /^.*$/u's keys without a line terminator", () => {
    const open = Type.Record(Type.String(), Type.Integer());
    const closed = Type.Record(Type.String(), Type.Integer(), { additionalProperties: false });
    // The same schemas as JSON: no TypeBox marker, JSON Schema's meaning of the pattern.
    const handWritten = [open, closed].map((schema) => JSON.parse(JSON.stringify(schema)) as TSchema);
    for (const key of ["plain", "", "\u{1F600}", "\ud800", "a\nb", "a\rb", "a\u2028b", "a\u2029b"]) {
      for (const item of [1, "text"]) {
        for (const schema of [open, closed, ...handWritten]) {
          const value = { [key]: item };
          expect(fusedPath(schema, value), JSON.stringify({ key, item })).toEqual(plainPath(schema, value));
        }
      }
    }
  });

  it("refuses a sparse array at its hole, and a function anywhere, with the plain copy's words", () => {
    const schema = Type.Object({ list: Type.Array(Type.Number()), run: Type.Optional(Type.Unknown()) });
    expect(fusedPath(schema, { list: [1, , 3] })).toEqual({ refused: "/list/1: arrays must not have holes" });
    expect(fusedPath(schema, { list: [], run: () => 1 })).toEqual(plainPath(schema, { list: [], run: () => 1 }));
  });

  it("copies the properties in the caller's order, declared or not, and a declared __proto__ as an own property", () => {
    const schema = Type.Object({ a: Type.String(), b: Type.Integer(), ["__proto__"]: Type.Optional(Type.String()), ["0"]: Type.Optional(Type.Boolean()) });
    const value = JSON.parse('{"z": 1, "b": 2, "__proto__": "p", "a": "x", "0": true}') as object;
    const fused = fusedPath(schema, value) as { copy: Record<string, unknown>; valid: boolean };
    expect(fused.valid).toBe(true);
    expect(Object.keys(fused.copy)).toEqual(Object.keys(copyArguments(value)));
    expect(Object.keys(fused.copy)).toEqual(["0", "z", "b", "__proto__", "a"]);
    expect(Object.getPrototypeOf(fused.copy)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(fused.copy, "__proto__")?.value).toBe("p");
  });

  it("refuses arguments that are not plain data at the root, as the plain path does, and takes a null prototype", () => {
    const schema = Type.Object({ path: Type.String() });
    const fused = fusedFromSource(fusedSource(schema)!);
    const rootOf = (value: unknown): string => {
      try {
        fusedPrivateCopy("read", fused, value, { invalid: false, unchecked: false });
        return "copied";
      } catch (error) {
        return (error as ToolArgumentsValidationError).issues.join();
      }
    };
    class Arguments {
      path = "a";
    }
    const { proxy, revoke } = Proxy.revocable({ path: "a" }, {});
    revoke();
    const notPlain = [new Arguments(), Object.assign(Object.create({ inherited: 1 }) as object, { path: "a" }), ["a"], new Date(0), proxy, "text", null];
    for (const value of notPlain) expect(rootOf(value)).toBe("/: arguments must be a plain object");
    expect(rootOf(Object.assign(Object.create(null) as object, { path: "a" }))).toBe("copied");
    expect(rootOf(new Proxy({ path: "a" }, {}))).toBe("copied");
    // Seen by the function with one layout many times (optimized on it), then with another.
    for (let index = 0; index < 20_000; index++) expect(fused({ path: "a" }, { invalid: false, unchecked: false })).toEqual({ path: "a" });
    expect(rootOf(new Arguments())).toBe("/: arguments must be a plain object");
  });

  it("is not made for a schema whose root it cannot check: the plain path stays", () => {
    expect(fusedSource({ anyOf: [{ type: "object" }, { type: "object", properties: { a: { type: "string" } } }] })).toBeUndefined();
    expect(fusedSource(Type.Object({ a: Type.String() }))).toBeDefined();
  });
});
