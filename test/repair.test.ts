import { Ajv } from "ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ToolArgumentsValidationError, Type, validateToolArguments, type TSchema } from "../src/index.js";
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

describe("repairArguments: invariants", () => {
  const schema = Type.Object({
    count: Type.Integer(),
    ratio: Type.Optional(Type.Number()),
    flag: Type.Optional(Type.Boolean()),
    mode: Type.Optional(Type.Union([Type.Literal("auto"), Type.Integer()])),
    tags: Type.Optional(Type.Array(Type.Union([Type.Number(), Type.Boolean()]))),
    nested: Type.Optional(Type.Object({ n: Type.Integer(), label: Type.Optional(Type.String()) })),
  });
  const ajv = new Ajv({ strict: false });
  const valid = ajv.compile(JSON.parse(JSON.stringify(schema)));
  const leaf = fc.oneof(
    fc.integer().map(String),
    fc.double({ noNaN: true }).map(String),
    fc.constantFrom("true", "false", "yes", " 1", "", "auto", "1e400", "2.0"),
    fc.integer(),
    fc.boolean(),
    fc.string(),
    fc.constant(null),
  );
  const value = fc.record(
    { count: leaf, ratio: leaf, flag: leaf, mode: leaf, tags: fc.array(leaf, { maxLength: 4 }), nested: fc.record({ n: leaf, label: leaf }, { requiredKeys: [] }) },
    { requiredKeys: [] },
  );

  it("changes only the reported values, each a string turned into the number or boolean it spells", () => {
    fc.assert(
      fc.property(value, (input) => {
        const before = structuredClone(input);
        const { value: after, repairs } = repairArguments(schema, input);
        expect(input).toEqual(before);
        const expected = structuredClone(before) as Record<string, unknown>;
        for (const { pointer, from, to } of repairs) {
          const original = at(before, pointer);
          const now = at(after, pointer);
          expect(from).toBe("string");
          expect(typeof original).toBe("string");
          expect(typeof now).toBe(to);
          expect(to === "boolean" ? String(now) === original : Number(original) === now).toBe(true);
          put(expected, pointer, now);
        }
        expect(after).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it("repairs nothing in arguments the schema already accepts (Ajv as oracle)", () => {
    // Mostly well-typed values, with strings where the schema allows them ("auto", labels).
    const validish = fc.record(
      {
        count: fc.integer(),
        ratio: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), leaf),
        flag: fc.oneof(fc.boolean(), leaf),
        mode: fc.oneof(fc.constant("auto"), fc.integer(), leaf),
        tags: fc.array(fc.oneof(fc.integer(), fc.boolean(), leaf), { maxLength: 3 }),
        nested: fc.record({ n: fc.integer(), label: fc.oneof(fc.integer().map(String), fc.constantFrom("true", "20"), fc.string()) }, { requiredKeys: ["n"] }),
      },
      { requiredKeys: ["count"] },
    );
    let accepted = 0;
    fc.assert(
      fc.property(validish, (input) => {
        if (!valid(input)) return;
        accepted++;
        expect(repairArguments(schema, input)).toEqual({ value: input, repairs: [] });
      }),
      { numRuns: 500 },
    );
    expect(accepted).toBeGreaterThan(50);
  });
});

function segments(pointer: string): string[] {
  return pointer === "/" ? [] : pointer.slice(1).split("/").map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function at(root: unknown, pointer: string): unknown {
  return segments(pointer).reduce<unknown>((value, segment) => (value as Record<string, unknown>)[segment], root);
}

function put(root: unknown, pointer: string, value: unknown): void {
  const path = segments(pointer);
  const parent = at(root, `/${path.slice(0, -1).join("/")}`.replace(/^\/$/, "/")) as Record<string, unknown>;
  parent[path.at(-1)!] = value;
}
