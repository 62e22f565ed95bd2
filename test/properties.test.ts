import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { copyArguments } from "../src/validation/copy.js";
import { ToolArgumentsValidationError, ToolRegistry, ToolRegistryError, Type } from "../src/index.js";

/** Fixed in CI; `FUZZ_RUNS` and `FUZZ_SEED` make a longer or different run (`npm run fuzz`). */
const seed = Number(process.env.FUZZ_SEED ?? 20261130);
const numRuns = Number(process.env.FUZZ_RUNS ?? 200);

describe("the private copy", () => {
  it("equals structuredClone's result on any JSON object", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (value) => {
        expect(isDeepStrictEqual(copyArguments(value), structuredClone(value))).toBe(true);
      }),
      { seed, numRuns },
    );
  });

  it("equals structuredClone's result on objects parsed from JSON text, __proto__ keys included", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom("__proto__", "constructor", "prototype", "a", "toString"), fc.jsonValue()), (value) => {
        const parsed = JSON.parse(JSON.stringify(value)) as object;
        const copy = copyArguments(parsed);
        // node's deep equality compares own keys and prototypes, and is not fooled by a "constructor" key.
        expect(isDeepStrictEqual(copy, structuredClone(parsed))).toBe(true);
        expect(Object.keys(copy)).toEqual(Object.keys(parsed));
      }),
      { seed, numRuns },
    );
  });
});

describe("dispatch under arbitrary input", () => {
  const registry = new ToolRegistry()
    .register({ name: "read", description: "", parameters: Type.Object({ path: Type.String(), offset: Type.Optional(Type.Integer()) }) }, (args) => args)
    .register({ name: "any", description: "", parameters: Type.Object({}, { additionalProperties: Type.Unknown() }) }, (args) => args);

  it("resolves or rejects with a typed error, never a native one", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("read", "any", "missing", "__proto__", "toString"),
        fc.oneof(fc.anything({ withBigInt: true, withMap: true, withSet: true, withDate: true, withTypedArray: true, withSparseArray: true, withNullPrototype: true, withObjectString: true }), fc.string(), fc.json()),
        async (name, args) => {
          try {
            await registry.dispatch({ type: "tool_call", id: "fuzz", name, arguments: args as Record<string, unknown> });
          } catch (error) {
            expect(error).toBeInstanceOf(ToolRegistryError);
          }
          expect(Object.prototype).toStrictEqual(Object.getPrototypeOf({}));
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        },
      ),
      { seed, numRuns },
    );
  });

  it("never echoes a string value of the arguments in an error", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 8 }).map((text) => `secret:${text}`), async (secret) => {
        const error = await registry.dispatch({ type: "tool_call", id: "x", name: "read", arguments: { path: 1, offset: secret, [secret]: secret } }).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(ToolArgumentsValidationError);
        const { message, issues } = error as ToolArgumentsValidationError;
        // The key may appear in a pointer (it is structure); the value must not appear as a value.
        expect(message.split(`/${secret}`).join("")).not.toContain(secret);
        expect(issues.every((issue) => !issue.slice(issue.indexOf(": ")).includes(secret))).toBe(true);
      }),
      { seed, numRuns: 50 },
    );
  });
});
