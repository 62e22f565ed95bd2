import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Compile } from "typebox/compile";
import { Settings } from "typebox/system";
import { Errors } from "typebox/value";
import { Type } from "../src/index.js";
import { ErrorExplainer } from "../src/explain.js";
import { toIssues } from "../src/issues.js";

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

function pointers(errors: ReadonlyArray<{ instancePath: string }>): string[] {
  return [...new Set(errors.map((error) => error.instancePath))].sort();
}

describe("ErrorExplainer", () => {
  it("finds the failures deep inside objects and arrays, at their pointers", () => {
    const value = structuredClone(valid) as Record<string, any>;
    value.owner.address.city = 5;
    value.items.push({ id: 2.5, qty: -1, tags: ["a", 1] });
    const errors = new ErrorExplainer(schema).explain(value, 20);
    expect(pointers(errors)).toEqual(["/items/1/id", "/items/1/qty", "/items/1/tags/1", "/owner/address/city"]);
  });

  it("reports the node's own failures: missing properties and array bounds", () => {
    const errors = new ErrorExplainer(schema).explain({ mode: "fast", owner: { address: { city: "c" } }, items: [] }, 20);
    expect(errors.map((error) => [error.instancePath, error.keyword])).toEqual(
      expect.arrayContaining([["/owner", "required"], ["/items", "minItems"]]),
    );
  });

  it("names the allowed values of a union of literals and of an enum", () => {
    const errors = new ErrorExplainer(schema).explain({ ...valid, mode: "slow", color: "blue" }, 20);
    expect(errors.map((error) => `${error.instancePath}: ${error.message}`)).toEqual([
      '/mode: must be one of "fast", "safe"',
      '/color: must be one of "red", "green"',
    ]);
  });

  it("explains schemas with references whole, with TypeBox's own errors", () => {
    const tree = Type.Cyclic({ Node: Type.Object({ children: Type.Array(Type.Ref("Node")) }) }, "Node");
    const value = { children: [{ children: [{ children: 5 }] }] };
    expect(new ErrorExplainer(tree).explain(value, 20)).toEqual(Errors(tree, value));
  });

  it("returns no more errors than the limit, however many there are", () => {
    const many = Type.Object({ list: Type.Array(Type.Integer()) });
    expect(new ErrorExplainer(many).explain({ list: Array.from({ length: 100 }, () => "x") }, 5)).toHaveLength(5);
  });

  it("explains every invalid value with at least one error, at a pointer TypeBox also reports", () => {
    // TypeBox stops at 8 errors by default; the oracle must list them all.
    Settings.Set({ maxErrors: 10_000 });
    const validator = Compile(schema);
    const explainer = new ErrorExplainer(schema);
    const arbitraryArguments = fc.record(
      {
        mode: fc.oneof(fc.constantFrom("fast", "safe", "slow"), fc.integer()),
        color: fc.constantFrom("red", "blue", 3),
        owner: fc.record({ name: fc.oneof(fc.string(), fc.integer()), address: fc.oneof(fc.record({ city: fc.oneof(fc.string(), fc.boolean()) }), fc.constant(null)) }, { requiredKeys: [] }),
        items: fc.array(fc.record({ id: fc.oneof(fc.integer(), fc.double()), qty: fc.double(), tags: fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 5 }) }, { requiredKeys: [] }), { maxLength: 4 }),
        labels: fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer())),
        note: fc.oneof(fc.string(), fc.constant(null), fc.integer()),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(arbitraryArguments, (value) => {
        if (validator.Check(value)) return;
        const explained = explainer.explain(value, 20);
        expect(explained.length).toBeGreaterThan(0);
        const reported = new Set(Errors(schema, value).map((error) => error.instancePath));
        for (const error of explained) {
          const covered = [...reported].some((path) => path === error.instancePath || path.startsWith(`${error.instancePath}/`) || error.instancePath.startsWith(`${path}/`));
          expect(covered).toBe(true);
        }
      }),
      { seed: 20261130, numRuns: 300 },
    );
  });

  it("words the failures of simple schemas exactly as TypeBox does", () => {
    Settings.Set({ maxErrors: 10_000 });
    const simple = Type.Object(
      {
        count: Type.Integer({ minimum: 1, maximum: 9 }),
        ratio: Type.Optional(Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 1 })),
        name: Type.String(),
        flag: Type.Optional(Type.Boolean()),
        nothing: Type.Optional(Type.Null()),
        inner: Type.Object({ x: Type.Integer(), y: Type.Optional(Type.String()) }, { additionalProperties: false }),
        list: Type.Array(Type.Object({ id: Type.Integer({ minimum: 0 }) })),
      },
      { additionalProperties: false },
    );
    const explainer = new ErrorExplainer(simple);
    const validator = Compile(simple);
    const scalar = fc.oneof(fc.integer({ min: -3, max: 12 }), fc.double(), fc.string({ maxLength: 3 }), fc.boolean(), fc.constant(null));
    const arbitrary = fc.record(
      {
        count: scalar,
        ratio: scalar,
        name: scalar,
        flag: scalar,
        nothing: scalar,
        extra: scalar,
        inner: fc.oneof(scalar, fc.record({ x: scalar, y: scalar, z: scalar }, { requiredKeys: [] })),
        list: fc.array(fc.oneof(scalar, fc.record({ id: scalar }, { requiredKeys: [] })), { maxLength: 3 }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(arbitrary, (value) => {
        if (validator.Check(value)) return;
        expect(new Set(toIssues(explainer.explain(value, 1000)))).toEqual(new Set(toIssues(Errors(simple, value))));
      }),
      { seed: 20261130, numRuns: 500 },
    );
  });
});
