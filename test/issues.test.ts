import { describe, expect, it } from "vitest";
import { Compile } from "typebox/compile";
import { Type } from "../src/index.js";
import { escapePointerSegment, MAX_ISSUES, toIssues } from "../src/issues.js";

describe("escapePointerSegment", () => {
  it("escapes ~ before / so the result decodes back (RFC 6901)", () => {
    expect(escapePointerSegment("a/b~c")).toBe("a~1b~0c");
    expect(escapePointerSegment("~1")).toBe("~01");
    expect(escapePointerSegment("plain")).toBe("plain");
  });
});

describe("toIssues", () => {
  it("caps the number of issues and says how many more there were", () => {
    const properties = Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`p${index}`, Type.String()]));
    const validator = Compile(Type.Object(properties));
    const issues = toIssues(validator.Errors({}));
    expect(issues).toHaveLength(MAX_ISSUES);
    expect(issues.at(-1)).toBe(`/: ${40 - (MAX_ISSUES - 1)} more issues not shown`);
  });

  it("does not list the value's property names in a propertyNames message", () => {
    const validator = Compile(Type.Object({}, { propertyNames: Type.String({ pattern: "^[a-z]+$" }) }));
    const issues = toIssues(validator.Errors({ BAD_NAME: 1 }));
    expect(issues).toContain("/: property names are invalid");
    expect(issues.filter((issue) => issue.startsWith("/:")).join("\n")).not.toContain("BAD_NAME");
  });

  it("shortens overlong pointer segments", () => {
    const longKey = "k".repeat(500);
    const validator = Compile(Type.Object({}, { additionalProperties: false }));
    const issues = toIssues(validator.Errors({ [longKey]: 1 }));
    for (const issue of issues) expect(issue.length).toBeLessThan(200);
  });
});

describe("extra properties", () => {
  it("are reported one by one at their own pointer, without the parent's summary", () => {
    const validator = Compile(Type.Object({ a: Type.String() }, { additionalProperties: false }));
    expect(toIssues(validator.Errors({ a: "x", b: 1, c: 2 }))).toEqual(["/b: is not an allowed property", "/c: is not an allowed property"]);
  });
});
