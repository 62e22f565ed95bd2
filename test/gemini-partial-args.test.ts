import { describe, expect, it } from "vitest";
import { type GeminiPartialArg, parseJsonPath, PartialArgsWriter } from "../src/providers/deltas/gemini-partial-args.js";

/** The JSON text the entries make, or the first problem. */
function textOf(entries: readonly GeminiPartialArg[]): string {
  const writer = new PartialArgsWriter();
  let text = writer.start();
  for (const entry of entries) {
    const written = writer.write(entry);
    if ("problem" in written) return `problem: ${written.problem}`;
    text += written.text;
  }
  return text + writer.end();
}

describe("Gemini's partialArgs as JSON text", () => {
  it("writes nested objects and arrays as the paths move through them, in document order", () => {
    const text = textOf([
      { jsonPath: "$.recipe.ingredients[0].amount", stringValue: "16 oz", willContinue: true },
      { jsonPath: "$.recipe.ingredients[0].amount", stringValue: "" },
      { jsonPath: "$.recipe.ingredients[0].name", stringValue: "Noodles" },
      { jsonPath: "$.recipe.ingredients[1].amount", numberValue: 2 },
      { jsonPath: "$.recipe.name", stringValue: "Lasagna" },
      { jsonPath: "$.recipe.steps[0]", stringValue: "Preheat", willContinue: true },
      { jsonPath: "$.recipe.steps[0]", stringValue: " the oven." },
      { jsonPath: "$.vegan", boolValue: false },
      { jsonPath: "$.note", nullValue: "NULL_VALUE" },
    ]);
    expect(JSON.parse(text)).toEqual({
      recipe: { ingredients: [{ amount: "16 oz", name: "Noodles" }, { amount: 2 }], name: "Lasagna", steps: ["Preheat the oven."] },
      vegan: false,
      note: null,
    });
  });

  it("closes a string left open and every container at the end", () => {
    expect(JSON.parse(textOf([{ jsonPath: "$.a[0].b", stringValue: "x", willContinue: true }]))).toEqual({ a: [{ b: "x" }] });
  });

  it("escapes what a string holds, and pairs a surrogate pair split across entries", () => {
    const text = textOf([
      { jsonPath: "$.s", stringValue: 'a"\\\n\ud83c', willContinue: true },
      { jsonPath: "$.s", stringValue: "\udf27" },
    ]);
    expect(JSON.parse(text)).toEqual({ s: 'a"\\\n\ud83c\udf27' });
  });

  it("refuses a path that goes back to a place already written, skips an index, or changes a place's kind", () => {
    const problem = "problem: a partialArgs entry goes back to a place already written, or skips an array index";
    expect(textOf([{ jsonPath: "$.a", stringValue: "x" }, { jsonPath: "$.a", stringValue: "y" }])).toBe(problem);
    expect(textOf([{ jsonPath: "$.a[1]", numberValue: 1 }])).toBe(problem);
    expect(textOf([{ jsonPath: "$.a[0]", numberValue: 1 }, { jsonPath: "$.b", numberValue: 1 }, { jsonPath: "$.a[1]", numberValue: 1 }])).toBe(problem);
    expect(textOf([{ jsonPath: "$.a.b", numberValue: 1 }, { jsonPath: "$.a[0]", numberValue: 1 }])).toBe(problem);
  });

  it("refuses an entry with no path or no value, and a number JSON cannot hold", () => {
    expect(textOf([{ stringValue: "x" }])).toBe("problem: a partialArgs entry has no JSON path to an argument");
    expect(textOf([{ jsonPath: "$.a" }])).toBe("problem: a partialArgs entry holds no value");
    expect(textOf([{ jsonPath: "$.a", numberValue: Infinity }])).toBe("problem: a partialArgs entry holds no value");
  });

  it("reads dotted names, indices and quoted names", () => {
    expect(parseJsonPath("$.a.b[2]['c d'][\"e\\\"f\"]['g\\'h']")).toEqual(["a", "b", 2, "c d", 'e"f', "g'h"]);
    expect(parseJsonPath("$")).toEqual([]);
    for (const bad of ["a.b", "$.", "$[01]", "$[x]", "$..a", "$['a]"]) expect(parseJsonPath(bad), bad).toBeUndefined();
  });
});
