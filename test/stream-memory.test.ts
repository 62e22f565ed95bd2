import { describe, expect, it } from "vitest";
import { type ToolCallDelta, ToolRegistry, Type } from "../src/index.js";
import { openAIResponses } from "../src/providers/index.js";
import { collectGarbage, nextTurn } from "./support/garbage.js";

function echoRegistry(maxArgumentBytes = 1024): ToolRegistry {
  return new ToolRegistry({ maxArgumentBytes }).register({ name: "echo", description: "Echo", parameters: Type.Object({ v: Type.String() }) }, ({ v }) => v);
}

describe("dispatchStream's memory, however long the stream", () => {
  it("keeps no delta it has read while a call streams (its waits on results keep nothing of what they lost to)", async () => {
    const read: Array<WeakRef<ToolCallDelta>> = [];
    let kept = -1;
    async function* deltas(): AsyncGenerator<ToolCallDelta> {
      yield { toolCallId: "c1", toolName: "echo", argumentsDelta: '{"v":"' };
      for (let index = 0; index < 200; index++) {
        const delta: ToolCallDelta = { toolCallId: "c1", argumentsDelta: "a" };
        read.push(new WeakRef(delta));
        yield delta;
      }
      await nextTurn();
      collectGarbage();
      kept = read.slice(0, 190).filter((reference) => reference.deref() !== undefined).length;
      yield { toolCallId: "c1", argumentsDelta: '"}', done: true };
    }
    const results = [];
    for await (const event of echoRegistry().dispatchStream(deltas())) if (event.type === "tool-result") results.push(event.result);
    expect(results).toMatchObject([{ status: "ok", value: "a".repeat(200) }]);
    expect(kept).toBe(0);
  });
});

describe("dispatchStream, given arguments before the call's tool name", () => {
  /** Heap in use after a full collection. */
  const heapUsed = () => {
    collectGarbage();
    return process.memoryUsage().heapUsed;
  };

  it("keeps them only up to maxArgumentBytes, and refuses the call as too large once its name comes", async () => {
    let growth = Infinity;
    async function* deltas(): AsyncGenerator<ToolCallDelta> {
      const before = heapUsed();
      yield { toolCallId: "c1", argumentsDelta: '{"v":"' };
      // 32 MiB in fresh 64 KiB pieces, as an SDK hands them over, with no name yet.
      for (let index = 0; index < 512; index++) yield { toolCallId: "c1", argumentsDelta: Buffer.alloc(64 * 1024, 97 + (index % 26)).toString("latin1") };
      growth = heapUsed() - before;
      yield { toolCallId: "c1", toolName: "echo", argumentsDelta: '"}', done: true };
    }
    const results = [];
    for await (const event of echoRegistry(1 << 20).dispatchStream(deltas())) if (event.type === "tool-result") results.push(event.result);
    expect(results).toMatchObject([{ status: "error", error: { name: "ToolArgumentsValidationError", issues: ["/: arguments must not be larger than 1048576 bytes"] } }]);
    expect(growth).toBeLessThan(8 << 20);
  });

  it("still runs a call whose arguments, within the limit, all came before its name", async () => {
    const deltas: ToolCallDelta[] = [
      { toolCallId: "c1", argumentsDelta: '{"v":' },
      { toolCallId: "c1", argumentsDelta: '"early"}' },
      { toolCallId: "c1", toolName: "echo", done: true },
    ];
    const results = [];
    for await (const event of echoRegistry().dispatchStream(deltas)) if (event.type === "tool-result") results.push(event.result);
    expect(results).toMatchObject([{ status: "ok", value: "early" }]);
  });
});

describe("openAIResponses(registry).deltas, given a call's arguments far past maxArgumentBytes", () => {
  it("keeps no more of them than the limit, and the call is refused as too large", async () => {
    const registry = echoRegistry(1 << 20);
    let growth = Infinity;
    async function* events(): AsyncGenerator<object> {
      const before = (collectGarbage(), process.memoryUsage().heapUsed);
      yield { type: "response.output_item.added", output_index: 0, item: { type: "function_call", id: "fc_1", call_id: "call_1", name: "echo", arguments: "" } };
      yield { type: "response.function_call_arguments.delta", item_id: "fc_1", delta: '{"v":"' };
      for (let index = 0; index < 512; index++) {
        yield { type: "response.function_call_arguments.delta", item_id: "fc_1", delta: Buffer.alloc(64 * 1024, 97 + (index % 26)).toString("latin1") };
      }
      growth = (collectGarbage(), process.memoryUsage().heapUsed) - before;
      yield { type: "response.function_call_arguments.done", item_id: "fc_1" };
    }
    const results = [];
    for await (const event of registry.dispatchStream(openAIResponses(registry).deltas(events() as never))) if (event.type === "tool-result") results.push(event.result);
    expect(results).toMatchObject([{ status: "error", error: { name: "ToolArgumentsValidationError", issues: ["/: arguments must not be larger than 1048576 bytes"] } }]);
    expect(growth).toBeLessThan(8 << 20);
  });
});

describe("argumentStream, given long keys the schema does not declare", () => {
  it("keeps none of them once their streams end (what a place remembers of its members lives as long as the tool)", async () => {
    const registry = new ToolRegistry().register({ name: "tags", description: "Tags", parameters: Type.Object({ tags: Type.Record(Type.String(), Type.String()) }) }, () => "ok");
    const before = (collectGarbage(), process.memoryUsage().heapUsed);
    let read = 0;
    for (let index = 0; index < 200; index++) {
      const stream = registry.argumentStream("tags");
      const key = String(index).padEnd(128 * 1024, "k");
      stream.push(`{"tags":{"${key}":"v"}}`);
      if ((stream.end() as { tags: Record<string, string> }).tags[key] === "v") read++;
    }
    // Measured on the next turn: what the current job touched is kept until it ends.
    await nextTurn();
    const growth = (collectGarbage(), process.memoryUsage().heapUsed) - before;
    expect(read).toBe(200);
    // 200 keys of 128 KiB are 25 MiB as text.
    expect(growth).toBeLessThan(8 << 20);
  });
});
