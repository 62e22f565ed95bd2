import fc from "fast-check";
import { RE2JS } from "re2js";
import { describe, expect, it } from "vitest";
import { compilePattern, isNativeLinearPattern } from "../src/schema/patterns.js";
import { MAX_NATIVE_QUANTIFIED_ATOMS, MAX_NATIVE_UNANCHORED_LENGTH } from "../src/schema/regexp/native-linear.js";
import { parsePattern } from "../src/schema/regexp/parse.js";
import { toRe2Syntax } from "../src/schema/regexp/re2-syntax.js";

const seed = Number(process.env.FUZZ_SEED ?? 20261130);
const numRuns = Number(process.env.FUZZ_RUNS ?? 300);

function engineOf(source: string): string {
  const compiled = compilePattern(source);
  return compiled.ok ? compiled.engine : `refused: ${compiled.problem}`;
}

/** The translated pattern on re2js, whatever the proof says: what the linear engine would answer. */
function linearTester(source: string): { test(text: string): boolean } | undefined {
  const parsed = parsePattern(source);
  if (!parsed.ok) return undefined;
  const translated = toRe2Syntax(parsed.pattern);
  if (!translated.ok) return undefined;
  const compiled = RE2JS.compile(translated.source);
  return { test: (text) => compiled.test(text) };
}

describe("which engine runs a pattern", () => {
  it.each([
    ["^[a-z]+$"],
    ["^[a-zA-Z0-9_-]{1,64}$"],
    ["^\\d{3}-\\d{4}$"],
    ["^\\d+(\\.\\d+)?$".replace("(\\.\\d+)?", "")],
    ["^[\\p{L}\\p{N} ]+$"],
    ["^x-"],
    ["\\.json$"],
    ["[A-Z]{3}"],
    ["^a*b*c*$"],
    ["^[^@]+@"],
    ["^.*$"],
    ["^(?:[a-z])+$"],
    ["^(ab)c*$"],
  ])("runs %s natively: it is provably linear there", (source) => {
    expect(engineOf(source)).toBe("native");
  });

  it.each([
    ["^(a+)+$", "a quantified group"],
    ["a*b", "an unbounded count without ^"],
    ["^a*a$", "a variable atom that overlaps what follows"],
    ["^\\S+@\\S+$", "\\S overlaps @"],
    ["^(png|jpg)$", "alternation"],
    ["^a?a?a?a$", "optional atoms that overlap the mandatory one"],
    ["\\bword\\b", "a word boundary"],
    [`^${"a?".repeat(MAX_NATIVE_QUANTIFIED_ATOMS + 1)}b$`, "more quantified atoms than the limit"],
    [`x{0,${MAX_NATIVE_UNANCHORED_LENGTH}}y`, "an unanchored match longer than the limit"],
    ["^a*[a-c]?$", "an optional atom that overlaps the one before"],
  ])("runs %s on the linear engine (%s)", (source) => {
    expect(engineOf(source)).toBe("linear");
  });

  it.each([
    ["(a)\\1", /backreference/],
    ["(?<x>a)\\k<x>", /backreference/],
    ["a(?=b)", /lookahead or lookbehind/],
    ["(?<!a)b", /lookahead or lookbehind/],
    ["(\\p{L}|x)+", /Unicode property/],
    ["a\\Bb", /\\B/],
    ["(a|b){2000}", /more than 1000/],
    ["[", /not a valid regular expression/],
    ["a{", /not a valid regular expression/],
    [`${"(".repeat(100)}a${")".repeat(100)}`, /nests groups deeper/],
  ])("refuses %s", (source, problem) => {
    expect(engineOf(source)).toMatch(problem);
  });

  it("answers isNativeLinearPattern as compilePattern chooses", () => {
    expect(isNativeLinearPattern("^[a-z]+$")).toBe(true);
    expect(isNativeLinearPattern("^(a+)+$")).toBe(false);
    expect(isNativeLinearPattern("(a)\\1")).toBe(false);
  });
});

describe("patterns in linear time", () => {
  // Each input would take the backtracking engine minutes (or far longer): a test that finishes proves the engine chosen is not backtracking there.
  it("runs ^(a+)+$ on a text that blocks V8 for years", () => {
    const compiled = compilePattern("^(a+)+$");
    expect(compiled.ok && compiled.engine).toBe("linear");
    if (compiled.ok) expect(compiled.tester.test(`${"a".repeat(100_000)}!`)).toBe(false);
  });

  it("runs the unanchored a*b on a million a's, where V8 is quadratic (about 10^12 steps)", () => {
    const compiled = compilePattern("a*b");
    if (!compiled.ok) throw new Error("expected a tester");
    expect(compiled.tester.test("a".repeat(1_000_000))).toBe(false);
    expect(compiled.tester.test(`${"a".repeat(1_000_000)}b`)).toBe(true);
  });

  it.each([
    ["^[a-z]*[0-9]$", "", "a"],
    ["^a*b*c*$", "", "ab"],
    ["^[^@]+@", "", "x"],
    ["^x[a-w]{0,1000000}y$", "x", "a"],
    ["[A-Z]{3}[0-9]", "", "A"],
    ["^\\d+$", "", "9"],
    ["^[\\p{L}]+$", "", "é"],
    ["^.*$", "", "😀"],
    ["^[\\ud800-\\udfff]*x$", "", "\udc00"],
  ])("runs the natively proven %s on two million code points that defeat it at the end", (source, prefix, unit) => {
    const compiled = compilePattern(source);
    if (!compiled.ok) throw new Error("expected a tester");
    expect(compiled.engine).toBe("native");
    // The text fails only at its last code point: a quadratic engine would need ~10^12 steps.
    expect(compiled.tester.test(`${prefix}${unit.repeat(2_000_000)}\n`)).toBe(false);
  }, 60_000);
});

// Patterns from the grammar the library reads, over a small alphabet chosen to hit the places
// where ECMAScript and RE2 differ: line terminators, Unicode spaces, surrogate pairs and lone surrogates.
const ALPHABET = ["a", "b", "Z", "0", "_", "-", " ", "\n", "\r", "\u2028", "\u00a0", "\u3000", "é", "😀", "\ud800", "\udc00", "."];

const literal = fc.constantFrom(
  "a",
  "b",
  "Z",
  "0",
  "_",
  "-",
  " ",
  "é",
  "😀",
  "\\n",
  "\\r",
  "\\u2028",
  "\\u00a0",
  "\\.",
  "\\u{1F600}",
  "\\uD83D\\uDE00",
  "\\uD800",
  "\\uDC00",
  "\\x41",
  "\\cJ",
  "\\0",
);
const classEscape = fc.constantFrom("\\d", "\\D", "\\w", "\\W", "\\s", "\\S");
const classItem = fc.oneof(
  literal.filter((text) => text !== "-"),
  fc.constant("\\-"),
  classEscape,
  fc.constantFrom("a-z", "0-9", "\\u0000-\\u001f", "\\u{10000}-\\u{10FFFF}", "\\uD800-\\uDBFF", "\\b"),
);
const characterClass = fc
  .tuple(fc.boolean(), fc.array(classItem, { minLength: 0, maxLength: 4 }))
  .map(([negated, items]) => `[${negated ? "^" : ""}${items.join("")}]`);
const quantifier = fc.constantFrom("", "", "", "*", "+", "?", "{2}", "{1,}", "{0,2}", "*?", "+?", "{1,3}?");

const pattern: fc.Arbitrary<string> = fc.letrec<{ disjunction: string; term: string; atom: string }>((tie) => ({
  atom: fc.oneof(
    { depthSize: "small" },
    { arbitrary: literal, weight: 4 },
    { arbitrary: classEscape, weight: 2 },
    { arbitrary: fc.constant("."), weight: 2 },
    { arbitrary: characterClass, weight: 3 },
    { arbitrary: tie("disjunction").map((inner) => `(${inner})`), weight: 1 },
    { arbitrary: tie("disjunction").map((inner) => `(?:${inner})`), weight: 1 },
  ),
  term: fc.oneof(
    { arbitrary: fc.tuple(tie("atom"), quantifier).map(([atom, count]) => atom + count), weight: 8 },
    { arbitrary: fc.constantFrom("^", "$", "\\b"), weight: 1 },
  ),
  disjunction: fc
    .array(fc.array(tie("term"), { minLength: 0, maxLength: 4 }).map((terms) => terms.join("")), { minLength: 1, maxLength: 3 })
    .map((alternatives) => alternatives.join("|")),
})).disjunction.filter(isValidPattern);

/** Whether the native engine accepts the pattern (the grammar above can juxtapose `\0` and a digit, which it refuses). */
function isValidPattern(source: string): boolean {
  try {
    new RegExp(source, "u");
    return true;
  } catch {
    return false;
  }
}

const text = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 8 }).map((units) => units.join(""));

describe("the tester answers as new RegExp(pattern, \"u\").test", () => {
  it("on random patterns and texts, whichever engine runs them", () => {
    fc.assert(
      fc.property(pattern, fc.array(text, { minLength: 1, maxLength: 6 }), (source, texts) => {
        const compiled = compilePattern(source);
        expect(compiled.ok).toBe(true);
        if (!compiled.ok) return;
        const native = new RegExp(source, "u");
        for (const sample of texts) expect({ source, sample, matched: compiled.tester.test(sample) }).toEqual({ source, sample, matched: native.test(sample) });
      }),
      { seed, numRuns },
    );
  });

  it("on random patterns and texts, with every pattern forced through the RE2 translation", () => {
    fc.assert(
      fc.property(pattern, fc.array(text, { minLength: 1, maxLength: 6 }), (source, texts) => {
        const linear = linearTester(source);
        expect(linear).toBeDefined();
        const native = new RegExp(source, "u");
        for (const sample of texts) expect({ source, sample, matched: linear!.test(sample) }).toEqual({ source, sample, matched: native.test(sample) });
      }),
      { seed, numRuns },
    );
  });
});
