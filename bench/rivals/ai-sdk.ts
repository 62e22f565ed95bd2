import { asSchema, executeTool, jsonSchema, safeParseJSON, safeValidateTypes, type Tool } from "@ai-sdk/provider-utils";
import { InvalidToolInputError, type JSONSchema7, tool } from "ai";
import type { Invoker, Subject } from "./subject.js";

const TOOL_NAME = "tool";

/**
 * The Vercel AI SDK (v6; v7 needs Node 22) with a Zod schema. `generateText`
 * runs each call through `parseToolCall` then `executeTool`; `parseToolCall`
 * is internal to the package, so this takes the same steps with the public
 * functions it calls: `asSchema` of the tool's schema, `safeParseJSON` with
 * it for JSON text (`safeValidateTypes` for an object), then `executeTool`.
 */
export const aiSdkZod: Subject = {
  id: "ai-sdk-zod",
  label: "AI SDK parseToolCall + executeTool, Zod",
  packageName: "ai",
  calls: "tool({ inputSchema: zodSchema, execute }); asSchema + safeParseJSON (safeValidateTypes for an object), then executeTool",
  connect: async (schemas, handler) => invoker(tool({ inputSchema: schemas.zod, execute: async (input) => handler(input) })),
};

/** The same path with `jsonSchema()`: the AI SDK then checks nothing unless given a `validate` function. */
export const aiSdkJsonSchema: Subject = {
  id: "ai-sdk-json-schema",
  label: "AI SDK parseToolCall + executeTool, jsonSchema()",
  packageName: "ai",
  calls: "tool({ inputSchema: jsonSchema(schema), execute }); the same steps",
  connect: async (schemas, handler) =>
    invoker(tool({ inputSchema: jsonSchema(schemas.typebox as JSONSchema7), execute: async (input) => handler(input) })),
};

function invoker<INPUT>(aiTool: Tool<INPUT, unknown>): Invoker {
  const execute = aiTool.execute!;
  const run = async (input: INPUT): Promise<unknown> => {
    let output: unknown;
    for await (const part of executeTool({ execute, input, options: { toolCallId: "call_1", messages: [] } })) {
      if (part.type === "final") output = part.output;
    }
    return output;
  };
  return {
    object: async (args) => {
      const parsed = await safeValidateTypes({ value: args, schema: asSchema(aiTool.inputSchema) });
      if (!parsed.success) throw parsed.error;
      return run(parsed.value);
    },
    text: async (text) => {
      // What parseToolCall does with a model's tool call (`doParseToolCall` in the ai package).
      const schema = asSchema(aiTool.inputSchema);
      const parsed = text.trim() === "" ? await safeValidateTypes({ value: {}, schema }) : await safeParseJSON({ text, schema });
      if (!parsed.success) throw new InvalidToolInputError({ toolName: TOOL_NAME, toolInput: text, cause: parsed.error });
      return run(parsed.value);
    },
  };
}
