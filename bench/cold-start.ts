import { ToolRegistry, type ToolCallContent, type ToolDefinition } from "../src/index.js";
import { sampleValue, type JsonSchema } from "./json-schema.js";
import { median, quantile, timeMs } from "./measure.js";
import { seededRandom } from "./random.js";
import { generateTools } from "./tool-generator.js";

/** First calls are timed on at least this many tools (several fresh sets for small sizes), for a stable mean and p95. */
const MIN_FIRST_CALL_SAMPLES = 1000;

/** Start-up costs for one number of tools. */
export interface ColdStartRow {
  readonly tools: number;
  /** `new ToolRegistry()` plus `register` of every tool (nothing compiles), median of repeats. */
  readonly registerMs: number;
  /** `compileAll()` for every tool, median over fresh tool sets. */
  readonly compileAllMs: number;
  /** The first dispatch of each tool: its arguments checked by TypeBox's interpreter (the check compiles on its second use), the handler. */
  readonly firstCallMeanUs: number;
  readonly firstCallP95Us: number;
  /** Compiling, per tool (`compileStats().compileMs`, spent on its second call). */
  readonly compileMeanUs: number;
  /** The second dispatch of each tool: its check compiles, then the first run of the generated code. */
  readonly secondCallMedianUs: number;
  /** The third dispatch of each tool, compiled. */
  readonly thirdCallMedianUs: number;
}

type Tools = ReadonlyArray<ToolDefinition<JsonSchema>>;

const handler = (): number => 1;

/**
 * Registration, `compileAll` and first calls for each size in `sizes`. Every
 * timing uses schema objects the library has not seen before (registration
 * checks each new schema object once), and no schema is compiled twice.
 */
export async function runColdStart(sizes: readonly number[], repeats: number): Promise<ColdStartRow[]> {
  const rows: ColdStartRow[] = [];
  for (const size of sizes) {
    const tools = generateTools(size, 300 + size, `cold_${size}_`);
    const freshSets = Array.from({ length: repeats }, () => tools.map((tool) => ({ ...tool, parameters: structuredClone(tool.parameters) })));
    const registerTimes: number[] = [];
    for (const freshSet of freshSets) registerTimes.push(await timeMs(() => registered(freshSet)));
    const compileAllTimes: number[] = [];
    for (let repeat = 0; repeat < Math.min(repeats, 3); repeat++) {
      const registry = registered(generateTools(size, 400 + size * 10 + repeat, `compile_${size}_${repeat}_`));
      compileAllTimes.push(await timeMs(() => registry.compileAll()));
    }
    rows.push({ tools: size, registerMs: median(registerTimes), compileAllMs: median(compileAllTimes), ...(await firstCalls(size)) });
  }
  return rows;
}

function registered(tools: Tools): ToolRegistry {
  const registry = new ToolRegistry({ cacheSize: Infinity });
  for (const tool of tools) registry.register(tool, handler);
  return registry;
}

async function firstCalls(size: number): Promise<Pick<ColdStartRow, "firstCallMeanUs" | "firstCallP95Us" | "compileMeanUs" | "secondCallMedianUs" | "thirdCallMedianUs">> {
  const first: number[] = [];
  const second: number[] = [];
  const third: number[] = [];
  let compileMs = 0;
  for (let set = 0; set * size < MIN_FIRST_CALL_SAMPLES; set++) {
    const tools = generateTools(size, 500 + size * 10 + set, `first_${size}_${set}_`);
    const random = seededRandom(size + set);
    const calls = tools.map((tool, index): ToolCallContent => ({ id: `call_${index}`, name: tool.name, arguments: sampleValue(tool.parameters, random) as Record<string, unknown> }));
    const registry = registered(tools);
    for (const call of calls) {
      first.push((await timeMs(() => registry.dispatch(call))) * 1e3);
      second.push((await timeMs(() => registry.dispatch(call))) * 1e3);
      third.push((await timeMs(() => registry.dispatch(call))) * 1e3);
    }
    compileMs += registry.compileStats().compileMs;
  }
  return {
    firstCallMeanUs: first.reduce((sum, microseconds) => sum + microseconds, 0) / first.length,
    firstCallP95Us: quantile([...first].sort((a, b) => a - b), 0.95),
    compileMeanUs: (compileMs * 1e3) / first.length,
    secondCallMedianUs: median(second),
    thirdCallMedianUs: median(third),
  };
}
