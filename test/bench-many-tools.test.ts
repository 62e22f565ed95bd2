import { describe, expect, it } from "vitest";
import { MANY_TOOLS, manyToolsCases } from "../bench/per-call-cases.js";

describe("bench many-tools cases", () => {
  it("run every tool's valid call through the registry and through the reference, which refuse none", async () => {
    const cases = manyToolsCases();
    expect(cases.map((benchCase) => benchCase.id)).toEqual(["dispatch", "reference"]);
    // Each case throws on a refused call: twice round the tools, every call passed its check.
    for (const benchCase of cases) await expect(benchCase.run(2 * MANY_TOOLS)).resolves.toBeUndefined();
  });
});
