import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import { beforeAll, expect, it } from "vitest";
import { ToolRegistry, validateToolArguments, type ToolDefinition } from "../../src/index.js";
import { type BfclFunction, fromBfclFunction, parseJsonLines } from "../../src/bfcl/index.js";
import { answerVariants } from "../../bench/bfcl-answers.js";

interface Entry {
  id: string;
  function: BfclFunction[];
}
interface Answer {
  id: string;
  ground_truth: Array<Record<string, Record<string, unknown>>>;
}

/** What a BFCL folder must hold: its files, its distinct definitions, its answers. */
export interface Expected {
  files: number;
  distinct: number;
  minimumAnswers: number;
}

/**
 * A BFCL folder loads into one registry, and the registry agrees with Ajv on its first-listed
 * answers, read by BFCL's conventions (`""` left out, nested option lists in dicts and in arrays
 * of dicts, as `bench/bfcl-answers.ts` reads them).
 */
export function bfclSuite(directory: string, expected: Expected): void {
  let files: string[] = [];
  const distinct = new Map<string, ToolDefinition<Record<string, unknown>>>();
  const functionsById = new Map<string, BfclFunction[]>();

  beforeAll(() => {
    files = readdirSync(directory).filter((file) => /^BFCL_v4_.*\.json$/.test(file)).sort();
    for (const file of files) {
      for (const entry of parseJsonLines(readFileSync(join(directory, file), "utf8")) as Entry[]) {
        functionsById.set(entry.id, entry.function);
        for (const fn of entry.function) {
          const key = JSON.stringify(fn);
          if (!distinct.has(key)) distinct.set(key, fromBfclFunction(fn));
        }
      }
    }
  });

  it(`loads all ${expected.distinct} distinct definitions into one registry, and every schema compiles`, () => {
    expect(files).toHaveLength(expected.files);
    expect(distinct.size).toBe(expected.distinct);
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
    expect(registry.list()).toHaveLength(expected.distinct);
    expect(registry.cacheStats().misses).toBe(expected.distinct);
  });

  it("accepts exactly what Ajv accepts on every first-listed accepted answer, nearly all of them", () => {
    const ajv = new Ajv({ strict: false, validateFormats: false });
    const oracles = new Map<ToolDefinition<Record<string, unknown>>, ValidateFunction>();
    const disagreements: string[] = [];
    let answers = 0;
    let accepted = 0;
    for (const file of files) {
      for (const answer of parseJsonLines(readFileSync(join(directory, "possible_answer", file), "utf8")) as Answer[]) {
        for (const call of answer.ground_truth) {
          for (const [name, params] of Object.entries(call)) {
            const fn = functionsById.get(answer.id)?.find((candidate) => candidate.name === name);
            if (fn === undefined) continue;
            const definition = distinct.get(JSON.stringify(fn))!;
            let oracle = oracles.get(definition);
            if (oracle === undefined) oracles.set(definition, (oracle = ajv.compile(definition.parameters)));
            const args = answerVariants(params, fn.parameters).variants[0]!.args;
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
    expect(answers).toBeGreaterThanOrEqual(expected.minimumAnswers);
    expect(disagreements).toEqual([]);
    // A dialect left unmapped ("float" kept as a type) would refuse most of them.
    expect(accepted / answers).toBeGreaterThan(0.97);
  });
}
