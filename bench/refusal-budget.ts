import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { type TSchema, ToolRegistry, Type } from "../src/index.js";

/**
 * The cost of refusing a call against the cost of accepting one of the same size: for each
 * schema shape and argument size, the time a valid call takes, the time the worst invalid call
 * takes (every item wrong, or only the last one), how long each blocks the event loop, and, in
 * fresh processes, the peak memory (max RSS) of each.
 */

/** A schema shape and how to write valid and invalid arguments of about `bytes` for it. */
interface Shape {
  readonly name: string;
  readonly schema: TSchema;
  /** JSON text of `count` items. */
  readonly valid: (count: number) => string;
  /** Invalid variants: every item wrong, and only the last item wrong. */
  readonly invalid: ReadonlyArray<(count: number) => string>;
}

/** The text a generator writes at about `bytes`: the item count scaled from a sample, so that every variant has the same size. */
function textOfSize(generate: (count: number) => string, bytes: number): string {
  const estimate = Math.max(2, Math.floor(bytes / (generate(1000).length / 1000)));
  const text = generate(estimate);
  // Items may grow longer with the count (numbers of more digits): scale once more to fit.
  return text.length <= bytes ? text : generate(Math.max(2, Math.floor((estimate * bytes) / text.length)));
}

const join = (count: number, item: (index: number) => string): string => Array.from({ length: count }, (_, index) => item(index)).join(",");
const distinct = (index: number): string => String(10_000_000 + index);
const lastWrong = (count: number, item: (index: number) => string, wrong: string): string => `${join(count - 1, item)},${wrong}`;
// Valid and invalid items of one shape have the same width, so that texts of one size hold as many items.
const digits = (index: number): string => String(1000 + (index % 9000));

/** The shapes of the sweep: plain, `$ref`, record, `contains`, tuple, `anyOf` items, `uniqueItems`. */
export const SHAPES: readonly Shape[] = [
  {
    name: "plain",
    schema: Type.Object({ ids: Type.Array(Type.Integer()) }),
    valid: (count) => `{"ids":[${join(count, digits)}]}`,
    invalid: [(count) => `{"ids":[${join(count, () => "true")}]}`, (count) => `{"ids":[${lastWrong(count, digits, "true")}]}`],
  },
  {
    name: "$ref",
    schema: { $defs: { Id: { type: "integer" } }, type: "object", properties: { ids: { type: "array", items: { $ref: "#/$defs/Id" } } }, required: ["ids"] } as TSchema,
    valid: (count) => `{"ids":[${join(count, digits)}]}`,
    invalid: [(count) => `{"ids":[${join(count, () => "true")}]}`, (count) => `{"ids":[${lastWrong(count, digits, "true")}]}`],
  },
  {
    name: "record",
    schema: Type.Object({ m: Type.Record(Type.String(), Type.Integer()) }),
    valid: (count) => `{"m":{${join(count, (index) => `"k${index}":1000`)}}}`,
    invalid: [(count) => `{"m":{${join(count, (index) => `"k${index}":true`)}}}`, (count) => `{"m":{${lastWrong(count, (index) => `"k${index}":1000`, '"last":true')}}}`],
  },
  {
    name: "contains",
    schema: Type.Object({ tags: Type.Array(Type.String(), { contains: Type.Literal("x") }) }),
    valid: (count) => `{"tags":[${lastWrong(count, () => '"a"', '"x"')}]}`,
    invalid: [(count) => `{"tags":[${join(count, () => '"a"')}]}`, (count) => `{"tags":[${lastWrong(count, () => '"a"', "1")}]}`],
  },
  {
    name: "tuple",
    schema: { type: "object", properties: { t: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: { type: "integer" } } }, required: ["t"] } as TSchema,
    valid: (count) => `{"t":["a",${join(count, digits)}]}`,
    invalid: [(count) => `{"t":["a",${join(count, () => "true")}]}`, (count) => `{"t":["a",${lastWrong(count, digits, "true")}]}`],
  },
  {
    name: "anyOf items",
    schema: Type.Object({ xs: Type.Array(Type.Union([Type.String(), Type.Integer()])) }),
    valid: (count) => `{"xs":[${join(count, digits)}]}`,
    invalid: [(count) => `{"xs":[${join(count, () => "true")}]}`, (count) => `{"xs":[${lastWrong(count, digits, "true")}]}`],
  },
  {
    name: "uniqueItems",
    schema: Type.Object({ ids: Type.Array(Type.Number(), { uniqueItems: true }) }),
    valid: (count) => `{"ids":[${join(count, distinct)}]}`,
    invalid: [(count) => `{"ids":[${join(count, () => distinct(0))}]}`, (count) => `{"ids":[${lastWrong(count, distinct, distinct(0))}]}`],
  },
];

/** Argument sizes of the sweep, in bytes of JSON text: 1 KB to just under the 16 MiB default limit. */
export const SIZES = [1_000, 16_000, 256_000, 1_000_000, 4_000_000, 16_000_000] as const;

/** One shape at one size. */
export interface BudgetRow {
  readonly shape: string;
  readonly bytes: number;
  /** Median time of a valid call, start to settled, in milliseconds. */
  readonly validMs: number;
  /** Median time of the worst invalid variant, start to settled, in milliseconds. */
  readonly invalidMs: number;
  /** How long a valid call holds the event loop (its synchronous part; median), in milliseconds. */
  readonly validBlockMs: number;
  /** How long the worst invalid call holds the event loop (median), in milliseconds. */
  readonly invalidBlockMs: number;
  /** Peak resident memory of a fresh process making one valid call, then one invalid call, in MiB (largest size only). */
  readonly validPeakMiB?: number;
  readonly invalidPeakMiB?: number;
}

function registryFor(shape: Shape): ToolRegistry {
  return new ToolRegistry().register({ name: "tool", description: "", parameters: shape.schema }, () => 1);
}

/** One call: its synchronous part (how long it holds the event loop) and its whole time, in milliseconds. */
async function timeCall(registry: ToolRegistry, text: string): Promise<{ blockMs: number; totalMs: number }> {
  const started = performance.now();
  const settled = registry.dispatch({ id: "1", name: "tool", arguments: text }).catch(() => undefined);
  const blockMs = performance.now() - started;
  await settled;
  return { blockMs, totalMs: performance.now() - started };
}

/** Rounds of warm-up at most: enough for V8 to optimize the refusal path as it has the valid one. */
const WARM_UP_ROUNDS = 1000;

/**
 * Calls each text in turn, for `minimumMs` or {@link WARM_UP_ROUNDS} rounds, whichever ends first:
 * the budget compares steady costs. A valid call is optimized sooner than a refusal, whose code
 * runs less often, so a short warm-up times an optimized valid call against a refusal still
 * partly in V8's lower tiers (2.5x measured warm, 3.5x to 5x after one call of each).
 */
async function warmUp(registry: ToolRegistry, texts: readonly string[], minimumMs: number): Promise<void> {
  const started = performance.now();
  for (let round = 0; round < WARM_UP_ROUNDS && (round === 0 || performance.now() - started < minimumMs); round++) {
    for (const text of texts) await timeCall(registry, text);
  }
}

/** Medians over repeats after a warm-up (at least `minimumMs` of them; three rounds, unwarmed, for texts of 4 MB and more), interleaving the texts so that drift falls on all alike. */
async function timeTexts(registry: ToolRegistry, texts: readonly string[], minimumMs: number): Promise<Array<{ medianMs: number; medianBlockMs: number }>> {
  const samples = texts.map((): number[] => []);
  const blocks = texts.map((): number[] => []);
  const large = texts.some((text) => text.length >= 4_000_000);
  if (!large) await warmUp(registry, texts, minimumMs);
  const started = performance.now();
  for (let round = 0; round < (large ? 3 : 5) || (!large && performance.now() - started < minimumMs && round < 200); round++) {
    for (let index = 0; index < texts.length; index++) {
      const { blockMs, totalMs } = await timeCall(registry, texts[index]!);
      samples[index]!.push(totalMs);
      blocks[index]!.push(blockMs);
    }
  }
  return samples.map((times, index) => ({ medianMs: median(times), medianBlockMs: median(blocks[index]!) }));
}

/** Times every shape (or the named ones) at every size. */
export async function runRefusalBudget(sizes: readonly number[], minimumMs = 200, shapeNames?: readonly string[]): Promise<BudgetRow[]> {
  const rows: BudgetRow[] = [];
  for (const shape of SHAPES.filter((candidate) => shapeNames === undefined || shapeNames.includes(candidate.name))) {
    const registry = registryFor(shape);
    for (const bytes of sizes) {
      const texts = [shape.valid, ...shape.invalid].map((generate) => textOfSize(generate, bytes));
      const [valid, ...invalid] = await timeTexts(registry, texts, minimumMs);
      const worst = invalid.reduce((a, b) => (b.medianMs > a.medianMs ? b : a));
      rows.push({
        shape: shape.name,
        bytes,
        validMs: valid!.medianMs,
        invalidMs: worst.medianMs,
        validBlockMs: valid!.medianBlockMs,
        invalidBlockMs: Math.max(...invalid.map((timing) => timing.medianBlockMs)),
      });
    }
  }
  return rows;
}

/** Peak memory of one call of a shape at a size, in a fresh process: valid (variant -1) or an invalid variant. */
export function peakMemoryMiB(shapeName: string, bytes: number, variant: number): number {
  const output = execFileSync(process.execPath, [fileURLToPath(import.meta.url), "--peak", shapeName, String(bytes), String(variant)], { encoding: "utf8" });
  return Number(output.trim());
}

/** Adds each shape's peak memory at the largest size, valid against the worst invalid variant. */
export function addPeakMemory(rows: readonly BudgetRow[]): BudgetRow[] {
  const largest = Math.max(...rows.map((row) => row.bytes));
  return rows.map((row) => {
    if (row.bytes !== largest) return row;
    const shape = SHAPES.find((candidate) => candidate.name === row.shape)!;
    const validPeakMiB = peakMemoryMiB(row.shape, row.bytes, -1);
    const invalidPeakMiB = Math.max(...shape.invalid.map((_, variant) => peakMemoryMiB(row.shape, row.bytes, variant)));
    return { ...row, validPeakMiB, invalidPeakMiB };
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

// Child mode: `node refusal-budget.js --peak <shape> <bytes> <variant>` prints the peak RSS in MiB
// of a process that built the text and made that one call (the text itself is part of both peaks).
if (process.argv[2] === "--peak") {
  const [, , , shapeName, bytesText, variantText] = process.argv;
  const shape = SHAPES.find((candidate) => candidate.name === shapeName)!;
  const variant = Number(variantText);
  const text = textOfSize(variant < 0 ? shape.valid : shape.invalid[variant]!, Number(bytesText));
  await registryFor(shape)
    .dispatch({ id: "1", name: "tool", arguments: text })
    .catch(() => undefined);
  console.log((process.resourceUsage().maxRSS / 1024).toFixed(1));
}
