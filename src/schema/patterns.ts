import { LRUCache } from "lru-cache";
import { RE2JS } from "re2js";
import { isNativeLinear } from "./regexp/native-linear.js";
import { type ParsedPattern, parsePattern } from "./regexp/parse.js";
import { toRe2Syntax } from "./regexp/re2-syntax.js";

/**
 * Schema patterns (`pattern`, `patternProperties`, `propertyNames`) that run in time linear in the
 * text, whatever the text. A pattern runs on the native `RegExp` when a static proof shows V8's
 * backtracking is linear for it (see `regexp/native-linear.ts`), else on re2js, a linear-time port
 * of RE2, after an exact translation; a pattern that neither can run with ECMAScript's meaning
 * (backreferences, lookaround, `\p{…}` outside a provably linear pattern) is refused.
 */

/** What runs a pattern: a yes-or-no search of `text`, as `RegExp.prototype.test` answers it. */
export interface PatternTester {
  test(text: string): boolean;
}

/** A pattern ready to run, or why it cannot run safely. */
export type CompiledPattern =
  | { readonly ok: true; readonly engine: "native" | "linear"; readonly tester: PatternTester }
  | { readonly ok: false; readonly problem: string };

/**
 * Turns an ECMAScript pattern (as JSON Schema uses it: the `u` flag, no other) into a tester that
 * runs in linear time, or a refusal that says why there is none. Never throws.
 */
export function compilePattern(source: string): CompiledPattern {
  let compiled = compiledPatterns.get(source);
  if (compiled === undefined) {
    compiled = compileUncached(source);
    compiledPatterns.set(source, compiled);
  }
  return compiled;
}

// `register` checks a schema's patterns and the first call compiles them: each is compiled once.
const compiledPatterns = new LRUCache<string, CompiledPattern>({ max: 1024 });

/**
 * TypeBox's own patterns for number and integer keys (`Type.Record(Type.Number(), …)`,
 * `Type.Record(Type.Integer(), …)`), which the proof's rule (one sequence, no alternation) does
 * not take, but in which the next code point decides every choice: a `-` or none; `0`, or `[1-9]`
 * and its digits (no digit can follow `0` before the end); a `.` (never a digit) or the end. So one
 * attempt backtracks at most once per digit, each time failing at once, and `^` allows one attempt:
 * V8 runs them in time linear in the key.
 */
const LINEAR_BY_INSPECTION: ReadonlySet<string> = new Set(["^-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?$", "^-?(?:0|[1-9][0-9]*)$"]);

function compileUncached(source: string): CompiledPattern {
  const parsed = parsePattern(source);
  if (!parsed.ok) return parsed;
  if (provablyNativeLinear(source, parsed.pattern)) return { ok: true, engine: "native", tester: new RegExp(source, "u") };
  const translated = toRe2Syntax(parsed.pattern);
  if (!translated.ok) return translated;
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(translated.source);
  } catch {
    return { ok: false, problem: "is too large for the linear-time engine" };
  }
  return { ok: true, engine: "linear", tester: { test: (text) => compiled.test(text) } };
}

/** Whether the native `RegExp` provably runs `source` in linear time (what TypeBox's own uses of a pattern need). */
export function isNativeLinearPattern(source: string): boolean {
  const parsed = parsePattern(source);
  return parsed.ok && provablyNativeLinear(source, parsed.pattern);
}

/** Whether V8's backtracking runs `source` (parsed as `pattern`) in linear time: by the proof, or by inspection. */
function provablyNativeLinear(source: string, pattern: ParsedPattern): boolean {
  return LINEAR_BY_INSPECTION.has(source) || isNativeLinear(pattern);
}
