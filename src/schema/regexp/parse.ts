import { ANY, complement, type CodePointSet, DIGIT, DOT, setOf, single, SPACE, union, WORD } from "./code-points.js";

/**
 * A parser of ECMAScript regular expressions as JSON Schema uses them (`new RegExp(pattern, "u")`),
 * into the tree that the linearity proof and the RE2 translation read. It parses patterns that
 * the native engine has already accepted, so it reports only what it will not carry over
 * (backreferences, lookaround), never syntax errors of its own.
 */

/** One node of a parsed pattern. Capturing and non-capturing groups are alike: only membership matters. */
export type RegExpNode =
  | { readonly type: "set"; readonly set: CodePointSet }
  | { readonly type: "start" }
  | { readonly type: "end" }
  | { readonly type: "boundary"; readonly negated: boolean }
  | { readonly type: "group"; readonly alternatives: readonly (readonly RegExpNode[])[] }
  | { readonly type: "repeat"; readonly node: RegExpNode; readonly min: number; readonly max: number };

/** A parsed pattern: its alternatives, each a sequence of nodes. */
export type ParsedPattern = readonly (readonly RegExpNode[])[];

/** A parse, or why the pattern is not carried over. */
export type ParseResult = { readonly ok: true; readonly pattern: ParsedPattern } | { readonly ok: false; readonly problem: string };

/** Groups nest at most this deep; deeper patterns are refused (the parser is recursive). */
export const MAX_GROUP_DEPTH = 64;

/** Thrown inside the parser only, and turned into a refusal by {@link parsePattern}. */
class Refusal extends Error {
  constructor(readonly problem: string) {
    super(problem);
  }
}

const CONTROL_ESCAPES: Readonly<Record<string, number>> = { f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09, v: 0x0b };
const SYNTAX_CHARACTERS = "^$\\.*+?()[]{}|/";

/** Parses `source`, a pattern the native engine accepts with the `u` flag. */
export function parsePattern(source: string): ParseResult {
  try {
    new RegExp(source, "u");
  } catch {
    return { ok: false, problem: "is not a valid regular expression (ECMAScript, with the u flag)" };
  }
  try {
    const parser = new Parser(source);
    const pattern = parser.disjunction(0);
    if (!parser.atEnd()) throw new Refusal("uses syntax this library does not read");
    return { ok: true, pattern };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, problem: error.problem };
    throw error;
  }
}

class Parser {
  #index = 0;
  constructor(readonly source: string) {}

  atEnd(): boolean {
    return this.#index >= this.source.length;
  }

  disjunction(depth: number): RegExpNode[][] {
    if (depth > MAX_GROUP_DEPTH) throw new Refusal(`nests groups deeper than ${MAX_GROUP_DEPTH}`);
    const alternatives: RegExpNode[][] = [this.alternative(depth)];
    while (this.#peek() === "|") {
      this.#index++;
      alternatives.push(this.alternative(depth));
    }
    return alternatives;
  }

  alternative(depth: number): RegExpNode[] {
    const terms: RegExpNode[] = [];
    while (!this.atEnd() && this.#peek() !== "|" && this.#peek() !== ")") terms.push(this.#term(depth));
    return terms;
  }

  #term(depth: number): RegExpNode {
    const character = this.#peek();
    if (character === "^") return this.#advance({ type: "start" });
    if (character === "$") return this.#advance({ type: "end" });
    if (character === "\\" && (this.source[this.#index + 1] === "b" || this.source[this.#index + 1] === "B")) {
      const negated = this.source[this.#index + 1] === "B";
      this.#index += 2;
      return { type: "boundary", negated };
    }
    return this.#quantified(this.#atom(depth));
  }

  #atom(depth: number): RegExpNode {
    const character = this.#peek();
    if (character === "(") return this.#group(depth);
    if (character === ".") return this.#advance({ type: "set", set: DOT });
    if (character === "[") return { type: "set", set: this.#class() };
    if (character === "\\") {
      this.#index++;
      return { type: "set", set: this.#escape() };
    }
    return { type: "set", set: single(this.#codePoint()) };
  }

  #group(depth: number): RegExpNode {
    this.#index++;
    if (this.source.startsWith("?=", this.#index) || this.source.startsWith("?!", this.#index) || this.source.startsWith("?<=", this.#index) || this.source.startsWith("?<!", this.#index)) {
      throw new Refusal("uses a lookahead or lookbehind, which no linear-time engine runs");
    }
    if (this.source.startsWith("?:", this.#index)) this.#index += 2;
    else if (this.source.startsWith("?<", this.#index)) this.#index = this.source.indexOf(">", this.#index) + 1;
    else if (this.#peek() === "?") throw new Refusal("uses a group modifier this library does not read");
    const alternatives = this.disjunction(depth + 1);
    this.#expect(")");
    return { type: "group", alternatives };
  }

  #quantified(node: RegExpNode): RegExpNode {
    let min: number;
    let max: number;
    const character = this.#peek();
    if (character === "*") [min, max] = [0, Infinity];
    else if (character === "+") [min, max] = [1, Infinity];
    else if (character === "?") [min, max] = [0, 1];
    else if (character === "{") {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.#index, this.#index + 64));
      if (match === null) throw new Refusal("uses a repetition this library does not read");
      min = Number(match[1]);
      max = match[2] === undefined ? min : match[3] === "" ? Infinity : Number(match[3]);
      this.#index += match[0].length - 1;
    } else return node;
    this.#index++;
    // A lazy quantifier matches the same strings as a greedy one: only membership matters here.
    if (this.#peek() === "?") this.#index++;
    return { type: "repeat", node, min, max };
  }

  #class(): CodePointSet {
    this.#index++;
    const negated = this.#peek() === "^";
    if (negated) this.#index++;
    const parts: CodePointSet[] = [];
    while (this.#peek() !== "]") {
      if (this.atEnd()) throw new Refusal("uses syntax this library does not read");
      const first = this.#classAtom();
      if (this.#peek() === "-" && this.source[this.#index + 1] !== "]" && typeof first === "number") {
        this.#index++;
        const last = this.#classAtom();
        if (typeof last !== "number") throw new Refusal("uses syntax this library does not read");
        parts.push(setOf([[first, last]]));
      } else {
        parts.push(typeof first === "number" ? single(first) : first);
      }
    }
    this.#index++;
    const set = union(parts);
    return negated ? complement(set) : set;
  }

  /** One class member: a code point, or a set (`\d`, `\p{…}`). */
  #classAtom(): number | CodePointSet {
    if (this.#peek() !== "\\") return this.#codePoint();
    this.#index++;
    if (this.#peek() === "b") return this.#advance(0x08);
    if (this.#peek() === "-") return this.#advance(0x2d);
    const set = this.#escape();
    return set.ranges.length === 1 && set.ranges[0]![0] === set.ranges[0]![1] && set.inexact !== true ? set.ranges[0]![0] : set;
  }

  /** After a backslash: a character class escape, or a character escape as a one-code-point set. */
  #escape(): CodePointSet {
    const character = this.#peek();
    switch (character) {
      case "d":
        return this.#advance(DIGIT);
      case "D":
        return this.#advance(complement(DIGIT));
      case "w":
        return this.#advance(WORD);
      case "W":
        return this.#advance(complement(WORD));
      case "s":
        return this.#advance(SPACE);
      case "S":
        return this.#advance(complement(SPACE));
      case "p":
      case "P": {
        // Unicode properties: the native engine knows them; no translation is exact, so they are never translated.
        this.#index = this.source.indexOf("}", this.#index) + 1;
        return setOf(ANY.ranges, true);
      }
      case "k":
        throw new Refusal("uses a backreference, which no linear-time engine runs");
      default:
        break;
    }
    if (character !== undefined && character >= "1" && character <= "9") throw new Refusal("uses a backreference, which no linear-time engine runs");
    return single(this.#characterEscape());
  }

  #characterEscape(): number {
    const character = this.#peek() ?? "";
    if (Object.hasOwn(CONTROL_ESCAPES, character)) return this.#advance(CONTROL_ESCAPES[character]!);
    if (character === "c") {
      const letter = this.source.charCodeAt(this.#index + 1);
      this.#index += 2;
      return letter % 32;
    }
    if (character === "0") return this.#advance(0);
    if (character === "x") {
      const value = Number.parseInt(this.source.slice(this.#index + 1, this.#index + 3), 16);
      this.#index += 3;
      return value;
    }
    if (character === "u") return this.#unicodeEscape();
    if (SYNTAX_CHARACTERS.includes(character) || character === "-") return this.#advance(character.charCodeAt(0));
    throw new Refusal("uses an escape this library does not read");
  }

  #unicodeEscape(): number {
    if (this.source[this.#index + 1] === "{") {
      const close = this.source.indexOf("}", this.#index);
      const value = Number.parseInt(this.source.slice(this.#index + 2, close), 16);
      this.#index = close + 1;
      return value;
    }
    const value = Number.parseInt(this.source.slice(this.#index + 1, this.#index + 5), 16);
    this.#index += 5;
    // `\uD83D\uDE00` is one code point under the `u` flag.
    if (value >= 0xd800 && value <= 0xdbff && /^\\u[dD][c-fC-F][0-9a-fA-F]{2}/.test(this.source.slice(this.#index, this.#index + 6))) {
      const trail = Number.parseInt(this.source.slice(this.#index + 2, this.#index + 6), 16);
      this.#index += 6;
      return (value - 0xd800) * 0x400 + (trail - 0xdc00) + 0x10000;
    }
    return value;
  }

  #codePoint(): number {
    const value = this.source.codePointAt(this.#index)!;
    this.#index += value > 0xffff ? 2 : 1;
    return value;
  }

  #peek(): string | undefined {
    return this.source[this.#index];
  }

  #expect(character: string): void {
    if (this.#peek() !== character) throw new Refusal("uses syntax this library does not read");
    this.#index++;
  }

  #advance<T>(result: T): T {
    this.#index++;
    return result;
  }
}
