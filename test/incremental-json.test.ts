import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { IncrementalJsonParser, MAX_FRAME_DEPTH } from "../src/streaming/incremental-json.js";

const seed = Number(process.env.FUZZ_SEED ?? 20261201);
const numRuns = Number(process.env.FUZZ_RUNS ?? 200);

/** `text` cut at `cuts` (positions, in any order). */
function split(text: string, cuts: readonly number[]): string[] {
  const positions = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let start = 0;
  for (const position of positions) {
    pieces.push(text.slice(start, position));
    start = position;
  }
  pieces.push(text.slice(start));
  return pieces;
}

function parse(pieces: readonly string[], build = true): IncrementalJsonParser {
  const parser = new IncrementalJsonParser(build);
  for (const piece of pieces) parser.write(piece);
  return parser;
}

/** Whether `text` is JSON, as JSON.parse says. */
function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** JSON text with what trips parsers: escapes of every kind, lone and paired surrogates, `__proto__`, numbers of every form. */
const trickyJson = fc.oneof(
  fc.json(),
  fc.jsonValue().map((value) => JSON.stringify({ "__proto__": value, "é\u2028": [value, "\ud83d\ude00\ud800", -0, 1e400, 0.1, -12.5e-3] })),
  fc.string({ unit: "binary" }).map((text) => JSON.stringify({ text })),
  fc.string({ unit: "binary" }).map((text) => JSON.stringify({ text }).replace(/[^\x20-\x7e]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`)),
);

describe("the incremental JSON parser", () => {
  it("gives the value JSON.parse gives, however the text is split (inside tokens, escapes, \\u sequences and surrogate pairs)", () => {
    fc.assert(
      fc.property(trickyJson, fc.array(fc.nat(), { maxLength: 40 }), (text, cuts) => {
        const parser = parse(split(text, cuts));
        expect(parser.complete).toBe(true);
        expect(parser.failed).toBe(false);
        // Only the end of the text ends a number at the root.
        parser.end();
        // Deep strict equality tells -0 from 0 and an own __proto__ key from a prototype.
        expect(isDeepStrictEqual(parser.value, JSON.parse(text))).toBe(true);
      }),
      { seed, numRuns },
    );
  });

  it("fails exactly on the text JSON.parse refuses, and never on a prefix of JSON", () => {
    const almostJson = fc.tuple(fc.json(), fc.nat(), fc.constantFrom("", "x", ",", "}", "]", '"', "\\", "\u0001", "01", "1.", "-", "e5", " tru", "\\u12", "\\q", "{", "[")).map(
      ([text, at, noise]) => text.slice(0, at % (text.length + 1)) + noise + text.slice(at % (text.length + 1)),
    );
    fc.assert(
      fc.property(almostJson, fc.array(fc.nat(), { maxLength: 10 }), (text, cuts) => {
        const parser = parse(split(text, cuts), false);
        if (isJson(text)) {
          expect(parser.failed).toBe(false);
          expect(parser.complete).toBe(true);
        } else {
          expect(parser.complete).toBe(false);
        }
        // Failing is final and certain: no prefix of a JSON text fails.
        for (let end = 0; end <= text.length; end++) {
          const prefix = parse([text.slice(0, end)], false);
          if (prefix.failed) expect(isJson(text)).toBe(false);
        }
      }),
      { seed, numRuns: Math.ceil(numRuns / 4) },
    );
  });

  it("reads every number as JSON.parse does: integers, fractions, exponents, past 2^53 and beyond a double's range", () => {
    const digits = fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: 1, maxLength: 30 });
    const number = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
      fc.tuple(fc.boolean(), digits, fc.option(digits), fc.option(fc.tuple(fc.constantFrom("e", "E"), fc.constantFrom("", "+", "-"), fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: 1, maxLength: 3 })))).map(
        ([negative, integer, fraction, exponent]) => `${negative ? "-" : ""}${integer.replace(/^0+(?=\d)/, "")}${fraction === null ? "" : `.${fraction}`}${exponent === null ? "" : exponent.join("")}`,
      ),
    );
    fc.assert(
      fc.property(number, fc.nat(), (text, cut) => {
        const json = `{"n":${text}}`;
        const parser = parse(split(json, [cut]));
        expect(Object.is((parser.value as { n: number }).n, (JSON.parse(json) as { n: number }).n)).toBe(true);
      }),
      { seed, numRuns: numRuns * 5 },
    );
  });

  it("knows the text can no longer be JSON at the first character JSON forbids", () => {
    for (const [text, at] of [
      ['{"a":01', 6],
      ['{"a":1.}', 7],
      ['{"a":"\u0001', 6],
      ['{"a":tx', 6],
      ['{"a":1]', 6],
      ["[1,]", 3],
      ['{"a" 1', 5],
      ['{"a":1} x', 8],
      ['{"a":"\\x', 7],
      ['{"a":"\\u12g', 10],
      ['{"a":+1', 5],
    ] as const) {
      expect(parse([text.slice(0, at)]).failed, text).toBe(false);
      expect(parse([text.slice(0, at + 1)]).failed, text).toBe(true);
    }
  });

  it("shows a string as it grows, never ending in half of a surrogate pair", () => {
    const parser = new IncrementalJsonParser(true);
    parser.write('{"a":"he');
    expect(parser.value).toEqual({ a: "he" });
    parser.write("llo \ud83d");
    expect(parser.value).toEqual({ a: "hello " });
    parser.write('\ude00 \\ud83d');
    expect(parser.value).toEqual({ a: "hello \ud83d\ude00 " });
    parser.write('\\ude00","b":[1,{"c":tr');
    expect(parser.value).toEqual({ a: "hello \ud83d\ude00 \ud83d\ude00", b: [1, {}] });
    parser.write("ue}]");
    expect(parser.value).toEqual({ a: "hello \ud83d\ude00 \ud83d\ude00", b: [1, { c: true }] });
  });

  it("shows objects and arrays as they open, and a number only once it is complete", () => {
    const parser = new IncrementalJsonParser(true);
    parser.write('{"list":[{"n":12');
    expect(parser.value).toEqual({ list: [{}] });
    parser.write("3,");
    expect(parser.value).toEqual({ list: [{ n: 123 }] });
  });

  it("keeps a __proto__ key as an own property, and the last value of a key given twice", () => {
    const parser = parse(['{"__proto__":{"polluted":true},"a":1,"a":2}']);
    const value = parser.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(["__proto__", "a"]);
    expect(value.a).toBe(2);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  describe("past the depth it keeps frames for", () => {
    /** `depth` containers, objects and arrays in turn, each holding a scalar of every kind before the next. */
    const deepText = (depth: number): string => {
      let open = "";
      let close = "";
      for (let level = 0; level < depth; level++) {
        if (level % 2 === 0) {
          open += `{"s":"a\\u00e9","n":-1.5e3,"t":true,"k":`;
          close = `}${close}`;
        } else {
          open += "[null,false,";
          close = `]${close}`;
        }
      }
      return `${open}0${close}`;
    };

    it("follows JSON's grammar at any depth, as JSON.parse does, however the text is split", () => {
      const text = deepText(2 * MAX_FRAME_DEPTH + 7);
      expect(isJson(text)).toBe(true);
      fc.assert(
        fc.property(fc.array(fc.nat(), { maxLength: 20 }), (cuts) => {
          const parser = parse(split(text, cuts), false);
          expect(parser.failed).toBe(false);
          expect(parser.complete).toBe(true);
        }),
        { seed, numRuns: 20 },
      );
      // A closer of the wrong kind, deep down, fails the text.
      const wrong = text.replace("0}]", "0]]");
      expect(isJson(wrong)).toBe(false);
      expect(parse([wrong]).failed).toBe(true);
    });

    it("shows the partial value down to that depth, and the container there empty", () => {
      const parser = parse([deepText(MAX_FRAME_DEPTH + 10)]);
      let place = parser.value as Record<string, unknown> | unknown[];
      for (let level = 0; level < MAX_FRAME_DEPTH; level++) place = (Array.isArray(place) ? place[2] : place.k) as Record<string, unknown> | unknown[];
      expect(place).toEqual({});
    });

    it("holds a byte per level open, not a frame: two million [ cost a few MiB", () => {
      const parser = new IncrementalJsonParser(true);
      parser.write("[");
      globalThis.gc?.();
      const before = process.memoryUsage().heapUsed;
      for (let piece = 0; piece < 2; piece++) parser.write("[".repeat(1 << 20));
      globalThis.gc?.();
      expect(parser.failed).toBe(false);
      expect((process.memoryUsage().heapUsed - before) / 2 ** 20).toBeLessThan(64);
    });
  });

  describe("reads each character a bounded number of times, however the text is split", () => {
    const charCodeAt = String.prototype.charCodeAt;
    afterEach(() => {
      String.prototype.charCodeAt = charCodeAt;
    });

    it("in one-character pieces and in one piece alike", () => {
      const text = JSON.stringify({ items: Array.from({ length: 300 }, (_, index) => ({ id: index, name: `item ${index}`, tags: ["a\nb", "\u00e9"], ratio: index / 7 })) });
      const reads = (pieces: readonly string[]): number => {
        let count = 0;
        String.prototype.charCodeAt = function (this: string, index: number) {
          count++;
          return charCodeAt.call(this, index);
        };
        parse(pieces);
        String.prototype.charCodeAt = charCodeAt;
        return count;
      };
      const whole = reads([text]);
      const characters = reads([...text]);
      // Quadratic work (re-reading the text so far on every piece) would read ~n²/2 = 10⁹ characters here.
      expect(whole).toBeLessThan(2 * text.length);
      expect(characters).toBeLessThan(2 * text.length);
    });
  });
});
