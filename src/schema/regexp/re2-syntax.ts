import type { CodePointSet } from "./code-points.js";
import type { ParsedPattern, RegExpNode } from "./parse.js";

/**
 * The translation of a parsed ECMAScript pattern into RE2 syntax with the same meaning. Every
 * character set is written out as explicit code point ranges, so that no escape or `.` is left to
 * differ between the two dialects (`\s` is Unicode in ECMAScript and ASCII in RE2; `.` excludes
 * four line terminators in one and only `\n` in the other). `^`, `$` and `\b` mean the same in
 * both (without flags), and so do greedy and lazy quantifiers for a yes-or-no test.
 */

/** The largest repetition count RE2 accepts. */
export const MAX_RE2_REPEAT = 1000;

/** A translation, or why there is none. */
export type Re2Translation = { readonly ok: true; readonly source: string } | { readonly ok: false; readonly problem: string };

/** `pattern` in RE2 syntax, or why it cannot be written there. */
export function toRe2Syntax(pattern: ParsedPattern): Re2Translation {
  const problems: string[] = [];
  const source = disjunction(pattern, problems);
  return problems.length === 0 ? { ok: true, source } : { ok: false, problem: problems[0]! };
}

function disjunction(alternatives: ParsedPattern, problems: string[]): string {
  return alternatives.map((nodes) => nodes.map((node) => term(node, problems)).join("")).join("|");
}

function term(node: RegExpNode, problems: string[]): string {
  switch (node.type) {
    case "start":
      return "^";
    case "end":
      return "$";
    case "boundary":
      // V8 tries an empty match between the halves of a surrogate pair, where `\B` holds and RE2 never looks.
      if (node.negated) problems.push("uses \\B, which V8 and the linear-time engine read differently inside a surrogate pair");
      return node.negated ? "\\B" : "\\b";
    case "set":
      return characterSet(node.set, problems);
    case "group":
      return `(?:${disjunction(node.alternatives, problems)})`;
    case "repeat": {
      if (node.min > MAX_RE2_REPEAT || (node.max !== Infinity && node.max > MAX_RE2_REPEAT)) {
        problems.push(`repeats more than ${MAX_RE2_REPEAT} times, which the linear-time engine does not run`);
        return "";
      }
      const count = node.max === Infinity ? `{${node.min},}` : node.min === node.max ? `{${node.min}}` : `{${node.min},${node.max}}`;
      return `(?:${term(node.node, problems)})${count}`;
    }
  }
}

function characterSet(set: CodePointSet, problems: string[]): string {
  if (set.inexact === true) {
    problems.push("uses a Unicode property escape (\\p{…}) where the pattern needs the linear-time engine, whose Unicode tables may differ from the native engine's");
    return "";
  }
  if (set.ranges.length === 0) return "[^\\x{0}-\\x{10FFFF}]";
  if (set.ranges.length === 1 && set.ranges[0]![0] === set.ranges[0]![1]) return codePoint(set.ranges[0]![0]);
  return `[${set.ranges.map(([first, last]) => (first === last ? codePoint(first) : `${codePoint(first)}-${codePoint(last)}`)).join("")}]`;
}

function codePoint(value: number): string {
  return `\\x{${value.toString(16).toUpperCase()}}`;
}
