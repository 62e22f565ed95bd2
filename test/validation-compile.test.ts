import { Type } from "typebox";
import { ToolArgumentsValidationError, ToolDefinitionError, ToolRegistry } from "../src/index.js";
import { thrownBy } from "./support/fixtures.js";
import { Code } from "typebox/compile";
import { describe, expect, it } from "vitest";
import { MAX_COMPILED_NESTING } from "../src/schema/keywords.js";
import { compileSchema } from "../src/validation/compile.js";
import { LinearPattern, LinearPatternError } from "../src/validation/linear-pattern.js";
import { findCompileProblems } from "../src/schema/compile-problems.js";
import { MAX_INLINE_ENUM } from "../src/schema/keywords.js";
import { transformSchema, UnsafeSchemaError } from "../src/validation/transform.js";

const accepts = (schema: object, value: unknown): boolean => compileSchema(schema).Check(value);

describe("compileSchema: patterns", () => {
  it("runs ^(a+)+$ in linear time through TypeBox, compiled and interpreted alike", () => {
    const schema = Type.Object({ name: Type.String({ pattern: "^(a+)+$" }) });
    const validator = compileSchema(schema);
    // Thirty thousand a's and a `!`: the backtracking engine would not finish in the age of the universe.
    expect(validator.Check({ name: `${"a".repeat(30_000)}!` })).toBe(false);
    expect(validator.Check({ name: "aaa" })).toBe(true);
    expect(validator.Errors({ name: `${"a".repeat(30_000)}!` }).map((error) => error.keyword)).toEqual(["pattern"]);
  });

  it("runs a propertyNames pattern on the linear engine too", () => {
    const schema = { type: "object", propertyNames: { pattern: "^(a|aa)+$" } };
    expect(accepts(schema, { [`${"a".repeat(20_000)}!`]: 1 })).toBe(false);
    expect(accepts(schema, { aaaa: 1 })).toBe(true);
  });

  it("leaves a natively provable pattern as the string TypeBox compiles", () => {
    const schema = Type.Object({ code: Type.String({ pattern: "^[A-Z]{3}$" }) });
    expect(transformSchema(schema)).toBe(schema);
  });

  it("puts a LinearPattern where the pattern needs the linear engine, and never changes the input", () => {
    const schema = Type.Object({ name: Type.String({ pattern: "a*b" }) });
    const before = JSON.stringify(schema);
    const transformed = transformSchema(schema);
    expect(transformed).not.toBe(schema);
    expect(JSON.stringify(schema)).toBe(before);
    expect((schema.properties.name as unknown as { pattern: unknown }).pattern).toBe("a*b");
    const pattern = (transformed.properties.name as unknown as { pattern: unknown }).pattern;
    expect(pattern).toBeInstanceOf(LinearPattern);
    expect(pattern).toBeInstanceOf(RegExp);
    expect(() => (pattern as RegExp).exec("b")).toThrow(LinearPatternError);
  });

  it("keeps TypeBox's hidden keys and the user's own refinements on the copy", () => {
    const refined = Type.Refine(Type.String({ pattern: "a*b" }), (value) => value.length < 10);
    const schema = Type.Object({ name: refined, tags: Type.Array(Type.String(), { uniqueItems: true }) });
    const transformed = transformSchema(schema) as unknown as { properties: { name: Record<string, unknown>; tags: Record<string, unknown> } };
    expect(transformed.properties.name["~kind"]).toBe((schema.properties.name as unknown as Record<string, unknown>)["~kind"]);
    expect(Object.keys(transformed.properties.name)).toEqual(Object.keys(schema.properties.name));
    expect((transformed.properties.name["~refine"] as unknown[]).length).toBe(1);
    const validator = compileSchema(schema);
    expect(validator.Check({ name: "aab", tags: [] })).toBe(true);
    expect(validator.Check({ name: "aaaaaaaaaaaab", tags: [] })).toBe(false);
  });

  it("is deterministic: the same schema text compiles to the same code with the same externals", () => {
    const text = JSON.stringify({ type: "object", properties: { a: { pattern: "a*b" }, b: { enum: [[1], [2]] }, c: { multipleOf: 0.01 }, d: { uniqueItems: true } } });
    const first = Code(transformSchema(JSON.parse(text)));
    const second = Code(transformSchema(JSON.parse(text)));
    expect(first.Code).toBe(second.Code);
    const kinds = (variables: unknown[]): string[] => variables.map((value) => (value as object).constructor.name);
    expect(kinds(first.External.variables)).toEqual(kinds(second.External.variables));
  });

  it("puts an object's properties that refer last, so that a union branch fails at its tag before its recursive properties", () => {
    const expr = Type.Cyclic({ Expr: Type.Union([Type.Object({ left: Type.Ref("Expr"), right: Type.Ref("Expr"), op: Type.Literal("add") }), Type.Number()]) }, "Expr");
    const transformed = transformSchema(expr) as unknown as { $defs: { Expr: { anyOf: Array<{ properties: object }> } } };
    expect(Object.keys(transformed.$defs.Expr.anyOf[0]!.properties)).toEqual(["op", "left", "right"]);
    const validator = compileSchema(expr);
    let deep: unknown = 1;
    for (let level = 0; level < 30; level++) deep = { left: deep, right: 1, op: "add" };
    expect(validator.Check(deep)).toBe(true);
    expect(validator.Check({ left: 1, right: "x", op: "add" })).toBe(false);
  });

  it("returns a schema that needs nothing as the very same object", () => {
    const schema = Type.Object({ path: Type.String(), mode: Type.Union([Type.Literal("r"), Type.Literal("w")]), n: Type.Integer({ minimum: 0 }) });
    expect(transformSchema(schema)).toBe(schema);
  });

  it("refuses at register, with a ToolDefinitionError naming the pattern's location, a pattern that cannot run safely", () => {
    const register = () => new ToolRegistry().register({ name: "lookup", description: "", parameters: { type: "object", properties: { q: { type: "string", pattern: "(?<=a)b" } } } as never }, () => 1);
    expect(register).toThrow(ToolDefinitionError);
    expect(register).toThrow("/properties/q/pattern: cannot run safely: it uses a lookahead or lookbehind");
  });

  it("refuses a pattern with a backreference, naming its location", () => {
    const schema = { type: "object", properties: { a: { type: "string", pattern: "(a)\\1" } } };
    expect(() => compileSchema(schema)).toThrow(UnsafeSchemaError);
    expect(() => compileSchema(schema)).toThrow("/properties/a/pattern: cannot run safely: it uses a backreference");
  });
});

describe("compileSchema: equality follows JSON Schema", () => {
  it("refuses an array-like object where the enum allows only an array", () => {
    const schema = { type: "object", properties: { modes: { enum: [["read", "write"], "none"] } } };
    expect(accepts(schema, { modes: { 0: "read", 1: "write", length: 2 } })).toBe(false);
    expect(accepts(schema, { modes: ["read", "write"] })).toBe(true);
    expect(accepts(schema, { modes: "none" })).toBe(true);
  });

  it("refuses an array-like object where const is an array, and an array where const is an object", () => {
    expect(accepts({ type: "object", properties: { a: { const: ["x"] } } }, { a: { 0: "x", length: 1 } })).toBe(false);
    expect(accepts({ type: "object", properties: { a: { const: { 0: "x" } } } }, { a: ["x"] })).toBe(false);
    expect(accepts({ type: "object", properties: { a: { const: { b: [1, { c: 2 }] } } } }, { a: { b: [1.0, { c: 2 }] } })).toBe(true);
  });

  it("decides uniqueItems by equality: [0, -0] repeats, distinct strings and lone surrogates do not", () => {
    const schema = { type: "object", properties: { a: { type: "array", uniqueItems: true } } };
    expect(accepts(schema, { a: [0, -0] })).toBe(false);
    expect(accepts(schema, { a: [{ x: 1, y: 2 }, { y: 2, x: 1 }] })).toBe(false);
    expect(accepts(schema, { a: ["a", "b", "a\nb"] })).toBe(true);
    expect(accepts(schema, { a: ["\ud800", "\udc00", "\ud800\udc00"] })).toBe(true);
    expect(accepts(schema, { a: [[1], { 0: 1 }] })).toBe(true);
  });

  it("decides multipleOf exactly: 10.00000000005 is no multiple of 0.01, and a tiny divisor does not accept everything", () => {
    expect(accepts({ type: "object", properties: { a: { multipleOf: 0.01 } } }, { a: 10.00000000005 })).toBe(false);
    expect(accepts({ type: "object", properties: { a: { multipleOf: 0.01 } } }, { a: 0.07 })).toBe(true);
    expect(accepts({ type: "object", properties: { a: { multipleOf: 1e-12 } } }, { a: 1.5e-13 })).toBe(false);
    expect(accepts({ type: "object", properties: { a: { multipleOf: 1e-12 } } }, { a: 3e-12 })).toBe(true);
  });

  it("does not take dependentRequired names from Object.prototype", () => {
    const schema = { type: "object", dependentRequired: { path: ["toString"], valueOf: ["mode"] } };
    expect(accepts(schema, { path: "/" })).toBe(false);
    expect(accepts(schema, { path: "/", toString: "x" })).toBe(true);
    expect(accepts(schema, { other: 1 })).toBe(true);
    expect(accepts(schema, { valueOf: 1 })).toBe(false);
  });

  it("does not take the list form of dependencies from Object.prototype, and keeps its schema form", () => {
    const schema = { type: "object", dependencies: { path: ["constructor"], mode: { required: ["flag"] } } };
    expect(accepts(schema, { path: "/" })).toBe(false);
    expect(accepts(schema, { path: "/", constructor: 1 })).toBe(true);
    expect(accepts(schema, { mode: 1 })).toBe(false);
    expect(accepts(schema, { mode: 1, flag: true })).toBe(true);
  });
});

describe("compileSchema: unevaluated properties and items", () => {
  it("does not let properties evaluated inside a value count as evaluated in its parent", () => {
    const schema = { type: "object", unevaluatedProperties: { type: "object", properties: { b: {} } } };
    expect(accepts(schema, { a: { b: 1 }, b: false })).toBe(false);
    expect(accepts(schema, { a: { b: 1 }, b: {} })).toBe(true);
  });

  it("does not let the parent's evaluated properties count inside a value", () => {
    const schema = { type: "object", properties: { b: true }, unevaluatedProperties: { type: "object", unevaluatedProperties: false } };
    expect(accepts(schema, { b: 1, a: { b: 2 } })).toBe(false);
    expect(accepts(schema, { b: 1, a: {} })).toBe(true);
  });

  it("does not let items evaluated inside an item count as evaluated in its parent", () => {
    const schema = { type: "object", properties: { v: { type: "array", unevaluatedItems: { type: "array", prefixItems: [true, true] } } } };
    expect(accepts(schema, { v: [[1, 1], 2] })).toBe(false);
    expect(accepts(schema, { v: [[1, 1], []] })).toBe(true);
  });

  it("still sees annotations of in-place applicators on the same value", () => {
    const schema = { type: "object", allOf: [{ properties: { a: true } }], unevaluatedProperties: { type: "object", properties: { x: {} } } };
    expect(accepts(schema, { a: 1, b: {} })).toBe(true);
    expect(accepts(schema, { a: 1, b: 2 })).toBe(false);
  });
});

describe("compileSchema: large schemas", () => {
  it(`compiles a 16,000-value enum as a Set lookup (enums over ${MAX_INLINE_ENUM} values)`, () => {
    const values = Array.from({ length: 16_000 }, (_, index) => `v${index}`);
    const schema = { type: "object", properties: { a: { enum: values } } };
    expect(findCompileProblems(schema)).toEqual([]);
    expect(accepts(schema, { a: "v15999" })).toBe(true);
    expect(accepts(schema, { a: "v16000" })).toBe(false);
  });

  const properties = (count: number): object => ({ type: "object", properties: Object.fromEntries(Array.from({ length: count }, (_, index) => [`p${index}`, { type: "string" }])) });
  const branches = (count: number): object => ({ type: "object", properties: { a: { anyOf: Array.from({ length: count }, (_, index) => ({ const: index })) } } });
  const required = (count: number): object => ({ type: "object", required: Array.from({ length: count }, (_, index) => `p${index}`) });
  const nested = (levels: number, width: number): object =>
    levels === 0 ? { type: "string" } : { type: "object", properties: { ...Object.fromEntries(Array.from({ length: width }, (_, index) => [`p${index}`, { type: "string" }])), next: nested(levels - 1, width) } };

  it.each([
    ["properties", properties],
    ["anyOf branches", branches],
    ["required names", required],
  ])("compiles and runs the most %s the limit admits", (_name, make) => {
    let count = 1;
    while (findCompileProblems(make(count * 2)).length === 0) count *= 2;
    let [low, high] = [count, count * 2];
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (findCompileProblems(make(middle)).length === 0) low = middle;
      else high = middle;
    }
    expect(low).toBeGreaterThanOrEqual(1000);
    expect(() => compileSchema(make(low)).Check({})).not.toThrow();
    expect(() => compileSchema(make(high))).toThrow(UnsafeSchemaError);
  });

  it("refuses 2,000 properties at register, naming the node", () => {
    expect(findCompileProblems({ type: "object", properties: { big: properties(2000) } })).toEqual([
      { pointer: "/properties/big", problem: expect.stringContaining(`at most ${MAX_COMPILED_NESTING}`) },
    ]);
  });

  it("counts lists along the path: two nested lists of 700 are refused where one is not", () => {
    const inner = properties(700);
    expect(findCompileProblems(inner)).toEqual([]);
    const outer = { type: "object", properties: { ...(properties(699) as { properties: object }).properties, inner } };
    expect(findCompileProblems(outer).map((problem) => problem.pointer)).toEqual(["/properties/inner"]);
  });

  it("compiles and runs every nesting the limit admits: deep schemas with wide levels", () => {
    for (const [levels, width] of [[100, 4], [20, 40], [4, 250]] as const) {
      const schema = nested(levels, width);
      if (findCompileProblems(schema).length === 0) expect(() => compileSchema(schema).Check({})).not.toThrow();
    }
  });

  it("starts a $defs entry afresh: it compiles as a function of its own", () => {
    const schema = { type: "object", $defs: { big: properties(1000) }, properties: { a: { $ref: "#/$defs/big" }, b: { $ref: "#/$defs/big" } } };
    expect(findCompileProblems(schema)).toEqual([]);
    expect(compileSchema(schema).Check({ a: { p1: "x" } })).toBe(true);
  });
});

describe("findCompileProblems: patternProperties", () => {
  it("accepts natively provable patterns", () => {
    expect(findCompileProblems({ type: "object", patternProperties: { "^x-": {}, "^[a-z]+$": { type: "number" } }, additionalProperties: false })).toEqual([]);
  });

  it("refuses a pattern V8 cannot provably run in linear time, since TypeBox compiles these natively", () => {
    expect(findCompileProblems({ type: "object", patternProperties: { "^(a+)+$": {} } })).toEqual([
      { pointer: "/patternProperties/^(a+)+$", problem: expect.stringContaining("linear time on the native engine") },
    ]);
  });

  it("takes TypeBox's own number and integer key patterns, and checks their keys as TypeBox does, on every path", async () => {
    for (const [key, keyName] of [
      [Type.Number(), "number"],
      [Type.Integer(), "integer"],
    ] as const) {
      const parameters = Type.Object({ scores: Type.Record(key, Type.String(), { additionalProperties: false }) });
      expect(findCompileProblems(parameters)).toEqual([]);
      const registry = new ToolRegistry().register({ name: "scores", description: "", parameters }, ({ scores }) => Object.keys(scores).length);
      // The object path's fused copy-and-check and the JSON reader come on the 64th call.
      for (let call = 0; call < 70; call++) expect(await registry.dispatch({ id: "c", name: "scores", arguments: { scores: { "-1": "a", "0": "b", "10": "c" } } } as never)).toBe(3);
      const wrong = keyName === "number" ? ["01", "1.", "-", "x1"] : ["01", "1.5", "-", "x1"];
      for (const bad of wrong) {
        for (const args of [{ scores: { [bad]: "a" } }, JSON.stringify({ scores: { [bad]: "a" } })]) {
          expect(await registry.dispatch({ id: "c", name: "scores", arguments: args } as never).catch((error: unknown) => error)).toBeInstanceOf(ToolArgumentsValidationError);
        }
      }
    }
  });

  it("still refuses a pattern close to them whose alternatives overlap", () => {
    expect(findCompileProblems({ type: "object", patternProperties: { "^-?(?:0|[0-9][0-9]*)$": {} } })).toEqual([
      { pointer: "/patternProperties/^-?(?:0|[0-9][0-9]*)$", problem: expect.stringContaining("linear time on the native engine") },
    ]);
  });

  it("refuses an unanchored pattern where additionalProperties applies, and accepts it where it does not", () => {
    expect(findCompileProblems({ type: "object", patternProperties: { "_id$": {} }, additionalProperties: false }).map((problem) => problem.problem)).toEqual([
      expect.stringContaining("must start with ^"),
    ]);
    expect(findCompileProblems({ type: "object", patternProperties: { "_id$": {} } })).toEqual([]);
  });

  it("escapes the key in the pointer", () => {
    expect(findCompileProblems({ type: "object", patternProperties: { "a/(?=b)": {} } }).map((problem) => problem.pointer)).toEqual(["/patternProperties/a~1(?=b)"]);
  });

  it("finds pattern problems anywhere, in document order", () => {
    const schema = { type: "object", properties: { a: { pattern: "(?<=x)" }, b: { type: "array", items: { pattern: "\\1(a)" } } } };
    expect(findCompileProblems(schema).map((problem) => problem.pointer)).toEqual(["/properties/a/pattern", "/properties/b/items/pattern"]);
  });
});

describe("findCompileProblems: $ref loops", () => {
  it("refuses a $ref that leads back to itself without descending into the value", () => {
    expect(findCompileProblems({ type: "object", $defs: { a: { $ref: "#/$defs/a" } }, properties: { x: { $ref: "#/$defs/a" } } })).toEqual([
      { pointer: "/$defs/a/$ref", problem: expect.stringContaining("recurse forever") },
    ]);
    expect(findCompileProblems({ type: "object", $defs: { a: { anyOf: [{ type: "null" }, { allOf: [{ $ref: "#/$defs/b" }] }] }, b: { not: { $ref: "#/$defs/a" } } } }).map((problem) => problem.pointer)).toEqual([
      expect.stringMatching(/\/\$ref$/),
    ]);
  });

  it("accepts recursion that descends into the value: a tree", () => {
    const tree = { type: "object", $defs: { node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/node" } } } } }, properties: { root: { $ref: "#/$defs/node" } } };
    expect(findCompileProblems(tree)).toEqual([]);
    expect(compileSchema(tree).Check({ root: { children: [{ children: [] }] } })).toBe(true);
  });

  it("accepts a root that refers to itself through a property", () => {
    expect(findCompileProblems({ type: "object", properties: { next: { $ref: "#" } } })).toEqual([]);
  });
});

describe("findCompileProblems: paths through references", () => {
  /** How each kind of chain reaches its next definition, and a value that goes all the way down `hops` of them. */
  const links = {
    "$ref": { link: (next: string): object => ({ $ref: next }), value: (): unknown => "end" },
    "allOf-$ref": { link: (next: string): object => ({ allOf: [{ $ref: next }] }), value: (): unknown => "end" },
    "items-$ref": { link: (next: string): object => ({ type: "array", items: { $ref: next } }), value: (hops: number): unknown => nest(hops, (inner) => [inner]) },
    "properties-$ref": { link: (next: string): object => ({ type: "object", properties: { x: { $ref: next } }, required: ["x"] }), value: (hops: number): unknown => nest(hops, (inner) => ({ x: inner })) },
  } as const;
  type Link = keyof typeof links;
  function nest(levels: number, wrap: (inner: unknown) => unknown): unknown {
    let value: unknown = "end";
    for (let level = 0; level < levels; level++) value = wrap(value);
    return value;
  }
  /** A tool's parameters whose property `a` goes through `hops` definitions, each linked to the next as `link` says, to a string. */
  function chain(link: Link, hops: number): object {
    const $defs: Record<string, object> = {};
    for (let hop = 0; hop < hops; hop++) $defs[`d${hop}`] = links[link].link(`#/$defs/d${hop + 1}`);
    $defs[`d${hops}`] = { type: "string" };
    return { type: "object", $defs, properties: { a: { $ref: "#/$defs/d0" } }, required: ["a"] };
  }
  const tooDeep = expect.stringContaining(`leads too deep to compile, with the subschemas and references before it (more than 300 subschemas on one path, about 4 nested checks each; at most ${MAX_COMPILED_NESTING})`);
  const register = (parameters: object) => new ToolRegistry().register({ name: "chain", description: "", parameters: parameters as never }, ({ a }) => a);

  it.each([
    ["$ref", "/$defs/d297/$ref"],
    ["allOf-$ref", "/$defs/d148/allOf/0/$ref"],
    ["items-$ref", "/$defs/d148/items/$ref"],
    ["properties-$ref", "/$defs/d148/properties/x/$ref"],
  ] as const)("refuses at register 1,200 definitions each linked to the next by %s, naming the reference that takes the path past 300 subschemas", (link, pointer) => {
    expect(findCompileProblems(chain(link, 1200))).toEqual([{ pointer, problem: tooDeep }]);
    const error = thrownBy(() => register(chain(link, 1200)));
    expect(error).toBeInstanceOf(ToolDefinitionError);
    expect((error as ToolDefinitionError).problems).toEqual([{ pointer, problem: tooDeep }]);
  });

  it("refuses a chain of 10,000 references (about 320 KB) from the analysis alone, which TypeBox's compiler would overflow the stack on", () => {
    const schema = chain("$ref", 10_000);
    expect(JSON.stringify(schema).length).toBeGreaterThan(300_000);
    expect(findCompileProblems(schema)).toEqual([{ pointer: "/$defs/d297/$ref", problem: tooDeep }]);
    expect((thrownBy(() => register(schema)) as ToolDefinitionError).problems).toEqual([{ pointer: "/$defs/d297/$ref", problem: tooDeep }]);
  });

  it.each(Object.keys(links) as Link[])("registers the longest chain of definitions linked by %s that the bound admits, and checks calls through it, interpreted, compiled and fused", async (link) => {
    // A path holds the root, property a, then each definition (and for all but plain references, the subschema that refers onward).
    const hops = link === "$ref" ? 297 : 148;
    expect(findCompileProblems(chain(link, hops))).toEqual([]);
    expect(findCompileProblems(chain(link, hops + 1))).toEqual([{ pointer: expect.any(String), problem: tooDeep }]);
    const registry = register(chain(link, hops));
    const call = (a: unknown) => registry.dispatch({ id: "1", name: "chain", arguments: { a } });
    // Enough calls for the first (interpreted), the second (compiled) and the fused check, from the 64th.
    for (let use = 0; use < 70; use++) expect(await call(links[link].value(hops))).toEqual(links[link].value(hops));
    // A value that ends one level early, or a number where the string should be.
    await expect(call(link === "$ref" || link === "allOf-$ref" ? 1 : links[link].value(hops - 1))).rejects.toThrow(ToolArgumentsValidationError);
  });

  it("counts the subschemas inside each definition along the path, not only the references", () => {
    // Each definition nests 20 objects before its reference onward: 21 subschemas a hop.
    const nestedChain = (hops: number): object => {
      const $defs: Record<string, object> = { [`d${hops}`]: { type: "string" } };
      for (let hop = 0; hop < hops; hop++) $defs[`d${hop}`] = nest(20, (inner) => ({ type: "object", properties: { x: inner } })) as object;
      for (let hop = 0; hop < hops; hop++) {
        let node = $defs[`d${hop}`] as { properties: { x: unknown } };
        for (let level = 1; level < 20; level++) node = node.properties.x as typeof node;
        node.properties.x = { $ref: `#/$defs/d${hop + 1}` };
      }
      return { type: "object", $defs, properties: { a: { $ref: "#/$defs/d0" } } };
    };
    expect(findCompileProblems(nestedChain(10))).toEqual([]);
    expect(findCompileProblems(nestedChain(20))).toEqual([{ pointer: expect.stringMatching(/^\/\$defs\/d13\/(properties\/x\/){20}\$ref$/), problem: tooDeep }]);
  });

  it("registers recursive schemas, whose references form a cycle, and checks values that follow the cycle far past the bound", async () => {
    const list = Type.Cyclic({ L: Type.Object({ value: Type.Number(), next: Type.Union([Type.Ref("L"), Type.Null()]) }) }, "L");
    const tree = { type: "object", $defs: { node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/node" } } } } }, properties: { root: { $ref: "#/$defs/node" } } };
    // A recursion reached at the end of a chain the bound admits.
    const $defs: Record<string, object> = { d100: { type: "object", properties: { next: { anyOf: [{ $ref: "#/$defs/d100" }, { type: "null" }] } } } };
    for (let hop = 0; hop < 100; hop++) $defs[`d${hop}`] = { $ref: `#/$defs/d${hop + 1}` };
    const late = { type: "object", $defs, properties: { a: { $ref: "#/$defs/d0" } } };
    for (const schema of [Type.Object({ list }), tree, late, { type: "object", properties: { next: { $ref: "#" } } }]) expect(findCompileProblems(schema)).toEqual([]);
    const registry = new ToolRegistry()
      .register({ name: "list", description: "", parameters: Type.Object({ list }) }, () => "list")
      .register({ name: "late", description: "", parameters: late as never }, () => "late");
    const long = nest(200, (next) => ({ value: 1, next })) as { next: unknown };
    let end = long;
    while (end.next !== "end") end = end.next as typeof end;
    end.next = null;
    for (let use = 0; use < 3; use++) expect(await registry.dispatch({ id: "1", name: "list", arguments: { list: long } })).toBe("list");
    const deep = nest(200, (next) => ({ next })) as { next: unknown };
    for (let use = 0; use < 3; use++) expect(await registry.dispatch({ id: "1", name: "late", arguments: { a: JSON.parse(JSON.stringify(deep).replace('"end"', "null")) } })).toBe("late");
  });

  it("refuses a cycle of references longer than the bound: compiling follows it once around", () => {
    const $defs: Record<string, object> = {};
    for (let hop = 0; hop < 200; hop++) $defs[`d${hop}`] = { type: "object", properties: { x: { $ref: `#/$defs/d${(hop + 1) % 200}` } } };
    expect(findCompileProblems({ type: "object", $defs, properties: { a: { $ref: "#/$defs/d0" } } })).toEqual([{ pointer: "/$defs/d148/properties/x/$ref", problem: tooDeep }]);
  });

  it("works each subschema's longest path out once: a lattice of 140 levels, each referring to the next twice (2^140 paths), is measured, then refused for its work", () => {
    const $defs: Record<string, object> = { d140: { type: "string" } };
    for (let level = 0; level < 140; level++) $defs[`d${level}`] = { anyOf: [{ $ref: `#/$defs/d${level + 1}` }, { $ref: `#/$defs/d${level + 1}` }] };
    expect(findCompileProblems({ type: "object", $defs, properties: { a: { $ref: "#/$defs/d0" } } })).toEqual([{ pointer: "", problem: expect.stringContaining("could need more than 1000 subschema checks") }]);
  });

  it("follows only the definitions a reference reaches: an unused chain of 10,000 is no path", () => {
    const unused = chain("$ref", 10_000) as { $defs: object };
    expect(findCompileProblems({ type: "object", $defs: unused.$defs, properties: { a: { type: "string" } } })).toEqual([]);
  });
});

describe("findCompileProblems: checks whose work doubles with each level", () => {
  /** `levels` definitions, each applying the next one `times` times to the same value. */
  function chain(levels: number, times: number): object {
    const $defs: Record<string, object> = { [`d${levels}`]: { type: "string" } };
    for (let level = 0; level < levels; level++) $defs[`d${level}`] = { allOf: Array.from({ length: times }, () => ({ $ref: `#/$defs/d${level + 1}` })) };
    return { type: "object", properties: { x: { $ref: "#/$defs/d0" } }, $defs };
  }
  const doubling = expect.stringContaining("could need more than 1000 subschema checks for one value");

  it("refuses references applied twice at each level, which a small schema and a short string would take days to check", () => {
    expect(findCompileProblems(chain(40, 2))).toEqual([{ pointer: "", problem: doubling }]);
    expect(findCompileProblems(chain(14, 2))).toEqual([{ pointer: "", problem: doubling }]);
    const error = thrownBy(() => new ToolRegistry().register({ name: "t", description: "t", parameters: chain(20, 2) as never }, () => 1));
    expect(error).toBeInstanceOf(ToolDefinitionError);
    expect((error as ToolDefinitionError).problems).toEqual([{ pointer: "/", problem: doubling }]);
  });

  it("refuses a recursion that applies itself twice to each property it descends into", () => {
    const twice = { type: "object", properties: { x: { $ref: "#/$defs/r" } } };
    expect(findCompileProblems({ $ref: "#/$defs/r", $defs: { r: { allOf: [twice, twice] } } })).toEqual([{ pointer: "", problem: doubling }]);
  });

  it("accepts recursion through a union whose branches a required const tells apart, where only one branch goes on (TypeBox's Union of Literal-tagged Objects)", () => {
    const expr = Type.Cyclic(
      {
        Expr: Type.Union([
          Type.Object({ left: Type.Ref("Expr"), right: Type.Ref("Expr"), op: Type.Literal("add") }),
          Type.Object({ left: Type.Ref("Expr"), right: Type.Ref("Expr"), op: Type.Literal("mul") }),
          Type.Number(),
        ]),
      },
      "Expr",
    );
    const filter = Type.Cyclic(
      {
        F: Type.Union([
          Type.Object({ type: Type.Literal("and"), conditions: Type.Array(Type.Ref("F")) }),
          Type.Object({ type: Type.Literal("or"), conditions: Type.Array(Type.Ref("F")) }),
          Type.Object({ type: Type.Literal("eq"), field: Type.String(), value: Type.String() }),
        ]),
      },
      "F",
    );
    const list = Type.Cyclic({ L: Type.Object({ value: Type.Number(), next: Type.Union([Type.Ref("L"), Type.Null()]) }) }, "L");
    for (const schema of [expr, filter, list]) expect(findCompileProblems(Type.Object({ root: schema }))).toEqual([]);
  });

  it("reaches a property through its own name, the patterns that match it, and additionalProperties only where neither does; an item through its index", () => {
    const named = { $ref: "#/$defs/n", $defs: { n: { type: "object", properties: { child: { $ref: "#/$defs/n" } }, patternProperties: { "^x-": { $ref: "#/$defs/n" } }, additionalProperties: { $ref: "#/$defs/n" } } } };
    const pair = { $ref: "#/$defs/n", $defs: { n: { anyOf: [{ type: "null" }, { type: "array", prefixItems: [{ $ref: "#/$defs/n" }, { $ref: "#/$defs/n" }], items: false }] } } };
    expect(findCompileProblems(named)).toEqual([]);
    expect(findCompileProblems(pair)).toEqual([]);
    // A name both a property and a pattern match goes down both: twice at each level.
    const both = { $ref: "#/$defs/n", $defs: { n: { type: "object", properties: { child: { $ref: "#/$defs/n" } }, patternProperties: { "^ch": { $ref: "#/$defs/n" } } } } };
    expect(findCompileProblems(both)).toEqual([{ pointer: "", problem: doubling }]);
  });

  it("refuses recursion through a union whose branches nothing tells apart at once, which a crafted value sends down every branch", () => {
    const untold = { $ref: "#/$defs/n", $defs: { n: { anyOf: [{ type: "object", properties: { kind: { const: "a" }, child: { $ref: "#/$defs/n" } } }, { type: "object", properties: { kind: { const: "b" }, child: { $ref: "#/$defs/n" } } }] } } };
    expect(findCompileProblems(untold)).toEqual([{ pointer: "", problem: doubling }]);
    // A tag checked too late: recursion through additionalProperties (checked before the tag), a branch that is not only an object, tags equal as JSON.
    const tagged = (tag: unknown, rest: object) => ({ type: "object", required: ["k"], properties: { k: { const: tag } }, ...rest });
    const union = (...branches: object[]) => ({ type: "object", properties: { root: { $ref: "#/$defs/n" } }, $defs: { n: { anyOf: branches } } });
    const late = { additionalProperties: { $ref: "#/$defs/n" } };
    expect(findCompileProblems(union(tagged("a", late), tagged("b", late)))).toEqual([{ pointer: "", problem: doubling }]);
    const untyped = (tag: string) => ({ required: ["k"], properties: { k: { const: tag } }, items: { $ref: "#/$defs/n" } });
    expect(findCompileProblems(union(untyped("a"), untyped("b")))).toEqual([{ pointer: "", problem: doubling }]);
    const child = { properties: { k: {}, l: { $ref: "#/$defs/n" } } };
    const same = [tagged({ a: 1, b: 2 }, {}), tagged({ b: 2, a: 1 }, {})].map((branch) => ({ ...branch, properties: { ...branch.properties, ...child.properties, k: branch.properties.k } }));
    expect(findCompileProblems(union(...same))).toEqual([{ pointer: "", problem: doubling }]);
  });

  it("accepts what multiplies the work only so far: a few levels of doubling, a long chain of single references, a tree", () => {
    expect(findCompileProblems(chain(7, 2))).toEqual([]);
    // 140 levels: 200 would make a path of 403 subschemas, too deep to compile (see "paths through references").
    expect(findCompileProblems(chain(140, 1))).toEqual([]);
    const tree = { type: "object", properties: { root: { $ref: "#/$defs/node" } }, $defs: { node: { type: "object", properties: { left: { $ref: "#/$defs/node" }, right: { $ref: "#/$defs/node" }, tags: { type: "array", items: { $ref: "#/$defs/node" } } } } } };
    expect(findCompileProblems(tree)).toEqual([]);
  });
});

describe("transformSchema: problems inside an isolated subschema", () => {
  it("names them from the root", () => {
    expect(() => transformSchema({ type: "object", unevaluatedProperties: { type: "string", pattern: "(a)\\1" } })).toThrow("/unevaluatedProperties/pattern: cannot run safely");
  });
});
