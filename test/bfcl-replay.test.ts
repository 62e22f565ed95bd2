import { describe, expect, it } from "vitest";
import { answerVariants } from "../bench/bfcl-answers.js";
import { referenceSchema } from "../bench/bfcl-reference.js";
import { replayBfcl } from "../bench/bfcl-replay.js";
import { fromBfclFunction } from "../src/bfcl/index.js";
import { BFCL_FIXTURES } from "./support/corpus.js";

const parameters = {
  type: "dict",
  properties: {
    city: { type: "string" },
    unit: { type: "string" },
    stay: { type: "dict", properties: { nights: { type: "integer" }, breakfast: { type: "boolean" } } },
    guests: { type: "array", items: { type: "dict", properties: { name: { type: "string" }, age: { type: "integer" } } } },
  },
};

describe("answerVariants: BFCL's answer conventions", () => {
  it("reads the first-listed answer from each parameter's first option, leaving out a parameter whose first option is \"\"", () => {
    const { variants } = answerVariants({ city: ["Lisbon", "Lisboa"], unit: ["", "celsius"] }, parameters);
    expect(variants[0]).toEqual({ args: { city: "Lisbon" }, varies: "" });
  });

  it("adds one answer per other listed option, with everything else first-listed, \"\" leaving the parameter out", () => {
    const { variants } = answerVariants({ city: ["Lisbon", "Lisboa"], unit: ["celsius", ""] }, parameters);
    expect(variants).toEqual([
      { args: { city: "Lisbon", unit: "celsius" }, varies: "" },
      { args: { city: "Lisboa", unit: "celsius" }, varies: "/city" },
      { args: { city: "Lisbon" }, varies: "/unit" },
    ]);
  });

  it("reads a dict's answer, and each dict item of an array, as nested option lists", () => {
    const { variants } = answerVariants(
      { stay: [{ nights: [3, 4], breakfast: ["", true] }], guests: [[{ name: ["Ana"], age: [30, ""] }, { name: ["Rui"], age: [7] }]] },
      parameters,
    );
    expect(variants.map((variant) => [variant.varies, variant.args])).toEqual([
      ["", { stay: { nights: 3 }, guests: [{ name: "Ana", age: 30 }, { name: "Rui", age: 7 }] }],
      ["/stay/nights", { stay: { nights: 4 }, guests: [{ name: "Ana", age: 30 }, { name: "Rui", age: 7 }] }],
      ["/stay/breakfast", { stay: { nights: 3, breakfast: true }, guests: [{ name: "Ana", age: 30 }, { name: "Rui", age: 7 }] }],
      ["/guests/0/age", { stay: { nights: 3 }, guests: [{ name: "Ana" }, { name: "Rui", age: 7 }] }],
    ]);
  });

  it("takes an object answer of a parameter that is not a dict as it is", () => {
    expect(answerVariants({ city: [{ name: ["x"] }] }, parameters).variants[0]!.args).toEqual({ city: { name: ["x"] } });
  });

  it("sends a parameter with an empty option list left out, and names it", () => {
    const { variants, defects } = answerVariants({ city: ["Lisbon"], unit: [] }, parameters);
    expect(variants).toEqual([{ args: { city: "Lisbon" }, varies: "" }]);
    expect(defects.emptyOptionLists).toEqual(["/unit"]);
  });
});

describe("referenceSchema: the oracle's reading of the dialect, written apart from the loader", () => {
  it("maps Python's types, makes a default-None optional parameter nullable, and reads an array's enum as its items'", () => {
    expect(referenceSchema({ type: "dict", required: ["a"], properties: { a: { type: "float", default: null }, b: { type: "tuple", enum: ["x"], default: null }, c: { type: "any" } } })).toEqual({
      type: "object",
      required: ["a"],
      properties: {
        a: { type: "number", default: null },
        b: { anyOf: [{ type: "array", default: null, items: { allOf: [{}, { enum: ["x"] }] } }, { type: "null" }] },
        c: {},
      },
    });
  });
});

describe("replayBfcl on the project's fixtures", () => {
  it("accepts every answer but the four the fixtures break on purpose, which it classifies as dataset errors, with no library error", async () => {
    const report = await replayBfcl(BFCL_FIXTURES);
    expect({ calls: report.calls, answers: report.answers, accepted: report.accepted, firstAccepted: report.firstAccepted, libraryErrors: report.libraryErrors }).toEqual({
      calls: 16,
      answers: 44,
      accepted: 40,
      firstAccepted: 16,
      libraryErrors: [],
    });
    expect(Object.fromEntries(report.datasetErrors)).toEqual({
      "a required parameter left out": 1,
      "a string breaking its format (date-time)": 1,
      "a string outside its enum": 1,
      "string where integer is declared": 1,
    });
    expect(report.emptyOptionLists).toBe(1);
  });

  it("counts what the strict reading of default: null and what repair change", async () => {
    const report = await replayBfcl(BFCL_FIXTURES);
    expect(report.acceptedStrictDefaultNull).toBe(31);
    expect(report.acceptedWithRepair).toBe(41);
  });

  it("reports a library error for every answer a loader that misreads the dialect refuses", async () => {
    const report = await replayBfcl(BFCL_FIXTURES, (fn) => fromBfclFunction(fn, { defaultNull: "strict" }));
    expect(report.libraryErrors.length).toBe(9);
    expect(report.libraryErrors[0]).toEqual({ where: "BFCL_v4_fixture.json fixture_12 event.schedule", kind: "refused what the dialect accepts" });
  });
});
