import { defineOwn } from "../objects.js";

/**
 * The JSON reader: one function per schema, generated, that reads a tool call's arguments text
 * where the keys it will meet are known in advance, and returns what `JSON.parse` returns for it.
 *
 * `JSON.parse` pays a fixed cost per call (about 150 ns, most of a small call's parse) and looks up
 * each key's name and each object's layout. The reader is plain code the optimizing compiler sees
 * whole: it tells a key apart by the characters where the schema's names differ, stores each value
 * under a name written into its code, and reads strings, numbers and literals by hand. Measured on
 * Node 20: a three-key call in about half of `JSON.parse`'s time, nested small objects in a quarter,
 * ten-key objects and texts of a few KB in 0.7 to 1.05 of it.
 *
 * It reads only what it knows for sure, and gives up (returns `undefined`) on anything else, for
 * `JSON.parse` to read: an escape in a string or a key, a nested object or array where the schema
 * has none, text longer than {@link MAX_READ_LENGTH}, and anything that is not JSON. A key the
 * schema does not name is read too, and stored as `JSON.parse` stores it. No reader is made for a
 * schema with records (`Type.Record`, `patternProperties`, an `additionalProperties` schema): keys
 * known only in the text are where `JSON.parse` is faster. The schema only says what to expect: the
 * reader decides nothing about validity, and the compiled check runs on what it returns, as it runs
 * on `JSON.parse`'s value. A property test holds it to `JSON.parse`'s value, key order, `-0` and own
 * `__proto__` keys included, and to giving up on every text `JSON.parse` refuses.
 */

/** The value `JSON.parse(text)` returns, or `undefined` when the reader leaves the text to `JSON.parse`. Never throws. */
export type JsonReader = (text: string) => object | undefined;

/**
 * The longest text the reader reads, in UTF-16 units: past it, `JSON.parse`. The reader's strings
 * may share their text's memory (V8 slices a string of 13 or more units), so a handler that keeps one
 * keeps at most this much text alive.
 */
export const MAX_READ_LENGTH = 4096;

/** The most functions a reader may have (one per distinct object or array schema): a schema with more is left to `JSON.parse`. */
const MAX_READER_FUNCTIONS = 256;

/** The helpers a reader's generated code calls, handed to it when it is made (here, or from a module written by `precompileValidators`). */
export const READER_HELPERS = Object.freeze({ defineOwn });

type Schema = Readonly<Record<string, unknown>>;

/**
 * The source of a schema's JSON reader, a function body of `H` (the helpers), or `undefined` when
 * the schema's root is not an object schema (`type: "object"`).
 *
 * The text is read between its first character and `n`, the end of its last `}` (white space after
 * it is trimmed first): on JSON text every loop but a string's and a key's (which test `n`) stops at
 * a character that is not a digit, white space or letter, at worst that `}`, so none reads past the
 * end. The optimizing compiler takes a read past the end (NaN) for a mistake and throws its code
 * away; on a text that is not JSON (an object never closed), such a read matches no character, and
 * the reader gives up.
 */
export function jsonReaderSource(schema: object): string | undefined {
  if (!isObjectSchema(schema)) return undefined;
  const generator = new ReaderGenerator();
  const root = generator.objectReader(schema);
  // Keys known only in the text (a record's) are read as well by JSON.parse, and faster: each must be
  // sliced, looked for on Object.prototype and stored under a name the code does not know.
  if (generator.readsRecords || generator.functions.length > MAX_READER_FUNCTIONS) return undefined;
  return [
    // Where the value read last ends: set by every reader, read by its caller.
    "let at = 0;",
    "const OBJECT_PROTOTYPE = Object.prototype;",
    ...SHARED_READERS,
    ...generator.functions,
    "return function read(t) {",
    "  let n = t.length;",
    `  if (n > ${MAX_READ_LENGTH}) return undefined;`,
    "  while (n > 0 && isWs(t.charCodeAt(n - 1))) n--;",
    "  if (n < 2 || t.charCodeAt(n - 1) !== 125) return undefined;",
    "  const i = ws(t, 0, n);",
    "  if (t.charCodeAt(i) !== 123) return undefined;",
    `  const value = ${root}(t, i, n);`,
    "  return value !== undefined && at === n ? value : undefined;",
    "};",
  ].join("\n");
}

/** The reader of a source (this generates code: only where the runtime allows it). */
export function jsonReaderFromSource(source: string): JsonReader {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the point: one generated function per schema.
  return new Function("H", source)(READER_HELPERS) as JsonReader;
}

/**
 * What every reader shares: white space, and any scalar. A reader of a value takes the text, the
 * position of the value's first character and the end, returns the value (`undefined`: give up)
 * and sets `at` past it. Characters are compared by code: 34 `"`, 92 `\`, 45 `-`, 48 to 57
 * digits, 46 `.`, 101 and 69 `e`/`E`, 43 `+`, 123 `{`, 125 `}`, 91 `[`, 93 `]`, 44 `,`, 58 `:`.
 */
const SHARED_READERS = [
  // JSON's white space: space, line feed, carriage return, tab.
  "function isWs(c) {",
  "  return c === 32 || c === 10 || c === 13 || c === 9;",
  "}",
  "function ws(t, i, n) {",
  "  while (i < n && isWs(t.charCodeAt(i))) i++;",
  "  return i;",
  "}",
  // A string with no escape and no control character, its opening quote at `i`.
  "function str(t, i, n) {",
  "  let j = i + 1;",
  "  for (;;) {",
  "    if (j >= n) return undefined;",
  "    const c = t.charCodeAt(j);",
  "    if (c === 34) break;",
  "    if (c === 92 || c < 32) return undefined;",
  "    j++;",
  "  }",
  "  at = j + 1;",
  "  return t.slice(i + 1, j);",
  "}",
  // JSON's number grammar, exactly: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?. A number of at
  // most 15 digits (so below 2^53, exact) times a power of ten up to 10^22 (exact too) is one
  // correctly rounded multiplication or division, the value JSON.parse gives (Clinger's fast path);
  // any other number is the engine's own reading of the same characters.
  "const POWERS = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];",
  "function num(t, i) {",
  "  let j = i;",
  "  let c = t.charCodeAt(j);",
  "  const negative = c === 45;",
  "  if (negative) c = t.charCodeAt(++j);",
  "  let value = 0;",
  "  let digits = 0;",
  "  let exponent = 0;",
  "  if (c === 48) { c = t.charCodeAt(++j); digits = 1; }",
  "  else if (c >= 49 && c <= 57) { do { value = value * 10 + (c - 48); digits++; c = t.charCodeAt(++j); } while (c >= 48 && c <= 57); }",
  "  else return undefined;",
  // A digit after a leading 0 (`01`) stops the number here, and its reader then gives up on the digit.
  "  if (c === 46) {",
  "    c = t.charCodeAt(++j);",
  "    if (!(c >= 48 && c <= 57)) return undefined;",
  "    do { value = value * 10 + (c - 48); digits++; exponent--; c = t.charCodeAt(++j); } while (c >= 48 && c <= 57);",
  "  }",
  "  if (c === 101 || c === 69) {",
  "    c = t.charCodeAt(++j);",
  "    let sign = 1;",
  "    if (c === 43 || c === 45) { if (c === 45) sign = -1; c = t.charCodeAt(++j); }",
  "    if (!(c >= 48 && c <= 57)) return undefined;",
  "    let written = 0;",
  "    do { if (written < 1000) written = written * 10 + (c - 48); c = t.charCodeAt(++j); } while (c >= 48 && c <= 57);",
  "    exponent += sign * written;",
  "  }",
  "  at = j;",
  "  if (digits > 15 || exponent < -22 || exponent > 22) return Number(t.slice(i, j));",
  "  if (exponent < 0) value /= POWERS[-exponent];",
  "  else if (exponent > 0) value *= POWERS[exponent];",
  "  return negative ? -value : value;",
  "}",
  // A string, number, true, false or null; an object or array gives up.
  "function scalar(t, i, n) {",
  "  const c = t.charCodeAt(i);",
  "  if (c === 34) return str(t, i, n);",
  "  if (c === 45 || (c >= 48 && c <= 57)) return num(t, i);",
  "  if (c === 116 && i + 4 <= n && t.charCodeAt(i + 1) === 114 && t.charCodeAt(i + 2) === 117 && t.charCodeAt(i + 3) === 101) { at = i + 4; return true; }",
  "  if (c === 102 && i + 5 <= n && t.charCodeAt(i + 1) === 97 && t.charCodeAt(i + 2) === 108 && t.charCodeAt(i + 3) === 115 && t.charCodeAt(i + 4) === 101) { at = i + 5; return false; }",
  "  if (c === 110 && i + 4 <= n && t.charCodeAt(i + 1) === 117 && t.charCodeAt(i + 2) === 108 && t.charCodeAt(i + 3) === 108) { at = i + 4; return null; }",
  "  return undefined;",
  "}",
];

/**
 * The first lines of a container's reader: its value made as `made` (`o = {}`), past its opening
 * character and white space, returned at once when the next is its closing one (`close`), and the
 * loop over its items begun.
 */
function openingLines(name: string, made: string, close: number): string[] {
  return [`function ${name}(t, i, n) {`, `  const ${made};`, "  let c;", "  i++;", `  ${SKIP_WS}`, `  if (c === ${close}) { at = i + 1; return ${made.slice(0, 1)}; }`, "  for (;;) {"];
}

/** Code that moves `i` past white space and reads the character there into `c`. */
const SKIP_WS = "c = t.charCodeAt(i); if (c <= 32) { i = ws(t, i, n); c = t.charCodeAt(i); }";

/** Whether `schema` is an object schema, its `properties` (if any) an object of names. */
function isObjectSchema(schema: unknown): schema is Schema {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return false;
  const { type, properties } = schema as Schema;
  return type === "object" && (properties === undefined || (typeof properties === "object" && properties !== null && !Array.isArray(properties)));
}

/** Whether an object schema says what its other keys' values are (`patternProperties`, as `Type.Record` does, or an `additionalProperties` schema). */
function hasRecordKeys(schema: Schema): boolean {
  const { additionalProperties, patternProperties } = schema;
  return patternProperties !== undefined || (typeof additionalProperties === "object" && additionalProperties !== null);
}

/** Whether `schema` is an array schema with one `items` schema. */
function hasItems(schema: unknown): schema is Schema & { items: Schema } {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return false;
  const { type, items } = schema as Schema;
  return type === "array" && typeof items === "object" && items !== null && !Array.isArray(items);
}

/** The JSON type a schema declares alone (`type: "string"`), if any. */
function declaredType(schema: unknown): unknown {
  return typeof schema === "object" && schema !== null && !Array.isArray(schema) ? (schema as Schema).type : undefined;
}

/**
 * Writes one reader function per object and array schema object, named by position: a schema met
 * again (shared, or a cycle in a schema built in code) is read by the same function, so that the
 * code grows with the schema's distinct objects, not its paths. The reader's calls nest only as deep
 * as the text does.
 */
class ReaderGenerator {
  readonly functions: string[] = [];
  readonly #names = new Map<object, string>();
  /** Whether an object schema read has record keys (see `hasRecordKeys`). */
  readsRecords = false;

  /**
   * The name of the reader of an object schema, its function written. The names in its
   * `properties` are matched where they stand and stored under names written into the code; any
   * other key (one the model added) is sliced from the text and stored as JSON.parse stores it,
   * its value read as a scalar.
   */
  objectReader(schema: Schema): string {
    const { name, slot } = this.#reserve(schema, "o");
    if (slot === undefined) return name;
    if (hasRecordKeys(schema)) this.readsRecords = true;
    // Only names JSON text can hold unescaped: a name with a quote, a backslash or a control character needs an escape, which gives up anyway.
    const properties = (schema.properties ?? {}) as Schema;
    const names = Object.keys(properties).filter((key) => !/["\\\u0000-\u001f]/.test(key));
    const cases = names.map((key, index) => {
      const value = this.#valueCode(properties[key]);
      // A name Object.prototype has (`__proto__`, `constructor`) is defined as an own property, as JSON.parse defines it.
      const store = key in Object.prototype ? `H.defineOwn(o, ${JSON.stringify(key)}, v)` : `o[${JSON.stringify(key)}] = v`;
      return `      case ${index}: { ${value} ${store}; break; }`;
    });
    // Any other key: one Object.prototype has (`__proto__`, `toString`) is defined as an own property too.
    cases.push("      default: { const key = t.slice(from, end); v = scalar(t, i, n); if (v === undefined) return undefined; i = at; if (key in OBJECT_PROTOTYPE) H.defineOwn(o, key, v); else o[key] = v; }");
    this.functions[slot] = [
      ...openingLines(name, "o = {}", 125),
      "    if (c !== 34) return undefined;",
      // The key's closing quote; a key with an escape gives up.
      "    let end = i + 1;",
      "    for (;;) {",
      "      if (end >= n) return undefined;",
      "      const d = t.charCodeAt(end);",
      "      if (d === 34) break;",
      "      if (d === 92 || d < 32) return undefined;",
      "      end++;",
      "    }",
      "    const from = i + 1;",
      "    let k = -1;",
      ...keyMatchers(names),
      "    i = end + 1;",
      `    ${SKIP_WS}`,
      "    if (c !== 58) return undefined;",
      "    i++;",
      `    ${SKIP_WS}`,
      "    let v;",
      "    switch (k) {",
      ...cases,
      "    }",
      `    ${SKIP_WS}`,
      `    if (c === 44) { i++; ${SKIP_WS} continue; }`,
      "    if (c === 125) { at = i + 1; return o; }",
      "    return undefined;",
      "  }",
      "}",
    ].join("\n");
    return name;
  }

  /** The reader of an array schema with one `items` schema, its function written. */
  #arrayReader(schema: Schema & { items: Schema }): string {
    const { name, slot } = this.#reserve(schema, "a");
    if (slot === undefined) return name;
    const item = this.#valueCode(schema.items);
    this.functions[slot] = [
      ...openingLines(name, "a = []", 93),
      "    let v;",
      `    ${item}`,
      "    a.push(v);",
      `    ${SKIP_WS}`,
      `    if (c === 44) { i++; ${SKIP_WS} continue; }`,
      "    if (c === 93) { at = i + 1; return a; }",
      "    return undefined;",
      "  }",
      "}",
    ].join("\n");
    return name;
  }

  /**
   * The name of `schema`'s reader, and the slot its function is to be written in: no slot when it
   * has a reader already (or the reader has more functions than it may, and will not be made).
   */
  #reserve(schema: object, prefix: "o" | "a"): { name: string; slot: number | undefined } {
    const known = this.#names.get(schema);
    if (known !== undefined) return { name: known, slot: undefined };
    const name = `${prefix}${this.functions.length}`;
    this.#names.set(schema, name);
    const slot = this.functions.push("") - 1;
    return { name, slot: this.functions.length > MAX_READER_FUNCTIONS ? undefined : slot };
  }

  /**
   * Statements that read the value whose first character `c` is at `i`, as `schema` expects it,
   * into `v`, and move `i` past it (or give up): a nested object or array by its own reader, a
   * positive integer inline, a string by `str`, and anything else as a scalar.
   */
  #valueCode(schema: unknown): string {
    const other = "v = scalar(t, i, n);";
    const done = "if (v === undefined) return undefined; i = at;";
    if (isObjectSchema(schema)) return `v = c === 123 ? ${this.objectReader(schema)}(t, i, n) : scalar(t, i, n); ${done}`;
    if (hasItems(schema)) return `v = c === 91 ? ${this.#arrayReader(schema)}(t, i, n) : scalar(t, i, n); ${done}`;
    const type = declaredType(schema);
    if (type === "string") return `v = c === 34 ? str(t, i, n) : scalar(t, i, n); ${done}`;
    if (type === "integer" || type === "number") {
      // A positive integer of up to 15 digits inline; any other number by `num`.
      return [
        "if (c >= 49 && c <= 57) {",
        "  let x = c - 48; let j = i + 1; let d = t.charCodeAt(j);",
        "  while (d >= 48 && d <= 57) { x = x * 10 + (d - 48); d = t.charCodeAt(++j); }",
        `  if (d !== 46 && d !== 101 && d !== 69 && j - i <= 15) { v = x; i = j; } else { v = num(t, i); ${done} }`,
        `} else { ${other} ${done} }`,
      ].join(" ");
    }
    return `${other} ${done}`;
  }
}

/**
 * The statements that set `k` to the index of the name whose characters stand between `i` (the
 * key's opening quote) and `end` (its closing one): names are grouped by length, and within a
 * length told apart by a tree of switches on the characters where they differ, so that a key is
 * compared once with one name, character by character (about its length in comparisons, where
 * comparing it with each name in turn cost up to their number times more).
 */
function keyMatchers(names: readonly string[]): string[] {
  const byLength = new Map<number, number[]>();
  names.forEach((key, index) => {
    const group = byLength.get(key.length);
    if (group === undefined) byLength.set(key.length, [index]);
    else group.push(index);
  });
  const lines = ["    switch (end - i - 1) {"];
  for (const [length, indexes] of byLength) lines.push(`      case ${length}: ${nameTree(names, indexes, new Set())} break;`);
  lines.push("    }");
  return lines;
}

/** The code that tells apart `indexes`, names of one length whose characters at `known` positions the key is known to share. */
function nameTree(names: readonly string[], indexes: readonly number[], known: ReadonlySet<number>): string {
  const first = names[indexes[0]!]!;
  if (indexes.length === 1) {
    // By UTF-16 unit, as charCodeAt reads the text.
    const comparisons: string[] = [];
    for (let offset = 0; offset < first.length; offset++) if (!known.has(offset)) comparisons.push(`t.charCodeAt(i + ${offset + 1}) === ${first.charCodeAt(offset)}`);
    return comparisons.length === 0 ? `k = ${indexes[0]};` : `if (${comparisons.join(" && ")}) k = ${indexes[0]};`;
  }
  // The position whose characters split the names most evenly: the most distinct characters.
  let position = -1;
  let groups = new Map<number, number[]>();
  for (let offset = 0; offset < first.length; offset++) {
    if (known.has(offset)) continue;
    const split = new Map<number, number[]>();
    for (const index of indexes) {
      const code = names[index]!.charCodeAt(offset);
      const group = split.get(code);
      if (group === undefined) split.set(code, [index]);
      else group.push(index);
    }
    if (split.size > groups.size) {
      position = offset;
      groups = split;
    }
  }
  const cases = [...groups].map(([code, group]) => `case ${code}: ${nameTree(names, group, new Set([...known, position]))} break;`);
  return `switch (t.charCodeAt(i + ${position + 1})) { ${cases.join(" ")} }`;
}
