import { ToolRegistry, Type, type TSchema } from "../src/index.js";
import { formatBytes, formatCount } from "./format.js";
import { describeMachine } from "./machine.js";
import { heapUsedAfterGc } from "./measure.js";
import { seededRandom, zipfSampler } from "./random.js";

// The memory soak of `npm run soak` (not part of CI): many dispatches over many distinct
// schemas through a bounded cache, with the heap sampled after full collections.
const schemaCount = Number(process.env.SOAK_SCHEMAS ?? 10_000);
const dispatchCount = Number(process.env.SOAK_DISPATCHES ?? 1_000_000);
const cacheSize = Number(process.env.SOAK_CACHE_SIZE ?? 256);
const samples = 20;

/** A distinct schema per index: different property names, types and bounds. */
function schemaFor(index: number): TSchema {
  return Type.Object({
    [`id_${index}`]: Type.Integer({ minimum: index % 7 }),
    name: Type.String({ maxLength: 64 + (index % 50) }),
    mode: Type.Union([Type.Literal(`a${index % 13}`), Type.Literal("b")]),
    tags: Type.Optional(Type.Array(Type.String(), { maxItems: 1 + (index % 9) })),
  });
}

function argumentsFor(index: number): Record<string, unknown> {
  return { [`id_${index}`]: index, name: `tool ${index}`, mode: "b", tags: ["x"] };
}

const machine = describeMachine();
console.log(`soak: ${formatCount(dispatchCount)} dispatches over ${formatCount(schemaCount)} schemas, cacheSize ${cacheSize}`);
console.log(`machine: ${machine.cpu}, ${machine.cores} cores; Node ${machine.node}`);

const beforeRegistry = heapUsedAfterGc();
let registry: ToolRegistry | undefined = new ToolRegistry({ cacheSize });
for (let index = 0; index < schemaCount; index++) {
  registry.register({ name: `tool_${index}`, description: `Tool ${index}`, parameters: schemaFor(index) }, () => index);
}
const calls = Array.from({ length: schemaCount }, (_, index) => ({ type: "tool_call" as const, id: `call_${index}`, name: `tool_${index}`, arguments: argumentsFor(index) }));
const nextTool = zipfSampler(schemaCount, 1, seededRandom(20261130));

const baseline = heapUsedAfterGc();
const heap: number[] = [];
const started = performance.now();
for (let dispatched = 0; dispatched < dispatchCount; ) {
  const stop = Math.min(dispatchCount, dispatched + dispatchCount / samples);
  for (; dispatched < stop; dispatched++) await registry.dispatch(calls[nextTool()]!);
  heap.push(heapUsedAfterGc());
}
const seconds = (performance.now() - started) / 1e3;
const stats = registry.cacheStats();
// What stays once the registry is gone: V8's own caches age out over a few collections.
registry = undefined;
for (let collection = 0; collection < 10; collection++) heapUsedAfterGc();
const afterRegistry = heapUsedAfterGc();
const firstHalfPeak = Math.max(...heap.slice(0, samples / 2));
const secondHalfPeak = Math.max(...heap.slice(samples / 2));
const grewBy = secondHalfPeak - firstHalfPeak;

console.log(`time: ${seconds.toFixed(1)} s (${formatCount(Math.round(dispatchCount / seconds))} dispatches/s)`);
console.log(`cache: size ${stats.size}/${stats.max}, hits ${formatCount(stats.hits)}, misses ${formatCount(stats.misses)}, evictions ${formatCount(stats.evictions)}`);
console.log(`heap before the registry: ${formatBytes(beforeRegistry)}; after registration: ${formatBytes(baseline)}`);
console.log(`heap after each ${formatCount(dispatchCount / samples)} dispatches: ${heap.map(formatBytes).join(", ")}`);
console.log(`peak of the second half minus peak of the first half: ${formatBytes(grewBy)}`);
console.log(`heap once the registry is dropped (after 10 more collections): ${formatBytes(afterRegistry)}`);
const bounded = stats.size <= cacheSize && grewBy < 8 * 1024 * 1024;
console.log(bounded ? "bounded: yes" : "bounded: NO");
process.exitCode = bounded ? 0 : 1;
