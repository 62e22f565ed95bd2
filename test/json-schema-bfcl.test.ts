import { describe, expect, it } from "vitest";
import { type BfclFunction, fromBfclFunction, parseJsonLines } from "../src/bfcl/index.js";
import { bfclSuite } from "./support/bfcl-suite.js";
import { BFCL_FIXTURES } from "./support/corpus.js";
import { thrownBy } from "./support/fixtures.js";

describe("fromBfclFunction", () => {
  it("maps dict, float, tuple and any to JSON Schema, through properties and items at any depth", () => {
    const fn: BfclFunction = {
      name: "uber.ride",
      description: "Book a ride",
      parameters: {
        type: "dict",
        required: ["loc"],
        properties: {
          loc: { type: "string", description: "Start" },
          fare: { type: "float", default: 9.5 },
          point: { type: "tuple", items: { type: "float" } },
          extra: { type: "any" },
          stops: { type: "array", items: { type: "dict", properties: { at: { type: "float" }, note: { type: "any", optional: true } } } },
        },
      },
    };
    expect(fromBfclFunction(fn)).toEqual({
      name: "uber.ride",
      description: "Book a ride",
      parameters: {
        type: "object",
        required: ["loc"],
        properties: {
          loc: { type: "string", description: "Start" },
          fare: { type: "number", default: 9.5 },
          point: { type: "array", items: { type: "number" } },
          extra: {},
          stops: { type: "array", items: { type: "object", properties: { at: { type: "number" }, note: { optional: true } } } },
        },
      },
    });
  });

  it("leaves its input unmodified", () => {
    const fn = { name: "f", parameters: { type: "dict", properties: { x: { type: "float" } } } };
    const before = JSON.stringify(fn);
    fromBfclFunction(fn);
    expect(JSON.stringify(fn)).toBe(before);
  });

  it("gives a function without parameters an empty object schema and a missing description empty text", () => {
    expect(fromBfclFunction({ name: "ping" })).toEqual({ name: "ping", description: "", parameters: { type: "object", properties: {} } });
  });

  it("keeps a __proto__ key as a property name, never as a prototype", () => {
    const parameters = JSON.parse('{"type":"dict","properties":{"__proto__":{"type":"float"}}}') as unknown;
    const properties = fromBfclFunction({ name: "f", parameters }).parameters.properties as Record<string, unknown>;
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(properties, "__proto__")?.value).toEqual({ type: "number" });
  });

  it("refuses a function without a string name", () => {
    expect(thrownBy(() => fromBfclFunction({ description: "x" } as never))).toBeInstanceOf(TypeError);
  });
});

describe("parseJsonLines", () => {
  it("reads one value per line, with or without a trailing newline, and skips blank lines", () => {
    expect(parseJsonLines('{"a":1}\n\n{"b":2}')).toEqual([{ a: 1 }, { b: 2 }]);
    expect(parseJsonLines('{"a":1}\r\n{"b":2}\r\n')).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it("names the line that is not JSON", () => {
    const error = thrownBy(() => parseJsonLines('{"a":1}\n{oops'));
    expect(error).toBeInstanceOf(SyntaxError);
    expect((error as Error).message).toBe("line 2 is not valid JSON");
  });
});

describe("the project's BFCL-dialect fixtures", () => {
  bfclSuite(BFCL_FIXTURES, { files: 1, distinct: 14, minimumAnswers: 14 });
});
