import { describe, expect, it } from "vitest";
import { ToolDefinitionError, ToolRegistry, Type, type TSchema } from "../src/index.js";
import { rejectionOf, thrownBy, toolCall } from "./support/fixtures.js";

function registrationError(parameters: unknown): ToolDefinitionError {
  const error = thrownBy(() => new ToolRegistry().register({ name: "tool", description: "", parameters: parameters as TSchema }, () => 1));
  expect(error).toBeInstanceOf(ToolDefinitionError);
  return error as ToolDefinitionError;
}

describe("schemas are checked at register, so none fails open", () => {
  it.each([
    ["an unknown type", { type: "nonsense" }, "/type"],
    ["properties that are not an object", { type: "object", properties: 5 }, "/properties"],
    ["required that is not an array", { type: "object", required: "x" }, "/required"],
    ["a minLength that is not a number", { type: "string", minLength: "x" }, "/minLength"],
    ["a misspelled type deep inside", { type: "object", properties: { a: { type: "object", properties: { b: { type: "strin" } } } } }, "/properties/a/properties/b/type"],
    ["an unresolvable $ref", { type: "object", properties: { x: { $ref: "#/$defs/missing" } } }, "/properties/x/$ref"],
    ["a $ref to an unknown name", { type: "object", properties: { x: { $ref: "Missing" } } }, "/properties/x/$ref"],
    ["a remote $ref", { $ref: "https://example.com/schema.json" }, "/$ref"],
    ["an invalid pattern", { type: "string", pattern: "(" }, "/pattern"],
    ["a $ref to the root at the root", { type: "object", $ref: "#" }, "/$ref"],
    ["a later keyword of the wrong shape beside a draft-07 tuple", { type: "object", properties: { t: { type: "array", items: [{ type: "string" }], minContains: "2" } } }, "/properties/t/minContains"],
    ["a malformed subschema inside $defs", { $defs: { a: { type: "strin" } }, type: "object", properties: { x: { $ref: "#/$defs/a" } } }, "/$defs/a/type"],
    ["two definitions that refer to each other in place", { $defs: { a: { $ref: "#/$defs/b" }, b: { allOf: [{ $ref: "#/$defs/a" }] } }, type: "object", properties: { x: { $ref: "#/$defs/a" } } }, "/$defs/a/$ref"],
  ])("refuses %s, naming the keyword's location", (_label, schema, pointer) => {
    const error = registrationError(schema);
    expect(error.toolName).toBe("tool");
    expect(error.message).toContain(`at ${pointer}`);
    expect(error.problems.map((problem) => problem.pointer)).toContain(pointer);
  });

  it("checks a schema that declares draft-07 against draft-07", () => {
    const schema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      definitions: { id: { type: "integer" } },
      properties: { id: { $ref: "#/definitions/id" } },
      required: ["id"],
    };
    expect(new ToolRegistry().register({ name: "tool", description: "", parameters: schema as TSchema }, () => 1).has("tool")).toBe(true);
    expect(registrationError({ ...schema, properties: { id: { type: "int" } } }).message).toContain("/properties/id/type");
  });

  it("refuses a $ref by a bare name that no $id holds, which the compiled check could not follow (it refused every call); a name an $id holds is one", async () => {
    const byKey = { type: "object", properties: { m: { $ref: "M" } }, $defs: { M: { type: "string" } } };
    expect(registrationError(byKey).message).toContain("/properties/m/$ref: cannot be resolved inside the schema");
    const byId = { type: "object", properties: { m: { $ref: "M" } }, $defs: { M: { $id: "M", type: "string" } } };
    const registry = new ToolRegistry().register({ name: "tool", description: "", parameters: byId as TSchema }, (args) => args);
    expect(await registry.dispatch(toolCall("tool", { m: "x" }))).toEqual({ m: "x" });
  });

  it("refuses references validators would read in two ways, or that lead to no schema: a name given to two schemas, an encoded /, a key the check does not follow, a keyword's value", () => {
    const hidden = { type: "object", properties: { x: { $ref: "#foo" } }, $defs: { f: { $anchor: "foo", type: "string" } }, unknown: { $anchor: "foo", type: "string", pattern: "^(a+)+$" } };
    expect(registrationError(hidden).message).toContain('names $anchor "foo" twice');
    const twoNodes = Type.Object({ a: Type.Cyclic({ Node: Type.Object({ n: Type.String() }) }, "Node"), b: Type.Cyclic({ Node: Type.Object({ n: Type.Number() }) }, "Node") });
    expect(registrationError(twoNodes).message).toContain('names $id "Node" twice');
    const encoded = { type: "object", $defs: { "a/b": { type: "string" }, a: { b: { type: "string", pattern: "^(a+)+$" } } }, properties: { x: { $ref: "#/$defs/a%2Fb" } } };
    expect(registrationError(encoded).message).toContain("/properties/x/$ref: holds an encoded / (%2F)");
    const constructorKey = { type: "object", $defs: { constructor: { type: "string" } }, properties: { a: { $ref: "#/$defs/constructor" } } };
    expect(registrationError(constructorKey).message).toContain("/properties/a/$ref: passes through a key named __proto__, constructor or prototype");
    const keyword = { type: "object", description: "x", properties: { a: { $ref: "#/description" } } };
    expect(registrationError(keyword).message).toContain("/properties/a/$ref: does not lead to a schema");
  });

  it("accepts one recursive type used in two places: the same schema under one name", async () => {
    const node = Type.Cyclic({ Node: Type.Object({ name: Type.String(), kids: Type.Array(Type.Ref("Node")) }) }, "Node");
    const registry = new ToolRegistry().register({ name: "tree", description: "", parameters: Type.Object({ a: node, b: node }) }, (args) => args);
    const args = { a: { name: "x", kids: [] }, b: { name: "y", kids: [{ name: "z", kids: [] }] } };
    expect(await registry.dispatch(toolCall("tree", args))).toEqual(args);
  });

  it("accepts a recursive $ref that descends into the value, and a percent-encoded one, and validates through them", async () => {
    const schema = {
      $defs: { "a node": { type: "object", properties: { next: { $ref: "#/$defs/a%20node" }, n: { type: "integer" } } } },
      type: "object",
      properties: { head: { $ref: "#/$defs/a%20node" } },
    };
    const registry = new ToolRegistry().register({ name: "list", description: "", parameters: schema as TSchema }, () => "ok");
    expect(await registry.dispatch(toolCall("list", { head: { n: 1, next: { n: 2 } } }))).toBe("ok");
    const error = (await rejectionOf(registry.dispatch(toolCall("list", { head: { n: 1, next: { n: "2" } } })))) as { issues: string[] };
    expect(error.issues).toEqual(["/head/next/n: must be integer"]);
  });

  it("accepts TypeBox's own mix of drafts: a draft-07 tuple inside 2020-12 $defs", async () => {
    const tree = Type.Cyclic({ Node: Type.Object({ pair: Type.Tuple([Type.String(), Type.Number()]), next: Type.Optional(Type.Ref("Node")) }) }, "Node");
    const registry = new ToolRegistry().register({ name: "pairs", description: "", parameters: tree }, () => "ok");
    expect(await registry.dispatch(toolCall("pairs", { pair: ["a", 1], next: { pair: ["b", 2] } }))).toBe("ok");
    expect(await rejectionOf(registry.dispatch(toolCall("pairs", { pair: ["a", "1"] })))).toBeInstanceOf(Error);
  });

  it("accepts TypeBox's own references", async () => {
    const tree = Type.Cyclic({ Node: Type.Object({ children: Type.Array(Type.Ref("Node")) }) }, "Node");
    const registry = new ToolRegistry().register({ name: "tree", description: "", parameters: tree }, () => "ok");
    expect(await registry.dispatch(toolCall("tree", { children: [{ children: [] }] }))).toBe("ok");
  });
});

describe("plain JSON Schema objects are first-class", () => {
  const schema = {
    type: "object",
    properties: { path: { type: "string", minLength: 1 }, lines: { type: "integer", minimum: 1 } },
    required: ["path"],
    additionalProperties: false,
  } as const;

  it("validates strictly with a plain JSON Schema", async () => {
    const registry = new ToolRegistry().register({ name: "read", description: "", parameters: schema as unknown as TSchema }, (args) => args);
    expect(await registry.dispatch(toolCall("read", { path: "a", lines: 2 }))).toEqual({ path: "a", lines: 2 });
    const error = await rejectionOf(registry.dispatch(toolCall("read", '{"path":"a","lines":"2","extra":true}')));
    expect((error as { issues: string[] }).issues).toEqual(expect.arrayContaining(["/lines: must be integer (>= 1)"]));
    expect((error as { issues: string[] }).issues.some((issue) => issue.startsWith("/extra"))).toBe(true);
  });
});

describe("TypeBox's own output", () => {
  it("registers a tuple, which TypeBox writes in draft-07's items-array form", async () => {
    const pair = Type.Object({ point: Type.Tuple([Type.Number(), Type.Number()]) });
    const registry = new ToolRegistry().register({ name: "plot", description: "", parameters: pair }, ({ point }) => point[0] + point[1]);
    expect(await registry.dispatch(toolCall("plot", { point: [1, 2] }))).toBe(3);
    await expect(registry.dispatch(toolCall("plot", { point: [1, "2"] }))).rejects.toThrow("/point/1: must be number");
  });
});

describe("definition error messages", () => {
  it("name only the deepest location of a problem", () => {
    const error = registrationError({ type: "object", properties: { a: { type: "string", minLength: "x" } } });
    expect(error.message).toBe('Invalid definition for tool "tool": its parameters schema is invalid at /properties/a/minLength: must be integer');
  });
});
