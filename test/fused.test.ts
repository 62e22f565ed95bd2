import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Type, type TSchema } from "../src/index.js";
import { ValidatorCache } from "../src/validation/cache.js";
import { CopyRefusal, copyArguments } from "../src/validation/copy.js";
import { fusedFromSource, fusedSource } from "../src/validation/fused.js";

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

const scalarSchema = fc.oneof(
  fc.record({ type: fc.constantFrom("string", "number", "integer", "boolean", "null") }),
  fc.record({ type: fc.constant("string"), minLength: fc.nat(3), maxLength: fc.nat(5), pattern: fc.constantFrom("^a", "b$", "^[a-c]+$", "^(a+)+$"), format: fc.constantFrom("email", "date", "not-a-format") }, { requiredKeys: ["type"] }),
  fc.record(
    { type: fc.constantFrom("number", "integer"), minimum: fc.integer({ min: -3, max: 3 }), maximum: fc.integer({ min: 0, max: 9 }), exclusiveMinimum: fc.integer({ min: -3, max: 3 }), exclusiveMaximum: fc.integer({ min: 0, max: 9 }), multipleOf: fc.constantFrom(1, 0.5, 0.1, 3) },
    { requiredKeys: ["type"] },
  ),
  fc.record({ type: fc.constant(["string", "null"]), maxLength: fc.nat(4) }, { requiredKeys: ["type"] }),
  fc.record({ enum: fc.uniqueArray(fc.oneof(fc.constantFrom("a", "b", 0, 1, true, null), fc.constant([1, 2]), fc.constant({ a: 1 })), { minLength: 1, maxLength: 4 }) }),
  fc.record({ const: fc.constantFrom("a", 0, -0, false, null) }),
  fc.constant({ anyOf: [{ type: "string" }, { type: "null" }] }),
  fc.constant({ anyOf: [{ type: "string", const: "fast" }, { type: "string", const: "safe" }] }),
  // What the generated code leaves to the compiled check.
  fc.constant({ type: "array", items: { type: "integer" }, uniqueItems: true }),
  fc.constant({ not: { type: "string" } }),
  fc.constant({ type: "object", patternProperties: { "^[ab]$": { type: "string" }, "^\\w+$": { type: "integer" } } }),
  fc.constant({}),
);
const schemaArbitrary = fc.letrec<{ node: unknown; object: Record<string, unknown> }>((tie) => ({
  node: fc.oneof({ depthSize: "small", withCrossShrink: true }, scalarSchema, tie("object"), fc.record({ type: fc.constant("array"), items: tie("node"), minItems: fc.nat(2), maxItems: fc.nat(4) }, { requiredKeys: ["type"] })),
  object: fc.record(
    {
      type: fc.constant("object"),
      properties: fc.dictionary(fc.constantFrom("a", "b", "c", "__proto__", "toString"), tie("node"), { maxKeys: 3 }),
      // One pattern, as `Type.Record` makes it ("^.*$", which a line break stops).
      patternProperties: fc.dictionary(fc.constantFrom("^.*$", "^[ab]$", "^c", "^to", "^\\w+$"), tie("node"), { minKeys: 1, maxKeys: 1 }),
      required: fc.uniqueArray(fc.constantFrom("a", "b", "c", "d", "__proto__"), { maxLength: 3 }),
      additionalProperties: fc.oneof(fc.boolean(), tie("node")),
      minProperties: fc.nat(2),
      maxProperties: fc.nat(4),
    },
    { requiredKeys: ["type"] },
  ),
})).object;

const valueArbitrary = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.integer({ min: -4, max: 10 }),
    fc.constantFrom(0.5, 0.3, -0, Number.NaN, Infinity, "a", "b", "abc", "aaa!", "a@b.co", "2024-02-30", "", null, true, false, undefined, 10n),
    fc.constantFrom(new Date(0), new Map([["k", 1]])),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom("a", "b", "c", "d", "__proto__", "toString"), tie("value"), { maxKeys: 4 }),
  ),
})).value;

/** An arguments object: from JSON-like data, with `__proto__` keys kept as own properties as JSON.parse keeps them. */
const argumentsArbitrary = fc.dictionary(fc.constantFrom("a", "b", "c", "d", "__proto__", "toString", "line\nbreak"), valueArbitrary, { maxKeys: 5 }).map((record) => {
  const value: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(record)) Object.defineProperty(value, key, { value: item, enumerable: true, writable: true, configurable: true });
  return value;
});

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

  it("is not made for a schema whose root it cannot check: the plain path stays", () => {
    expect(fusedSource({ anyOf: [{ type: "object" }, { type: "object", properties: { a: { type: "string" } } }] })).toBeUndefined();
    expect(fusedSource(Type.Object({ a: Type.String() }))).toBeDefined();
  });
});
