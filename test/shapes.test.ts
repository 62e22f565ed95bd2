import { describe, expect, it } from "vitest";
import { Type } from "../src/index.js";
import { SchemaReferences } from "../src/schema/references.js";
import { describeNames, describeShape } from "../src/text/shapes.js";

function shape(schema: unknown): string | undefined {
  const references = new SchemaReferences(schema);
  return describeShape(schema, (ref) => references.resolve(ref));
}

describe("describeShape", () => {
  it("writes a typed schema's constraints after its type", () => {
    expect(shape({ type: "string", format: "date-time" })).toBe("string (format date-time)");
    expect(shape(Type.Integer({ minimum: 0, maximum: 9 }))).toBe("integer (>= 0, <= 9)");
    expect(shape({ type: "number", multipleOf: 0.5 })).toBe("number (a multiple of 0.5)");
    expect(shape({ type: "string" })).toBe("string");
  });

  it("lists allowed values instead of the type, unless they contradict the type", () => {
    expect(shape(Type.Union([Type.Literal("fast"), Type.Literal("exact")]).anyOf[0])).toBe('"fast"');
    expect(shape({ type: "string", enum: ["fast", "exact"] })).toBe('one of "fast", "exact"');
    expect(shape({ const: 3 })).toBe("3");
    // BFCL writes Python's booleans as strings in an enum on a boolean: the type is what can be met.
    expect(shape({ type: "boolean", enum: ["True", "False"] })).toBe("boolean");
    expect(shape(Type.Union([Type.Literal("fast"), Type.Literal("exact"), Type.Literal("safe"), Type.Literal("slow")]))).toBe('one of "fast", "exact", "safe", "slow"');
  });

  it("describes an array with its constraints and its items, one level deep", () => {
    expect(shape(Type.Array(Type.String({ format: "email" }), { minItems: 1 }))).toBe("array (at least 1 item) of string (format email)");
    expect(shape(Type.Array(Type.Array(Type.Integer())))).toBe("array of array");
    expect(shape({ type: "array", uniqueItems: true })).toBe("array (unique)");
  });

  it("names an object's declared properties, quoted, up to eight", () => {
    expect(shape(Type.Object({ city: Type.String(), days: Type.Integer() }))).toBe('object with properties "city", "days"');
    const many = Object.fromEntries(Array.from({ length: 10 }, (_, index) => [`p${index}`, { type: "string" }]));
    expect(shape({ type: "object", properties: many })).toBe('object with properties "p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", and 2 more');
    expect(shape({ type: "object" })).toBe("object");
  });

  it("describes a small union branch by branch, and follows references", () => {
    expect(shape({ anyOf: [{ type: "string", format: "date" }, { type: "null" }] })).toBe("either string (format date) or null");
    expect(shape({ $defs: { Id: { type: "integer", minimum: 1 } }, $ref: "#/$defs/Id" })).toBe("integer (>= 1)");
    expect(shape({ anyOf: [{ type: "string" }, { type: "integer" }, { type: "boolean" }, { type: "null" }] })).toBeUndefined();
  });

  it("says nothing of a schema that constrains nothing it can put in words, or a reference that leads nowhere or in a circle", () => {
    expect(shape({})).toBeUndefined();
    expect(shape({ not: { type: "string" } })).toBeUndefined();
    expect(shape({ $ref: "#/$defs/missing" })).toBeUndefined();
    expect(shape({ $ref: "#" })).toBeUndefined();
  });

  it("keeps every shape within 120 characters, however long the schema's words", () => {
    const long = shape({ type: "string", pattern: "x".repeat(5000), format: "f".repeat(5000) });
    expect(long!.length).toBeLessThanOrEqual(121);
  });
});

describe("describeNames", () => {
  it("quotes names as JSON, so that a name with a line break cannot start a new line", () => {
    expect(describeNames(["a\nb", "c"])).toBe('"a\\nb", "c"');
  });
});
