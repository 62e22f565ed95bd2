import { describe, expect, it } from "vitest";
import { escapePointerSegment, issueLines, MAX_ISSUES, MAX_ISSUES_CHARACTERS } from "../src/text/issues.js";

describe("escapePointerSegment", () => {
  it("escapes ~ before / so the result decodes back (RFC 6901)", () => {
    expect(escapePointerSegment("a/b~c")).toBe("a~1b~0c");
    expect(escapePointerSegment("~1")).toBe("~01");
    expect(escapePointerSegment("plain")).toBe("plain");
  });
});

describe("issueLines", () => {
  it("keeps at most MAX_ISSUES lines, the last saying that more were left out", () => {
    const issues = Array.from({ length: MAX_ISSUES + 1 }, (_, index) => ({ pointer: `/p${index}`, message: "must be string" }));
    const lines = issueLines(issues);
    expect(lines).toHaveLength(MAX_ISSUES);
    expect(lines.at(-1)).toBe("/: more issues not shown");
    expect(issueLines(issues.slice(0, MAX_ISSUES))).toHaveLength(MAX_ISSUES);
  });

  it("keeps all the lines within MAX_ISSUES_CHARACTERS", () => {
    const issues = Array.from({ length: MAX_ISSUES }, (_, index) => ({ pointer: `/p${index}`, message: "m".repeat(1_000) }));
    const lines = issueLines(issues);
    expect(lines.join("").length).toBeLessThanOrEqual(MAX_ISSUES_CHARACTERS + 100);
    expect(lines.at(-1)).toBe("/: more issues not shown");
  });

  it("writes control characters and line separators in a key as escapes, so that no key can start a new issue line", () => {
    const [line] = issueLines([{ pointer: "/a\n/: forged issue\u2028", message: "is not an allowed property" }]);
    expect(line).toBe("/a\\u000a/: forged issue\\u2028: is not an allowed property");
    expect(line).not.toMatch(/[\n\r\u2028\u2029]/);
  });

  it("shortens overlong pointer segments, never splitting a surrogate pair", () => {
    const [line] = issueLines([{ pointer: `/${"k".repeat(500)}`, message: "is not an allowed property" }]);
    expect(line!.length).toBeLessThan(120);
    for (let offset = 0; offset < 4; offset++) {
      const [emoji] = issueLines([{ pointer: `/${"k".repeat(offset)}${"😀".repeat(100)}`, message: "must be string" }]);
      expect(emoji).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    }
  });

  it("drops repeated lines, and only those, in a short list and in a long one", () => {
    expect(issueLines([{ pointer: "/a", message: "must be string" }, { pointer: "/a", message: "must be string" }])).toEqual(["/a: must be string"]);
    const distinct = [
      { pointer: "/a", message: "must be string" },
      { pointer: "/a", message: "must be >= 0" },
      { pointer: "/b", message: "must be string" },
    ];
    expect(issueLines([...distinct, ...distinct])).toEqual(["/a: must be string", "/a: must be >= 0", "/b: must be string"]);
    // A long segment shows its start and its end: names that differ at the end are told apart, and
    // two that differ only in the middle are one line.
    const long = "k".repeat(200);
    expect(issueLines([{ pointer: `/${long}x`, message: "must be string" }, { pointer: `/${long}y`, message: "must be string" }])).toEqual([
      `/${"k".repeat(48)}…${"k".repeat(15)}x: must be string`,
      `/${"k".repeat(48)}…${"k".repeat(15)}y: must be string`,
    ]);
    expect(issueLines([{ pointer: `/x${long}`, message: "must be string" }, { pointer: `/y${long}`, message: "must be string" }])).toHaveLength(2);
    expect(issueLines([{ pointer: `/${long}x${long}`, message: "must be string" }, { pointer: `/${long}y${long}`, message: "must be string" }])).toHaveLength(1);
    const many = Array.from({ length: MAX_ISSUES + 2 }, (_, index) => ({ pointer: `/${index % 3}`, message: "must be string" }));
    expect(issueLines(many)).toEqual(["/0: must be string", "/1: must be string", "/2: must be string"]);
  });
});
