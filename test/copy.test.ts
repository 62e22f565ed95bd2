import { describe, expect, it } from "vitest";
import { copyArguments, CopyRefusal, MAX_FAST_ARRAY_LENGTH, MAX_FAST_VALUES, MAX_SHARED_VALUES, measureValues } from "../src/validation/copy.js";
import { ROOT_ISSUES } from "../src/text/issues.js";

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

describe("copyArguments against hostile values", () => {
  it("refuses a proxy that claims an array of 2^32 - 1 items without touching a single item", () => {
    let reads = 0;
    const liar = new Proxy([], {
      get: (target, key) => (key === "length" ? 2 ** 32 - 1 : (reads++, Reflect.get(target, key))),
      has: () => (reads++, true),
    });
    expect(refusalOf({ list: liar })).toBe("/: arguments must contain only structured-clone-compatible values");
    expect(reads).toBe(0);
  });

  it(`copies a real array longer than ${MAX_FAST_ARRAY_LENGTH} items (by structuredClone), and still refuses its holes`, () => {
    const long = Array.from({ length: MAX_FAST_ARRAY_LENGTH + 1 }, (_, index) => index);
    const copy = copyArguments({ long });
    expect(copy.long).toEqual(long);
    expect(copy.long).not.toBe(long);
    const sparse = [...long];
    delete sparse[60_000];
    expect(refusalOf({ nested: { sparse } })).toBe("/nested/sparse/60000: arrays must not have holes");
  });

  it("runs a getter once when the value it returns is not plain data", () => {
    let runs = 0;
    const copy = copyArguments({
      get when() {
        runs++;
        return new Date(0);
      },
    });
    expect(runs).toBe(1);
    expect(copy.when).toEqual(new Date(0));
  });

  it("runs a getter once when a later property is refused, or is a hole", () => {
    let runs = 0;
    const counted = {
      get a() {
        runs++;
        return 1;
      },
    };
    expect(refusalOf({ ...Object.defineProperties({}, Object.getOwnPropertyDescriptors(counted)), b: () => 1 })).toBe(
      "/: arguments must contain only structured-clone-compatible values",
    );
    // eslint-disable-next-line no-sparse-arrays
    expect(refusalOf({ ...Object.defineProperties({}, Object.getOwnPropertyDescriptors(counted)), list: [1, , 3] })).toBe("/list/1: arrays must not have holes");
    expect(runs).toBe(2);
  });

  it("runs a throwing getter once, and refuses", () => {
    let runs = 0;
    const value = {
      get a(): never {
        runs++;
        throw new Error("no");
      },
    };
    expect(refusalOf(value)).toBe("/: arguments must contain only structured-clone-compatible values");
    expect(runs).toBe(1);
  });

  it("copies a class instance and a Map in place, by structuredClone, inside plain data", () => {
    class Point {
      constructor(public x: number) {}
    }
    const copy = copyArguments({ deep: { list: [new Point(1), new Map([[1, 2]])] } });
    expect(copy).toEqual({ deep: { list: [{ x: 1 }, new Map([[1, 2]])] } });
  });
});

describe("copyArguments: each getter runs once, however the value is shaped", () => {
  it("runs a getter once on a cycle, and keeps the cycle", () => {
    let runs = 0;
    const original: Record<string, unknown> = {
      get name() {
        runs++;
        return "loop";
      },
    };
    original.self = { back: original, list: [original] };
    const copy = copyArguments(original);
    expect(runs).toBe(1);
    expect((copy.self as { back: unknown }).back).toBe(copy);
    expect((copy.self as { list: unknown[] }).list[0]).toBe(copy);
  });

  it("runs a getter once on data nested 200 deep", () => {
    let runs = 0;
    let deep: Record<string, unknown> = { leaf: true };
    for (let level = 0; level < 200; level++) deep = { next: deep };
    const copy = copyArguments({
      get counted() {
        runs++;
        return 1;
      },
      deep,
    });
    expect(runs).toBe(1);
    expect(copy.deep).toEqual(deep);
  });

  it("copies an object met twice on different paths (not a cycle) twice, as plain data", () => {
    const shared = { a: 1 };
    const copy = copyArguments({ left: shared, right: shared });
    expect(copy).toEqual({ left: { a: 1 }, right: { a: 1 } });
    expect(copy.left).not.toBe(copy.right);
  });

  it("copies objects that share objects at every level once each, keeping the sharing as structuredClone does, where copying every path would take seconds", () => {
    // 41 objects, 2^20 paths: copied path by path, the copy would hold 2^21 objects.
    let shared: unknown = { leaf: 1 };
    for (let level = 0; level < 20; level++) shared = [shared, shared];
    const copy = copyArguments({ tree: shared }) as { tree: unknown[] };
    // Compared here, not by expect: its failure message would print the value, path by path.
    const sharedAt: boolean[] = [];
    let node: unknown = copy.tree;
    for (let level = 0; level < 20; level++) {
      const pair = node as unknown[];
      sharedAt.push(pair.length === 2 && pair[0] === pair[1]);
      node = pair[0];
    }
    expect(sharedAt).toEqual(Array.from({ length: 20 }, () => true));
    expect(JSON.stringify(node)).toBe('{"leaf":1}');
    expect(copy.tree === shared).toBe(false);
  });

  it("refuses objects shared so widely that, walked as a tree as the check walks them, they would hold more than 2^24 values", () => {
    let shared: unknown = { leaf: 1 };
    for (let level = 0; level < 40; level++) shared = [shared, shared];
    expect(() => copyArguments({ tree: shared })).toThrow(new CopyRefusal(ROOT_ISSUES.tooManyValues));
    expect(ROOT_ISSUES.tooManyValues).toContain(String(MAX_SHARED_VALUES));
  });

  it("counts a long array, cloned where it stands, each time it appears: shared, it sends the whole value to structuredClone, which keeps it shared", () => {
    const long = new Array(MAX_FAST_ARRAY_LENGTH + 10).fill(0.5);
    const copy = copyArguments({ rows: new Array(100).fill(long) }) as { rows: unknown[][] };
    expect(copy.rows).toHaveLength(100);
    expect(copy.rows[0] === copy.rows[99]).toBe(true);
    expect(copy.rows[0] === long).toBe(false);
    expect(copy.rows[0]).toHaveLength(MAX_FAST_ARRAY_LENGTH + 10);
  });

  it("measures a value's values once each, and as a walk of it as a tree would: a shared object each time, a cycle's way back once", () => {
    const leaf = { a: 1, b: [true, null] };
    expect(measureValues(leaf)).toEqual({ expanded: 5, distinct: 5 });
    expect(measureValues({ x: leaf, y: leaf, z: [leaf] })).toEqual({ expanded: 1 + 5 + 5 + 1 + 5, distinct: 1 + 5 + 1 });
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(measureValues(cyclic)).toEqual({ expanded: 3, distinct: 2 });
    // A Map's keys and values, a Set's members, a typed array's 8-byte words; a date is one value.
    expect(measureValues({ map: new Map([[1, leaf]]), set: new Set([leaf]), date: new Date(0), bytes: new Float64Array(4) })).toEqual({
      expanded: 1 + (1 + 1 + 5) + (1 + 5) + 1 + 5,
      distinct: 1 + (1 + 1 + 5) + 1 + 1 + 5,
    });
    let shared: unknown = [];
    for (let level = 0; level < 60; level++) shared = [shared, shared];
    expect(measureValues(shared as object)).toEqual({ expanded: 2 ** 52, distinct: 61 });
  });

  it("counts the values of a copy made inside another (a getter that copies) on their own", () => {
    let runs = 0;
    // Nearly all the values one fast copy may read: arrays of 32,000 objects, each array, item and object a value.
    const arrays = Math.floor(MAX_FAST_VALUES / (1 + 2 * 32_000));
    const inner = { items: Array.from({ length: arrays }, () => Array.from({ length: 32_000 }, () => ({}))) };
    expect(arrays * (1 + 2 * 32_000)).toBeGreaterThan(MAX_FAST_VALUES - 30_000);
    const value = {
      get first() {
        runs++;
        return (copyArguments(inner).items as unknown[]).length;
      },
      second: Array.from({ length: 10_000 }, () => ({ x: 1 })),
    };
    const copy = copyArguments(value);
    expect(copy).toEqual({ first: arrays, second: value.second });
    // Had the inner copy spent the outer's count, the outer would have gone to structuredClone, which runs the getter again.
    expect(runs).toBe(1);
  });
});
