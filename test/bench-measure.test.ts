import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { type BenchCase, measureInterleaved } from "../bench/measure.js";

// The bench collects garbage between rounds, as node --expose-gc allows; the test runner has no such flag.
setFlagsFromString("--expose-gc");
globalThis.gc ??= runInNewContext("gc") as typeof globalThis.gc;

describe("measureInterleaved", () => {
  it("begins each round, after its collection, with an untimed quarter batch of the round's first case, then times each case once, first case rotating", async () => {
    const calls: Array<[string, number]> = [];
    const busy = (id: string): BenchCase => ({
      id,
      label: id,
      run: async (n) => {
        calls.push([id, n]);
        const until = performance.now() + n * 0.001;
        while (performance.now() < until);
      },
    });
    const timings = await measureInterleaved([busy("a"), busy("b")], { rounds: 3, batchMs: 2, warmupMs: 10 });
    const batch = Object.fromEntries(timings.map((timing) => [timing.id, timing.iterations]));
    const quarter = (id: string) => Math.max(1, Math.round(batch[id]! / 4));
    expect(calls.slice(-9)).toEqual([
      ["a", quarter("a")],
      ["a", batch.a],
      ["b", batch.b],
      ["b", quarter("b")],
      ["b", batch.b],
      ["a", batch.a],
      ["a", quarter("a")],
      ["a", batch.a],
      ["b", batch.b],
    ]);
    expect(timings.map((timing) => timing.samples?.length)).toEqual([3, 3]);
  });
});
