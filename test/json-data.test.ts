import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isJsonData } from "../src/results/json-data.js";

const jsonCopy = (value: unknown): unknown => JSON.parse(JSON.stringify(value) ?? "null");

describe("isJsonData", () => {
  it("says yes for plain objects and arrays of strings, booleans, null and finite numbers", () => {
    expect(isJsonData({ a: [1, -2.5, "x", true, null, { b: {} }], c: Object.assign(Object.create(null), { d: 1 }) })).toBe(true);
  });

  it("says no for anything JSON would change: a Date, a toJSON, undefined, a function, a symbol key, a hole, NaN, -0, a Map", () => {
    const holed = [1, , 3]; // eslint-disable-line no-sparse-arrays
    const values = [
      { at: new Date(0) },
      { toJSON: () => 1 },
      { a: undefined },
      { f: () => 1 },
      { [Symbol("s")]: 1 },
      { list: holed },
      { n: Number.NaN },
      { n: Infinity },
      { n: -0 },
      { m: new Map() },
      { big: 1n },
    ];
    expect(values.map(isJsonData)).toEqual(values.map(() => false));
  });

  it("says no, without throwing, for data nested past the value depth limit and for a revoked proxy", () => {
    let deep: unknown = {};
    for (let depth = 0; depth < 300; depth++) deep = { deep };
    expect(isJsonData(deep)).toBe(false);
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(isJsonData({ proxy })).toBe(false);
  });

  // Equal as data: a null-prototype object reads back with Object's prototype, which JSON cannot tell apart.
  it("says yes only for values that equal their JSON read back", () => {
    fc.assert(
      fc.property(fc.anything({ withDate: true, withMap: true, withNullPrototype: true, withSparseArray: true, withBoxedValues: true }), (value) => {
        if (isJsonData(value)) expect(jsonCopy(value)).toEqual(value);
      }),
    );
    fc.assert(fc.property(fc.jsonValue(), (value) => {
      expect(isJsonData(jsonCopy(value))).toBe(true);
    }));
  });
});
