import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { callFingerprint } from "../src/index.js";
import { canonicalValueJson } from "../src/execution/fingerprint.js";

describe("callFingerprint", () => {
  it("is 64 hex digits of SHA-256", async () => {
    expect(await callFingerprint("pay", { amount: 10 })).toMatch(/^[0-9a-f]{64}$/);
  });

  it("does not depend on key order, at any depth", async () => {
    const a = await callFingerprint("pay", { invoice: "inv_1", amount: 10, meta: { b: 1, a: [1, { y: 2, x: 1 }] } });
    const b = await callFingerprint("pay", { meta: { a: [1, { x: 1, y: 2 }], b: 1 }, amount: 10, invoice: "inv_1" });
    expect(a).toBe(b);
  });

  it("treats JSON-equal spellings as one: 1 and 1.0, -0 and 0, text and object arguments", async () => {
    expect(await callFingerprint("t", JSON.parse('{"n":1.0,"z":-0}'))).toBe(await callFingerprint("t", { n: 1, z: 0 }));
    expect(await callFingerprint("t", JSON.parse('{"s":"\\u0041"}'))).toBe(await callFingerprint("t", { s: "A" }));
  });

  it("leaves out undefined properties, as JSON does", async () => {
    expect(await callFingerprint("t", { a: 1, b: undefined })).toBe(await callFingerprint("t", { a: 1 }));
  });

  it("changes with the tool's name, and names cannot be confused with arguments", async () => {
    expect(await callFingerprint("a", {})).not.toBe(await callFingerprint("b", {}));
    expect(await callFingerprint('a"\n{', {})).not.toBe(await callFingerprint("a", {}));
  });

  it("changes with any difference of value, type or nesting", async () => {
    const seen = new Set<string>();
    for (const args of [{ a: 1 }, { a: "1" }, { a: [1] }, { a: { b: 1 } }, { a: true }, { a: null }, { a: 2 }, { b: 1 }, {}]) {
      seen.add(await callFingerprint("t", args));
    }
    expect(seen.size).toBe(9);
  });

  it("resolves in the order fingerprints were asked for, though hashing a larger text takes longer", async () => {
    const settled: string[] = [];
    const large = callFingerprint("pay", { memo: "x".repeat(8_000_000) }).then(() => settled.push("large"));
    const small = callFingerprint("pay", { memo: "x" }).then(() => settled.push("small"));
    await Promise.all([large, small]);
    expect(settled).toEqual(["large", "small"]);
  });

  it("rejects, with a TypeError, arguments that have no JSON text", async () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    await expect(callFingerprint("t", cycle)).rejects.toThrow(TypeError);
    await expect(callFingerprint("t", { n: 10n })).rejects.toThrow(TypeError);
    await expect(callFingerprint("t", { pattern: /a/ })).rejects.toThrow(TypeError);
  });

  it("tells what a copy holds beyond JSON from the JSON it would become: Map, Set, Date, typed arrays, NaN, infinities, undefined items", async () => {
    const pairs: Array<[unknown, unknown]> = [
      [{}, new Map([["a", 1]])],
      [{}, new Map()],
      [{}, new Set([1])],
      [[null], [undefined]],
      [null, Number.NaN],
      [null, Infinity],
      [new Date(0).toISOString(), new Date(0)],
      [{ 0: 1, 1: 2 }, new Uint8Array([1, 2])],
      [new Map([["a", 1]]), new Map([["a", 2]])],
      [new Set([1, 2]), new Set([2, 1])],
    ];
    for (const [json, other] of pairs) expect(await callFingerprint("t", { v: json })).not.toBe(await callFingerprint("t", { v: other }));
    expect(await callFingerprint("t", { v: new Map([["a", { x: 1, y: 2 }]]) })).toBe(await callFingerprint("t", { v: new Map([["a", { y: 2, x: 1 }]]) }));
  });
});

describe("canonicalValueJson", () => {
  it("is JSON.stringify's text up to key order, for any JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(JSON.parse(canonicalValueJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
        expect(canonicalValueJson(JSON.parse(JSON.stringify(value)))).toBe(canonicalValueJson(value));
      }),
      { numRuns: 2_000 },
    );
  });

  it("is the same text for any order of the same keys", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 8 }), (record) => {
        const reversed = Object.fromEntries(Object.entries(record).reverse());
        expect(canonicalValueJson(reversed)).toBe(canonicalValueJson(record));
      }),
      { numRuns: 1_000 },
    );
  });
});
