import { describe, expect, it } from "vitest";
import { failureContent, parseToolArguments, precompileValidators, ToolArgumentsValidationError, ToolDefinitionError, ToolRegistry, Type, UnknownToolError, validateToolArguments, type ToolCallContent } from "../src/index.js";
import { ROOT_ISSUES } from "../src/text/issues.js";
import { MAX_FAST_VALUES } from "../src/validation/copy.js";
import { rejectionOf, thrownBy, toolCall } from "./support/fixtures.js";

const anything = Type.Object({ value: Type.Unknown() });
const recursive = Type.Cyclic({ Node: Type.Object({ next: Type.Optional(Type.Ref("Node")) }) }, "Node");

function registry(): ToolRegistry {
  return new ToolRegistry()
    .register({ name: "anything", description: "", parameters: anything }, (args) => args)
    .register({ name: "node", description: "", parameters: recursive }, () => "ok");
}

/** The issues of a dispatch that must fail with a validation error (and nothing else). */
async function issuesOf(call: ToolCallContent, target = registry()): Promise<readonly string[]> {
  const error = await rejectionOf(target.dispatch(call));
  expect(error).toBeInstanceOf(ToolArgumentsValidationError);
  return (error as ToolArgumentsValidationError).issues;
}

function nestedObjects(depth: number, key: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let node = root;
  for (let level = 0; level < depth; level++) {
    const child: Record<string, unknown> = {};
    node[key] = child;
    node = child;
  }
  return root;
}

describe("prototype keys never pollute a prototype", () => {
  const texts = [
    '{"value":1,"__proto__":{"polluted":true}}',
    '{"value":{"__proto__":{"polluted":true}}}',
    '{"value":1,"constructor":{"prototype":{"polluted":true}}}',
    '{"value":[{"__proto__":{"polluted":true}}],"prototype":{"polluted":true}}',
  ];

  it.each(texts)("as JSON text %s", async (text) => {
    const result = (await registry().dispatch(toolCall("anything", text))) as Record<string, unknown>;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
  });

  it.each(texts)("as an object parsed from %s", async (text) => {
    const result = (await registry().dispatch(toolCall("anything", JSON.parse(text) as Record<string, unknown>))) as Record<string, unknown>;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    if (text.startsWith('{"value":1,"__proto__"')) expect(Object.hasOwn(result, "__proto__")).toBe(true);
  });

  it("refuses __proto__ where the schema forbids extra properties", async () => {
    const strict = new ToolRegistry().register(
      { name: "strict", description: "", parameters: Type.Object({ a: Type.String() }, { additionalProperties: false }) },
      () => 1,
    );
    const issues = await issuesOf(toolCall("strict", '{"a":"x","__proto__":{"isAdmin":true}}'), strict);
    expect(issues.join("\n")).toContain("/__proto__");
  });
});

describe("an Object.prototype polluted after the library loaded", () => {
  /** Runs `use` while Object.prototype has the enumerable property `name`, as polluting code leaves it. */
  async function polluted<T>(name: string, value: unknown, use: () => Promise<T>): Promise<T> {
    (Object.prototype as Record<string, unknown>)[name] = value;
    try {
      return await use();
    } finally {
      delete (Object.prototype as Record<string, unknown>)[name];
    }
  }

  const admin = Type.Object({ isAdmin: Type.Boolean() }, { additionalProperties: false });
  // Each path a call's arguments take: object or JSON text, on their first call and once their generated code runs (the 64th).
  const paths = [
    ["object arguments, first call", {}, 0],
    ["object arguments, fused copy-and-check", {}, 70],
    ["JSON text, first call", "{}", 0],
    ["JSON text, JSON reader", "{}", 70],
  ] as const;

  it.each(paths)("never meets a required property with an inherited one: %s", async (_path, args, warmUp) => {
    const registry = new ToolRegistry().register({ name: "grant", description: "", parameters: admin }, () => "granted");
    for (let call = 0; call < warmUp; call++) await registry.dispatch(toolCall("grant", typeof args === "string" ? '{"isAdmin":false}' : { isAdmin: false }));
    const issues = await polluted("isAdmin", true, async () => issuesOf(toolCall("grant", args as Record<string, unknown>), registry));
    expect(issues).toEqual(["/isAdmin: must have required properties isAdmin"]);
  });

  it.each(paths)("never checks an optional property it inherits: %s", async (_path, args, warmUp) => {
    const registry = new ToolRegistry().register({ name: "note", description: "", parameters: Type.Object({ text: Type.Optional(Type.String()) }) }, () => "noted");
    for (let call = 0; call < warmUp; call++) await registry.dispatch(toolCall("note", typeof args === "string" ? '{"text":"a"}' : { text: "a" }));
    expect(await polluted("text", 7, () => registry.dispatch(toolCall("note", args as Record<string, unknown>)))).toBe("noted");
  });

  it("is checked the same by validateToolArguments", async () => {
    const definition = { name: "grant", description: "", parameters: admin };
    const error = await polluted("isAdmin", true, async () => thrownBy(() => validateToolArguments(definition, {})));
    expect(error).toBeInstanceOf(ToolArgumentsValidationError);
  });
});

describe("properties named like Object.prototype members", () => {
  const parameters = Type.Object({
    toString: Type.Optional(Type.String()),
    valueOf: Type.Optional(Type.Number()),
    hasOwnProperty: Type.Optional(Type.Boolean()),
    constructor: Type.Unknown(),
  });
  const tools = () => new ToolRegistry().register({ name: "members", description: "", parameters }, (args) => args);

  it("does not take an inherited member for a present optional property", async () => {
    expect(await tools().dispatch(toolCall("members", { constructor: 1 }))).toEqual({ constructor: 1 });
    expect(await tools().dispatch(toolCall("members", '{"constructor":1}'))).toEqual({ constructor: 1 });
  });

  it("does not take an inherited member for a present required property", async () => {
    expect(await issuesOf(toolCall("members", {}), tools())).toEqual(["/constructor: must have required properties constructor"]);
    expect(await issuesOf(toolCall("members", "{}"), tools())).toEqual(["/constructor: must have required properties constructor"]);
  });

  it("still checks own properties of those names", async () => {
    expect(await issuesOf(toolCall("members", { constructor: 1, toString: 5 }), tools())).toEqual(["/toString: must be string"]);
    expect(await tools().dispatch(toolCall("members", { constructor: 1, toString: "s", valueOf: 2, hasOwnProperty: true }))).toEqual({
      constructor: 1,
      toString: "s",
      valueOf: 2,
      hasOwnProperty: true,
    });
  });

  it("does not take an inherited member for the trigger of dependentSchemas, whichever way that would fail", async () => {
    const registry = new ToolRegistry()
      .register({ name: "open", description: "", parameters: { type: "object", not: { dependentSchemas: { toString: false } } } as never }, () => "ran")
      .register({ name: "closed", description: "", parameters: { type: "object", if: { dependentSchemas: { valueOf: false } }, else: { required: ["approved"] } } as never }, () => "ran");
    for (const args of [{ a: 1 }, '{"a":1}']) {
      expect(await rejectionOf(registry.dispatch(toolCall("open", args)))).toBeInstanceOf(ToolArgumentsValidationError);
      expect(await registry.dispatch(toolCall("closed", args))).toBe("ran");
    }
  });
});

describe("proxies and getters", () => {
  it("reads a benign proxy once into a plain copy", async () => {
    const result = await registry().dispatch(toolCall("anything", new Proxy({ value: { nested: 1 } }, {})));
    expect(result).toEqual({ value: { nested: 1 } });
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
  });

  it.each([
    ["a trapping proxy", new Proxy({ value: 1 }, { get() { throw new Error("trap"); } })],
    ["a proxy whose ownKeys trap throws", new Proxy({ value: 1 }, { ownKeys() { throw new Error("trap"); } })],
    ["a revoked proxy", (() => { const { proxy, revoke } = Proxy.revocable({ value: 1 }, {}); revoke(); return proxy; })()],
    ["a proxy nested inside", { value: new Proxy({ a: 1 }, { get() { throw new Error("trap"); } }) }],
    ["a throwing getter", Object.defineProperty({}, "value", { enumerable: true, get() { throw new Error("getter"); } })],
  ])("refuses %s with a typed error", async (_label, value) => {
    const issues = await issuesOf(toolCall("anything", value as Record<string, unknown>));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(/^\/: arguments must (be a plain object|contain only structured-clone-compatible values)$/);
  });
});

describe("proxies on the fused path", () => {
  // A proxy whose get trap throws for a key it does not know: the copy reads none, the layout probe of the fused pass one.
  const strict = <T extends object>(target: T): T => new Proxy(target, { get: (object, key) => { if (!(key in object)) throw new Error(`no ${String(key)}`); return Reflect.get(object, key); } });
  const schema = Type.Object({ n: Type.Integer(), o: Type.Object({ s: Type.String() }) });

  it.each([
    ["at the root", () => strict({ n: 1, o: { s: "x" } }), "/: arguments must be a plain object"],
    ["nested", () => ({ n: 1, o: strict({ s: "x" }) }), "/: arguments must contain only structured-clone-compatible values"],
  ])("refuses a strict proxy %s on every call, before and after the fused copy-and-check takes over", async (_label, value, issue) => {
    const tools = new ToolRegistry().register({ name: "t", description: "", parameters: schema }, () => 1);
    const verdicts = new Set<string>();
    for (let call = 0; call < 70; call++) verdicts.add(JSON.stringify(await issuesOf(toolCall("t", value()), tools)));
    expect([...verdicts]).toEqual([JSON.stringify([issue])]);
  });
});

describe("values that are not JSON", () => {
  it.each([
    ["a function", { value: () => 1 }],
    ["a symbol", { value: Symbol("s") }],
    ["a function deep inside", { value: { a: [{ b: () => 1 }] } }],
  ])("refuses %s", async (_label, value) => {
    expect(await issuesOf(toolCall("anything", value))).toEqual(["/: arguments must contain only structured-clone-compatible values"]);
  });

  it("copies a bigint, as structuredClone does, and rejects it where the schema wants a number", async () => {
    expect(await registry().dispatch(toolCall("anything", { value: 10n }))).toEqual({ value: 10n });
    const numbers = new ToolRegistry().register({ name: "n", description: "", parameters: Type.Object({ n: Type.Number() }) }, () => 1);
    expect(await issuesOf(toolCall("n", { n: 10n }), numbers)).toEqual(["/n: must be number"]);
  });

  it("keeps a cycle, as structuredClone does, where the schema does not descend into it", async () => {
    const value: Record<string, unknown> = {};
    value.self = value;
    const result = (await registry().dispatch(toolCall("anything", { value }))) as { value: Record<string, unknown> };
    expect(result.value.self).toBe(result.value);
  });

  it("refuses a cycle that a recursive schema would follow forever", async () => {
    const node: Record<string, unknown> = {};
    node.next = node;
    expect(await issuesOf(toolCall("node", node))).toEqual(["/: arguments are nested too deeply"]);
  });

  it("never hands a handler a hole in a sparse array", async () => {
    const list = Type.Object({ list: Type.Array(Type.Number()) });
    const arrays = new ToolRegistry().register({ name: "list", description: "", parameters: list }, () => 1);
    // eslint-disable-next-line no-sparse-arrays
    expect(await issuesOf(toolCall("list", { list: [1, , 3] }), arrays)).toEqual(["/list/1: arrays must not have holes"]);
    expect(await issuesOf(toolCall("anything", { value: new Array(3) }))).toEqual(["/value/0: arrays must not have holes"]);
    // Inside a Map or a Set, which JSON Pointer cannot address, the hole is named at the Map or Set.
    // eslint-disable-next-line no-sparse-arrays
    expect(await issuesOf(toolCall("anything", { value: { map: new Map([["k", [1, , 3]]]) } }))).toEqual(["/value/map: arrays must not have holes"]);
    // eslint-disable-next-line no-sparse-arrays
    expect(await issuesOf(toolCall("anything", { value: new Set([[1, , 3]]) }))).toEqual(["/value: arrays must not have holes"]);
    // eslint-disable-next-line no-sparse-arrays
    expect(await issuesOf(toolCall("anything", { value: new Map([[[1, , 3], "v"]]) }))).toEqual(["/value: arrays must not have holes"]);
  });
});

describe("shared objects and values made as they are read", () => {
  const tree = Type.Cyclic({ Node: Type.Object({ children: Type.Array(Type.Ref("Node")) }) }, "Node");

  it("refuses objects shared so widely that a check walking them as a tree would run for ever, with a typed error", async () => {
    const trees = new ToolRegistry().register({ name: "tree", description: "", parameters: Type.Object({ root: tree }) }, () => "ran");
    let node: unknown = { children: [] };
    for (let level = 0; level < 40; level++) node = { children: [node, node] };
    expect(await issuesOf(toolCall("tree", { root: node as Record<string, unknown> }), trees)).toEqual([ROOT_ISSUES.tooManyValues]);
    let pair: unknown = 1;
    for (let level = 0; level < 40; level++) pair = [pair, pair];
    expect(await issuesOf(toolCall("anything", { value: pair }))).toEqual([ROOT_ISSUES.tooManyValues]);
  });

  it("runs a tool whose arguments share objects within the bound, its handler seeing them shared, as structuredClone copies them", async () => {
    let seen: unknown;
    const trees = new ToolRegistry().register({ name: "tree", description: "", parameters: Type.Object({ root: tree }) }, (args) => {
      seen = args.root;
      return "ran";
    });
    let node: { children: unknown[] } = { children: [] };
    for (let level = 0; level < 18; level++) node = { children: [node, node] };
    expect(await trees.dispatch(toolCall("tree", { root: node }))).toBe("ran");
    const copy = seen as { children: unknown[] };
    expect(copy === node).toBe(false);
    expect(copy.children[0] === copy.children[1]).toBe(true);
  });

  it("explains a refusal whose arguments hold a cycle, once the explanation's extra steps are spent: each object counts once in its budget", async () => {
    const registry = new ToolRegistry().register({ name: "t", description: "", parameters: Type.Object({ list: Type.Array(Type.Number()), u: Type.Unknown() }) }, () => "ran");
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    // More items than the explanation's extra steps, so that its budget counts the value.
    const list: unknown[] = [...new Array<number>(10_001).fill(0), "x"];
    expect(await issuesOf(toolCall("t", { list, u: cycle }), registry)).toEqual(["/list/10001: must be number"]);
  });

  it("repairs around a cycle no schema describes, and refuses what it cannot repair, with onRepair on", async () => {
    const registry = new ToolRegistry({ onRepair: () => undefined }).register({ name: "t", description: "", parameters: Type.Object({ n: Type.Number(), u: Type.Unknown() }) }, () => "ran");
    const cycle: Record<string, unknown> = {};
    cycle.a = cycle;
    cycle.b = cycle;
    expect(await issuesOf(toolCall("t", { n: "x", u: cycle }), registry)).toEqual(["/n: must be number"]);
  });

  it("stops reading a proxy whose items are made as they are read, and refuses it", async () => {
    let reads = 0;
    const wide = (depth: number): unknown[] =>
      new Proxy([], {
        get(target, key) {
          if (key === "length") return 1_000;
          if (typeof key === "string" && /^\d+$/.test(key)) {
            reads++;
            return depth < 3 ? wide(depth + 1) : 1;
          }
          return Reflect.get(target, key) as unknown;
        },
        has: () => true,
      });
    // Read as it claims to be, it holds 10^12 items.
    expect(await issuesOf(toolCall("anything", { value: wide(0) }))).toEqual([ROOT_ISSUES.notCloneable]);
    expect(reads).toBeLessThanOrEqual(MAX_FAST_VALUES);
  });
});

describe("NaN and infinities", () => {
  const numbers = () =>
    new ToolRegistry().register({ name: "n", description: "", parameters: Type.Object({ n: Type.Number(), i: Type.Optional(Type.Integer()) }) }, () => 1);

  it.each([Number.NaN, Infinity, -Infinity])("rejects %s where the schema says number", async (n) => {
    expect(await issuesOf(toolCall("n", { n }), numbers())).toEqual(["/n: must be number"]);
  });

  it("rejects 1e999 in JSON text, which parses to Infinity", async () => {
    expect(await issuesOf(toolCall("n", '{"n":1e999}'), numbers())).toEqual(["/n: must be number"]);
    expect(await issuesOf(toolCall("n", '{"n":1,"i":-1e999}'), numbers())).toEqual(["/i: must be integer"]);
  });
});

describe("deep nesting", () => {
  it("handles 200,000 levels of JSON text without a native error", async () => {
    const text = `{"value":${"[".repeat(200_000)}${"]".repeat(200_000)}}`;
    await expect(registry().dispatch(toolCall("anything", text))).resolves.toBeDefined();
    const chain = `${'{"next":'.repeat(200_000)}{}${"}".repeat(200_000)}`;
    expect(await issuesOf(toolCall("node", chain))).toEqual(["/: arguments are nested too deeply"]);
  });

  it("handles 50,000 levels of objects without a native error", async () => {
    expect(await issuesOf(toolCall("anything", { value: nestedObjects(50_000, "x") }))).toEqual(["/: arguments are nested too deeply"]);
    expect(await issuesOf(toolCall("node", nestedObjects(50_000, "next")))).toEqual(["/: arguments are nested too deeply"]);
  });

  it("copies ordinary nesting (a few hundred levels) faithfully", async () => {
    const value = nestedObjects(300, "x");
    expect(await registry().dispatch(toolCall("anything", { value }))).toEqual({ value });
  });
});

describe("oversized input", () => {
  it("refuses JSON text over maxArgumentBytes before parsing it", async () => {
    const small = new ToolRegistry({ maxArgumentBytes: 1024 }).register({ name: "anything", description: "", parameters: anything }, () => 1);
    const text = JSON.stringify({ value: "x".repeat(2000) });
    expect(await issuesOf(toolCall("anything", text), small)).toEqual(["/: arguments must not be larger than 1024 bytes"]);
    // Invalid JSON of that size is refused for its size: it was never parsed.
    expect(await issuesOf(toolCall("anything", `{${"x".repeat(2000)}`), small)).toEqual(["/: arguments must not be larger than 1024 bytes"]);
  });

  it("counts UTF-8 bytes, not characters", async () => {
    const small = new ToolRegistry({ maxArgumentBytes: 1024 }).register({ name: "anything", description: "", parameters: anything }, () => 1);
    expect(await small.dispatch(toolCall("anything", JSON.stringify({ value: "é".repeat(400) })))).toBe(1);
    expect(await issuesOf(toolCall("anything", JSON.stringify({ value: "é".repeat(600) })), small)).toEqual([
      "/: arguments must not be larger than 1024 bytes",
    ]);
  });

  it("defaults to 16 MiB", async () => {
    const text = JSON.stringify({ value: "x".repeat(16 * 1024 * 1024) });
    expect(await issuesOf(toolCall("anything", text))).toEqual([`/: arguments must not be larger than ${16 * 1024 * 1024} bytes`]);
  });

  it.each([0, -1, 1.5])("refuses maxArgumentBytes %s", (maxArgumentBytes) => {
    expect(() => new ToolRegistry({ maxArgumentBytes })).toThrow("maxArgumentBytes must be a positive integer");
  });
});

describe("many failing fields", () => {
  it("caps the issues, bounds the message and shows no value", async () => {
    const properties = Object.fromEntries(Array.from({ length: 500 }, (_, index) => [`field${index}`, Type.Integer()]));
    const wide = new ToolRegistry().register({ name: "wide", description: "", parameters: Type.Object(properties) }, () => 1);
    const secret = "SECRET-VALUE";
    const args = Object.fromEntries(Array.from({ length: 500 }, (_, index) => [`field${index}`, `${secret}-${"y".repeat(10_000)}`]));
    const error = (await rejectionOf(wide.dispatch(toolCall("wide", args)))) as ToolArgumentsValidationError;
    expect(error).toBeInstanceOf(ToolArgumentsValidationError);
    expect(error.issues.length).toBeLessThanOrEqual(20);
    expect(error.message.length).toBeLessThan(2_000);
    expect(error.message).not.toContain(secret);
  });

  it("keeps the text for the model within 8 KB when the schema echoes long patterns in every issue", async () => {
    const pattern = `^${"a".repeat(5_000)}$`;
    const properties = Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`field${index}`, Type.String({ pattern })]));
    const patterned = new ToolRegistry().register({ name: "patterned", description: "", parameters: Type.Object(properties) }, () => 1);
    const args = Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`field${index}`, "b"]));
    const [result] = await patterned.dispatchAll([toolCall("patterned", args)]);
    expect(result!.isError && result!.content.length).toBeLessThanOrEqual(8_192);
    expect(result!.isError && result!.content).toContain("/field0: must match pattern");
  });

  it("reports 200,000 unknown keys as properties that are not allowed, not as deep nesting", async () => {
    const closed = new ToolRegistry().register({ name: "closed", description: "", parameters: Type.Object({ a: Type.String() }, { additionalProperties: false }) }, () => 1);
    const args: Record<string, unknown> = { a: "x" };
    for (let index = 0; index < 200_000; index++) args[`k${index}`] = 1;
    const error = (await rejectionOf(closed.dispatch(toolCall("closed", args)))) as ToolArgumentsValidationError;
    expect(error.issues[0]).toBe('/k0: is not an allowed property (allowed: "a")');
    expect(error.issues).toHaveLength(20);
    expect(error.issues.at(-1)).toBe("/: more issues not shown");
  });

  it("bounds a hostile tool name in messages", async () => {
    const name = "n".repeat(100_000);
    const error = await rejectionOf(registry().dispatch(toolCall(name, {})));
    expect((error as Error).message.length).toBeLessThan(500);
  });
});

describe("malformed tool calls", () => {
  const throwing = new Proxy({}, { get() { throw new Error("trap"); } });
  const revoked = (() => { const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); return proxy; })();

  it.each([
    ["null", null],
    ["undefined", undefined],
    ["a string", "read"],
    ["a call whose every field throws", throwing],
    ["a revoked proxy", revoked],
    ["a call without a name", { id: "1", arguments: {} }],
  ])("rejects %s with UnknownToolError", async (_label, call) => {
    expect(await rejectionOf(registry().dispatch(call as never))).toBeInstanceOf(UnknownToolError);
  });

  it("never suggests the tool a name that is not a string reads like: the number 5 names no tool, not even \"5\"", async () => {
    const numbered = new ToolRegistry().register({ name: "5", description: "", parameters: anything }, () => 1);
    const error = (await rejectionOf(numbered.dispatch({ id: "1", name: 5, arguments: {} } as never))) as UnknownToolError;
    expect(error).toBeInstanceOf(UnknownToolError);
    expect(error.suggestions).toEqual([]);
    expect(error.message).toBe('Unknown tool "5". Available tools: "5".');
  });

  it("rejects a call whose arguments cannot be read with a validation error", async () => {
    const call = { type: "tool_call", id: "1", name: "anything", get arguments(): never { throw new Error("trap"); } };
    expect(await issuesOf(call as unknown as ToolCallContent)).toEqual(["/: arguments must be a plain object"]);
  });

  it("gives every malformed call of dispatchAll a failure result, and still resolves", async () => {
    const results = await registry().dispatchAll([null, throwing, { id: 7, name: "anything", arguments: { value: 1 } }] as never);
    expect(results.map((result) => result.isError)).toEqual([true, true, false]);
    expect(results[2]).toMatchObject({ toolCallId: "7", toolName: "anything" });
  });
});

describe("malformed tool definitions", () => {
  const revoked = (): object => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  };
  const schema = Type.Object({ a: Type.String() }, { required: ["a"] });
  const definitions: Array<[string, () => unknown]> = [
    ["null", () => null],
    ["a number", () => 5],
    ["a revoked proxy", revoked],
    ["a definition whose name getter throws", () => ({ get name(): never { throw new Error("getter"); }, description: "", parameters: schema })],
    ["a definition whose parameters getter throws", () => ({ name: "x", description: "", get parameters(): never { throw new Error("getter"); } })],
    ["a definition with no name", () => ({ parameters: schema })],
    ["a definition whose name is a number", () => ({ name: 5, parameters: schema })],
    ["a boolean schema", () => ({ name: "x", description: "", parameters: true })],
  ];

  it.each(definitions)("validateToolArguments refuses %s with ToolDefinitionError", (_label, definition) => {
    expect(thrownBy(() => validateToolArguments(definition() as never, {}))).toBeInstanceOf(ToolDefinitionError);
  });

  it.each(definitions)("parseToolArguments refuses %s with ToolDefinitionError", (_label, definition) => {
    expect(thrownBy(() => parseToolArguments(definition() as never, "{}"))).toBeInstanceOf(ToolDefinitionError);
  });

  it.each(definitions)("register refuses %s with ToolDefinitionError", (_label, definition) => {
    expect(thrownBy(() => new ToolRegistry().register(definition() as never, () => 1))).toBeInstanceOf(ToolDefinitionError);
  });

  it("register refuses a definition whose outputSchema getter throws with ToolDefinitionError", () => {
    const definition = { name: "x", description: "", parameters: schema, get outputSchema(): never { throw new Error("getter"); } };
    const error = thrownBy(() => new ToolRegistry().register(definition as never, () => 1));
    expect(error).toBeInstanceOf(ToolDefinitionError);
    expect((error as ToolDefinitionError).message).toBe('Invalid definition for tool "x": the definition cannot be read');
  });

  it("register reads each field of a definition once: a name getter that answers otherwise later registers the name it first gave", () => {
    let reads = 0;
    const definition = { get name() { return reads++ === 0 ? "first" : "second"; }, description: "", parameters: schema };
    const registry = new ToolRegistry().register(definition as never, () => 1);
    expect(registry.get("first")?.name).toBe("first");
    expect(registry.has("second")).toBe(false);
  });

  it.each([
    ["null", null],
    ["a number", 5],
  ])("precompileValidators refuses %s with a TypeError that names it", (label, entry) => {
    const error = thrownBy(() => precompileValidators([entry as never]));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(`precompileValidators needs tool definitions or schema objects, got ${label === "null" ? "null" : "number"}`);
  });

  it.each([
    ["null", null, "null"],
    ["a plain object", {}, "object"],
    ["a number", 5, "5"],
  ])("precompileValidators refuses %s in place of a list with a TypeError that names it", (_label, tools, described) => {
    const error = thrownBy(() => precompileValidators(tools as never));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(`precompileValidators needs an iterable of tool definitions or schemas, got ${described}`);
  });

  it("failureContent describes a revoked proxy without throwing", () => {
    expect(failureContent(revoked())).toBe("Tool call failed: threw an unreadable error");
  });
});

describe("handlers that return hostile values", () => {
  const poisoned = () => ({
    get then(): never {
      throw new Error("then cannot be read");
    },
  });

  it.each([
    ["with no signal or time limit", {}, undefined],
    ["with a time limit", { timeoutMs: 1_000 }, undefined],
    ["with a caller's signal", {}, new AbortController().signal],
  ] as const)("fails a result whose then getter throws as the handler's error, %s, and stops counting it as running", async (_, registryOptions, signal) => {
    const registry = new ToolRegistry(registryOptions).register({ name: "t", description: "t", parameters: Type.Object({}) }, poisoned as never);
    const error = await rejectionOf(registry.dispatch(toolCall("t", {}), signal === undefined ? undefined : { signal }));
    expect(error).toMatchObject({ name: "ToolExecutionError", toolName: "t" });
    expect(registry.executionStats().running).toBe(0);
  });
});
