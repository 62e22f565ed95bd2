import { Compile } from "typebox/compile";
import { ToolRegistry, type ToolCallContent, type ToolDefinition } from "../src/index.js";
import { sampleValue, type JsonSchema } from "./json-schema.js";
import type { TimedGroup } from "./groups.js";
import { type BenchCase, measureInterleaved, type MeasureSettings, type MeasureStep } from "./measure.js";
import { seededRandom } from "./random.js";
import { generateTools } from "./tool-generator.js";

const handler = (): number => 1;

/** A generator of tools no run has seen: each batch has its own seed, each schema a description of its own. */
function freshTools(seedBase: number, prefix: string): (count: number) => Array<ToolDefinition<JsonSchema>> {
  let batch = 0;
  return (count) => {
    batch++;
    return generateTools(count, seedBase + batch, `${prefix}${batch}_`).map((tool) => ({
      ...tool,
      // New content, not only a new object: a cache keyed by the schema's text must miss as well.
      parameters: { ...tool.parameters, description: `Arguments of ${tool.name}.` },
    }));
  };
}

/**
 * Cold start against bare TypeBox: `register` plus the first `dispatch` of a
 * tool whose schema the process has never seen, against `Compile` of such a
 * schema alone. Both draw generated tools shaped like real ones, from
 * separate seeds (so neither compiles a schema the other compiled), made
 * before each batch, outside the timing.
 */
export function coldStartCases(): BenchCase[] {
  const registryTools = freshTools(1_000_000, "cold_");
  const compileTools = freshTools(2_000_000, "bare_");
  let registry = new ToolRegistry();
  let tools: Array<ToolDefinition<JsonSchema>> = [];
  let calls: ToolCallContent[] = [];
  let schemas: JsonSchema[] = [];
  return [
    {
      id: "register-first-call",
      label: "register + first dispatch of a new schema",
      setUp: (n) => {
        registry = new ToolRegistry();
        tools = registryTools(n);
        const random = seededRandom(n);
        calls = tools.map((tool, index) => ({ id: `call_${index}`, name: tool.name, arguments: sampleValue(tool.parameters, random) as Record<string, unknown> }));
      },
      run: async (n) => {
        for (let i = 0; i < n; i++) {
          registry.register(tools[i]!, handler);
          await registry.dispatch(calls[i]!);
        }
      },
    },
    {
      id: "compile",
      label: "TypeBox Compile of a new schema",
      setUp: (n) => {
        schemas = compileTools(n).map((tool) => tool.parameters);
      },
      run: async (n) => {
        for (let i = 0; i < n; i++) Compile(schemas[i]!);
      },
    },
  ];
}

/** Times the cold-start cases interleaved, as one group. */
export async function runColdStartRatio(settings: MeasureSettings, onStep: (step: MeasureStep) => void): Promise<TimedGroup> {
  return { id: "cold start", title: "cold start: register + first dispatch against a bare Compile, per new schema", timings: await measureInterleaved(coldStartCases(), settings, onStep) };
}
