import { z } from "zod";
import { Type } from "../src/index.js";
import { pinnedVersion } from "./machine.js";
import type { SchemaPair, Subject } from "./rivals/subject.js";

/** What one library did with the arguments, found by trying it (`probeBehaviour`). */
export interface BehaviourRow {
  readonly id: string;
  readonly label: string;
  readonly packageName: string;
  /** Its version, as package.json pins it. */
  readonly version: string;
  /** The form the probe used: objects where the library takes them, else JSON text. */
  readonly form: "object" | "JSON text";
  /** Whether a string where the schema says integer is refused. */
  readonly validates: "yes" | "no";
  /** What happens to `"20"` where the schema says integer. */
  readonly coercion: "refused" | "converted to 20" | "passed on as text";
  /** What happens to a property the schema does not declare. */
  readonly unknownKeys: "kept" | "dropped" | "refused";
  /** What the handler receives, for a valid call with a nested object. */
  readonly handlerGets: "the caller's object" | "a shallow copy" | "a deep copy" | "a parse of the text";
  /** Whether the refusal of a wrong value repeats that value, and where. */
  readonly valuesInErrors: "no" | "in the error message" | "in the error's fields" | "in the text for the model" | "never refuses";
}

/** A value no schema would produce: where it shows up in a refusal, the refusal repeats the argument. */
const MARKER = "SECRET-7f3a9c";

const PROBE_SCHEMAS: SchemaPair = {
  typebox: Type.Object({
    path: Type.String(),
    count: Type.Optional(Type.Integer({ minimum: 0 })),
    nested: Type.Optional(Type.Object({ label: Type.String() })),
  }),
  zod: z.object({ path: z.string(), count: z.number().int().min(0).optional(), nested: z.object({ label: z.string() }).optional() }),
};

interface Outcome {
  /** Whether the handler ran, and on what. */
  readonly ran: boolean;
  readonly received: unknown;
  /** What the library resolved to (a failure it reports as a value, such as text for the model). */
  readonly returned?: unknown;
  /** What the library threw. */
  readonly thrown?: unknown;
}

/**
 * Tries each subject with four calls on one small schema (a path, an optional
 * bounded integer, an optional nested object) and reports what it did: with a
 * valid call (what the handler gets), `"20"` for the integer, an undeclared
 * property, and a marker string for the integer (is it refused, and does the
 * refusal repeat it).
 */
export async function probeBehaviour(subjects: readonly Subject[]): Promise<BehaviourRow[]> {
  const rows: BehaviourRow[] = [];
  for (const subject of subjects) rows.push(await probeOne(subject));
  return rows;
}

async function probeOne(subject: Subject): Promise<BehaviourRow> {
  let received: unknown;
  let ran = false;
  const invoker = await subject.connect(PROBE_SCHEMAS, (args) => {
    ran = true;
    received = args;
    return 1;
  });
  const form = invoker.object !== undefined ? "object" : "JSON text";
  const call = async (args: Record<string, unknown>): Promise<Outcome> => {
    ran = false;
    received = undefined;
    try {
      const returned = invoker.object !== undefined ? await invoker.object(args) : await invoker.text!(JSON.stringify(args));
      return { ran, received, returned };
    } catch (thrown) {
      return { ran, received, thrown };
    }
  };
  try {
    const validArguments = { path: "notes.txt", nested: { label: "x" } };
    const valid = await call(validArguments);
    if (!valid.ran) throw new Error(`${subject.label} refused valid arguments`);
    const coerced = await call({ path: "notes.txt", count: "20" });
    const extra = await call({ path: "notes.txt", extra: 1 });
    const wrong = await call({ path: "notes.txt", count: MARKER });
    return {
      id: subject.id,
      label: subject.label,
      packageName: subject.packageName,
      version: pinnedVersion(subject.packageName),
      form,
      validates: wrong.ran ? "no" : "yes",
      coercion: !coerced.ran ? "refused" : propertyOf(coerced.received, "count") === 20 ? "converted to 20" : "passed on as text",
      unknownKeys: !extra.ran ? "refused" : hasProperty(extra.received, "extra") ? "kept" : "dropped",
      handlerGets: form === "JSON text" ? "a parse of the text" : copyKind(validArguments, valid.received),
      valuesInErrors: wrong.ran ? "never refuses" : whereMarker(wrong),
    };
  } finally {
    await invoker.close?.();
  }
}

function propertyOf(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function hasProperty(value: unknown, key: string): boolean {
  return typeof value === "object" && value !== null && Object.hasOwn(value, key);
}

function copyKind(sent: { nested: object }, received: unknown): BehaviourRow["handlerGets"] {
  if (received === sent) return "the caller's object";
  return propertyOf(received, "nested") === sent.nested ? "a shallow copy" : "a deep copy";
}

function whereMarker(outcome: Outcome): BehaviourRow["valuesInErrors"] {
  if (outcome.thrown === undefined) return containsMarker(outcome.returned, new Set()) ? "in the text for the model" : "no";
  for (let error: unknown = outcome.thrown; error instanceof Error; error = error.cause) {
    if (error.message.includes(MARKER)) return "in the error message";
  }
  return containsMarker(outcome.thrown, new Set()) ? "in the error's fields" : "no";
}

/** Whether the marker appears in any string reachable from `value` (own properties, `cause` included), a few levels deep. */
function containsMarker(value: unknown, seen: Set<object>, depth = 0): boolean {
  if (typeof value === "string") return value.includes(MARKER);
  if (typeof value !== "object" || value === null || seen.has(value) || depth > 8) return false;
  seen.add(value);
  return Reflect.ownKeys(value).some((key) => {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    return descriptor !== undefined && "value" in descriptor && containsMarker(descriptor.value, seen, depth + 1);
  });
}
