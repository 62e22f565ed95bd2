import { Type } from "typebox";
import { Compile, type Validator } from "typebox/compile";
import { ToolArgumentsValidationError, ToolRegistry, type ToolCallContent } from "../src/index.js";
import type { BenchCase } from "./measure.js";
import type { SchemaPair, Subject } from "./rivals/subject.js";
import type { SchemaFixture } from "./schemas.js";
import { zodSchemaFor } from "./zod-schemas.js";

/** How a call's arguments arrive: an object, or the JSON text a provider delivered. */
export type ArgumentsForm = "object" | "json";

const TOOL_NAME = "tool";
const TIMED_TOOL_NAME = "tool_timed";
// Ignores its arguments: the cases measure only what happens around the handler.
const handler: (args: unknown) => number = () => 1;

/** A fixture's schema for every kind of library. */
export function schemasOf(fixture: SchemaFixture): SchemaPair {
  return { typebox: fixture.schema, zod: zodSchemaFor(fixture.size) };
}

/**
 * The registry and the inline reference for one schema and one arguments
 * form, and for objects the naive baselines (a compile per call, a cached
 * validator with `structuredClone`). Every case ends with `await handler(args)`
 * on a handler that returns 1, so only the overhead around the handler differs.
 */
export function perCallCases(fixture: SchemaFixture, form: ArgumentsForm): BenchCase[] {
  const { schema, validArguments } = fixture;
  const text = JSON.stringify(validArguments);
  const call: ToolCallContent = { type: "tool_call", id: "call_1", name: TOOL_NAME, arguments: form === "json" ? text : validArguments };
  const registry = new ToolRegistry().register({ name: TOOL_NAME, description: "benchmark tool", parameters: schema }, handler);
  const validator = Compile(schema);
  const dispatch: BenchCase = { id: "dispatch", label: "registry.dispatch", run: async (n) => { for (let i = 0; i < n; i++) await registry.dispatch(call); } };
  if (form === "json") {
    return [
      dispatch,
      {
        id: "reference",
        label: "reference: handler(check(JSON.parse(text)))",
        run: async (n) => { for (let i = 0; i < n; i++) await handler(checked(validator, JSON.parse(text))); },
      },
    ];
  }
  return [
    dispatch,
    {
      id: "reference",
      label: "reference: handler(check(copy(args)))",
      run: async (n) => { for (let i = 0; i < n; i++) await handler(checked(validator, plainCopy(validArguments))); },
    },
    {
      id: "compile-per-call",
      label: "Compile + structuredClone per call",
      run: async (n) => { for (let i = 0; i < n; i++) await handler(checked(Compile(schema), structuredClone(validArguments))); },
    },
    {
      id: "structured-clone",
      label: "cached validator + structuredClone",
      run: async (n) => { for (let i = 0; i < n; i++) await handler(checked(validator, structuredClone(validArguments))); },
    },
  ];
}

/** A case that runs through a library's set-up, which `close` releases once the case is timed. */
export interface SubjectCase extends BenchCase {
  close(): Promise<void>;
}

/**
 * A rival's case for one schema and form, or `undefined` where the rival does
 * not take that form (a rival that takes objects would only add `JSON.parse`,
 * whose cost the reference's JSON-text row shows). One call is made first to
 * prove the rival accepts the arguments (its handler must run), so no row
 * times a refusal.
 */
export async function rivalCase(subject: Subject, fixture: SchemaFixture, form: ArgumentsForm): Promise<SubjectCase | undefined> {
  let handled = 0;
  const invoker = await subject.connect(schemasOf(fixture), (args) => {
    handled++;
    return handler(args);
  });
  const { validArguments } = fixture;
  const text = JSON.stringify(validArguments);
  let callOnce: (() => Promise<unknown>) | undefined;
  if (form === "json" && invoker.text !== undefined) callOnce = () => invoker.text!(text);
  else if (form === "object" && invoker.object !== undefined) callOnce = () => invoker.object!(validArguments);
  if (callOnce === undefined) {
    await invoker.close?.();
    return undefined;
  }
  await callOnce();
  if (handled !== 1) throw new Error(`${subject.label} refused the valid ${fixture.size} arguments`);
  const run = callOnce;
  return {
    id: subject.id,
    label: subject.label,
    run: async (n) => { for (let i = 0; i < n; i++) await run(); },
    close: async () => { await invoker.close?.(); },
  };
}

/** How many tools the many-tools group registers. */
export const MANY_TOOLS = 20;

/**
 * A registry of {@link MANY_TOOLS} tools, each with its own small schema (a path and two bounded
 * integers, one named after the tool), called in turn, against the inline reference doing the same
 * by hand: find the tool's cached validator by name, copy, check, run. What an agent with a tool
 * list does, where one tool called in a loop is the best case: each tool's code is a different
 * target at the same call sites, and each call looks up another tool's validator.
 */
export function manyToolsCases(): BenchCase[] {
  const registry = new ToolRegistry();
  const byName = new Map<string, { validator: Validator; handler: (args: unknown) => number }>();
  const calls: ToolCallContent[] = [];
  for (let index = 0; index < MANY_TOOLS; index++) {
    const name = `tool_${index}`;
    const parameters = Type.Object({ path: Type.String(), [`offset_${index}`]: Type.Optional(Type.Integer({ minimum: 0 })), limit: Type.Optional(Type.Integer({ minimum: 1 })) });
    registry.register({ name, description: "benchmark tool", parameters }, handler);
    byName.set(name, { validator: Compile(parameters), handler });
    calls.push({ type: "tool_call", id: `call_${index}`, name, arguments: { path: "src/index.ts", [`offset_${index}`]: 10, limit: 100 } });
  }
  return [
    { id: "dispatch", label: `registry.dispatch, ${MANY_TOOLS} tools in turn`, run: async (n) => { for (let i = 0; i < n; i++) await registry.dispatch(calls[i % MANY_TOOLS]!); } },
    {
      id: "reference",
      label: "reference: look-up by name, then handler(check(copy(args)))",
      run: async (n) => {
        for (let i = 0; i < n; i++) {
          const call = calls[i % MANY_TOOLS]!;
          const tool = byName.get(call.name)!;
          await tool.handler(checked(tool.validator, plainCopy(call.arguments)));
        }
      },
    },
  ];
}

/** The same dispatch with no signal, with a caller's `AbortSignal` (never aborted), and under a tool's `timeoutMs`. */
export function signalCases(fixture: SchemaFixture): BenchCase[] {
  // One registry (see otel-overhead.ts on two): the timed tool shares the plain one's schema, and so its checks.
  const registry = new ToolRegistry()
    .register({ name: TOOL_NAME, description: "benchmark tool", parameters: fixture.schema }, handler)
    .register({ name: TIMED_TOOL_NAME, description: "benchmark tool with a time limit", parameters: fixture.schema }, handler, { timeoutMs: 60_000 });
  const call: ToolCallContent = { type: "tool_call", id: "call_1", name: TOOL_NAME, arguments: fixture.validArguments };
  const timedCall: ToolCallContent = { ...call, name: TIMED_TOOL_NAME };
  // The caller's signal exists before the call (one per turn or per request): making it is not the registry's cost.
  const { signal } = new AbortController();
  return [
    { id: "dispatch", label: "dispatch, no signal", run: async (n) => { for (let i = 0; i < n; i++) await registry.dispatch(call); } },
    { id: "signal", label: "dispatch with a caller's signal", run: async (n) => { for (let i = 0; i < n; i++) await registry.dispatch(call, { signal }); } },
    { id: "timeout", label: "dispatch with timeoutMs", run: async (n) => { for (let i = 0; i < n; i++) await registry.dispatch(timedCall); } },
  ];
}

/** Dispatch of valid against invalid (caught) arguments, through one registry. */
export function invalidPathCases(fixture: SchemaFixture): BenchCase[] {
  const registry = new ToolRegistry().register({ name: TOOL_NAME, description: "benchmark tool", parameters: fixture.schema }, handler);
  const validCall: ToolCallContent = { id: "call_1", name: TOOL_NAME, arguments: fixture.validArguments };
  const invalidCall: ToolCallContent = { id: "call_2", name: TOOL_NAME, arguments: fixture.invalidArguments };
  return [
    { id: "valid", label: "dispatch, valid arguments", run: async (n) => { for (let i = 0; i < n; i++) await registry.dispatch(validCall); } },
    {
      id: "invalid",
      label: "dispatch, invalid arguments (caught)",
      run: async (n) => {
        for (let i = 0; i < n; i++) {
          try {
            await registry.dispatch(invalidCall);
            throw new Error("invalid arguments were accepted");
          } catch (error) {
            if (!(error instanceof ToolArgumentsValidationError)) throw error;
          }
        }
      },
    },
  ];
}

function checked(validator: Validator, value: unknown): unknown {
  if (!validator.Check(value)) throw new Error("valid arguments were refused");
  return value;
}

/** The reference's copy: the least a private copy of plain JSON-like data costs. */
function plainCopy(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(plainCopy);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = plainCopy((value as Record<string, unknown>)[key]);
  return copy;
}
