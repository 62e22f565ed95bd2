import { describe, expect, it } from "vitest";
import { replayBfcl } from "../../bench/bfcl-replay.js";
import { corpusDirectory } from "../support/corpus.js";

const corpus = corpusDirectory("bfcl");

describe.skipIf(corpus === undefined)("the BFCL corpus, replayed", () => {
  it("replays every ground-truth answer with no library error, accepting nearly all, and classifies every refusal", async () => {
    const report = await replayBfcl(corpus ?? "");
    expect(report.libraryErrors).toEqual([]);
    expect(report.calls).toBe(2099);
    expect(report.answers).toBeGreaterThanOrEqual(4400);
    const datasetErrors = [...report.datasetErrors.values()].reduce((sum, count) => sum + count, 0);
    expect(report.accepted + datasetErrors).toBe(report.answers);
    expect(report.accepted / report.answers).toBeGreaterThan(0.985);
    // Python's None read as null: the optional parameters BFCL answers with null are accepted.
    expect(report.accepted - report.acceptedStrictDefaultNull).toBeGreaterThan(40);
  }, 60_000);
});
