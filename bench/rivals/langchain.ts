import { tool } from "@langchain/core/tools";
import type { Subject } from "./subject.js";

/**
 * LangChain (`@langchain/core`) with a Zod schema: a tool made by `tool()`
 * and invoked with the arguments object, the way a tool node runs a model's
 * parsed tool call. It takes objects: the JSON-text column parses the text first.
 */
export const langChain: Subject = {
  id: "langchain",
  label: "LangChain tool().invoke, Zod",
  packageName: "@langchain/core",
  calls: "tool(execute, { schema: zodSchema }).invoke(args)",
  connect: async (schemas, handler) => {
    const langChainTool = tool(async (input: unknown) => handler(input), { name: "tool", description: "benchmark tool", schema: schemas.zod });
    return { object: (args) => langChainTool.invoke(args) };
  },
};
