import type { ToolCallContent, ToolDefinition } from "../src/index.js";
import { loadBfclTools } from "./corpus.js";
import { sampleValue, type JsonSchema } from "./json-schema.js";
import { seededRandom, zipfSampler } from "./random.js";
import { generateTools } from "./tool-generator.js";

/** Zipf exponent of how calls spread over tools. */
export const ZIPF_EXPONENT = 1.1;

/** The tools of the cache sweep, each with one call that carries sample arguments. */
export interface Population {
  /** Where the tools come from, as the report shows it. */
  readonly source: string;
  readonly tools: ReadonlyArray<ToolDefinition<JsonSchema>>;
  /** `calls[i]` calls `tools[i]`. */
  readonly calls: readonly ToolCallContent[];
}

/** The BFCL tools of `corpusDirectory` when given, else `generatedSize` generated tools. */
export function buildPopulation(corpusDirectory: string | undefined, generatedSize: number): Population {
  const tools = corpusDirectory === undefined ? generateTools(generatedSize, 7, "sweep_") : loadBfclTools(corpusDirectory);
  const random = seededRandom(11);
  const calls = tools.map(
    (tool, index): ToolCallContent => ({ id: `call_${index}`, name: tool.name, arguments: sampleValue(tool.parameters, random) as Record<string, unknown> }),
  );
  const source = corpusDirectory === undefined ? `${tools.length} generated tools` : `${tools.length} distinct BFCL tools from ${corpusDirectory}`;
  return { source, tools, calls };
}

/**
 * `length` tool indices drawn from a Zipf law over `toolCount` tools, with
 * a fixed seed. The popularity ranks are shuffled over the tools, so the
 * popular tools are not simply the first ones registered.
 */
export function zipfCallOrder(toolCount: number, length: number, seed: number): Int32Array {
  const random = seededRandom(seed);
  const toolOfRank = Array.from({ length: toolCount }, (_, index) => index);
  for (let index = toolCount - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [toolOfRank[index], toolOfRank[other]] = [toolOfRank[other]!, toolOfRank[index]!];
  }
  const nextRank = zipfSampler(toolCount, ZIPF_EXPONENT, random);
  return Int32Array.from({ length }, () => toolOfRank[nextRank()]!);
}
