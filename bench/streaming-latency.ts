import { ToolRegistry, Type, type ToolCallContent, type ToolCallDelta } from "../src/index.js";

/** When results arrive, in ms from the first delta. */
export interface LatencyTimes {
  readonly firstResultMs: number;
  readonly lastResultMs: number;
  /** Results that arrived before the model's stream ended. */
  readonly beforeStreamEnd: number;
}

/** Three streamed calls whose handlers take 50 ms: dispatchStream against collect-then-dispatchAll. */
export interface LatencyResult {
  readonly calls: number;
  readonly handlerMs: number;
  /** How long the simulated model took to stream the three calls. */
  readonly streamMs: number;
  readonly dispatchStream: LatencyTimes;
  readonly collectThenDispatchAll: LatencyTimes;
}

const CALLS = 3;
const HANDLER_MS = 50;
/** The pause between deltas: a model streaming about 10 ms per 32 bytes. */
const DELTA_GAP_MS = 10;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A model that streams three calls one after the other, each a few hundred bytes in 32-byte deltas. */
async function* model(): AsyncGenerator<ToolCallDelta> {
  for (let call = 0; call < CALLS; call++) {
    const text = JSON.stringify({ query: `search ${call} `.repeat(12), limit: 10 });
    const id = `call_${call}`;
    yield { toolCallId: id, toolName: "search" };
    for (let start = 0; start < text.length; start += 32) {
      await sleep(DELTA_GAP_MS);
      yield { toolCallId: id, argumentsDelta: text.slice(start, start + 32), ...(start + 32 >= text.length ? { done: true } : {}) };
    }
  }
}

function registry(): ToolRegistry {
  return new ToolRegistry().register({ name: "search", description: "", parameters: Type.Object({ query: Type.String(), limit: Type.Integer() }) }, async () => {
    await sleep(HANDLER_MS);
    return "ok";
  });
}

/** Streams the same three calls twice: through dispatchStream, and collected whole then given to dispatchAll. */
export async function measureLatency(): Promise<LatencyResult> {
  const tools = registry();
  let started = performance.now();
  let streamEnd = 0;
  const streamed: number[] = [];
  const timedModel = async function* () {
    yield* model();
    streamEnd = performance.now() - started;
  };
  for await (const event of tools.dispatchStream(timedModel())) if (event.type === "tool-result") streamed.push(performance.now() - started);
  const streamMs = streamEnd;

  started = performance.now();
  const texts = new Map<string, { name: string; text: string }>();
  for await (const delta of model()) {
    const call = texts.get(delta.toolCallId) ?? { name: "", text: "" };
    texts.set(delta.toolCallId, call);
    call.name ||= delta.toolName ?? "";
    call.text += delta.argumentsDelta ?? "";
  }
  const collected = performance.now() - started;
  const calls: ToolCallContent[] = [...texts].map(([id, { name, text }]) => ({ id, name, arguments: text }));
  await tools.dispatchAll(calls);
  const all = performance.now() - started;
  return {
    calls: CALLS,
    handlerMs: HANDLER_MS,
    streamMs,
    dispatchStream: { firstResultMs: streamed[0]!, lastResultMs: streamed.at(-1)!, beforeStreamEnd: streamed.filter((time) => time < streamMs).length },
    collectThenDispatchAll: { firstResultMs: all, lastResultMs: all, beforeStreamEnd: all < collected ? CALLS : 0 },
  };
}
