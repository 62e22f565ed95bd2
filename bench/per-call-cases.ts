import { validateToolArguments as piValidateToolArguments, type Tool as PiTool } from "@mariozechner/pi-ai";
import { Ajv } from "ajv";
import { Compile, type Validator } from "typebox/compile";
import { ToolArgumentsValidationError, ToolRegistry, type ToolCallContent } from "../src/index.js";
import type { BenchCase } from "./measure.js";
import type { SchemaFixture } from "./schemas.js";
import { zodSchemaFor } from "./zod-schemas.js";

/** How a call's arguments arrive: an object, or the JSON text a provider delivered. */
export type ArgumentsForm = "object" | "json";

const TOOL_NAME = "tool";
// Ignores its arguments: the cases measure only what happens around the handler.
const handler: (args: unknown) => number = () => 1;

/**
 * The per-call cases for one schema and one arguments form. Every case ends
 * with `await handler(args)` on a handler that returns 1, so only the
 * overhead around the handler differs. For JSON text, the cases other than
 * dispatch and the reference parse the text first, then take their object path.
 */
export function perCallCases(fixture: SchemaFixture, form: ArgumentsForm): BenchCase[] {
  const { schema, validArguments } = fixture;
  const text = JSON.stringify(validArguments);
  const call: ToolCallContent = { type: "tool_call", id: "call_1", name: TOOL_NAME, arguments: form === "json" ? text : validArguments };
  const argumentsOf: () => Record<string, unknown> = form === "json" ? () => JSON.parse(text) as Record<string, unknown> : () => validArguments;

  const registry = new ToolRegistry().register({ name: TOOL_NAME, description: "benchmark tool", parameters: schema }, handler);
  const validator = Compile(schema);
  const ajvValidate = new Ajv({ strict: false, coerceTypes: false }).compile(schema);
  const zodSchema = zodSchemaFor(fixture.size);
  const piTool: PiTool = { name: TOOL_NAME, description: "benchmark tool", parameters: schema };

  const reference: BenchCase =
    form === "json"
      ? {
          id: "reference",
          label: "reference: handler(check(JSON.parse(text)))",
          run: async (n) => { for (let i = 0; i < n; i++) await handler(checked(validator, JSON.parse(text))); },
        }
      : {
          id: "reference",
          label: "reference: handler(check(copy(args)))",
          run: async (n) => { for (let i = 0; i < n; i++) await handler(checked(validator, plainCopy(validArguments))); },
        };

  return [
    { id: "dispatch", label: "registry.dispatch", run: async (n) => { for (let i = 0; i < n; i++) await registry.dispatch(call); } },
    reference,
    {
      id: "compile-per-call",
      label: "Compile + structuredClone per call",
      run: async (n) => { for (let i = 0; i < n; i++) await handler(checked(Compile(schema), structuredClone(argumentsOf()))); },
    },
    {
      id: "structured-clone",
      label: "cached validator + structuredClone",
      run: async (n) => { for (let i = 0; i < n; i++) await handler(checked(validator, structuredClone(argumentsOf()))); },
    },
    {
      id: "ajv",
      label: "Ajv validate (no copy)",
      run: async (n) => {
        for (let i = 0; i < n; i++) {
          const value = argumentsOf();
          if (!ajvValidate(value)) throw new Error("Ajv refused valid arguments");
          await handler(value);
        }
      },
    },
    { id: "zod", label: "zod parse", run: async (n) => { for (let i = 0; i < n; i++) await handler(zodSchema.parse(argumentsOf())); } },
    {
      id: "pi-ai",
      label: "pi-ai validateToolArguments",
      run: async (n) => {
        for (let i = 0; i < n; i++) await handler(piValidateToolArguments(piTool, { type: "toolCall", id: "call_1", name: TOOL_NAME, arguments: argumentsOf() }));
      },
    },
  ];
}

/** Dispatch of valid against invalid (caught) large arguments, through one registry. */
export function invalidPathCases(fixture: SchemaFixture, invalidArguments: Record<string, unknown>): BenchCase[] {
  const registry = new ToolRegistry().register({ name: TOOL_NAME, description: "benchmark tool", parameters: fixture.schema }, handler);
  const validCall: ToolCallContent = { id: "call_1", name: TOOL_NAME, arguments: fixture.validArguments };
  const invalidCall: ToolCallContent = { id: "call_2", name: TOOL_NAME, arguments: invalidArguments };
  return [
    { id: "valid", label: "dispatch, valid arguments", run: async (n) => { for (let i = 0; i < n; i++) await registry.dispatch(validCall); } },
    {
      id: "invalid",
      label: "dispatch, invalid arguments (caught)",
      run: async (n) => {
        for (let i = 0; i < n; i++) {
          try {
            await registry.dispatch(invalidCall);
            throw new Error("invalid arguments were accepted");
          } catch (error) {
            if (!(error instanceof ToolArgumentsValidationError)) throw error;
          }
        }
      },
    },
  ];
}

function checked(validator: Validator, value: unknown): unknown {
  if (!validator.Check(value)) throw new Error("valid arguments were refused");
  return value;
}

/** The reference's copy: the least a private copy of plain JSON-like data costs. */
function plainCopy(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(plainCopy);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = plainCopy((value as Record<string, unknown>)[key]);
  return copy;
}
