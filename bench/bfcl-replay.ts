import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { ToolArgumentsValidationError, ToolRegistry, type ToolDefinition } from "../src/index.js";
import { type BfclFunction, type BfclOptions, fromBfclFunction, parseJsonLines } from "../src/bfcl/index.js";
import { answerVariants, type OptionMap } from "./bfcl-answers.js";
import { referenceSchema } from "./bfcl-reference.js";

/**
 * The replay of every BFCL ground-truth answer through the library: each function loaded by
 * `fromBfclFunction` and registered, each answer (every listed option, by BFCL's conventions)
 * dispatched as JSON text. Every refusal is classified against an independent oracle (Ajv on
 * the dialect read apart from the library, see `bfcl-reference.ts`): a **dataset error** when the
 * oracle refuses the answer too (the answer breaks its own schema), a **library error** when the
 * oracle accepts what the registry refused, when the registry accepts what the oracle refuses, or
 * when loading, registering or dispatching fails otherwise. Library errors must be zero.
 */

/** One refusal, or one disagreement with the oracle, named by place and kind (JSON types, never values). */
export interface ReplayFinding {
  /** `<file> <id> <function><path of the varied option>` */
  readonly where: string;
  readonly kind: string;
}

/** What a replay found. */
export interface ReplayReport {
  readonly directory: string;
  readonly files: number;
  /** Ground-truth function calls. */
  readonly calls: number;
  /** Concrete answers replayed: every call's first-listed answer and one per other listed option. */
  readonly answers: number;
  readonly accepted: number;
  /** First-listed answers (one per call) the registry accepted. */
  readonly firstAccepted: number;
  /** Refusals the oracle agrees with, by kind. */
  readonly datasetErrors: ReadonlyMap<string, number>;
  /** Every library error, each named. */
  readonly libraryErrors: readonly ReplayFinding[];
  /** Parameters listed with no accepted value at all (`[]`): sent left out. */
  readonly emptyOptionLists: number;
  /** Answers accepted when the loader keeps the strict reading of `default: null` (`defaultNull: "strict"`). */
  readonly acceptedStrictDefaultNull: number;
  /** Answers accepted by a registry with `onRepair` (repair of refused answers, reported). */
  readonly acceptedWithRepair: number;
}

interface Entry {
  readonly id: string;
  readonly function: BfclFunction[];
}

interface Answer {
  readonly id: string;
  readonly ground_truth: Array<Record<string, OptionMap>>;
}

/** The registries and the oracle of one distinct function definition. */
interface Loaded {
  readonly faithful: ToolRegistry;
  readonly strict: ToolRegistry;
  readonly repairing: ToolRegistry;
  readonly oracle: ValidateFunction;
  readonly reference: Record<string, unknown>;
}

const BFCL_FILE = /^BFCL_v4_.*\.json$/;

/** How a replay loads a BFCL function: the library's loader, or (to test the replay itself) another. */
export type BfclLoader = (fn: BfclFunction, options: BfclOptions) => ToolDefinition<Record<string, unknown>>;

/**
 * Replays every ground-truth answer of the BFCL files in `directory` (with their `possible_answer/` files).
 * @param loader the loader under test (default: the library's `fromBfclFunction`)
 */
export async function replayBfcl(directory: string, loader: BfclLoader = fromBfclFunction): Promise<ReplayReport> {
  const files = readdirSync(directory).filter((file) => BFCL_FILE.test(file)).sort();
  // Formats asserted, as the registry asserts the formats it knows (`date`, `date-time`, `email`…).
  const ajv = new Ajv({ strict: false });
  addFormats.default(ajv);
  const loaded = new Map<string, Loaded | ReplayFinding>();
  const datasetErrors = new Map<string, number>();
  const libraryErrors: ReplayFinding[] = [];
  let calls = 0;
  let answers = 0;
  let accepted = 0;
  let firstAccepted = 0;
  let emptyOptionLists = 0;
  let acceptedStrictDefaultNull = 0;
  let acceptedWithRepair = 0;

  for (const file of files) {
    const functions = new Map<string, BfclFunction[]>();
    for (const entry of parseJsonLines(readFileSync(join(directory, file), "utf8")) as Entry[]) functions.set(entry.id, entry.function);
    for (const answer of parseJsonLines(readFileSync(join(directory, "possible_answer", file), "utf8")) as Answer[]) {
      for (const call of answer.ground_truth) {
        for (const [name, params] of Object.entries(call)) {
          calls++;
          const where = `${file} ${answer.id} ${name}`;
          const fn = functions.get(answer.id)?.find((candidate) => candidate.name === name);
          if (fn === undefined) {
            libraryErrors.push({ where, kind: "an answer names a function its entry does not define" });
            continue;
          }
          const key = JSON.stringify(fn);
          let tool = loaded.get(key);
          if (tool === undefined) loaded.set(key, (tool = load(fn, ajv, where, loader)));
          if (!("oracle" in tool)) {
            libraryErrors.push(tool);
            continue;
          }
          const { variants, defects } = answerVariants(params, fn.parameters);
          emptyOptionLists += defects.emptyOptionLists.length;
          for (const variant of variants) {
            answers++;
            const text = JSON.stringify(variant.args);
            const ours = await outcome(tool.faithful, fn.name, text);
            const oracle = tool.oracle(variant.args);
            const at = `${where}${variant.varies}`;
            if (ours === "accepted") {
              accepted++;
              if (variant.varies === "") firstAccepted++;
              if (!oracle) libraryErrors.push({ where: at, kind: `accepted what the dialect refuses (${describeAjvError(tool.oracle.errors?.[0], tool.reference, variant.args)})` });
            } else if (ours !== "refused") {
              libraryErrors.push({ where: at, kind: ours });
            } else if (oracle) {
              libraryErrors.push({ where: at, kind: "refused what the dialect accepts" });
            } else {
              const kind = describeAjvError(tool.oracle.errors?.[0], tool.reference, variant.args);
              datasetErrors.set(kind, (datasetErrors.get(kind) ?? 0) + 1);
            }
            if ((await outcome(tool.strict, fn.name, text)) === "accepted") acceptedStrictDefaultNull++;
            if ((await outcome(tool.repairing, fn.name, text)) === "accepted") acceptedWithRepair++;
          }
        }
      }
    }
  }
  return { directory, files: files.length, calls, answers, accepted, firstAccepted, datasetErrors, libraryErrors, emptyOptionLists, acceptedStrictDefaultNull, acceptedWithRepair };
}

/** A definition loaded three ways (faithful, strict `default: null`, with repair) beside its oracle; or why it could not be. */
function load(fn: BfclFunction, ajv: Ajv, where: string, loader: BfclLoader): Loaded | ReplayFinding {
  const reference = referenceSchema(fn.parameters ?? { type: "dict", properties: {} });
  let oracle: ValidateFunction;
  try {
    oracle = ajv.compile(reference);
  } catch {
    return { where, kind: "the dialect's schema does not compile (a dataset error the replay cannot classify)" };
  }
  try {
    const registry = (options: ConstructorParameters<typeof ToolRegistry>[0], defaultNull: "nullable" | "strict") =>
      new ToolRegistry(options).register(loader(fn, { defaultNull }), (args) => args);
    return {
      faithful: registry({}, "nullable"),
      strict: registry({}, "strict"),
      repairing: registry({ onRepair: () => undefined }, "nullable"),
      oracle,
      reference,
    };
  } catch (error) {
    return { where, kind: `the loader or register failed: ${error instanceof Error ? error.name : typeof error}` };
  }
}

/** `"accepted"`, `"refused"` (a `ToolArgumentsValidationError`), or what else went wrong. */
async function outcome(registry: ToolRegistry, name: string, text: string): Promise<string> {
  try {
    await registry.dispatch({ id: "replay", name, arguments: text });
    return "accepted";
  } catch (error) {
    if (error instanceof ToolArgumentsValidationError) return "refused";
    return `dispatch failed with ${error instanceof Error ? error.name : typeof error}`;
  }
}

/**
 * A dataset error's kind, from the oracle's first error: the keyword and what the schema and the
 * answer hold there, as JSON types (an answer's values never appear).
 */
export function describeAjvError(error: ErrorObject | undefined, schema: unknown, args: unknown): string {
  if (error === undefined) return "refused";
  const value = resolve(args, error.instancePath);
  const node = resolve(schema, error.schemaPath.replace(/^#/, "").replace(/\/[^/]*$/, "")) as Record<string, unknown> | undefined;
  switch (error.keyword) {
    case "type":
      return `${jsonType(value)} where ${describeType(error.params.type)} is declared`;
    case "enum": {
      const declared = node?.type;
      const unmeetable = declared !== undefined && Array.isArray(node?.enum) && node.enum.some((allowed) => !hasType(allowed, declared));
      return unmeetable ? `a value of a type its enum does not list (the ${describeType(declared)} parameter's enum holds other types)` : `a ${jsonType(value)} outside its enum`;
    }
    case "required":
      return "a required parameter left out";
    case "format":
      return `a string breaking its format (${String(error.params.format)})`;
    case "anyOf":
      return `${jsonType(value)} where none of the allowed types is`;
    default:
      return `a value breaking its "${error.keyword}"`;
  }
}

function describeType(type: unknown): string {
  return Array.isArray(type) ? type.join(" or ") : String(type);
}

function hasType(value: unknown, type: unknown): boolean {
  return (Array.isArray(type) ? type : [type]).some((one) => jsonType(value) === one || (one === "number" && typeof value === "number"));
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** The node at a JSON Pointer (Ajv's `instancePath`, or a schema path without `#`). */
function resolve(root: unknown, pointer: string): unknown {
  if (pointer === "") return root;
  let node = root;
  for (const raw of pointer.slice(1).split("/")) {
    const segment = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}
