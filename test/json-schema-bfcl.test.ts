import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import { beforeAll, describe, expect, it } from "vitest";
import { ToolRegistry, validateToolArguments, type ToolDefinition } from "../src/index.js";
import { type BfclFunction, fromBfclFunction, parseJsonLines } from "../src/providers/index.js";
import { thrownBy } from "./fixtures.js";

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

// The real corpus: ../shared/corpus/bfcl from the repository root (CI has it there too).
const CORPUS = resolve(import.meta.dirname, "..", "..", "shared", "corpus", "bfcl");

interface Entry {
  id: string;
  function: BfclFunction[];
}
interface Answer {
  id: string;
  ground_truth: Array<Record<string, Record<string, unknown[]>>>;
}

describe("the BFCL corpus", () => {
  const files = readdirSync(CORPUS).filter((file) => /^BFCL_v4_.*\.json$/.test(file)).sort();
  const distinct = new Map<string, ToolDefinition<Record<string, unknown>>>();
  const functionsById = new Map<string, BfclFunction[]>();

  beforeAll(() => {
    for (const file of files) {
      for (const entry of parseJsonLines(readFileSync(join(CORPUS, file), "utf8")) as Entry[]) {
        functionsById.set(entry.id, entry.function);
        for (const fn of entry.function) {
          const key = JSON.stringify(fn);
          if (!distinct.has(key)) distinct.set(key, fromBfclFunction(fn));
        }
      }
    }
  });

  it("loads all 1,374 distinct definitions into one registry, and every schema compiles", () => {
    expect(files).toHaveLength(7);
    expect(distinct.size).toBe(1374);
    const registry = new ToolRegistry({ cacheSize: Infinity });
    const used = new Set<string>();
    for (const definition of distinct.values()) {
      // Distinct definitions may share a name: number the later ones (`:` is a valid registry name character).
      let name = definition.name;
      for (let suffix = 2; used.has(name); suffix++) name = `${definition.name}:${suffix}`;
      used.add(name);
      registry.register({ ...definition, name }, () => null);
    }
    expect(() => registry.compileAll()).not.toThrow();
    expect(registry.list()).toHaveLength(1374);
    expect(registry.cacheStats().misses).toBe(1374);
  });

  it("accepts exactly what Ajv accepts on every first-listed accepted answer, nearly all of them", () => {
    const ajv = new Ajv({ strict: false, validateFormats: false });
    const oracles = new Map<ToolDefinition<Record<string, unknown>>, ValidateFunction>();
    const disagreements: string[] = [];
    let answers = 0;
    let accepted = 0;
    for (const file of files) {
      for (const answer of parseJsonLines(readFileSync(join(CORPUS, "possible_answer", file), "utf8")) as Answer[]) {
        for (const call of answer.ground_truth) {
          for (const [name, params] of Object.entries(call)) {
            const fn = functionsById.get(answer.id)?.find((candidate) => candidate.name === name);
            if (fn === undefined) continue;
            const definition = distinct.get(JSON.stringify(fn))!;
            let oracle = oracles.get(definition);
            if (oracle === undefined) oracles.set(definition, (oracle = ajv.compile(definition.parameters)));
            const args = firstAnswer(definition.parameters, params);
            let ours: boolean;
            try {
              validateToolArguments(definition, args);
              ours = true;
            } catch {
              ours = false;
            }
            answers++;
            if (ours) accepted++;
            if (ours !== oracle(args)) disagreements.push(`${answer.id} ${name}`);
          }
        }
      }
    }
    expect(answers).toBeGreaterThan(2000);
    expect(disagreements).toEqual([]);
    // A dialect left unmapped ("float" kept as a type) would refuse most of them.
    expect(accepted / answers).toBeGreaterThan(0.97);
  });
});

/** The first accepted value of each parameter (`""` means left out); a dict's answer is again a map of lists. */
function firstAnswer(schema: Record<string, unknown> | undefined, params: Record<string, unknown>): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const properties = (schema?.properties ?? {}) as Record<string, Record<string, unknown> | undefined>;
  for (const [key, accepted] of Object.entries(params)) {
    const value = Array.isArray(accepted) ? accepted[0] : accepted;
    if (value === "") continue;
    const property = properties[key];
    const isMapOfLists = typeof value === "object" && value !== null && !Array.isArray(value) && Object.values(value).every(Array.isArray);
    args[key] = property?.type === "object" && isMapOfLists ? firstAnswer(property, value as Record<string, unknown>) : value;
  }
  return args;
}
