import fc from "fast-check";

// Random schemas and arguments, shared by the property tests that hold two ways of checking to one verdict.

const scalarSchema = fc.oneof(
  fc.record({ type: fc.constantFrom("string", "number", "integer", "boolean", "null") }),
  fc.record({ type: fc.constant("string"), minLength: fc.nat(3), maxLength: fc.nat(5), pattern: fc.constantFrom("^a", "b$", "^[a-c]+$", "^(a+)+$"), format: fc.constantFrom("email", "date", "not-a-format") }, { requiredKeys: ["type"] }),
  fc.record(
    { type: fc.constantFrom("number", "integer"), minimum: fc.integer({ min: -3, max: 3 }), maximum: fc.integer({ min: 0, max: 9 }), exclusiveMinimum: fc.integer({ min: -3, max: 3 }), exclusiveMaximum: fc.integer({ min: 0, max: 9 }), multipleOf: fc.constantFrom(1, 0.5, 0.1, 3) },
    { requiredKeys: ["type"] },
  ),
  fc.record({ type: fc.constant(["string", "null"]), maxLength: fc.nat(4) }, { requiredKeys: ["type"] }),
  fc.record({ enum: fc.uniqueArray(fc.oneof(fc.constantFrom("a", "b", 0, 1, true, null), fc.constant([1, 2]), fc.constant({ a: 1 })), { minLength: 1, maxLength: 4 }) }),
  fc.record({ const: fc.constantFrom("a", 0, -0, false, null) }),
  fc.constant({ anyOf: [{ type: "string" }, { type: "null" }] }),
  fc.constant({ anyOf: [{ type: "string", const: "fast" }, { type: "string", const: "safe" }] }),
  // What the generated code leaves to the compiled check.
  fc.constant({ type: "array", items: { type: "integer" }, uniqueItems: true }),
  fc.constant({ not: { type: "string" } }),
  fc.constant({ type: "object", patternProperties: { "^[ab]$": { type: "string" }, "^\\w+$": { type: "integer" } } }),
  fc.constant({}),
);
/** A random object schema: properties, pattern properties, required names, bounds, nested arrays and objects. */
export const schemaArbitrary = fc.letrec<{ node: unknown; object: Record<string, unknown> }>((tie) => ({
  node: fc.oneof({ depthSize: "small", withCrossShrink: true }, scalarSchema, tie("object"), fc.record({ type: fc.constant("array"), items: tie("node"), minItems: fc.nat(2), maxItems: fc.nat(4) }, { requiredKeys: ["type"] })),
  object: fc.record(
    {
      type: fc.constant("object"),
      properties: fc.dictionary(fc.constantFrom("a", "b", "c", "__proto__", "toString"), tie("node"), { maxKeys: 3 }),
      // One pattern, as `Type.Record` makes it ("^.*$", which a line break stops).
      patternProperties: fc.dictionary(fc.constantFrom("^.*$", "^[ab]$", "^c", "^to", "^\\w+$"), tie("node"), { minKeys: 1, maxKeys: 1 }),
      required: fc.uniqueArray(fc.constantFrom("a", "b", "c", "d", "__proto__"), { maxLength: 3 }),
      additionalProperties: fc.oneof(fc.boolean(), tie("node")),
      minProperties: fc.nat(2),
      maxProperties: fc.nat(4),
    },
    { requiredKeys: ["type"] },
  ),
})).object;

/** A random value: JSON-like data with the awkward cases (-0, NaN, a bigint, a Date, a Map, `__proto__` keys). */
export const valueArbitrary = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.integer({ min: -4, max: 10 }),
    fc.constantFrom(0.5, 0.3, -0, Number.NaN, Infinity, "a", "b", "abc", "aaa!", "a@b.co", "2024-02-30", "", null, true, false, undefined, 10n),
    fc.constantFrom(new Date(0), new Map([["k", 1]])),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom("a", "b", "c", "d", "__proto__", "toString"), tie("value"), { maxKeys: 4 }),
  ),
})).value;

/** An arguments object: from JSON-like data, with `__proto__` keys kept as own properties as JSON.parse keeps them. */
export const argumentsArbitrary = fc.dictionary(fc.constantFrom("a", "b", "c", "d", "__proto__", "toString", "line\nbreak"), valueArbitrary, { maxKeys: 5 }).map((record) => {
  const value: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(record)) Object.defineProperty(value, key, { value: item, enumerable: true, writable: true, configurable: true });
  return value;
});

/**
 * Arguments shaped like `schema`: at an object schema, its declared properties in their declared
 * order (all of them, the required ones only, or a random few), each value shaped like its own
 * schema; elsewhere any value. The keys the fused copy meets most often in practice.
 */
export function shapedArgumentsArbitrary(schema: unknown): fc.Arbitrary<Record<string, unknown>> {
  // Arguments are a plain object (dispatch refuses anything else before copying).
  return shapedValue(schema, 0).map((value) => (typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype ? (value as Record<string, unknown>) : {}));
}

function shapedValue(schema: unknown, depth: number): fc.Arbitrary<unknown> {
  if (depth > 4 || typeof schema !== "object" || schema === null) return valueArbitrary;
  const node = schema as Record<string, unknown>;
  if (node.type === "array" && node.items !== undefined) return fc.array(shapedValue(node.items, depth + 1), { maxLength: 3 });
  if (node.type !== "object" || typeof node.properties !== "object" || node.properties === null) return valueArbitrary;
  const properties = node.properties as Record<string, unknown>;
  const names = Object.keys(properties);
  const required = new Set(Array.isArray(node.required) ? node.required : []);
  return fc
    .tuple(fc.constantFrom("all", "required", "some"), fc.array(fc.boolean(), { minLength: names.length, maxLength: names.length }), fc.tuple(...names.map((name) => shapedValue(properties[name], depth + 1))))
    .map(([mode, kept, items]) => {
      const value: Record<string, unknown> = {};
      names.forEach((name, index) => {
        if (mode === "required" ? required.has(name) : mode === "all" || kept[index]) {
          Object.defineProperty(value, name, { value: items[index], enumerable: true, writable: true, configurable: true });
        }
      });
      return value;
    });
}
