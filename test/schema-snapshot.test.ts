import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Type } from "../src/index.js";
import { canonicalJson } from "../src/schema/canonical.js";
import { snapshotSchema } from "../src/schema/snapshot.js";

/** Every object inside `value`, itself included. */
function objectsIn(value: unknown, found: object[] = []): object[] {
  if (typeof value !== "object" || value === null) return found;
  found.push(value);
  for (const key of Object.getOwnPropertyNames(value)) objectsIn((value as Record<string, unknown>)[key], found);
  return found;
}

describe("snapshotSchema", () => {
  it("copies a schema deeply and freezes every part, keeping what is enumerable, own __proto__ keys and holes", () => {
    const schema = Type.Object({ path: Type.String({ pattern: "^a" }), tags: Type.Array(Type.String()) });
    const withProto = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}},"enum":[1,2,3]}') as Record<string, unknown>;
    // eslint-disable-next-line no-sparse-arrays -- a hole is what is tested
    (withProto as { examples?: unknown }).examples = [1, , 3];
    for (const input of [schema, withProto]) {
      const taken = snapshotSchema(input);
      if (!("snapshot" in taken)) throw new Error(taken.problem.problem);
      expect(taken.snapshot).toEqual(input);
      expect(taken.snapshot).not.toBe(input);
      for (const part of objectsIn(taken.snapshot)) expect(Object.isFrozen(part)).toBe(true);
    }
    const snapshot = (snapshotSchema(schema) as { snapshot: Record<string, unknown> }).snapshot;
    expect(Object.getOwnPropertyDescriptor(snapshot, "~kind")).toMatchObject({ enumerable: false, writable: false, configurable: false });
    expect(Object.getOwnPropertyDescriptor(snapshot, "type")).toMatchObject({ enumerable: true, writable: false, configurable: false });
    const protoSnapshot = (snapshotSchema(withProto) as { snapshot: { properties: object; examples: unknown[] } }).snapshot;
    expect(Object.keys(protoSnapshot.properties)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(protoSnapshot.properties)).toBe(Object.prototype);
    expect(1 in protoSnapshot.examples).toBe(false);
  });

  it("names where a cycle, a getter or too deep a nesting is, escaping the pointer's segments", () => {
    const cyclic: Record<string, unknown> = { type: "object", properties: { "a/b": { type: "object" } } };
    ((cyclic.properties as Record<string, Record<string, unknown>>)["a/b"]!).items = cyclic;
    expect(snapshotSchema(cyclic)).toEqual({ problem: { pointer: "/properties/a~1b/items", problem: "the schema refers to itself as an object (a cycle); use $ref" } });
    const getter = { type: "object", properties: { "x~y": Object.defineProperty({}, "type", { get: () => "string", enumerable: true }) } };
    expect(snapshotSchema(getter)).toEqual({ problem: { pointer: "/properties/x~0y/type", problem: "is a getter or setter; a schema must be plain data" } });
    let deep: Record<string, unknown> = { type: "string" };
    for (let level = 0; level < 300; level++) deep = { anyOf: [deep] };
    expect((snapshotSchema(deep) as { problem: { pointer: string } }).problem.pointer).toMatch(/^(\/anyOf|\/0)+$/);
  });
});

describe("canonicalJson", () => {
  it("writes plain JSON data with its keys sorted and no white space, as JSON.parse reads it back", () => {
    const json = fc.jsonValue({ maxDepth: 4 });
    fc.assert(
      fc.property(json, (value) => {
        const text = canonicalJson(value);
        expect(JSON.parse(text!)).toEqual(value);
        // The same text written the obvious way (an object's integer-like keys would come first in JSON.stringify).
        const written = (item: unknown): string =>
          Array.isArray(item)
            ? `[${item.map(written).join(",")}]`
            : typeof item === "object" && item !== null
              ? `{${Object.keys(item).sort().map((key) => `${JSON.stringify(key)}:${written((item as Record<string, unknown>)[key])}`).join(",")}}`
              : JSON.stringify(item);
        expect(text).toBe(written(value));
      }),
      { seed: 20261201, numRuns: 300 },
    );
  });

  it("writes every string, as a key and as a value, as JSON.stringify does: quotes, backslashes, control characters and lone surrogates escaped", () => {
    const codeUnit = fc.oneof(fc.integer({ min: 0, max: 0x7f }), fc.constantFrom(0x2028, 0x2029, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xfeff), fc.integer({ min: 0, max: 0xffff }));
    const text = fc.array(codeUnit, { maxLength: 12 }).map((units) => String.fromCharCode(...units));
    fc.assert(
      fc.property(text, (value) => {
        expect(canonicalJson({ [value]: value })).toBe(`{${JSON.stringify(value)}:${JSON.stringify(value)}}`);
      }),
      { seed: 20261202, numRuns: 2000 },
    );
    expect(canonicalJson({ 'a"\\': "\u0000\ud83d\ude00\udc00" })).toBe(String.raw`{"a\"\\":"\u0000😀\udc00"}`);
  });

  it("keeps apart what validates differently, and gives no text for what no text can hold", () => {
    expect(canonicalJson({ b: [1, { d: 2, c: undefined }], a: "x" })).toBe('{"a":"x","b":[1,{"c":undefined,"d":2}]}');
    expect(canonicalJson({ const: undefined })).not.toBe(canonicalJson({}));
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    for (const value of [{ a: () => 1 }, { a: Infinity }, { a: 1n }, cycle, Type.Refine(Type.String(), () => true)]) expect(canonicalJson(value)).toBeUndefined();
  });
});
