import { describe, expect, it } from "vitest";
import { isLeafSchema, subschemaKeywordsOf } from "../src/schema/keywords.js";
import { walkSchema } from "../src/schema/walk.js";

function visited(root: unknown): string[] {
  const pointers: string[] = [];
  walkSchema(root, (_node, pointer) => void pointers.push(pointer));
  return pointers;
}

describe("walkSchema", () => {
  it("visits every subschema once, parents first, in keyword order, and never inside values", () => {
    const shared = { type: "string" };
    const schema = {
      properties: { "a/b": shared, "c~d": { type: "array", items: { type: "number" } } },
      anyOf: [{ type: "object" }, true, { not: { const: { properties: { x: {} } } } }],
      additionalProperties: { enum: [{ items: {} }] },
      default: { properties: { y: {} } },
    };
    expect(visited(schema)).toEqual(["", "/additionalProperties", "/anyOf/0", "/anyOf/2", "/anyOf/2/not", "/properties/a~1b", "/properties/c~0d", "/properties/c~0d/items"]);
  });

  it("descends through a keyword that is not enumerable, as TypeBox reads it", () => {
    const schema = { type: "object" };
    Object.defineProperty(schema, "properties", { value: { hidden: { type: "integer" } }, enumerable: false });
    expect(visited(schema)).toEqual(["", "/properties/hidden"]);
  });

  it("stops at the first subschema nested deeper than its limit", () => {
    const deep = { items: { items: { items: { type: "string" } } } };
    expect(walkSchema(deep, () => undefined, 2)).toEqual({ pointer: "/items/items/items" });
    expect(walkSchema(deep, () => undefined, 3)).toBeUndefined();
  });
});

describe("subschemaKeywordsOf", () => {
  it("names a schema's own subschema keywords in its key order, and none of a leaf's", () => {
    expect(subschemaKeywordsOf({ type: "string", minLength: 1 })).toEqual([]);
    expect(subschemaKeywordsOf({ required: ["a"], properties: {}, type: "object", allOf: [] })).toEqual(["properties", "allOf"]);
    expect(subschemaKeywordsOf(Object.create({ properties: {} }) as Record<string, unknown>)).toEqual([]);
  });
});

describe("isLeafSchema", () => {
  it("holds for a schema with no subschema and no reference, and for anything that is not an object", () => {
    expect(isLeafSchema({ type: "integer", minimum: 0 })).toBe(true);
    expect(isLeafSchema(true)).toBe(true);
    expect(isLeafSchema({ $ref: "#/$defs/a" })).toBe(false);
    expect(isLeafSchema({ items: { type: "string" } })).toBe(false);
    const hidden = { type: "object" };
    Object.defineProperty(hidden, "properties", { value: {}, enumerable: false });
    expect(isLeafSchema(hidden)).toBe(false);
  });
});
