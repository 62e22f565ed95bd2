import fc from "fast-check";
import { Compile } from "typebox/compile";
import { describe, expect, it } from "vitest";
import { Type } from "../src/index.js";
import { issueLines, MAX_ISSUES, MAX_ISSUES_CHARACTERS } from "../src/text/issues.js";
import { type Issue, SchemaExplainer } from "../src/validation/explainer.js";

const Item = Type.Object({ id: Type.Integer(), qty: Type.Number({ minimum: 0 }), tags: Type.Array(Type.String(), { maxItems: 3 }) });
const schema = Type.Object({
  mode: Type.Union([Type.Literal("fast"), Type.Literal("safe")]),
  color: Type.Optional(Type.String({ enum: ["red", "green"] })),
  owner: Type.Object({ name: Type.String(), address: Type.Object({ city: Type.String() }) }),
  items: Type.Array(Item, { minItems: 1 }),
  labels: Type.Optional(Type.Record(Type.String(), Type.String())),
  note: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
const valid = { mode: "fast", owner: { name: "n", address: { city: "c" } }, items: [{ id: 1, qty: 2, tags: [] }] };

function lines(issues: readonly Issue[]): string[] {
  return issues.map((issue) => `${issue.pointer || "/"}: ${issue.message}`);
}

function explain(target: unknown, value: unknown, maxIssues = 20): string[] {
  return lines(new SchemaExplainer(target).explain(value, { maxIssues }));
}

describe("SchemaExplainer", () => {
  it("finds the failures deep inside objects and arrays, at their pointers", () => {
    const value = structuredClone(valid) as Record<string, any>;
    value.owner.address.city = 5;
    value.items.push({ id: 2.5, qty: -1, tags: ["a", 1] });
    expect(explain(schema, value)).toEqual([
      "/owner/address/city: must be string",
      "/items/1/id: must be integer",
      "/items/1/qty: must be >= 0",
      "/items/1/tags/1: must be string",
    ]);
  });

  it("lists issues in schema order, a missing property where the schema declares it", () => {
    const add = Type.Object({ a: Type.Integer(), b: Type.Integer() });
    expect(explain(add, { a: 2.5 })).toEqual(["/a: must be integer", "/b: must have required properties b"]);
  });

  it("names the allowed values of a union of literals and of an enum", () => {
    expect(explain(schema, { ...valid, mode: "slow", color: "blue" })).toEqual(['/mode: must be one of "fast", "safe"', '/color: must be one of "red", "green"']);
  });

  it("says the declared type, not the enum, when a value of the wrong type matches an enum value's text", () => {
    expect(explain({ type: "object", properties: { flag: { type: "boolean", enum: ["True", "False"] } } }, { flag: "True" })).toEqual(["/flag: must be boolean"]);
  });

  it("follows references, TypeBox's named ones and JSON Pointer ones with percent-encoding, to the failing node", () => {
    const tree = Type.Cyclic({ Node: Type.Object({ children: Type.Array(Type.Ref("Node")) }) }, "Node");
    expect(explain(tree, { children: [{ children: [{ children: 5 }] }] })).toEqual(['/children/0/children/0/children: must be array of object with properties "children"']);
    const spaced = { $defs: { "a b": { type: "integer" } }, type: "object", properties: { n: { $ref: "#/$defs/a%20b" } } };
    expect(explain(spaced, { n: "x" })).toEqual(["/n: must be integer"]);
  });

  it("explains the branch of a discriminated union that the object names", () => {
    const payment = Type.Union([
      Type.Object({ kind: Type.Literal("card"), last4: Type.String({ pattern: "^[0-9]{4}$" }) }),
      Type.Object({ kind: Type.Literal("iban"), iban: Type.String({ minLength: 15 }) }),
    ]);
    expect(explain(payment, { kind: "iban", iban: "DE00" })).toEqual(["/iban: must not have fewer than 15 characters"]);
    expect(explain(Type.Union([Type.String(), Type.Integer()]), true)).toEqual(["/: must be either string or integer"]);
  });

  it("reports a closed object's extra properties one by one, and a propertyNames failure without the names", () => {
    expect(explain(Type.Object({ a: Type.String() }, { additionalProperties: false }), { a: "x", b: 1, c: 2 })).toEqual([
      '/b: is not an allowed property (allowed: "a")',
      '/c: is not an allowed property (allowed: "a")',
    ]);
    const named = explain(Type.Object({}, { propertyNames: Type.String({ pattern: "^[a-z]+$" }) }), { BAD_NAME: 1 });
    expect(named).toEqual(['/: property names are invalid (each must be string (pattern "^[a-z]+$"))']);
  });

  it("judges by own properties only: an inherited member never satisfies required or dependentRequired", () => {
    const inherited = { type: "object", required: ["toString"], dependentRequired: { a: ["valueOf"] } };
    expect(explain(inherited, { a: 1 })).toEqual(["/toString: must have required properties toString", "/: must have properties valueOf when property a is present"]);
  });

  it("compares enum, const and uniqueItems by JSON equality: an array-like object is not an array, 0 equals -0", () => {
    expect(explain({ enum: [["read", "write"]] }, { 0: "read", 1: "write", length: 2 })).toEqual(['/: must be ["read","write"]']);
    expect(explain({ type: "array", uniqueItems: true }, [0, -0])).toEqual(["/: must not have duplicate items (item 1 repeats item 0)"]);
    expect(new SchemaExplainer({ type: "array", uniqueItems: true }).matches(["a", "b", "a\nb"])).toBe(true);
  });

  it("checks multipleOf exactly in decimal", () => {
    expect(explain({ type: "number", multipleOf: 0.01 }, 10.00000000005)).toEqual(["/: must be a multiple of 0.01"]);
    expect(new SchemaExplainer({ type: "number", multipleOf: 0.1 }).matches(0.3)).toBe(true);
  });

  it("cuts long patterns and long enum values in messages", () => {
    const pattern = `^${"a".repeat(5000)}$`;
    const [issue] = explain({ type: "string", pattern }, "b");
    expect(issue!.length).toBeLessThan(200);
  });

  it("tests patterns in linear time, as the validator does: an exponential pattern on the native engine explains at once", () => {
    // With V8's backtracking this pattern on 40 characters would take days.
    expect(explain({ type: "string", pattern: "^(a+)+$" }, `${"a".repeat(40)}!`)).toEqual(['/: must match pattern "^(a+)+$"']);
  });

  it("returns at most the number of issues asked for", () => {
    const many = Type.Object({ list: Type.Array(Type.Integer()) });
    expect(explain(many, { list: Array.from({ length: 100 }, () => "x") }, 5)).toHaveLength(5);
  });

  it("reads no more of the value once it holds the issues asked for, in arrays, objects and records", () => {
    const read: string[] = [];
    // Every item and property read is recorded: the walk must stop at the fifth wrong one.
    const counted = <T extends object>(name: string, target: T): T =>
      new Proxy(target, { get: (object, key, receiver) => (typeof key === "string" && /^(\d+|k\d+)$/.test(key) && read.push(`${name}/${key}`), Reflect.get(object, key, receiver)) });
    const schema = Type.Object({
      list: Type.Array(Type.Integer()),
      map: Type.Record(Type.String(), Type.Integer()),
      object: Type.Object(Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`k${index}`, Type.Integer()]))),
    });
    const wrong = (count: number) => Array.from({ length: count }, () => "x");
    const keyed = () => Object.fromEntries(wrong(20).map((item, index) => [`k${index}`, item]));
    expect(explain(schema, { list: counted("list", wrong(100)), map: counted("map", keyed()), object: counted("object", keyed()) }, 5)).toHaveLength(5);
    expect(read).toEqual(["list/0", "list/1", "list/2", "list/3", "list/4"]);
    read.length = 0;
    expect(explain(schema, { list: [], map: counted("map", keyed()), object: counted("object", keyed()) }, 3)).toHaveLength(3);
    expect(read).toEqual(["map/k0", "map/k1", "map/k2"]);
    read.length = 0;
    expect(explain(schema, { list: [], map: {}, object: counted("object", keyed()) }, 2)).toHaveLength(2);
    expect(read).toEqual(["object/k0", "object/k1"]);
  });

  it("explains a refused value of 80,000 duplicate numbers in linear time", () => {
    const unique = Type.Object({ ids: Type.Array(Type.Number(), { uniqueItems: true }) });
    // TypeBox's own explanation copies the duplicate list on every duplicate: minutes for this value.
    expect(explain(unique, { ids: Array.from({ length: 80_000 }, () => 7) })).toEqual(["/ids: must not have duplicate items (item 1 repeats item 0)"]);
  });

  it("asks a refinement only about values the rest of its node accepts, as TypeBox does, and never once the walk has ended", () => {
    const asked: unknown[] = [];
    const refined = Type.Refine(Type.Object({ a: Type.String() }), (value) => (asked.push(value), value.a.length > 3));
    const schema = Type.Object({ list: Type.Array(Type.Integer()), item: refined });
    expect(explain(schema, { list: [], item: null })).toEqual(['/item: must be object with properties "a"']);
    expect(explain(schema, { list: [], item: { a: 5 } })).toEqual(["/item/a: must be string"]);
    expect(asked).toEqual([]);
    expect(explain(schema, { list: [], item: { a: "x" } })).toEqual(["/item: does not pass the schema's refinement"]);
    expect(asked).toEqual([{ a: "x" }]);
    // The list's wrong items fill the issues: the walk ends before the item, which is never asked about.
    expect(explain(schema, { list: ["x", "y"], item: { a: "x" } }, 2)).toEqual(["/list/0: must be integer", "/list/1: must be integer"]);
    expect(asked).toHaveLength(1);
  });

  it("stops at its step budget, with one generic issue, on a schema that costs many steps per node", () => {
    // Twenty nested `not`s cost twenty steps per item: more than the budget of a few steps per node.
    let costly: unknown = { type: "integer" };
    for (let index = 0; index < 20; index++) costly = { not: costly };
    const value = [...Array.from({ length: 1000 }, (_, index) => index), "last"];
    expect(explain({ type: "array", items: { type: "integer" } }, value)).toEqual(["/1000: must be integer"]);
    expect(lines(new SchemaExplainer({ type: "array", items: costly }).explain(value, { maxIssues: 20, extraSteps: 0 }))).toEqual([
      "/: arguments do not match the schema",
    ]);
  });
});

describe("issues in schema order", () => {
  it("follows the declared properties, not the order of the value's keys", () => {
    const add = Type.Object({ a: Type.Integer(), b: Type.Integer() });
    expect(explain(add, JSON.parse('{"b":"x","a":2.5}'))).toEqual(["/a: must be integer", "/b: must be integer"]);
  });

  it("reads `required` by the order of `properties`, then the required names it does not declare, in `required`'s order", () => {
    const schema = { type: "object", required: ["z", "b", "a", "y"], properties: { a: { type: "integer" }, b: { type: "integer" } } };
    expect(explain(schema, {}).map((line) => line.split(":")[0])).toEqual(["/a", "/b", "/z", "/y"]);
  });

  it("keeps schema order inside nested objects and lists array items by index", () => {
    const schema = Type.Object({ outer: Type.Object({ z: Type.String(), a: Type.String() }), list: Type.Array(Type.Integer()) });
    expect(explain(schema, JSON.parse('{"list":[1,"x",2,"y"],"outer":{"a":1,"z":2}}'))).toEqual([
      "/outer/z: must be string",
      "/outer/a: must be string",
      "/list/1: must be integer",
      "/list/3: must be integer",
    ]);
  });

  it("lists each allOf branch in turn, the declared properties before the undeclared ones", () => {
    const both = Type.Intersect([Type.Object({ a: Type.Integer() }), Type.Object({ b: Type.Integer() })]);
    expect(explain(both, { b: "x" })).toEqual(["/a: must have required properties a", "/b: must be integer"]);
    const closed = Type.Object({ a: Type.Integer() }, { additionalProperties: false });
    expect(explain(closed, JSON.parse('{"x":1,"a":"y"}'))).toEqual(["/a: must be integer", '/x: is not an allowed property (allowed: "a")']);
  });
});

describe("the expected shape each issue carries", () => {
  const event = Type.Object({
    when: Type.String({ format: "date-time" }),
    mode: Type.Union([Type.Literal("fast"), Type.Literal("exact")]),
    retries: Type.Optional(Type.Integer({ minimum: 0, maximum: 5 })),
    tags: Type.Optional(Type.Array(Type.String(), { maxItems: 3 })),
  });

  it("writes the whole shape expected at the pointer when a value has the wrong type", () => {
    expect(explain(event, { when: 1_700_000_000, mode: 1, retries: "3", tags: "a" })).toEqual([
      "/when: must be string (format date-time)",
      '/mode: must be one of "fast", "exact"',
      "/retries: must be integer (>= 0, <= 5)",
      "/tags: must be array (at most 3 items) of string",
    ]);
  });

  it("reports a missing required property in the contract's words, with no shape", () => {
    expect(explain(event, {})).toEqual([
      "/when: must have required properties when",
      "/mode: must have required properties mode",
    ]);
  });

  it("names the properties a closed object allows beside a property it does not", () => {
    const closed = Type.Object({ city: Type.String(), days: Type.Integer() }, { additionalProperties: false });
    expect(explain(closed, { city: "Lisbon", day: 3 })).toEqual(["/days: must have required properties days", '/day: is not an allowed property (allowed: "city", "days")']);
  });

  it("never writes a value from the arguments into a shape", () => {
    const secret = "hunter2-secret";
    const text = explain(event, { when: secret, mode: secret, retries: secret, tags: [secret, 1], [secret]: secret }).join("\n");
    expect(text).not.toContain("hunter2");
  });

  it("keeps the issues of an error within 20 lines and 6,000 characters, however long the shapes", () => {
    const wide = Type.Object(Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`p${index}`, Type.String({ pattern: `^${"x".repeat(300)}$`, format: "date-time" })])));
    const numbers = Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`p${index}`, 5]));
    const issues = issueLines(new SchemaExplainer(wide).explain(numbers, { maxIssues: MAX_ISSUES + 1 }));
    expect(issues).toHaveLength(MAX_ISSUES);
    expect(issues.join("").length).toBeLessThanOrEqual(MAX_ISSUES_CHARACTERS);
    expect(issues[0]).toMatch(/^\/p0: must be string \(format date-time, pattern "\^x+/);
  });
});

describe("SchemaExplainer.matches", () => {
  // Random schemas from the keywords the explainer models, where TypeBox 1.4 and JSON Schema agree.
  const leaf = fc.oneof(
    fc.record({ type: fc.constantFrom("string", "integer", "number", "boolean", "null") }),
    fc.record({ type: fc.constant("integer"), minimum: fc.integer({ min: -5, max: 5 }), maximum: fc.integer({ min: 0, max: 10 }) }, { requiredKeys: ["type"] }),
    fc.record({ type: fc.constant("string"), minLength: fc.nat(3), maxLength: fc.nat(6), pattern: fc.constantFrom("^a", "b$", "^[a-c]+$") }, { requiredKeys: ["type"] }),
    fc.record({ enum: fc.uniqueArray(fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom("a", "b")), { minLength: 1, maxLength: 3 }) }),
    fc.record({ const: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom("a", "b"), fc.constant(null)) }),
  );
  const schemaArbitrary = fc.letrec<{ node: Record<string, unknown> }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      leaf,
      fc.record(
        {
          type: fc.constant("object"),
          properties: fc.dictionary(fc.constantFrom("a", "b", "c"), tie("node"), { maxKeys: 3 }),
          required: fc.uniqueArray(fc.constantFrom("a", "b", "c"), { maxLength: 2 }),
          additionalProperties: fc.oneof(fc.boolean(), tie("node")),
          minProperties: fc.nat(2),
        },
        { requiredKeys: ["type"] },
      ),
      fc.record({ type: fc.constant("array"), items: tie("node"), minItems: fc.nat(2), maxItems: fc.nat(4) }, { requiredKeys: ["type"] }),
      fc.record({ anyOf: fc.array(tie("node"), { minLength: 1, maxLength: 3 }) }),
      fc.record({ oneOf: fc.array(tie("node"), { minLength: 1, maxLength: 3 }) }),
      fc.record({ allOf: fc.array(tie("node"), { minLength: 1, maxLength: 2 }) }),
      fc.record({ not: tie("node") }),
      fc.record({ if: tie("node"), then: tie("node"), else: tie("node") }, { requiredKeys: ["if"] }),
    ),
  })).node;
  const valueArbitrary = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      fc.integer({ min: -6, max: 12 }),
      fc.constantFrom(0.5, "a", "b", "abc", "bab", "", null, true),
      fc.array(tie("value"), { maxLength: 4 }),
      fc.dictionary(fc.constantFrom("a", "b", "c", "d"), tie("value"), { maxKeys: 4 }),
    ),
  })).value;

  it("agrees with TypeBox's compiled Check on random schemas and values, and explains every refusal with an issue of its own", () => {
    fc.assert(
      fc.property(schemaArbitrary, fc.array(valueArbitrary, { minLength: 1, maxLength: 8 }), (randomSchema, values) => {
        const validator = Compile(randomSchema as never);
        const explainer = new SchemaExplainer(randomSchema);
        for (const value of values) {
          const accepted = validator.Check(value);
          expect({ schema: randomSchema, value, matches: explainer.matches(value) }).toEqual({ schema: randomSchema, value, matches: accepted });
          if (!accepted) expect(explainer.explain(value, { maxIssues: 20 }).some((issue) => issue.message !== "arguments do not match the schema")).toBe(true);
        }
      }),
      { seed: 20261201, numRuns: Number(process.env.FUZZ_RUNS ?? 400) },
    );
  });
});
