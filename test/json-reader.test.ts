import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Type } from "../src/index.js";
import { parsedArguments } from "../src/validation/arguments.js";
import { type JsonReader, jsonReaderFromSource, jsonReaderSource, MAX_READ_LENGTH } from "../src/validation/json-reader.js";
import { schemaArbitrary, shapedArgumentsArbitrary } from "./support/schema-arbitraries.js";

/** The reader of `schema`, which must have one. */
function readerOf(schema: object): JsonReader {
  const source = jsonReaderSource(schema);
  if (source === undefined) throw new Error("no reader for this schema");
  return jsonReaderFromSource(source);
}

/** Whether two values are the same JSON data down to key order, `-0`, prototypes and property flags. */
function sameData(a: unknown, b: unknown): boolean {
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null) return Object.is(a, b);
  if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const keys = Reflect.ownKeys(a);
  const otherKeys = Reflect.ownKeys(b);
  if (keys.length !== otherKeys.length || keys.some((key, index) => key !== otherKeys[index])) return false;
  return keys.every((key) => {
    const own = Object.getOwnPropertyDescriptor(a, key)!;
    const other = Object.getOwnPropertyDescriptor(b, key)!;
    if (own.enumerable !== other.enumerable || own.writable !== other.writable || own.configurable !== other.configurable) return false;
    return "value" in own ? "value" in other && sameData(own.value, other.value) : !("value" in other);
  });
}

const NOT_JSON = Symbol("not JSON");

/** What `JSON.parse` makes of `text`, or {@link NOT_JSON}. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}

/** Holds the reader to `JSON.parse` on one text; tells whether it read the text (rather than leaving it to `JSON.parse`). */
function expectAsJsonParse(reader: JsonReader, text: string): boolean {
  const expected = parsed(text);
  const read = reader(text);
  if (expected === NOT_JSON) expect(read, text).toBeUndefined();
  else if (read !== undefined) expect(sameData(read, expected), `${text}\nread ${JSON.stringify(read)}`).toBe(true);
  return read !== undefined;
}

/** JSON text of `value`: bigints as numbers, what JSON cannot hold as JSON.stringify drops or changes it. */
function textOf(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === "bigint" ? Number(item) : item));
}

/** `text` with white space (or something else) put between its tokens: before each of `{}[],:` and each quote. */
function spaced(text: string, fillers: readonly string[]): string {
  let index = 0;
  return text.replace(/[{}[\],:"]/g, (token) => `${fillers[index++ % fillers.length]}${token}`);
}

const fillerArbitrary = fc.array(fc.constantFrom("", "", "", " ", "\n", "\t", "\r", "  ", "\u00a0", "\ufeff", "\u2028", "\u000b"), { minLength: 1, maxLength: 8 });

/** An edit of a text at a position: a character removed, added or replaced by one that matters to JSON. */
const editArbitrary = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom("remove", "insert", "replace"),
  char: fc.oneof(fc.constantFrom('"', "\\", ",", ":", "{", "}", "[", "]", "0", "1", "9", "-", "+", ".", "e", "E", " ", "\u0000", "\u001f", "a", "t", "f", "n", "u", "\ud800", "é"), fc.string({ unit: "binary", minLength: 1, maxLength: 1 })),
});

function edited(text: string, edits: readonly { at: number; kind: string; char: string }[]): string {
  let result = text;
  for (const { at, kind, char } of edits) {
    const index = at % (result.length + 1);
    if (kind === "remove") result = result.slice(0, index) + result.slice(index + 1);
    else if (kind === "insert") result = result.slice(0, index) + char + result.slice(index);
    else result = result.slice(0, index) + char + result.slice(index + 1);
  }
  return result;
}

/** Numbers as a model may write them, valid JSON or not. */
const numberTextArbitrary = fc.oneof(
  fc.double().filter(Number.isFinite).map(String),
  fc.integer().map(String),
  fc.stringMatching(/^-?(0|[1-9][0-9]{0,22})(\.[0-9]{1,5})?([eE][+-]?[0-9]{1,3})?$/),
  fc.constantFrom("-0", "0", "-", "01", "-01", "1.", ".5", "1e", "1e+", "+1", "0x10", "1_000", "Infinity", "NaN", "9007199254740993", "123456789012345", "1234567890123456", "1E400", "-1e-400", "0.0000001"),
);

describe("the JSON reader", () => {
  it("reads what JSON.parse reads, to key order, -0 and own __proto__ keys, and leaves JSON.parse every text it refuses", () => {
    let read = 0;
    let texts = 0;
    fc.assert(
      fc.property(
        schemaArbitrary.chain((schema) => fc.tuple(fc.constant(schema), fc.array(shapedArgumentsArbitrary(schema), { minLength: 1, maxLength: 4 }))),
        fillerArbitrary,
        fc.array(editArbitrary, { maxLength: 3 }),
        ([schema, values], fillers, edits) => {
          if (jsonReaderSource(schema) === undefined) return;
          const reader = readerOf(schema);
          for (const value of values) {
            const text = textOf(value);
            for (const variant of [text, JSON.stringify(JSON.parse(text), null, 2), spaced(text, fillers), edited(text, edits), edited(spaced(text, fillers), edits)]) {
              texts++;
              if (expectAsJsonParse(reader, variant)) read++;
            }
          }
        },
      ),
      { seed: 20261203, numRuns: Number(process.env.FUZZ_RUNS ?? 400) },
    );
    // Most texts are read: a reader that gave up on everything would pass the rest of this test.
    expect(read).toBeGreaterThan(texts / 4);
  }, 600_000);

  it("reads numbers as JSON.parse does, and leaves it every number JSON does not allow", () => {
    const reader = readerOf(Type.Object({ n: Type.Number(), i: Type.Integer(), any: Type.Unknown() }));
    fc.assert(
      fc.property(numberTextArbitrary, fc.constantFrom("n", "i", "any"), fc.constantFrom("", " ", "\n"), (number, key, space) => {
        expectAsJsonParse(reader, `{"${key}":${space}${number}${space}}`);
        expectAsJsonParse(reader, `{"${key}":[${number}]}`);
      }),
      { seed: 20261203, numRuns: Number(process.env.FUZZ_RUNS ?? 2000) },
    );
    expect(reader('{"n":-0}')).toEqual({ n: -0 });
    expect(Object.is((reader('{"i":-0}') as { i: number }).i, -0)).toBe(true);
    expect(reader('{"n":9007199254740993,"i":1.5e3}')).toEqual({ n: 9007199254740992, i: 1500 });
    expect(reader('{"n":01}')).toBeUndefined();
  });

  it("reads strings as JSON.parse does, whatever characters they hold, and leaves it every string with an escape", () => {
    const reader = readerOf(Type.Object({ text: Type.String(), any: Type.Unknown() }));
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 12 }), fc.constantFrom("text", "any"), (value, key) => {
        const text = `{"${key}":${JSON.stringify(value)}}`;
        expectAsJsonParse(reader, text);
        // Raw: unescaped quotes and control characters, lone surrogates.
        expectAsJsonParse(reader, `{"${key}":"${value}"}`);
      }),
      { seed: 20261203, numRuns: Number(process.env.FUZZ_RUNS ?? 2000) },
    );
    expect(reader('{"text":"naïve 😀 \ud800"}')).toEqual({ text: "naïve 😀 \ud800" });
    expect(reader('{"text":"a\\nb"}')).toBeUndefined();
  });

  it("reads keys in the text's order, named by the schema or not, a repeated key's last value in its first place, as JSON.parse does", () => {
    const reader = readerOf(Type.Object({ path: Type.String(), offset: Type.Optional(Type.Integer()), limit: Type.Optional(Type.Integer()) }));
    const text = ' {\n "limit" : 5 ,\t"path":"a", "offset": 1, "path":"b" }\r\n';
    expect(Object.keys(reader(text)!)).toEqual(["limit", "path", "offset"]);
    expect(sameData(reader(text), JSON.parse(text))).toBe(true);
    for (const other of ['{"path":"a","extra":1,"0":2,"__proto__":3,"toString":4,"":5,"path":"b"}', '{"extra":{"nested":1}}']) expectAsJsonParse(reader, other);
    expect(Object.keys(reader('{"path":"a","extra":1,"0":2,"__proto__":3}')!)).toEqual(["0", "path", "extra", "__proto__"]);
    expect(Object.getPrototypeOf(reader('{"__proto__":null}'))).toBe(Object.prototype);
    expect(reader('{"p\\u0061th":"a"}')).toBeUndefined();
  });

  it("defines a name Object.prototype has as an own property, as JSON.parse does, and never sets a prototype", () => {
    // Written as JSON: in an object literal, `__proto__` would set the prototype.
    const reader = readerOf(JSON.parse('{"type":"object","properties":{"__proto__":{"type":"object","properties":{"polluted":{"type":"boolean"}}},"constructor":{"type":"string"},"toString":{"type":"integer"}}}') as object);
    const text = '{"__proto__":{"polluted":true},"constructor":"c","toString":1}';
    const read = reader(text) as Record<string, unknown>;
    expect(sameData(read, JSON.parse(text))).toBe(true);
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
    expect(Object.keys(read)).toEqual(["__proto__", "constructor", "toString"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("reads nested objects and arrays where the schema has them, astral names included, and leaves JSON.parse a container where it has none", () => {
    const reader = readerOf(Type.Object({ "😀": Type.Object({ tags: Type.Array(Type.String()), rows: Type.Array(Type.Object({ id: Type.Integer() })) }), flat: Type.String() }));
    const text = '{"😀":{"tags":["a","b"],"rows":[{"id":1},{"id":2}]},"flat":"x"}';
    expect(sameData(reader(text), JSON.parse(text))).toBe(true);
    expect(reader('{"flat":{"a":1}}')).toBeUndefined();
    expect(reader('{"flat":[1]}')).toBeUndefined();
    expect(reader('{"😀":{"tags":[["nested"]]}}')).toBeUndefined();
  });

  it("leaves JSON.parse a text longer than MAX_READ_LENGTH, and anything but an object", () => {
    const reader = readerOf(Type.Object({ text: Type.String() }));
    const long = `{"text":"${"a".repeat(MAX_READ_LENGTH)}"}`;
    expect(reader(long)).toBeUndefined();
    expect(reader(`{"text":"${"a".repeat(MAX_READ_LENGTH - 11)}"}`)).toEqual({ text: "a".repeat(MAX_READ_LENGTH - 11) });
    for (const text of ["[]", '"text"', "1", "null", "", "{", "}", "{}x", '\ufeff{"text":"a"}']) expectAsJsonParse(reader, text);
    // Near misses: each of JSON's separators and quotes wrong once.
    const nearMisses = ['{"text"="a"}', '{"text":"a";}', '{"text":"a";"text":"b"}', '{"text":["a";"b"]}', '{"text":"a" "text":"b"}', "{'text':'a'}", '{text:"a"}', '{"text":"a",,"text":"b"}', '{"text":"a",}', '{,"text":"a"}', '{"text"::"a"}', '{"text":"a"]', '{"text" "a"}', '{"text":"a}', '{"text:"a"}'];
    for (const text of nearMisses) {
      expect(parsed(text), text).toBe(NOT_JSON);
      expect(reader(text), text).toBeUndefined();
    }
    expect(reader("{}")).toEqual({});
  });

  it("reads a schema shared or cyclic (built in code) with one function per schema object, as deep as the text goes", () => {
    const node: Record<string, unknown> = { type: "object", properties: { name: { type: "string" } } };
    (node.properties as Record<string, unknown>).child = node;
    (node.properties as Record<string, unknown>).children = { type: "array", items: node };
    const source = jsonReaderSource(node)!;
    expect(source.match(/^function [oa]\d+/gm)).toHaveLength(2);
    const reader = jsonReaderFromSource(source);
    const deep = `${'{"child":'.repeat(400)}{"name":"x","children":[{}]}${"}".repeat(400)}`;
    expect(sameData(reader(deep), JSON.parse(deep))).toBe(true);
    // A binary tree of shared objects 40 levels deep: 2^40 paths, 40 functions.
    let shared: object = { type: "string" };
    for (let level = 0; level < 40; level++) shared = { type: "object", properties: { left: shared, right: shared } };
    expect(jsonReaderSource(shared)!.match(/^function o\d+/gm)).toHaveLength(40);
    // More distinct object schemas than a reader may have: JSON.parse.
    let chain: object = { type: "string" };
    for (let level = 0; level < 300; level++) chain = { type: "object", properties: { next: chain } };
    expect(jsonReaderSource(chain)).toBeUndefined();
  });

  it("gives up to JSON.parse in dispatch when reading runs out of stack", () => {
    const text = '{"path":"a"}';
    const outOfStack: JsonReader = () => {
      throw new RangeError("Maximum call stack size exceeded");
    };
    expect(parsedArguments("read", text, 1024, outOfStack)).toEqual({ path: "a" });
  });

  it("is made only for a schema whose root is an object schema, and none of whose objects are records (JSON.parse reads keys it cannot know faster)", () => {
    expect(jsonReaderSource(Type.Record(Type.String(), Type.String()))).toBeUndefined();
    expect(jsonReaderSource(Type.Object({ labels: Type.Record(Type.String(), Type.String()) }))).toBeUndefined();
    expect(jsonReaderSource(Type.Object({ rows: Type.Array(Type.Object({ id: Type.String() }, { additionalProperties: Type.Number() })) }))).toBeUndefined();
    expect(jsonReaderSource(Type.Union([Type.Object({ a: Type.String() }), Type.Object({ b: Type.String() })]))).toBeUndefined();
    expect(jsonReaderSource(Type.Object({}))).toBeTypeOf("string");
  });
});
