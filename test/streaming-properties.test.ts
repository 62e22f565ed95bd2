import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ToolArgumentsValidationError, ToolRegistry, Type, type TSchema } from "../src/index.js";

/** Fixed in CI; `FUZZ_RUNS` and `FUZZ_SEED` make a longer or different run. */
const seed = Number(process.env.FUZZ_SEED ?? 20261201);
const numRuns = Number(process.env.FUZZ_RUNS ?? 300);

const Item = Type.Object(
  {
    sku: Type.String({ pattern: "^[A-Z]{3}$" }),
    quantity: Type.Integer({ minimum: 1 }),
    tags: Type.Optional(Type.Array(Type.Union([Type.Literal("new"), Type.Literal("sale")]), { maxItems: 3 })),
  },
  { additionalProperties: false },
);

/** Tools whose schemas use what the prefix checker reads: types, enums, consts, closed objects, references, allOf, patterns, tuples. */
const SCHEMAS: Record<string, TSchema | Record<string, unknown>> = {
  order: Type.Object(
    {
      name: Type.String({ minLength: 1 }),
      items: Type.Array(Item, { maxItems: 4 }),
      mode: Type.Union([Type.Literal("fast"), Type.Literal("safe")]),
      kind: Type.Literal("order"),
      note: Type.Optional(Type.Union([Type.String(), Type.Null()])),
      priority: Type.Optional(Type.Union([Type.Integer(), Type.Boolean()])),
      meta: Type.Optional(Type.Record(Type.String(), Type.Number())),
    },
    { additionalProperties: false },
  ),
  document: {
    type: "object",
    $defs: { Point: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], items: false } },
    properties: {
      at: { $ref: "#/$defs/Point" },
      path: { type: "array", items: { $ref: "#/$defs/Point" } },
      label: { allOf: [{ type: "string" }, { enum: ["a", "b", 3] }] },
      size: { type: ["integer", "null"], minimum: 0 },
      either: { anyOf: [{ type: "string" }, { type: "object", properties: { n: { type: "integer" } }, additionalProperties: false }] },
      only: { const: { x: [1, 2] } },
    },
    patternProperties: { "^n_": { type: "number" } },
    additionalProperties: { type: "boolean" },
    required: ["at"],
  },
};

const NAMES = ["name", "items", "mode", "kind", "note", "priority", "meta", "at", "path", "label", "size", "either", "only", "n_1", "extra", "sku", "quantity", "tags", "__proto__"];

/** A JSON value that is often nearly right: each value in a shape the schemas know, or anything. */
const value: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom("fast", "safe", "order", "ABC", "new", "sale", "a", "b", "", "x"),
    fc.constantFrom(0, 1, 2, 3, -1, 1.5, 1e21, null, true, false),
    fc.tuple(fc.integer({ min: -3, max: 9 }), fc.double({ noNaN: true, noDefaultInfinity: true })),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...NAMES), tie("value"), { maxKeys: 5 }),
    fc.jsonValue({ maxDepth: 2 }),
  ),
})).value;

const validItem = fc.record({ sku: fc.constant("ABC"), quantity: fc.constant(1), tags: fc.oneof(fc.constant(["new"]), fc.constantFrom("new", "sale", null)) }, { requiredKeys: ["sku", "quantity"] });

/** Orders valid but for what repair mends: a lone item or tag where a list is wanted, a `null` for an optional property. */
const mendable = fc.record(
  {
    name: fc.constant("n"),
    items: fc.oneof(fc.array(validItem, { minLength: 1, maxLength: 3 }), validItem),
    mode: fc.constant("fast"),
    kind: fc.constant("order"),
    priority: fc.constantFrom(1, null),
    meta: fc.constantFrom(null, {}),
  },
  { requiredKeys: ["name", "items", "mode", "kind"] },
);

/** Arguments: valid-looking orders, near misses, orders repair mends, and anything at all. */
const argumentsValue = fc.oneof(
  fc.record({
    name: fc.string(),
    items: fc.array(fc.record({ sku: fc.constantFrom("ABC", "abc", "ABCD"), quantity: fc.constantFrom(1, 2, 0, 1.5), tags: fc.array(fc.constantFrom("new", "sale", "old")) }, { requiredKeys: ["sku", "quantity"] }), { maxLength: 3 }),
    mode: fc.constantFrom("fast", "safe", "slow"),
    kind: fc.constantFrom("order", "orders"),
    note: fc.oneof(fc.string(), fc.constant(null), fc.constant(7)),
  }, { requiredKeys: ["name", "items", "mode", "kind"] }),
  mendable,
  fc.dictionary(fc.constantFrom(...NAMES), value, { maxKeys: 7 }),
  value,
);

/** JSON text of the arguments, with whitespace here and there, and sometimes cut short. */
const text = fc.tuple(argumentsValue, fc.boolean(), fc.nat(), fc.boolean()).map(([args, spaced, cut, truncate]) => {
  const json = JSON.stringify(args, null, spaced ? 1 : undefined) ?? "null";
  return truncate ? json.slice(0, cut % (json.length + 1)) : json;
});

/** `text` cut at `cuts`, so that pieces split tokens, escapes and surrogate pairs alike. */
function split(whole: string, cuts: readonly number[]): string[] {
  const positions = [...new Set(cuts.map((cut) => cut % (whole.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let start = 0;
  for (const position of positions) {
    pieces.push(whole.slice(start, position));
    start = position;
  }
  pieces.push(whole.slice(start));
  return pieces;
}

type Outcome = { ok: true; value: unknown } | { ok: false; name: string; issues: readonly string[] };

async function dispatchOutcome(registry: ToolRegistry, name: string, args: string): Promise<Outcome> {
  try {
    return { ok: true, value: await registry.dispatch({ type: "tool_call", id: "x", name, arguments: args }) };
  } catch (error) {
    return { ok: false, name: (error as Error).name, issues: (error as ToolArgumentsValidationError).issues ?? [] };
  }
}

describe("a streamed call's arguments, for random arguments and random splits", () => {
  for (const [name, parameters] of Object.entries(SCHEMAS)) {
    for (const [maxArgumentBytes, repair] of [[16 * 1024 * 1024, false], [160, false], [16 * 1024 * 1024, true], [160, true]] as const) {
      // With repair on, the final check may first convert strings, drop nulls and wrap lone values.
      const registry = new ToolRegistry({ maxArgumentBytes, ...(repair ? { onRepair: () => undefined } : {}) }).register({ name, description: "", parameters: parameters as TSchema }, (args) => args);

      it(`${name}, maxArgumentBytes ${maxArgumentBytes}, repair ${repair ? "on" : "off"}: end() agrees with dispatch exactly, and issues name only problems the final check reports`, async () => {
        await fc.assert(
          fc.asyncProperty(text, fc.array(fc.nat(), { maxLength: 12 }), async (whole, cuts) => {
            const stream = registry.argumentStream(name);
            const reported = new Set<string>();
            for (const piece of split(whole, cuts)) for (const issue of stream.push(piece).issues) reported.add(issue);
            let streamed: Outcome;
            try {
              streamed = { ok: true, value: stream.end() };
            } catch (error) {
              streamed = { ok: false, name: (error as Error).name, issues: (error as ToolArgumentsValidationError).issues };
            }
            const dispatched = await dispatchOutcome(registry, name, whole);
            expect(isDeepStrictEqual(streamed, dispatched)).toBe(true);
            // A problem certain from a prefix means the call cannot pass. Once the text is JSON within the size
            // limit, each is one the final check reports (unless its list, at most 20 lines, left some out);
            // a text that never became JSON, or grew too large, is refused for that alone.
            if (reported.size > 0) expect(streamed.ok).toBe(false);
            if (streamed.ok) return;
            const issues = streamed.issues;
            const complete = !issues.some((issue) => issue === "/: arguments must be valid JSON" || issue.startsWith("/: arguments must not be larger"));
            if (complete && !issues.includes("/: more issues not shown")) {
              for (const issue of reported) expect(issues).toContain(issue);
            }
          }),
          { seed, numRuns },
        );
      });
    }
  }
});
