import { describe, expect, it } from "vitest";
import { type BfclFunction, fromBfclFunction, parseJsonLines } from "../src/bfcl/index.js";
import { bfclSuite } from "./support/bfcl-suite.js";
import { BFCL_FIXTURES } from "./support/corpus.js";
import { ToolArgumentsValidationError, ToolRegistry } from "../src/index.js";
import { rejectionOf, thrownBy, toolCall } from "./support/fixtures.js";

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

  it("moves an enum written on an array to its items, which is what it lists", async () => {
    const fn = { name: "f", parameters: { type: "dict", properties: { metrics: { type: "array", items: { type: "string" }, enum: ["buzz", "reach"] }, pairs: { type: "tuple", enum: ["a"] } } } };
    expect(fromBfclFunction(fn).parameters.properties).toEqual({
      metrics: { type: "array", items: { type: "string", enum: ["buzz", "reach"] } },
      pairs: { type: "array", items: { enum: ["a"] } },
    });
    const registry = new ToolRegistry().register(fromBfclFunction(fn), (args) => args);
    expect(await registry.dispatch(toolCall("f", { metrics: ["buzz"] }))).toEqual({ metrics: ["buzz"] });
  });

  it("keeps an enum of arrays on the array, and an enum beside an items enum of its own", () => {
    const fn = { name: "f", parameters: { type: "dict", properties: { a: { type: "array", enum: [["x", "y"]] }, b: { type: "array", items: { enum: ["x"] }, enum: ["y"] } } } };
    expect(fromBfclFunction(fn).parameters.properties).toEqual({ a: { type: "array", enum: [["x", "y"]] }, b: { type: "array", items: { enum: ["x"] }, enum: ["y"] } });
  });

  it("reads default: null on an optional parameter as Python's None: the parameter accepts null, in its type and its enum", () => {
    const fn = {
      name: "f",
      parameters: {
        type: "dict",
        required: ["city"],
        properties: {
          city: { type: "string", default: null },
          league: { type: "string", default: null },
          unit: { type: "string", enum: ["c", "f"], default: null },
          limit: { type: ["integer", "float"], default: null },
          extra: { type: "any", default: null },
          filter: { type: "dict", default: null, properties: { size: { type: "integer", default: null } } },
        },
      },
    };
    expect(fromBfclFunction(fn).parameters.properties).toEqual({
      city: { type: "string", default: null },
      league: { type: ["string", "null"], default: null },
      unit: { type: ["string", "null"], enum: ["c", "f", null], default: null },
      limit: { type: ["integer", "number", "null"], default: null },
      extra: { default: null },
      filter: { type: ["object", "null"], default: null, properties: { size: { type: ["integer", "null"], default: null } } },
    });
  });

  it("keeps JSON Schema's strict reading of default: null with defaultNull: \"strict\", and refuses any other reading", async () => {
    const fn = { name: "f", parameters: { type: "dict", properties: { league: { type: "string", default: null } } } };
    expect(fromBfclFunction(fn, { defaultNull: "strict" }).parameters.properties).toEqual({ league: { type: "string", default: null } });
    const strict = new ToolRegistry().register(fromBfclFunction(fn, { defaultNull: "strict" }), (args) => args);
    expect(await rejectionOf(strict.dispatch(toolCall("f", { league: null })))).toBeInstanceOf(ToolArgumentsValidationError);
    const nullable = new ToolRegistry().register(fromBfclFunction(fn), (args) => args);
    expect(await nullable.dispatch(toolCall("f", { league: null }))).toEqual({ league: null });
    expect(() => fromBfclFunction(fn, { defaultNull: "lenient" as never })).toThrow('defaultNull must be "nullable" or "strict", got "lenient"');
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
  bfclSuite(BFCL_FIXTURES, { files: 1, distinct: 16, minimumAnswers: 16 });
});
