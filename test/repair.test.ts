import { isDeepStrictEqual } from "node:util";
import { Ajv, type ValidateFunction } from "ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type ArgumentRepair, ToolArgumentsValidationError, Type, validateToolArguments, type TSchema } from "../src/index.js";
import { repairArguments } from "../src/validation/repair.js";
import { thrownBy } from "./support/fixtures.js";

function repaired(schema: TSchema, value: unknown): unknown {
  return repairArguments(schema, value).value;
}

describe("repairArguments: what is repaired", () => {
  it('turns "20" into 20 where the schema says number or integer, and reports it', () => {
    const schema = Type.Object({ count: Type.Integer(), ratio: Type.Number() });
    expect(repairArguments(schema, { count: "20", ratio: "-0.5" })).toEqual({
      value: { count: 20, ratio: -0.5 },
      repairs: [
        { pointer: "/count", from: "string", to: "number" },
        { pointer: "/ratio", from: "string", to: "number" },
      ],
    });
  });

  it('turns "true" and "false" into booleans where the schema says boolean', () => {
    expect(repairArguments(Type.Object({ a: Type.Boolean(), b: Type.Boolean() }), { a: "true", b: "false" })).toEqual({
      value: { a: true, b: false },
      repairs: [
        { pointer: "/a", from: "string", to: "boolean" },
        { pointer: "/b", from: "string", to: "boolean" },
      ],
    });
  });

  it("leaves everything that is not an exact JSON literal of the declared type", () => {
    const schema = Type.Object({ n: Type.Number(), i: Type.Integer(), b: Type.Boolean() });
    for (const text of [" 20", "20 ", "", "0x10", "1_000", "+1", "01", "1e400", "NaN", "Infinity", "twenty"]) {
      expect(repairArguments(schema, { n: text }).repairs).toEqual([]);
    }
    expect(repairArguments(schema, { i: "20.5" }).repairs).toEqual([]);
    // An integer beyond 2^53 is most likely an id: its digits would be lost, however it is written.
    for (const text of ["9007199254740993", "9007199254740993.0", "9.007199254740993e15", "9007199254740993.5", "1e300"]) {
      expect(repairArguments(schema, { i: text, n: text }).repairs).toEqual([]);
    }
    expect(repairArguments(schema, { i: "12345678901234567890" }).repairs).toEqual([]);
    for (const text of ["TRUE", "True", "yes", "1", "0", "on"]) expect(repairArguments(schema, { b: text }).repairs).toEqual([]);
  });

  it("accepts a whole number written with a fraction or exponent for an integer", () => {
    expect(repaired(Type.Object({ i: Type.Integer() }), { i: "2.0" })).toEqual({ i: 2 });
    expect(repaired(Type.Object({ i: Type.Integer() }), { i: "1e3" })).toEqual({ i: 1000 });
  });

  it("repairs nested objects and arrays, with escaped pointers", () => {
    const schema = Type.Object({
      "a/b": Type.Object({ "c~d": Type.Array(Type.Integer()) }),
      rows: Type.Array(Type.Object({ on: Type.Boolean() })),
    });
    expect(repairArguments(schema, { "a/b": { "c~d": [1, "2", 3] }, rows: [{ on: true }, { on: "false" }] })).toEqual({
      value: { "a/b": { "c~d": [1, 2, 3] }, rows: [{ on: true }, { on: false }] },
      repairs: [
        { pointer: "/a~1b/c~0d/1", from: "string", to: "number" },
        { pointer: "/rows/1/on", from: "string", to: "boolean" },
      ],
    });
  });

  it("repairs optional properties when present, and never adds absent ones", () => {
    const schema = Type.Object({ path: Type.String(), offset: Type.Optional(Type.Integer()) });
    expect(repaired(schema, { path: "a", offset: "3" })).toEqual({ path: "a", offset: 3 });
    expect(repairArguments(schema, { path: "a" })).toEqual({ value: { path: "a" }, repairs: [] });
  });

  it("leaves a string where the schema expects a string", () => {
    expect(repairArguments(Type.Object({ zip: Type.String() }), { zip: "02134" }).repairs).toEqual([]);
  });

  it("repairs through records, additional properties, tuples, nullable types and literals", () => {
    expect(repaired(Type.Object({ scores: Type.Record(Type.String(), Type.Number()) }), { scores: { ann: "9.5" } })).toEqual({ scores: { ann: 9.5 } });
    expect(repaired({ type: "object", additionalProperties: { type: "integer" } }, { x: "1" })).toEqual({ x: 1 });
    expect(repaired({ type: "array", prefixItems: [{ type: "string" }, { type: "integer" }] }, ["7", "7"])).toEqual(["7", 7]);
    expect(repaired({ type: "array", items: [{ type: "boolean" }], additionalItems: { type: "number" } }, ["true", "1"])).toEqual([true, 1]);
    expect(repaired({ type: "object", properties: { n: { type: ["integer", "null"] } } }, { n: "4" })).toEqual({ n: 4 });
    expect(repaired(Type.Object({ v: Type.Literal(2) }), { v: "2" })).toEqual({ v: 2 });
    expect(repairArguments(Type.Object({ v: Type.Literal(2) }), { v: "3" }).repairs).toEqual([]);
    expect(repairArguments({ type: "object", properties: { v: { type: "integer", enum: [1, 2] } } }, { v: "3" }).repairs).toEqual([]);
  });

  it("follows local references and TypeBox's named definitions", () => {
    const local = { type: "object", properties: { n: { $ref: "#/$defs/count" } }, $defs: { count: { type: "integer" } } };
    expect(repaired(local, { n: "5" })).toEqual({ n: 5 });
    const tree = Type.Cyclic({ Node: Type.Object({ size: Type.Integer(), children: Type.Array(Type.Ref("Node")) }) }, "Node");
    expect(repairArguments(tree, { size: "1", children: [{ size: "2", children: [] }] })).toEqual({
      value: { size: 1, children: [{ size: 2, children: [] }] },
      repairs: [
        { pointer: "/size", from: "string", to: "number" },
        { pointer: "/children/0/size", from: "string", to: "number" },
      ],
    });
  });

  it("repairs the properties of every allOf branch", () => {
    const schema = Type.Intersect([Type.Object({ a: Type.Integer() }), Type.Object({ b: Type.Boolean() })]);
    expect(repaired(schema, { a: "1", b: "true" })).toEqual({ a: 1, b: true });
  });
});

describe("repairArguments: unions", () => {
  it("repairs when exactly one branch's type fits the text", () => {
    expect(repaired(Type.Object({ v: Type.Union([Type.Number(), Type.Boolean()]) }), { v: "20" })).toEqual({ v: 20 });
    expect(repaired(Type.Object({ v: Type.Union([Type.Integer(), Type.Boolean()]) }), { v: "true" })).toEqual({ v: true });
    expect(repaired(Type.Object({ v: Type.Union([Type.Literal("auto"), Type.Integer()]) }), { v: "20" })).toEqual({ v: 20 });
    expect(repaired(Type.Object({ v: Type.Union([Type.Integer(), Type.Number()]) }), { v: "20" })).toEqual({ v: 20 });
  });

  it("leaves the text when a branch accepts it as a string, or no branch fits", () => {
    expect(repairArguments(Type.Object({ v: Type.Union([Type.String(), Type.Number()]) }), { v: "20" }).repairs).toEqual([]);
    expect(repairArguments(Type.Object({ v: Type.Union([Type.Literal("20"), Type.Number()]) }), { v: "20" }).repairs).toEqual([]);
    expect(repairArguments(Type.Object({ v: Type.Union([Type.Any(), Type.Number()]) }), { v: "20" }).repairs).toEqual([]);
    expect(repairArguments(Type.Object({ v: Type.Union([Type.Integer(), Type.Null()]) }), { v: "2.5" }).repairs).toEqual([]);
  });

  it("walks into an object only when exactly one branch describes an object", () => {
    const one = Type.Object({ v: Type.Union([Type.Object({ n: Type.Integer() }), Type.String()]) });
    expect(repaired(one, { v: { n: "1" } })).toEqual({ v: { n: 1 } });
    const two = Type.Object({ v: Type.Union([Type.Object({ n: Type.Integer() }), Type.Object({ n: Type.String() })]) });
    expect(repairArguments(two, { v: { n: "1" } }).repairs).toEqual([]);
  });
});

describe("repairArguments: purity and reports", () => {
  it("never modifies its input, copies only the path to a repair, and returns the input itself when nothing changed", () => {
    const schema = Type.Object({ a: Type.Object({ n: Type.Integer() }), b: Type.Object({ s: Type.String() }) });
    const input = { a: { n: "1" }, b: { s: "x" } };
    const { value } = repairArguments(schema, input) as { value: typeof input };
    expect(input).toEqual({ a: { n: "1" }, b: { s: "x" } });
    expect(value).not.toBe(input);
    expect(value.a).not.toBe(input.a);
    expect(value.b).toBe(input.b);
    const untouched = { a: { n: 1 }, b: { s: "x" } };
    expect(repairArguments(schema, untouched).value).toBe(untouched);
  });

  it("keeps a __proto__ key an own property in copies", () => {
    const input = JSON.parse('{"__proto__":{"polluted":"1"},"n":"2"}') as Record<string, unknown>;
    const schema = { type: "object", properties: { n: { type: "integer" } } };
    const value = repairArguments(schema, input).value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(value, "__proto__")?.value).toEqual({ polluted: "1" });
    expect(value.n).toBe(2);
  });

  it("reports pointers and types, never values", () => {
    const { repairs } = repairArguments(Type.Object({ secret: Type.Integer() }), { secret: "424242" });
    expect(JSON.stringify(repairs)).not.toContain("424242");
  });

  it("lets a failed check pass on a second check, as the registry's opt-in repair will do", () => {
    const tool = { name: "read", description: "", parameters: Type.Object({ path: Type.String(), offset: Type.Optional(Type.Integer({ minimum: 0 })) }) };
    const args = { path: "a", offset: "20" };
    expect(thrownBy(() => validateToolArguments(tool, args))).toBeInstanceOf(ToolArgumentsValidationError);
    const { value, repairs } = repairArguments(tool.parameters, args);
    expect(validateToolArguments(tool, value)).toEqual({ path: "a", offset: 20 });
    expect(repairs).toEqual([{ pointer: "/offset", from: "string", to: "number" }]);
  });

  it("survives deep nesting and schemas with cycles without a native error", () => {
    let deep: unknown = "1";
    for (let level = 0; level < 5000; level++) deep = [deep];
    const nested = { $ref: "#/$defs/n", $defs: { n: { anyOf: [{ type: "integer" }, { type: "array", items: { $ref: "#/$defs/n" } }] } } };
    expect(() => repairArguments(nested, deep)).not.toThrow();
    expect(() => repairArguments({ $ref: "#" }, "1")).not.toThrow();
  });
});

describe("repairArguments: a string holding JSON", () => {
  const schema = Type.Object({
    filter: Type.Optional(Type.Object({ city: Type.String(), days: Type.Optional(Type.Integer()) })),
    tags: Type.Optional(Type.Array(Type.String())),
    text: Type.Optional(Type.String()),
    either: Type.Optional(Type.Union([Type.String(), Type.Object({ a: Type.Integer() })])),
  });

  it("becomes the object or array it holds where the schema refuses the string and accepts the parsed value", () => {
    expect(repairArguments(schema, { filter: '{"city":"Paris","days":3}', tags: ' ["a", "b"]\n' })).toEqual({
      value: { filter: { city: "Paris", days: 3 }, tags: ["a", "b"] },
      repairs: [
        { pointer: "/filter", from: "string", to: "object" },
        { pointer: "/tags", from: "string", to: "array" },
      ],
    });
  });

  it("leaves a string the schema accepts, even one that holds JSON", () => {
    expect(repairArguments(schema, { text: '{"a":1}', either: '{"a":1}' }).repairs).toEqual([]);
  });

  it("leaves text whose parsed value the schema refuses, and text that is not JSON", () => {
    expect(repairArguments(schema, { filter: '{"city":5}' }).repairs).toEqual([]);
    expect(repairArguments(schema, { filter: '{"city":"Paris",}' }).repairs).toEqual([]);
    // Nor is a string that looks like a JSON array a lone string for a list of strings.
    expect(repairArguments(schema, { tags: "[a, b]" }).repairs).toEqual([]);
  });

  it("takes the parsed value as it is: a mistake inside it is not repaired as well", () => {
    expect(repairArguments(schema, { filter: '{"city":"Paris","days":"3"}' }).repairs).toEqual([]);
  });

  it("parses at most maxParseBytes of UTF-8 in all, counting every text it reads", () => {
    const two = Type.Object({ a: Type.Array(Type.Integer()), b: Type.Array(Type.Integer()) });
    const text = `[${"1,".repeat(20)}1]`; // 43 bytes
    expect(repairArguments(two, { a: text, b: text }, { maxParseBytes: 86 }).repairs).toHaveLength(2);
    expect(repairArguments(two, { a: text, b: text }, { maxParseBytes: 85 }).repairs).toEqual([{ pointer: "/a", from: "string", to: "array" }]);
    expect(repairArguments(two, { a: text, b: text }, { maxParseBytes: 42 }).repairs).toEqual([]);
    // Multi-byte characters count as their UTF-8 bytes: "é" is two.
    expect(repairArguments(Type.Object({ a: Type.Array(Type.String()) }), { a: '["é"]' }, { maxParseBytes: 5 }).repairs).toEqual([]);
    expect(repairArguments(Type.Object({ a: Type.Array(Type.String()) }), { a: '["é"]' }, { maxParseBytes: 6 }).repairs).toHaveLength(1);
  });

  it("never parses text that nests deeper than the library walks values", () => {
    const any = { type: "object", properties: { deep: { type: "array" } } };
    const nested = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;
    expect(repairArguments(any, { deep: nested(255) }).repairs).toHaveLength(1);
    expect(repairArguments(any, { deep: nested(256) }).repairs).toEqual([]);
    expect(repairArguments(any, { deep: nested(100_000) }).repairs).toEqual([]);
  });
});

describe("repairArguments: null for an optional property", () => {
  const schema = Type.Object({ path: Type.String(), offset: Type.Optional(Type.Integer()), note: Type.Optional(Type.Union([Type.String(), Type.Null()])) });

  it("leaves the property out, and reports it as omitted", () => {
    expect(repairArguments(schema, { path: "a", offset: null })).toEqual({ value: { path: "a" }, repairs: [{ pointer: "/offset", from: "null", to: "omitted" }] });
  });

  it("keeps null for a required property, for a property whose schema accepts null, and for an undeclared one", () => {
    expect(repairArguments(schema, { path: null }).repairs).toEqual([]);
    expect(repairArguments(schema, { path: "a", note: null }).repairs).toEqual([]);
    expect(repairArguments(Type.Object({ a: Type.String() }, { additionalProperties: Type.String() }), { a: "x", b: null }).repairs).toEqual([]);
  });

  it("keeps null for a property an allOf branch requires", () => {
    const both = Type.Intersect([Type.Object({ a: Type.Optional(Type.Integer()) }), Type.Object({ a: Type.Integer() })]);
    expect(repairArguments(both, { a: null }).repairs).toEqual([]);
  });
});

describe("repairArguments: a lone value for a list", () => {
  const schema = Type.Object({
    tags: Type.Optional(Type.Array(Type.String())),
    points: Type.Optional(Type.Array(Type.Object({ x: Type.Number() }))),
    pair: Type.Optional(Type.Array(Type.Integer(), { minItems: 2 })),
    ids: Type.Optional(Type.Array(Type.Integer())),
  });

  it("becomes a one-element array where the items accept it and the schema refuses it", () => {
    expect(repairArguments(schema, { tags: "urgent", points: { x: 1 } })).toEqual({
      value: { tags: ["urgent"], points: [{ x: 1 }] },
      repairs: [
        { pointer: "/tags", from: "string", to: "array" },
        { pointer: "/points", from: "object", to: "array" },
      ],
    });
  });

  it("wraps a lone null where the items accept null, as any lone value; an optional property's null is left out instead", () => {
    const tags = Type.Array(Type.Union([Type.String(), Type.Null()]));
    expect(repairArguments(Type.Object({ tags }), { tags: null })).toEqual({ value: { tags: [null] }, repairs: [{ pointer: "/tags", from: "null", to: "array" }] });
    expect(repairArguments(Type.Object({ tags: Type.Optional(tags) }), { tags: null })).toEqual({ value: {}, repairs: [{ pointer: "/tags", from: "null", to: "omitted" }] });
    expect(repairArguments(Type.Object({ tags: Type.Array(Type.String()) }), { tags: null }).repairs).toEqual([]);
  });

  it("never wraps an optional property set to undefined, which the check reads as absent", () => {
    const schema = Type.Object({ n: Type.Integer(), tags: Type.Optional(Type.Array(Type.Unknown())) });
    expect(repairArguments(schema, { n: "5", tags: undefined })).toEqual({ value: { n: 5, tags: undefined }, repairs: [{ pointer: "/n", from: "string", to: "number" }] });
  });

  it("stays as it is when the array would still be refused, or when the items refuse it", () => {
    expect(repairArguments(schema, { pair: 1 }).repairs).toEqual([]);
    expect(repairArguments(schema, { ids: "5" }).repairs).toEqual([]);
    expect(repairArguments(Type.Object({ tags: Type.Union([Type.String(), Type.Array(Type.String())]) }), { tags: "a" }).repairs).toEqual([]);
  });

  it("reads a string that holds a JSON array as that array, never as a lone string", () => {
    expect(repairArguments(schema, { tags: '["a","b"]' }).value).toEqual({ tags: ["a", "b"] });
  });

  it("stops testing once its step budget is spent, and repairs nothing it could not test", () => {
    // Twenty nested `not`s cost about twenty steps per test: 5,000 tests cost more than a few steps per node.
    let costly: unknown = { type: "integer" };
    for (let index = 0; index < 20; index++) costly = { not: { not: costly } };
    const lists = { type: "object", properties: { rows: { type: "array", items: { type: "array", items: costly } } } };
    const { repairs } = repairArguments(lists, { rows: Array.from({ length: 5_000 }, (_, index) => index) });
    expect(repairs.length).toBeGreaterThan(0);
    expect(repairs.length).toBeLessThan(5_000);
  });
});

describe("repairArguments: the work of a repair", () => {
  /** `branches` union branches, each a proxy that counts every read of its keywords into `reads.count`. */
  function countedBranches(branches: readonly object[], reads: { count: number }): object[] {
    return branches.map((branch) => new Proxy(branch, { get: (target, key) => (reads.count++, Reflect.get(target, key)), has: (target, key) => (reads.count++, Reflect.has(target, key)) }));
  }

  it("reads a union of many literals once per repair, not once per string it applies to", () => {
    const reads = { count: 0 };
    const zones = countedBranches(Array.from({ length: 400 }, (_, index) => ({ const: `Zone/City_${index}`, type: "string" })), reads);
    const schema = { type: "object", properties: { zones: { type: "array", items: { anyOf: zones } }, n: { type: "integer" } }, required: ["zones", "n"] };
    const { value, repairs } = repairArguments(schema, { zones: Array.from({ length: 2_000 }, (_, index) => `Zone/City_${index % 400}`), n: "5" });
    expect(repairs).toEqual([{ pointer: "/n", from: "string", to: "number" }]);
    expect((value as { n: unknown }).n).toBe(5);
    // Each branch is read a few times in all; read per string, it would be 2,000 times each.
    expect(reads.count).toBeLessThan(400 * 20);
  });

  it("finds the object branch of a union of many once per repair, not once per object it applies to", () => {
    const reads = { count: 0 };
    const branches = countedBranches(Array.from({ length: 300 }, (_, index) => (index === 0 ? { type: "object", properties: { n: { type: "integer" } } } : { type: "string" })), reads);
    const schema = { type: "object", properties: { rows: { type: "array", items: { anyOf: branches } } } };
    const { repairs } = repairArguments(schema, { rows: Array.from({ length: 1_000 }, () => ({ n: "1" })) });
    expect(repairs).toHaveLength(1_000);
    expect(reads.count).toBeLessThan(300 * 20 + 1_000 * 20);
  });

  it("converts a literal under a union of many number constants with a lookup: every value repaired, each branch read a few times", async () => {
    const reads = { count: 0 };
    const branches = countedBranches(Array.from({ length: 1_000 }, (_, index) => ({ type: "integer", const: index })), reads);
    const schema = { type: "object", properties: { picks: { type: "array", items: { anyOf: branches } } } };
    const { repairs } = repairArguments(schema, { picks: Array.from({ length: 5_000 }, (_, index) => String(index % 1_000)) });
    expect(repairs).toHaveLength(5_000);
    expect(reads.count).toBeLessThan(1_000 * 20 + 5_000 * 20);
  });

  it("never walks below a value no schema describes: of a tree shared 2^30 ways under Type.Unknown, only its own two keys are read", () => {
    let reads = 0;
    const counted = (target: object): object => new Proxy(target, { ownKeys: (inner) => (reads++, Reflect.ownKeys(inner)), get: (inner, key) => (reads++, Reflect.get(inner, key)) });
    let shared: object = counted({ leaf: 1 });
    for (let level = 0; level < 30; level++) shared = counted({ a: shared, b: shared });
    const { value, repairs } = repairArguments(Type.Object({ n: Type.Number(), u: Type.Unknown() }), { n: "5", u: shared });
    expect(repairs).toEqual([{ pointer: "/n", from: "string", to: "number" }]);
    expect((value as { u: unknown }).u).toBe(shared);
    // Its keys (one read) and their values (two): nothing below them.
    expect(reads).toBe(3);
  });

  it("ends on a cycle a recursive schema describes, within its budget: each object counts once", () => {
    const node = Type.Cyclic({ Node: Type.Object({ n: Type.Number(), a: Type.Optional(Type.Ref("Node")), b: Type.Optional(Type.Ref("Node")) }) }, "Node");
    const cycle: Record<string, unknown> = { n: "5" };
    cycle.a = cycle;
    cycle.b = cycle;
    // Walked as a tree it has 2^256 paths; the budget (extra steps, then a few per object) ends the walk.
    const { repairs } = repairArguments(node, cycle);
    expect(repairs[0]).toEqual({ pointer: "/n", from: "string", to: "number" });
    expect(repairs.length).toBeLessThan(10_000);
  });

  it("repairs every item of a list under a union of a few constants, within its budget", () => {
    const score = { anyOf: Array.from({ length: 24 }, (_, index) => ({ type: "integer", const: index + 1 })) };
    const schema = { type: "object", properties: { ratings: { type: "array", items: { type: "object", properties: { score } } } } };
    const { repairs } = repairArguments(schema, { ratings: Array.from({ length: 600 }, (_, index) => ({ score: String((index % 24) + 1) })) });
    expect(repairs).toHaveLength(600);
  });
});

describe("repairArguments: unions", () => {
  it("walks into a union's object branch only when every other branch's type excludes objects", () => {
    const loose = { type: "object", properties: { v: { anyOf: [{ type: "object", properties: { n: { type: "integer" } } }, { required: ["n"] }] } } };
    expect(repairArguments(loose, { v: { n: "1" } }).repairs).toEqual([]);
    const nullable = Type.Object({ v: Type.Union([Type.Object({ n: Type.Integer() }), Type.Null()]) });
    expect(repairArguments(nullable, { v: { n: "1" } }).value).toEqual({ v: { n: 1 } });
  });
});

/**
 * Random schemas of the shapes tool parameters take (an object of properties: scalars with
 * constraints, enums, arrays, nested objects, nullable unions), and values near them: valid ones
 * and the mistakes the rules repair (numbers and booleans as text, objects and arrays as JSON
 * text, null for optional properties, lone values), mixed with anything else.
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type RandomSchema = Record<string, unknown>;

const leafSchema: fc.Arbitrary<RandomSchema> = fc.oneof(
  fc.record({ type: fc.constantFrom("string", "integer", "number", "boolean") }),
  fc.record({ type: fc.constant("integer"), minimum: fc.integer({ min: -3, max: 3 }) }),
  fc.record({ type: fc.constant("string"), minLength: fc.nat(2), pattern: fc.constantFrom("^a", "b$") }, { requiredKeys: ["type"] }),
  fc.record({ type: fc.constant("string"), enum: fc.uniqueArray(fc.constantFrom("a", "b", "[1]", "{}"), { minLength: 1, maxLength: 3 }) }),
);
const propertySchema: fc.Arbitrary<RandomSchema> = fc.letrec<{ node: RandomSchema }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", maxDepth: 3 },
    leafSchema,
    fc.record({ type: fc.constant("array"), items: tie("node"), minItems: fc.nat(2), maxItems: fc.integer({ min: 1, max: 4 }) }, { requiredKeys: ["type", "items"] }),
    fc
      .record({ properties: fc.dictionary(fc.constantFrom("a", "b"), tie("node"), { maxKeys: 2 }), required: fc.subarray(["a", "b"]) })
      .map(({ properties, required }) => ({ type: "object", properties, required: required.filter((name) => name in properties) })),
    tie("node").map((node) => ({ anyOf: [node, { type: "null" }] })),
  ),
})).node;
const rootSchema = fc
  .record({ properties: fc.dictionary(fc.constantFrom("p", "q", "r"), propertySchema, { minKeys: 1, maxKeys: 3 }), required: fc.subarray(["p", "q", "r"]) })
  .map(({ properties, required }): RandomSchema => ({ type: "object", properties, required: required.filter((name) => name in properties) }));

function near(schema: unknown, root = false): fc.Arbitrary<Json> {
  const node = (schema ?? {}) as RandomSchema;
  const anything = fc.oneof(fc.constantFrom<Json>(null, "x", 1, true, [], {}), fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>);
  // Mostly what the schema wants, often one of the mistakes the rules repair, sometimes anything.
  const mostly = (valid: fc.Arbitrary<Json>, ...others: Array<fc.Arbitrary<Json>>) =>
    fc.oneof({ arbitrary: valid, weight: 3 }, ...others.map((arbitrary) => ({ arbitrary, weight: 1 })));
  if (Array.isArray(node.anyOf)) return mostly(near(node.anyOf[0]), anything);
  if (Array.isArray(node.enum)) return mostly(fc.constantFrom(...(node.enum as Json[])), anything);
  switch (node.type) {
    case "integer":
    case "number":
      return mostly(fc.integer({ min: -5, max: 5 }), fc.integer({ min: -5, max: 5 }).map(String), fc.constantFrom(0.5, "0.5", " 1"), anything);
    case "boolean":
      return mostly(fc.boolean(), fc.constantFrom("true", "false", "yes"), anything);
    case "string":
      return mostly(fc.constantFrom("a", "ab", "b", "", "[1]", '{"a":1}', "1"), anything);
    case "array": {
      const items = fc.array(near(node.items), { maxLength: 3 });
      return mostly(items, items.map((list) => JSON.stringify(list)), near(node.items), near(node.items), anything);
    }
    case "object": {
      const properties = (node.properties ?? {}) as Record<string, unknown>;
      const object = fc.record(Object.fromEntries(Object.entries(properties).map(([name, subschema]) => [name, mostly(near(subschema), fc.constant(null))])), { requiredKeys: [] }) as fc.Arbitrary<Json>;
      return root ? object : mostly(object, object.map((value) => JSON.stringify(value)), anything);
    }
    default:
      return anything;
  }
}

const cases = rootSchema.chain((schema) => fc.tuple(fc.constant(schema), near(schema, true)));

describe("repairArguments: properties on random schemas and values (Ajv as oracle)", () => {
  const ajv = new Ajv({ strict: false });
  // Compiling is the costly part: one validator per distinct schema text.
  const compiled = new Map<string, ValidateFunction>();
  const check = (schema: unknown, value: unknown): boolean => {
    const text = JSON.stringify(schema);
    let validate = compiled.get(text);
    if (validate === undefined) compiled.set(text, (validate = ajv.compile(schema as object)));
    return validate(value);
  };
  const runs = { numRuns: Number(process.env.FUZZ_RUNS ?? 300), seed: 20261216 };

  it("never changes a value the schema accepts: the same object comes back, with no repairs", () => {
    let accepted = 0;
    fc.assert(
      fc.property(cases, ([schema, value]) => {
        if (!check(schema, value)) return;
        accepted++;
        const result = repairArguments(schema, value);
        expect(result.repairs).toEqual([]);
        expect(result.value).toBe(value);
      }),
      runs,
    );
    expect(accepted).toBeGreaterThan(30);
  });

  /** Every case's repairs, each with what the oracle needs to judge it: the value before and after, its schema and its parent's. */
  function eachRepair(onRepair: (repair: Judged) => void): void {
    fc.assert(
      fc.property(cases, ([schema, value]) => {
        const before = structuredClone(value);
        const { value: after, repairs } = repairArguments(schema, value);
        expect(value).toEqual(before);
        const expected = structuredClone(before);
        for (const repair of repairs) {
          const { pointer, to } = repair;
          const judged: Judged = {
            ...repair,
            original: at(before, pointer),
            now: to === "omitted" ? undefined : at(after, pointer),
            subschema: subschemaAt(schema, pointer),
            parent: subschemaAt(schema, pointer.split("/").slice(0, -1).join("/")) as RandomSchema,
          };
          expect(judged.subschema, `a repair at ${pointer} where no subschema applies`).toBeDefined();
          // Every rule repairs only a value the schema at its pointer refuses.
          expect(check(judged.subschema, judged.original)).toBe(false);
          onRepair(judged);
          if (to === "omitted") remove(expected, pointer);
          else put(expected, pointer, judged.now);
        }
        // Nothing changes that is not reported.
        expect(after).toEqual(expected);
      }),
      runs,
    );
  }

  it("rule 1 turns only a refused string into the number or boolean it spells", () => {
    let fired = 0;
    eachRepair(({ from, to, original, now }) => {
      if (to !== "number" && to !== "boolean") return;
      fired++;
      expect(from).toBe("string");
      expect(to === "boolean" ? String(now) === original : Number(original) === now).toBe(true);
    });
    expect(fired).toBeGreaterThanOrEqual(5);
  });

  it("rule 2 turns only a refused string into the object or array it holds, and only when the schema accepts that", () => {
    let fired = 0;
    eachRepair(({ from, to, original, now, subschema }) => {
      if (from !== "string" || (to !== "object" && to !== "array") || isDeepStrictEqual(now, [original])) return;
      fired++;
      expect(now).toEqual(JSON.parse(original as string));
      expect(check(subschema, now)).toBe(true);
    });
    expect(fired).toBeGreaterThanOrEqual(5);
  });

  it("rule 3 leaves out only a null the schema refuses, of a property its object does not require", () => {
    let fired = 0;
    eachRepair(({ from, to, pointer, original, parent }) => {
      if (to !== "omitted") return;
      fired++;
      expect(from).toBe("null");
      expect(original).toBeNull();
      expect(parent.required ?? []).not.toContain(lastSegment(pointer));
    });
    expect(fired).toBeGreaterThanOrEqual(5);
  });

  it("rule 4 wraps only a refused lone value (null too), never a string that looks like JSON, and only when the schema accepts the array", () => {
    let fired = 0;
    eachRepair(({ to, original, now, subschema }) => {
      if (to !== "array" || !isDeepStrictEqual(now, [original])) return;
      fired++;
      if (typeof original === "string") expect(original.trim()).not.toMatch(/^(\{[^]*\}|\[[^]*\])$/);
      expect(check(subschema, now)).toBe(true);
    });
    expect(fired).toBeGreaterThanOrEqual(5);
  });
});

interface Judged extends ArgumentRepair {
  readonly original: unknown;
  readonly now: unknown;
  readonly subschema: unknown;
  readonly parent: RandomSchema;
}

function segments(pointer: string): string[] {
  return pointer === "/" || pointer === "" ? [] : pointer.slice(1).split("/").map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function lastSegment(pointer: string): string {
  return segments(pointer).at(-1)!;
}

function at(root: unknown, pointer: string): unknown {
  return segments(pointer).reduce<unknown>((value, segment) => (value as Record<string, unknown>)[segment], root);
}

function put(root: unknown, pointer: string, value: unknown): void {
  const path = segments(pointer);
  const parent = path.slice(0, -1).reduce<unknown>((node, segment) => (node as Record<string, unknown>)[segment], root) as Record<string, unknown>;
  parent[path.at(-1)!] = value;
}

function remove(root: unknown, pointer: string): void {
  const path = segments(pointer);
  const parent = path.slice(0, -1).reduce<unknown>((node, segment) => (node as Record<string, unknown>)[segment], root) as Record<string, unknown>;
  delete parent[path.at(-1)!];
}

/** The subschema of the random grammar at a pointer: properties and items, through a nullable union's first branch. */
function subschemaAt(schema: unknown, pointer: string): unknown {
  let node = schema as RandomSchema | undefined;
  for (const segment of segments(pointer)) {
    if (node !== undefined && Array.isArray(node.anyOf)) node = node.anyOf[0] as RandomSchema;
    if (node === undefined) return undefined;
    node = node.type === "array" ? (node.items as RandomSchema) : ((node.properties as Record<string, RandomSchema> | undefined)?.[segment] ?? undefined);
  }
  return node;
}
