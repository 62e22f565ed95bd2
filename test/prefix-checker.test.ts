import { describe, expect, it } from "vitest";
import { ToolArgumentsValidationError, ToolRegistry, Type, type TSchema } from "../src/index.js";
import { thrownBy } from "./support/fixtures.js";

/** The issues after each piece, for a tool with `parameters` (in a registry with repair on when `repair` is set). */
function issuesAfter(parameters: TSchema | Record<string, unknown>, pieces: readonly string[], repair = false): Array<readonly string[]> {
  const registry = new ToolRegistry(repair ? { onRepair: () => undefined } : {}).register({ name: "tool", description: "", parameters: parameters as TSchema }, () => 1);
  const stream = registry.argumentStream("tool");
  return pieces.map((piece) => stream.push(piece).issues);
}

/** The issues of the final check of the whole text. */
function finalIssues(parameters: TSchema | Record<string, unknown>, text: string): readonly string[] {
  const registry = new ToolRegistry().register({ name: "tool", description: "", parameters: parameters as TSchema }, () => 1);
  const stream = registry.argumentStream("tool");
  stream.push(text);
  const error = thrownBy(() => stream.end());
  return error instanceof ToolArgumentsValidationError ? error.issues : [];
}

const order = Type.Object(
  {
    name: Type.String(),
    quantity: Type.Integer({ minimum: 1 }),
    mode: Type.Union([Type.Literal("fast"), Type.Literal("safe")]),
    kind: Type.Literal("order"),
    items: Type.Array(Type.Object({ sku: Type.String(), tags: Type.Array(Type.String()) }, { additionalProperties: false })),
    note: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  },
  { additionalProperties: false },
);

describe("the issues certain from a prefix", () => {
  it("reports a value whose kind the schema does not allow at its first character", () => {
    expect(issuesAfter(order, ['{"name":', "[", '"x"]'])).toEqual([[], ["/name: must be string"], ["/name: must be string"]]);
    expect(issuesAfter(order, ['{"items":[{"sku":t'])).toEqual([["/items/0/sku: must be string"]]);
  });

  it("reports a number where no number is allowed at its first digit, and whether it is an integer only once it ends", () => {
    expect(issuesAfter(order, ['{"name":1'])).toEqual([["/name: must be string"]]);
    expect(issuesAfter(order, ['{"quantity":1', ".5", ","])).toEqual([[], [], ["/quantity: must be integer (>= 1)"]]);
  });

  it("reports a property a closed object does not allow as soon as its key is complete", () => {
    const NAME_NOT_ALLOWED = '/name_: is not an allowed property (allowed: "name", "quantity", "mode", "kind", "items", "note")';
    expect(issuesAfter(order, ['{"nam', 'e_":', "1"])).toEqual([[], [NAME_NOT_ALLOWED], [NAME_NOT_ALLOWED]]);
  });

  it("reports a complete string outside an enum or a const, and nothing while it may still grow", () => {
    expect(issuesAfter(order, ['{"mode":"fa', "st", 'er"', ',"kind":"orders"'])).toEqual([[], [], ['/mode: must be one of "fast", "safe"'], ['/mode: must be one of "fast", "safe"', '/kind: must be "order"']]);
    expect(issuesAfter(order, ['{"mode":"fa', 'st"'])).toEqual([[], []]);
  });

  it("reports a root that is not an object, and only that", () => {
    expect(issuesAfter(order, ["[", '{"name":1}]'])).toEqual([["/: arguments must be a plain object"], ["/: arguments must be a plain object"]]);
  });

  it("replaces every issue with `/: arguments must be valid JSON` once the text can no longer be JSON", () => {
    expect(issuesAfter(order, ['{"name":1,', "}"])).toEqual([["/name: must be string"], ["/: arguments must be valid JSON"]]);
  });

  it("reports nothing that depends on what is still to come", () => {
    const limits = Type.Object({ text: Type.String({ minLength: 5, maxLength: 2 }), list: Type.Array(Type.Number(), { minItems: 3 }), required: Type.String() });
    expect(issuesAfter(limits, ['{"text":"abc","list":[1]'])).toEqual([[]]);
  });

  it("follows $ref and allOf to the nodes that apply, and never guesses an anyOf, oneOf or not branch", () => {
    const schema = {
      type: "object",
      $defs: { Id: { type: "integer" } },
      properties: {
        id: { $ref: "#/$defs/Id" },
        both: { allOf: [{ type: "string" }, { type: "string", enum: ["a", "b"] }] },
        either: { anyOf: [{ type: "string" }, { type: "object", properties: { n: { type: "number" } } }] },
        never: { not: { type: "string" } },
      },
    };
    expect(issuesAfter(schema, ['{"id":"1","both":"c",', '"either":{"n":"x"},"never":"s"}'])).toEqual([
      ["/id: must be integer", '/both: must be one of "a", "b"'],
      ["/id: must be integer", '/both: must be one of "a", "b"'],
    ]);
  });

  it("checks members against patternProperties and an additionalProperties schema, and items against prefixItems and items", () => {
    const schema = {
      type: "object",
      patternProperties: { "^n_": { type: "number" } },
      additionalProperties: { type: "boolean" },
      properties: { pair: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: { type: "null" } } },
    };
    expect(issuesAfter(schema, ['{"n_a":"1","other":1,"pair":[1,"2",3]}'])).toEqual([
      ["/n_a: must be number", "/other: must be boolean", "/pair/0: must be string", "/pair/1: must be integer", "/pair/2: must be null"],
    ]);
  });

  it("gives the final check's own words: each issue is among those end() throws", () => {
    const text = '{"name":1,"quantity":2.5,"mode":"slow","kind":"x","items":[{"sku":2,"tags":"t","x":1}],"note":3,"extra":1}';
    const prefix = issuesAfter(order, [text]).at(-1)!;
    expect(prefix.length).toBeGreaterThan(6);
    expect(finalIssues(order, text)).toEqual(expect.arrayContaining([...prefix]));
  });

  it("stops at the issues an error shows, and says more were left out", () => {
    const many = `{${Array.from({ length: 40 }, (_, index) => `"x${index}":1`).join(",")}}`;
    const issues = issuesAfter(Type.Object({}, { additionalProperties: false }), [many]).at(-1)!;
    expect(issues).toHaveLength(20);
    expect(issues.at(-1)).toBe("/: more issues not shown");
  });

  it("never shows an argument value, only pointers and what the schema expects", () => {
    const secret = "s3cr3t-value";
    const issues = issuesAfter(order, [`{"name":["${secret}"],"mode":"${secret}","quantity":"${secret}","kind":"${secret}"`]).at(-1)!;
    expect(issues.length).toBe(4);
    for (const issue of issues) expect(issue).not.toContain(secret);
  });

  it("does not check places nested deeper than 128", () => {
    const deep = { type: "object", properties: { a: { $ref: "#/$defs/Nest" } }, $defs: { Nest: { type: "array", items: { anyOf: [{ $ref: "#/$defs/Nest" }, { type: "string" }] } } } };
    const list = { type: "object", properties: { a: { $ref: "#/$defs/List" } }, $defs: { List: { type: "array", items: { $ref: "#/$defs/List" } } } };
    expect(issuesAfter(deep, [`{"a":${"[".repeat(200)}1`])).toEqual([[]]);
    expect(issuesAfter(list, [`{"a":${"[".repeat(100)}1`])).toEqual([[`/a${"/0".repeat(100)}: must be array of array`]]);
    expect(issuesAfter(list, [`{"a":${"[".repeat(200)}1`])).toEqual([[]]);
  });
});

describe("the issues certain from a prefix, with repair on", () => {
  const place = Type.Object({ city: Type.String(), units: Type.Optional(Type.String()), ids: Type.Optional(Type.Array(Type.Integer())), zone: Type.Union([Type.String(), Type.Null()]) });

  it("reports nothing about a string, which repair may convert", () => {
    expect(issuesAfter(place, ['{"ids":["1"]}'], true)).toEqual([[]]);
  });

  it("reports nothing about a null for an optional property, which repair leaves out", () => {
    expect(issuesAfter(place, ['{"city":"Paris","units":null}'], true)).toEqual([[]]);
    expect(issuesAfter(place, ['{"city":"Paris","units":null}'])).toEqual([["/units: must be string"]]);
  });

  it("still reports a null for a required property, which repair never leaves out", () => {
    const required = Type.Object({ city: Type.String() });
    expect(issuesAfter(required, ['{"city":null}'], true)).toEqual([["/city: must be string"]]);
  });

  it("reports nothing about a lone value, nor anything inside it, where a list of such values is allowed, which repair wraps", () => {
    const lists = Type.Object({ ids: Type.Array(Type.Integer()), points: Type.Array(Type.Object({ x: Type.Number() }, { additionalProperties: false })) });
    expect(issuesAfter(lists, ['{"ids":5,"points":{"x":1,"y":2}}'], true)).toEqual([[]]);
    expect(issuesAfter(lists, ['{"ids":5}'])).toEqual([["/ids: must be array of integer"]]);
  });

  it("still reports a lone value that no item of the list could be", () => {
    expect(issuesAfter(place, ['{"ids":true}'], true)).toEqual([["/ids: must be array of integer"]]);
    expect(issuesAfter(place, ['{"ids":{}}'], true)).toEqual([["/ids: must be array of integer"]]);
  });

  it("holds back that a closed object does not allow a property until its value is not a null repair may drop", () => {
    // `a` is declared by one branch of allOf and not allowed by the other: repair drops `"a":null`, and the object passes.
    const schema = { type: "object", allOf: [{ properties: { a: { type: "string" } } }, { properties: { b: { type: "string" } }, additionalProperties: false }] };
    const notAllowed = '/a: is not an allowed property (allowed: "b")';
    expect(issuesAfter(schema, ['{"a":', "null}"], true)).toEqual([[], []]);
    expect(issuesAfter(schema, ['{"a":', '"x"}'], true)).toEqual([[], [notAllowed]]);
    expect(issuesAfter(schema, ['{"a":', "null}"])).toEqual([[notAllowed], [notAllowed, "/a: must be string"]]);
  });

  it("checks the members of the arguments object as usual: the root is never wrapped", () => {
    const closed = { properties: { a: { type: "string" } }, additionalProperties: false };
    expect(issuesAfter(closed, ['{"b":1,"a":1}'], true)).toEqual([['/b: is not an allowed property (allowed: "a")', "/a: must be string"]]);
  });
});
