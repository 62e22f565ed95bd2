import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { beginCheck, checkIdentities, endCheck, JsonIdentities, jsonEqual, jsonKey, jsonKeyWithin, jsonMembership } from "../src/schema/equality.js";
import { ToolRegistry, validateToolArguments } from "../src/index.js";

const runs = Number(process.env.FUZZ_RUNS ?? 300);

/** JSON values with the spellings JSON equality must see through: `-0`, `1.0`, keys in any order, arrays beside array-like objects. */
const jsonValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(0, -0, 1, 1.5, "", "0", "a", true, false, null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom("0", "a", "b", "length"), tie("value"), { maxKeys: 3 }),
  ),
})).value;

afterEach(() => {
  vi.restoreAllMocks();
});

describe("JsonIdentities", () => {
  it("gives two values one identity exactly when JSON equality holds, within one instance", () => {
    fc.assert(
      fc.property(jsonValue, jsonValue, (left, right) => {
        const identities = new JsonIdentities();
        expect(identities.of(left) === identities.of(right)).toBe(jsonEqual(left, right));
        expect(identities.of(left) === identities.of(structuredClone(right))).toBe(jsonEqual(left, right));
      }),
      { numRuns: runs },
    );
  });

  it("shares one instance among the checks of one value, and none after it", () => {
    expect(checkIdentities()).not.toBe(checkIdentities());
    beginCheck();
    try {
      expect(checkIdentities()).toBe(checkIdentities());
    } finally {
      endCheck();
    }
    expect(checkIdentities()).not.toBe(checkIdentities());
  });
});

describe("jsonKeyWithin", () => {
  it("is jsonKey when that is short enough, and undefined otherwise", () => {
    fc.assert(
      fc.property(jsonValue, fc.nat(40), (value, maxLength) => {
        const key = jsonKey(value);
        expect(jsonKeyWithin(value, maxLength)).toBe(key.length <= maxLength ? key : undefined);
      }),
      { numRuns: runs },
    );
  });

  it("reads no more of a large value than the length allows", () => {
    let reads = 0;
    const wide = new Proxy(Object.fromEntries(Array.from({ length: 10_000 }, (_, index) => [`k${index}`, index])), {
      get: (target, key, receiver) => {
        reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    expect(jsonKeyWithin(wide, 100)).toBeUndefined();
    expect(jsonKeyWithin(Array.from({ length: 10_000 }, () => ({ a: 1 })), 100)).toBeUndefined();
    expect(reads).toBeLessThan(20);
  });
});

describe("jsonMembership", () => {
  it("finds a value among members exactly when one is JSON-equal to it", () => {
    fc.assert(
      fc.property(fc.array(jsonValue, { maxLength: 4 }), jsonValue, (members, value) => {
        expect(jsonMembership(members)(value)).toBe(members.some((member) => jsonEqual(member, value)));
      }),
      { numRuns: runs },
    );
  });
});

describe("uniqueItems on nested arrays", () => {
  /** A value `depth` arrays deep, each of two objects, the first holding the next array, the deepest a long string. */
  function nested(leaf: string, depth = 1_000): Record<string, unknown> {
    let node: Record<string, unknown> = { name: leaf };
    for (let level = 0; level < depth; level++) node = { name: "n", children: [node, { name: `sibling ${level}` }] };
    return { root: node };
  }
  const parameters = {
    type: "object",
    properties: { root: { $ref: "#/$defs/node" } },
    required: ["root"],
    $defs: { node: { type: "object", properties: { name: { type: "string" }, children: { type: "array", uniqueItems: true, items: { $ref: "#/$defs/node" } } }, required: ["name"] } },
  } as const;

  it("reads each item once in all, not once for each array around it (the check was quadratic: seconds on a few MB)", async () => {
    const leaf = "x".repeat(100_000);
    const stringify = vi.spyOn(JSON, "stringify");
    const registry = new ToolRegistry().register({ name: "tree", description: "A tree", parameters }, () => "ok");
    const call = { type: "tool_call" as const, id: "1", name: "tree", arguments: nested(leaf) };
    // The first call is checked by TypeBox's interpreter, the second by the compiled check.
    for (let round = 0; round < 2; round++) expect(await registry.dispatch(call)).toBe("ok");
    expect(stringify.mock.calls.filter(([value]) => value === leaf).length).toBeLessThanOrEqual(2);
  });

  it("still refuses a duplicate inside, and explains it reading each item once", () => {
    const value = nested("x".repeat(100_000), 200);
    let deep = value.root as { children: unknown[] };
    for (let level = 0; level < 3; level++) deep = deep.children[0] as { children: unknown[] };
    // A copy of an item 196 arrays deep, beside it.
    deep.children[1] = structuredClone(deep.children[0]);
    const stringify = vi.spyOn(JSON, "stringify");
    expect(() => validateToolArguments({ name: "tree", description: "A tree", parameters }, value)).toThrow("/root/children/0/children/0/children/0/children: must not have duplicate items (item 1 repeats item 0)");
    expect(stringify.mock.calls.filter(([text]) => typeof text === "string" && text.length === 100_000).length).toBeLessThanOrEqual(4);
  });
});
