// An independent harness for the speed goals, run against the packed package as a user installs it
// (see run.mjs). It shares no code with bench/: its own schemas, timer and reference.
import { Compile } from "typebox/compile";
import { validateToolArguments as piValidate } from "@mariozechner/pi-ai";
import { ToolRegistry, Type } from "typebox-tool-registry";

const Line = Type.Object({
  sku: Type.String(),
  quantity: Type.Integer({ minimum: 1 }),
  price: Type.Number({ minimum: 0 }),
  state: Type.Union([Type.Literal("open"), Type.Literal("shipped")]),
  note: Type.Optional(Type.String()),
});
const schemas = {
  small: Type.Object({ path: Type.String(), offset: Type.Optional(Type.Integer({ minimum: 0 })), limit: Type.Optional(Type.Integer({ minimum: 1 })) }),
  large: Type.Object({
    id: Type.String(),
    kind: Type.Union([Type.Literal("a"), Type.Literal("b"), Type.Literal("c")]),
    level: Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3)]),
    enabled: Type.Boolean(),
    count: Type.Integer({ minimum: 0 }),
    ratio: Type.Optional(Type.Number()),
    owner: Type.Object({ name: Type.String(), contact: Type.Object({ email: Type.String(), phone: Type.Optional(Type.String()) }) }),
    lines: Type.Array(Line),
    labels: Type.Record(Type.String(), Type.String()),
    tags: Type.Array(Type.String()),
    created: Type.String(),
    comment: Type.Optional(Type.String()),
    limits: Type.Object({ min: Type.Number(), max: Type.Number() }),
    flags: Type.Array(Type.Boolean()),
    extra: Type.Optional(Type.Record(Type.String(), Type.Number())),
  }),
};
const argumentsFor = {
  small: { path: "docs/guide.md", offset: 5, limit: 50 },
  large: {
    id: "job-7", kind: "b", level: 2, enabled: true, count: 12, ratio: 0.25,
    owner: { name: "Grace Hopper", contact: { email: "grace@example.com" } },
    lines: Array.from({ length: 10 }, (_, index) => ({ sku: `S${index}`, quantity: index + 1, price: index * 1.5, state: index % 2 ? "open" : "shipped" })),
    labels: { team: "core", env: "prod" }, tags: ["x", "y"], created: "2026-11-30", limits: { min: 0, max: 9 }, flags: [true, false],
  },
};

function plainCopy(value) {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(plainCopy);
  const copy = {};
  for (const key of Object.keys(value)) copy[key] = plainCopy(value[key]);
  return copy;
}

/**
 * Median ns per call of each case, over interleaved rounds of ~20 ms batches (sized during warm-up).
 * Each case is a function `(n) => Promise` that runs its own loop of n calls, as in bench/.
 */
async function race(cases, rounds = 25, batchMs = 20) {
  const names = Object.keys(cases);
  const batch = {};
  for (const name of names) {
    // Warm up first (the first call compiles a validator): calibrating on a cold case would size its batch far too small.
    const warmUntil = performance.now() + 200;
    for (let count = 1; performance.now() < warmUntil; count *= 2) await cases[name](count);
    let count = 1;
    for (;;) {
      const started = process.hrtime.bigint();
      await cases[name](count);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (ms >= batchMs / 4) {
        batch[name] = Math.max(1, Math.round((count * batchMs) / ms));
        break;
      }
      count *= 2;
    }
  }
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    // As in bench/: a full collection between rounds, so no round pays for another's garbage.
    globalThis.gc?.();
    for (let offset = 0; offset < names.length; offset++) {
      const name = names[(round + offset) % names.length];
      const run = cases[name];
      const count = batch[name];
      const started = process.hrtime.bigint();
      await run(count);
      samples[name].push(Number(process.hrtime.bigint() - started) / count);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, values.sort((a, b) => a - b)[values.length >> 1]]));
}

const results = [];
function goal(label, value, comparison, target) {
  const pass = comparison === "<=" ? value <= target : value >= target;
  results.push({ label, value, comparison, target, pass });
}

for (const size of ["small", "large"]) {
  const schema = schemas[size];
  const args = argumentsFor[size];
  const text = JSON.stringify(args);
  const handler = () => 1;
  const registry = new ToolRegistry().register({ name: "tool", description: "", parameters: schema }, handler);
  const validator = Compile(schema);
  const check = (value) => {
    if (!validator.Check(value)) throw new Error("invalid");
    return value;
  };
  const piTool = { name: "tool", description: "", parameters: schema };
  const objectCall = { type: "tool_call", id: "1", name: "tool", arguments: args };
  const textCall = { type: "tool_call", id: "1", name: "tool", arguments: text };
  const piCall = { type: "toolCall", id: "1", name: "tool", arguments: args };
  const timings = await race({
    dispatchObject: async (n) => { for (let i = 0; i < n; i++) await registry.dispatch(objectCall); },
    referenceObject: async (n) => { for (let i = 0; i < n; i++) await handler(check(plainCopy(args))); },
    dispatchText: async (n) => { for (let i = 0; i < n; i++) await registry.dispatch(textCall); },
    referenceText: async (n) => { for (let i = 0; i < n; i++) await handler(check(JSON.parse(text))); },
    compilePerCall: async (n) => {
      for (let i = 0; i < n; i++) {
        const compiled = Compile(schema);
        const copy = structuredClone(args);
        if (!compiled.Check(copy)) throw new Error("invalid");
        await handler(copy);
      }
    },
    piAi: async (n) => { for (let i = 0; i < n; i++) await handler(piValidate(piTool, piCall)); },
  });
  console.log(`${size}: ${Object.entries(timings).map(([name, ns]) => `${name} ${ns.toFixed(0)} ns`).join(", ")}`);
  // The same targets as bench/goals.ts (issue 11): faster than the inline reference on objects, within 10% on JSON text.
  const limits = size === "small" ? { object: 0.7, text: 1.1, compilePerCall: 100, piAi: 15 } : { object: 0.5, text: 1.1, compilePerCall: 60, piAi: 30 };
  goal(`${size}: dispatch / reference, object`, timings.dispatchObject / timings.referenceObject, "<=", limits.object);
  goal(`${size}: dispatch / reference, JSON text`, timings.dispatchText / timings.referenceText, "<=", limits.text);
  goal(`${size}: compile-per-call / dispatch`, timings.compilePerCall / timings.dispatchObject, ">=", limits.compilePerCall);
  goal(`${size}: pi-ai / dispatch`, timings.piAi / timings.dispatchObject, ">=", limits.piAi);
}

for (const { label, value, comparison, target, pass } of results) console.log(`${pass ? "PASS" : "FAIL"}  ${label}: ${value.toFixed(2)}x (goal ${comparison} ${target}x)`);
const passed = results.filter((result) => result.pass).length;
console.log(`packed harness: ${passed} passed, ${results.length - passed} failed`);
process.exitCode = passed === results.length ? 0 : 1;
