import { describe, expect, it } from "vitest";
import { probeBehaviour, type BehaviourRow } from "../bench/behaviour.js";
import { PROBED } from "../bench/rivals/all.js";

type Finding = Pick<BehaviourRow, "form" | "validates" | "coercion" | "unknownKeys" | "handlerGets" | "valuesInErrors">;

// What the README's benchmark table and docs/benchmarks.md say each library does with the arguments.
// A rival's new version that behaves otherwise turns this red: then update the table, the docs and this.
const DOCUMENTED: Readonly<Record<string, Finding>> = {
  registry: { form: "object", validates: "yes", coercion: "refused", unknownKeys: "kept", handlerGets: "a deep copy", valuesInErrors: "no" },
  "registry-mcp": { form: "object", validates: "yes", coercion: "refused", unknownKeys: "kept", handlerGets: "a deep copy", valuesInErrors: "no" },
  "ai-sdk-zod": { form: "object", validates: "yes", coercion: "refused", unknownKeys: "dropped", handlerGets: "a deep copy", valuesInErrors: "in the error message" },
  "ai-sdk-json-schema": { form: "object", validates: "no", coercion: "passed on as text", unknownKeys: "kept", handlerGets: "the caller's object", valuesInErrors: "never refuses" },
  "openai-agents": { form: "JSON text", validates: "yes", coercion: "refused", unknownKeys: "dropped", handlerGets: "a parse of the text", valuesInErrors: "no" },
  langchain: { form: "object", validates: "yes", coercion: "refused", unknownKeys: "dropped", handlerGets: "a deep copy", valuesInErrors: "in the error's fields" },
  "pi-ai": { form: "object", validates: "yes", coercion: "converted to 20", unknownKeys: "kept", handlerGets: "a deep copy", valuesInErrors: "in the error message" },
  ajv: { form: "object", validates: "yes", coercion: "refused", unknownKeys: "kept", handlerGets: "the caller's object", valuesInErrors: "no" },
  zod: { form: "object", validates: "yes", coercion: "refused", unknownKeys: "dropped", handlerGets: "a deep copy", valuesInErrors: "no" },
  "mcp-sdk-zod": { form: "object", validates: "yes", coercion: "refused", unknownKeys: "dropped", handlerGets: "a deep copy", valuesInErrors: "no" },
};

describe("what each library does with the arguments (bench behaviour probe)", () => {
  it("finds what the documentation says, for the registry and every rival", async () => {
    const rows = await probeBehaviour(PROBED);
    const found = Object.fromEntries(rows.map(({ id, form, validates, coercion, unknownKeys, handlerGets, valuesInErrors }) => [id, { form, validates, coercion, unknownKeys, handlerGets, valuesInErrors }]));
    expect(found).toEqual(DOCUMENTED);
  }, 30_000);

  it("names each library's pinned version", async () => {
    const rows = await probeBehaviour(PROBED);
    for (const row of rows) expect(row.version).toMatch(/^\d+\.\d+\.\d+$/);
  }, 30_000);
});
