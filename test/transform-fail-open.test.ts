import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { Code } from "typebox/compile";
import { describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { ToolArgumentsValidationError, ToolDefinitionError, ToolRegistry, Type, type PrecompiledValidators, type TSchema } from "../src/index.js";
import { ValidatorCache } from "../src/validation/cache.js";
import { copyArguments } from "../src/validation/copy.js";
import { fusedFromSource, fusedSource } from "../src/validation/fused.js";
import { transformSchema } from "../src/validation/transform.js";
import { rejectionOf, thrownBy, toolCall } from "./support/fixtures.js";

type Verdict = "accepted" | "refused" | "refused-schema";

/**
 * What dispatch does with `value`, given as an object and as JSON text, on `calls` calls each
 * (the first is checked by TypeBox's interpreter, the second compiles the check, the 64th makes
 * the fused copy-and-check): one verdict when every call agrees, else the list of them.
 */
async function verdictOf(schema: object, value: Record<string, unknown>, calls = 3): Promise<Verdict | Verdict[]> {
  const verdicts = new Set<Verdict>();
  for (const form of [value, JSON.stringify(value)]) {
    const registry = new ToolRegistry().register({ name: "tool", description: "", parameters: schema as TSchema }, (args) => args);
    for (let call = 0; call < calls; call++) {
      try {
        const result = await registry.dispatch(toolCall("tool", form));
        expect(result).toEqual(JSON.parse(JSON.stringify(value)));
        verdicts.add("accepted");
      } catch (error) {
        if (error instanceof ToolArgumentsValidationError) verdicts.add("refused");
        else if (error instanceof ToolDefinitionError) verdicts.add("refused-schema");
        else throw error;
      }
    }
  }
  return verdicts.size === 1 ? [...verdicts][0]! : [...verdicts];
}

/** Ajv's verdict (JSON Schema 2020-12), as {@link verdictOf} words it. */
function ajvVerdict(schema: object, value: unknown): Verdict {
  return new Ajv2020({ strict: false }).validate(schema, value) ? "accepted" : "refused";
}

/** The fused path's verdict, decided by the compiled check where the fused pass left something unchecked. */
function fusedVerdict(schema: TSchema, value: Record<string, unknown>): boolean {
  const entry = new ValidatorCache().get("tool", schema);
  const state = { invalid: false, unchecked: false };
  const copy = fusedFromSource(fusedSource(schema)!)(value, state);
  return !state.invalid && (!state.unchecked || entry.Check(copy));
}

/** The plain path's verdict: the private copy, then the compiled check (compiled on the second use). */
function plainVerdict(schema: TSchema, value: object): boolean {
  const entry = new ValidatorCache().get("tool", schema);
  entry.Check(copyArguments(value));
  return entry.Check(copyArguments(value));
}

describe("unevaluatedProperties and unevaluatedItems whose subschema holds a $ref", () => {
  const money = {
    type: "object",
    unevaluatedProperties: { $ref: "#/$defs/Money" },
    $defs: { Money: { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] } },
  };

  it("checks each unevaluated property against the referenced definition alone, as Ajv does: one evaluated inside a value does not count in its parent", async () => {
    const values = [
      { usd: { amount: 5 }, amount: "all of it" },
      { amount: "all of it", usd: { amount: 5 } },
      { usd: { amount: 5 } },
      { usd: { amount: 5 }, eur: { amount: 3.5 } },
      { usd: { amount: "5" } },
      { usd: 5 },
      {},
    ];
    for (const value of values) expect(await verdictOf(money, value), JSON.stringify(value)).toBe(ajvVerdict(money, value));
    expect(await verdictOf(money, { usd: { amount: 5 }, amount: "all of it" })).toBe("refused");
  });

  it("checks the definitions the reference leads to, transformed as the rest of the schema is, and the same schema content always compiles to the same code", async () => {
    const schema = {
      type: "object",
      properties: { name: { type: "string" } },
      unevaluatedProperties: { $ref: "#/definitions/Tagged" },
      definitions: {
        Tagged: { type: "object", properties: { tag: { $ref: "#/definitions/Tag" }, count: { type: "number", multipleOf: 0.25 } } },
        Tag: { enum: [["a"], ["b"]] },
      },
    };
    const values = [
      { name: "n", x: { tag: ["a"], count: 0.75 } },
      { name: "n", x: { tag: ["c"] } },
      { name: "n", x: { tag: { 0: "a", length: 1 } } },
      { name: "n", x: { count: 0.3 } },
      { name: "n", x: { tag: ["b"] }, tag: "loose" },
      { name: "n", x: { tag: ["b"] }, count: "loose" },
    ];
    for (const value of values) expect(await verdictOf(schema, value), JSON.stringify(value)).toBe(ajvVerdict(schema, value));
    const transformed = transformSchema(schema);
    expect(transformed).not.toBe(schema);
    expect(Code(transformed as TSchema).Code).toBe(Code(transformSchema(structuredClone(schema)) as TSchema).Code);
  });

  it("checks each unevaluated item against the referenced definition alone: an item evaluated inside an array item does not count in its parent", async () => {
    const schema = {
      type: "object",
      properties: { list: { type: "array", prefixItems: [{ type: "string" }], unevaluatedItems: { $ref: "#/$defs/Numbers" } } },
      $defs: { Numbers: { type: "array", items: { type: "number" } } },
    };
    const values = [{ list: ["x", [1, 2, 3], "not numbers"] }, { list: ["x", [1, 2, 3], [4]] }, { list: ["x", [1, "2"]] }, { list: ["x"] }];
    for (const value of values) expect(await verdictOf(schema, value), JSON.stringify(value)).toBe(ajvVerdict(schema, value));
    expect(await verdictOf(schema, values[0]!)).toBe("refused");
  });

  it("checks a definition whose own unevaluatedProperties refers to itself, to any depth", async () => {
    const schema = {
      type: "object",
      properties: { tree: { $ref: "#/$defs/Node" } },
      required: ["tree"],
      $defs: { Node: { type: "object", properties: { name: { type: "string" } }, unevaluatedProperties: { $ref: "#/$defs/Node" } } },
    };
    const values = [
      { tree: { child: { other: {} }, other: 5 } },
      { tree: { name: "a", child: { name: "b", grandchild: { name: "c" } } } },
      { tree: { name: "a", child: { name: "b", grandchild: { name: 3 } } } },
      { tree: { name: "a", child: 3 } },
    ];
    for (const value of values) expect(await verdictOf(schema, value), JSON.stringify(value)).toBe(ajvVerdict(schema, value));
    expect(await verdictOf(schema, values[0]!)).toBe("refused");
  });

  it.each([
    ["the root (#)", { type: "object", properties: { a: { type: "string" } }, unevaluatedProperties: { $ref: "#" } }],
    ["a property (#/properties/…)", { type: "object", properties: { a: { type: "object", properties: { b: { type: "number" } } } }, unevaluatedProperties: { $ref: "#/properties/a" } }],
    ["a definition that refers to the root", { type: "object", unevaluatedProperties: { $ref: "#/$defs/Up" }, $defs: { Up: { anyOf: [{ type: "number" }, { $ref: "#" }] } } }],
    ["an anchor", { type: "object", unevaluatedProperties: { $ref: "#money" }, $defs: { Money: { $anchor: "money", type: "object", properties: { amount: { type: "number" } } } } }],
    ["a definition inside a resource of its own ($id)", { type: "object", unevaluatedProperties: { $ref: "#/$defs/Money" }, $defs: { Money: { $id: "https://example.com/money", type: "object", properties: { amount: { type: "number" } } } } }],
    ["$dynamicRef", { type: "object", unevaluatedProperties: { $dynamicRef: "#/$defs/Money" }, $defs: { Money: { type: "object", properties: { amount: { type: "number" } } } } }],
  ])("refuses the schema at register, naming the keyword, where the subschema refers to %s, which it cannot check apart from the rest", (_, schema) => {
    expect(() => transformSchema(schema)).toThrow(/\/unevaluatedProperties: /);
    const error = thrownBy(() => new ToolRegistry().register({ name: "tool", description: "", parameters: schema as TSchema }, () => 1));
    expect(error).toBeInstanceOf(ToolDefinitionError);
    expect((error as ToolDefinitionError).problems.map((problem) => problem.pointer)).toEqual(["/unevaluatedProperties"]);
  });
});

describe("Type.Record with string keys", () => {
  const terminators = ["a\nb", "a\rb", "a\u2028b", "a\u2029b", "\n", "\u2028"];
  const record = Type.Object({ m: Type.Record(Type.String(), Type.Number()) });

  it("checks the value of a key holding a line terminator (\\n, \\r, U+2028, U+2029), as an object and as JSON text, on every call", async () => {
    for (const key of terminators) {
      expect(await verdictOf(record, { m: { [key]: "not a number" } }, 70), JSON.stringify(key)).toBe("refused");
      expect(await verdictOf(record, { m: { ok: 1, [key]: { nested: true } } }, 3), JSON.stringify(key)).toBe("refused");
      expect(await verdictOf(record, { m: { [key]: 5, ok: 1 } }, 70), JSON.stringify(key)).toBe("accepted");
    }
  });

  it("takes such a key as one of its keys under additionalProperties: false, where a hand-written ^.*$ keeps JSON Schema's meaning and refuses it", async () => {
    const closed = Type.Object({ m: Type.Record(Type.String(), Type.Number(), { additionalProperties: false }) });
    const handWritten = { type: "object", properties: { m: { type: "object", patternProperties: { "^.*$": { type: "number" } }, additionalProperties: false } } };
    const open = { type: "object", properties: { m: { type: "object", patternProperties: { "^.*$": { type: "number" } } } } };
    for (const key of terminators) {
      expect(await verdictOf(closed, { m: { [key]: 5 } }), JSON.stringify(key)).toBe("accepted");
      expect(await verdictOf(closed, { m: { [key]: "x" } }), JSON.stringify(key)).toBe("refused");
      for (const schema of [handWritten, open]) {
        for (const value of [{ m: { [key]: 5 } }, { m: { [key]: "x" } }, { m: { plain: "x" } }]) {
          expect(await verdictOf(schema, value), JSON.stringify({ schema, value })).toBe(ajvVerdict(schema, value));
        }
      }
    }
    expect(transformSchema(open)).toBe(open);
  });

  it("shares no validator with the same pattern written by hand, under cacheKey content, and explains the refusal at the key", async () => {
    const registry = new ToolRegistry({ cacheKey: "content" })
      .register({ name: "hand", description: "", parameters: JSON.parse(JSON.stringify(record)) as TSchema }, (args) => args)
      .register({ name: "record", description: "", parameters: record }, (args) => args);
    const args = { m: { "a\nb": "not a number" } };
    expect(await registry.dispatch(toolCall("hand", args))).toEqual(args);
    expect(((await rejectionOf(registry.dispatch(toolCall("record", args)))) as ToolArgumentsValidationError).issues).toEqual(["/m/a\\u000ab: must be number"]);
  });

  it("keeps its meaning in a precompiled validator, which is generated from the schema's JSON", async () => {
    const { precompileValidators } = await import("../src/index.js");
    const source = precompileValidators([record]);
    const folder = resolve(import.meta.dirname, "..", ".test-tmp");
    mkdirSync(folder, { recursive: true });
    const file = resolve(folder, "record-keys.ts");
    writeFileSync(file, source.replace('"typebox-tool-registry/precompiled"', JSON.stringify(resolve(import.meta.dirname, "..", "src", "precompiled", "index.js"))));
    const { validators: precompiled } = (await import(file)) as { validators: PrecompiledValidators };
    const registry = new ToolRegistry({ precompiled }).register({ name: "record", description: "", parameters: record }, (args) => args);
    for (let call = 0; call < 70; call++) await expect(registry.dispatch(toolCall("record", { m: { "a\u2028b": "x" } }))).rejects.toBeInstanceOf(ToolArgumentsValidationError);
    expect(await registry.dispatch(toolCall("record", { m: { "a\u2028b": 1 } }))).toEqual({ m: { "a\u2028b": 1 } });
    expect(registry.compileStats().interpreted).toBe(0);
  });

  it("decides on the fused path as on the plain path, and checks every key there too", () => {
    const key = fc.array(fc.constantFrom("a", "b", "\n", "\r", "\u2028", "\u2029", "é"), { maxLength: 4 }).map((units) => units.join(""));
    const item = fc.oneof(fc.integer(), fc.constant("text"));
    const schemas: TSchema[] = [record, Type.Object({ m: Type.Record(Type.String(), Type.Integer(), { additionalProperties: false }) })];
    fc.assert(
      fc.property(fc.constantFrom(...schemas), fc.dictionary(key, item, { maxKeys: 4 }), (schema, m) => {
        const value = { m };
        const expected = Object.values(m).every((entry) => typeof entry === "number");
        expect(fusedVerdict(schema, value), JSON.stringify(value)).toBe(expected);
        expect(plainVerdict(schema, value), JSON.stringify(value)).toBe(expected);
      }),
      { seed: 20261201, numRuns: 300 },
    );
  });
});

describe("Type.Record with string keys, repaired", () => {
  it("repairs the value under a key holding a line terminator, as under any other key", async () => {
    const registry = new ToolRegistry({ onRepair: () => undefined }).register({ name: "tool", description: "", parameters: Type.Object({ m: Type.Record(Type.String(), Type.Number()) }) }, (args) => args);
    expect(await registry.dispatch(toolCall("tool", { m: { "a\nb": "5", plain: "6" } }))).toEqual({ m: { "a\nb": 5, plain: 6 } });
  });
});

describe("unevaluatedProperties through TypeBox's own references", () => {
  it("checks a Type.Cyclic definition whose unevaluatedProperties refers to it by name, as Ajv does", async () => {
    const node = Type.Cyclic({ Node: Type.Object({ name: Type.String() }, { unevaluatedProperties: Type.Ref("Node") }) }, "Node");
    const schema = Type.Object({ tree: node });
    const plain = JSON.parse(JSON.stringify(schema)) as object;
    for (const value of [{ tree: { name: "root", child: { name: "leaf" } } }, { tree: { name: "root", child: { name: 5 } } }, { tree: { name: "root", child: 3 } }]) {
      expect(await verdictOf(schema, value), JSON.stringify(value)).toBe(ajvVerdict(plain, value));
    }
  });
});

describe("the number of isolated subschemas", () => {
  it("is bounded: a schema with more than 64 unevaluatedProperties subschemas is refused at register", () => {
    const properties = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`p${index}`, { type: "object", unevaluatedProperties: { type: "string" } }]));
    expect(() => new ToolRegistry().register({ name: "ok", description: "", parameters: { type: "object", properties: properties(64) } as TSchema }, () => 1)).not.toThrow();
    const error = thrownBy(() => new ToolRegistry().register({ name: "many", description: "", parameters: { type: "object", properties: properties(65) } as TSchema }, () => 1));
    expect((error as ToolDefinitionError).problems[0]!.problem).toContain("is one more than the 64 unevaluatedProperties or unevaluatedItems subschemas");
  });
});

describe("minLength beyond what TypeBox doubles in 32-bit arithmetic", () => {
  it.each([2 ** 29 + 1, 2 ** 30, 2 ** 31 + 5, 2 ** 40])("refuses every string under minLength %d, on every call, as an object and as JSON text, as Ajv does", async (minLength) => {
    const schema = Type.Object({ s: Type.String({ minLength }) });
    expect(ajvVerdict(schema, { s: "ab" })).toBe("refused");
    expect(await verdictOf(schema, { s: "ab" }, 70)).toBe("refused");
    expect(plainVerdict(schema, { s: "ab" })).toBe(false);
  });

  it("keeps the bound as written in the issue the model reads", async () => {
    const registry = new ToolRegistry().register({ name: "tool", description: "", parameters: Type.Object({ s: Type.String({ minLength: 2 ** 30 }) }) }, () => 1);
    expect(((await rejectionOf(registry.dispatch(toolCall("tool", { s: "ab" })))) as ToolArgumentsValidationError).issues).toEqual(["/s: must not have fewer than 1073741824 characters"]);
  });
});
