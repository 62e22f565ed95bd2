import { type CodePointSet, mayIntersect, union } from "./code-points.js";
import type { ParsedPattern, RegExpNode } from "./parse.js";

/**
 * The proof that V8's backtracking engine runs a pattern in time linear in the text. The rule is
 * deliberately narrow; every pattern it does not prove goes to the linear-time engine instead.
 *
 * A pattern is native-linear when, after inlining groups that have one alternative and no
 * quantifier (and unwrapping a quantified group that holds a single character atom):
 *
 * 1. it is one sequence: no alternation (`|`), no quantified group, no `\b`/`\B`, no lookaround,
 *    no backreference; `^` only first and `$` only last, and every other item is one
 *    *character atom* (a literal, `.`, a class, `\d`, `\p{…}`, …) with an optional quantifier;
 * 2. every atom whose count may vary (`*`, `+`, `?`, `{m,n}` with m < n) is *disjoint from what
 *    may follow it*: no code point it matches can start the rest of the match, i.e. its set does
 *    not meet the sets of the atoms after it, up to and including the first one that must match
 *    at least once. (A `\p{…}` set counts as every code point.);
 * 3. at most {@link MAX_NATIVE_QUANTIFIED_ATOMS} atoms are quantified;
 * 4. without a leading `^`, every count is bounded and the longest match (the sum of the largest
 *    counts) is at most {@link MAX_NATIVE_UNANCHORED_LENGTH} code points.
 *
 * Why this is linear: a character atom consumes exactly one code point, so the only choices the
 * engine makes are how many times each variable atom repeats. It first tries the count it reaches
 * greedily (or, lazily, grows one at a time); any other count leaves the next code point inside
 * that atom's set, which by (2) no later atom up to the next mandatory one can match, so that
 * choice fails after at most one step per following atom, without choices of its own. Along the
 * single path that survives, each code point of the text is consumed once, so one attempt costs
 * O(text × atoms) with atoms bounded by (3). Anchored by `^`, only the attempt at position 0 gets
 * past its first step (V8 makes no other attempt; one that did would fail at `^` at once);
 * unanchored, there is one attempt per position, each bounded by (4), so O(text × length × atoms).
 */

/** At most this many quantified atoms in a pattern run natively (each may cost a step per backtrack). */
export const MAX_NATIVE_QUANTIFIED_ATOMS = 32;

/** Without `^`, the longest match a natively run pattern may have, in code points. */
export const MAX_NATIVE_UNANCHORED_LENGTH = 256;

interface Atom {
  readonly set: CodePointSet;
  readonly min: number;
  readonly max: number;
}

/** What the proof needs of a pattern: whether it is anchored at the start, and its atoms in order. */
interface Sequence {
  readonly anchored: boolean;
  readonly atoms: readonly Atom[];
}

/** Whether V8's backtracking engine provably runs `pattern` in linear time (see the rule above). */
export function isNativeLinear(pattern: ParsedPattern): boolean {
  const sequence = toSequence(pattern);
  if (sequence === undefined) return false;
  const { anchored, atoms } = sequence;
  if (atoms.filter((atom) => atom.min !== 1 || atom.max !== 1).length > MAX_NATIVE_QUANTIFIED_ATOMS) return false;
  if (!anchored) {
    let length = 0;
    for (const atom of atoms) length += atom.max;
    if (!(length <= MAX_NATIVE_UNANCHORED_LENGTH)) return false;
  }
  for (let index = 0; index < atoms.length; index++) {
    const atom = atoms[index]!;
    if (atom.min !== atom.max && mayIntersect(atom.set, followSet(atoms, index + 1))) return false;
  }
  return true;
}

/** The union of the sets of `atoms[from…]` up to and including the first that must match. */
function followSet(atoms: readonly Atom[], from: number): CodePointSet {
  const sets: CodePointSet[] = [];
  for (let index = from; index < atoms.length; index++) {
    sets.push(atoms[index]!.set);
    if (atoms[index]!.min > 0) break;
  }
  return union(sets);
}

/** The pattern as one anchored-or-not sequence of character atoms, or `undefined` when it is not one. */
function toSequence(pattern: ParsedPattern): Sequence | undefined {
  if (pattern.length !== 1) return undefined;
  const items = flatten(pattern[0]!);
  if (items === undefined) return undefined;
  const anchored = items[0] === "start";
  const body = anchored ? items.slice(1) : items;
  const last = body.length > 0 && body[body.length - 1] === "end" ? body.length - 1 : body.length;
  const atoms: Atom[] = [];
  for (let index = 0; index < last; index++) {
    const item = body[index]!;
    if (typeof item === "string") return undefined;
    atoms.push(item);
  }
  return { anchored, atoms };
}

/** The items of a sequence with simple groups inlined; `undefined` when something is not a character atom or an anchor. */
function flatten(nodes: readonly RegExpNode[]): Array<Atom | "start" | "end"> | undefined {
  const items: Array<Atom | "start" | "end"> = [];
  for (const node of nodes) {
    switch (node.type) {
      case "start":
      case "end":
        items.push(node.type);
        break;
      case "set":
        items.push({ set: node.set, min: 1, max: 1 });
        break;
      case "group": {
        if (node.alternatives.length !== 1) return undefined;
        const inner = flatten(node.alternatives[0]!);
        if (inner === undefined) return undefined;
        items.push(...inner);
        break;
      }
      case "repeat": {
        const atom = singleAtom(node.node);
        if (atom === undefined) return undefined;
        items.push({ set: atom.set, min: node.min, max: node.max });
        break;
      }
      default:
        return undefined;
    }
  }
  return items;
}

/** The one character atom a quantified node holds (`a`, `[a-z]`, `(?:a)`), or `undefined`. */
function singleAtom(node: RegExpNode): Atom | undefined {
  if (node.type === "set") return { set: node.set, min: 1, max: 1 };
  if (node.type !== "group" || node.alternatives.length !== 1) return undefined;
  const inner = flatten(node.alternatives[0]!);
  if (inner === undefined || inner.length !== 1 || typeof inner[0] === "string") return undefined;
  const atom = inner[0]!;
  return atom.min === 1 && atom.max === 1 ? atom : undefined;
}
