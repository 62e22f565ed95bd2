import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { type ToolCallDelta, ToolRegistry, Type } from "../src/index.js";

/** A full garbage collection, in a test runner started without --expose-gc. */
function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

/** A turn of the event loop: objects a WeakRef was made to are kept until the current job ends. */
const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 0));

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
