import { describe, expect, it } from "vitest";
import { copyArguments, CopyRefusal } from "../src/copy.js";

function refusalOf(value: object): string {
  try {
    copyArguments(value);
  } catch (error) {
    if (error instanceof CopyRefusal) return error.issue;
    throw error;
  }
  throw new Error("expected the copy to be refused");
}

describe("copyArguments", () => {
  it("makes a deep copy that shares nothing with the original", () => {
    const original = { a: { b: [1, { c: "d" }] }, e: null, f: true };
    const copy = copyArguments(original);
    expect(copy).toEqual(original);
    expect(copy.a).not.toBe(original.a);
    expect((copy.a as { b: unknown[] }).b[1]).not.toBe(original.a.b[1]);
  });

  it("copies a __proto__ key as an own data property, never as the prototype", () => {
    const original = JSON.parse('{"__proto__":{"polluted":true},"nested":{"__proto__":{"polluted":true}}}') as object;
    const copy = copyArguments(original);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, "__proto__")).toBe(true);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.hasOwn(copy.nested as object, "__proto__")).toBe(true);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it("copies null-prototype objects into ordinary objects", () => {
    const original = Object.assign(Object.create(null) as object, { a: 1 });
    const copy = copyArguments(original);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy).toEqual({ a: 1 });
  });

  it("has structured-clone semantics for values that are not plain data", () => {
    const date = new Date(0);
    const map = new Map([["k", 1]]);
    class Point { constructor(public x: number) {} }
    const copy = copyArguments({ date, map, point: new Point(1), bytes: new Uint8Array([1, 2]) });
    expect(copy.date).toEqual(date);
    expect(copy.date).not.toBe(date);
    expect(copy.map).toEqual(map);
    expect(Object.getPrototypeOf(copy.point)).toBe(Object.prototype);
    expect(copy.point).toEqual({ x: 1 });
    expect(copy.bytes).toEqual(new Uint8Array([1, 2]));
  });

  it("keeps cycles, as structuredClone does", () => {
    const original: Record<string, unknown> = { name: "loop" };
    original.self = original;
    const copy = copyArguments(original);
    expect(copy.self).toBe(copy);
    expect(copy).not.toBe(original);
  });

  it("skips symbol keys and keeps undefined values, as structuredClone does", () => {
    const copy = copyArguments({ [Symbol("hidden")]: 1, gone: undefined });
    expect(Object.getOwnPropertySymbols(copy)).toEqual([]);
    expect(Object.hasOwn(copy, "gone")).toBe(true);
  });

  it("refuses functions and symbols at any depth", () => {
    expect(refusalOf({ a: () => 1 })).toBe("/: arguments must contain only structured-clone-compatible values");
    expect(refusalOf({ a: [{ b: Symbol("x") }] })).toBe("/: arguments must contain only structured-clone-compatible values");
  });

  it("refuses a sparse array, pointing at the hole", () => {
    // eslint-disable-next-line no-sparse-arrays
    expect(refusalOf({ list: [1, , 3] })).toBe("/list/1: arrays must not have holes");
  });
});
