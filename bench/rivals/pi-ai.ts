import { validateToolArguments, type Tool } from "@mariozechner/pi-ai";
import type { Subject } from "./subject.js";

/** pi-ai's `validateToolArguments` with the TypeBox schema, then the handler. It takes objects. */
export const piAi: Subject = {
  id: "pi-ai",
  label: "pi-ai validateToolArguments",
  packageName: "@mariozechner/pi-ai",
  calls: "handler(validateToolArguments(tool, toolCall))",
  connect: async (schemas, handler) => {
    const piTool: Tool = { name: "tool", description: "benchmark tool", parameters: schemas.typebox };
    return { object: async (args) => handler(validateToolArguments(piTool, { type: "toolCall", id: "call_1", name: "tool", arguments: args })) };
  },
};
