import { RunContext, tool } from "@openai/agents-core";
import type { Subject } from "./subject.js";

/**
 * OpenAI's Agents SDK (`@openai/agents-core` 0.14; 0.15 and later need the
 * `openai` package 7, which needs Node 22) with a Zod schema: a function tool
 * invoked as the runner does, with the call's JSON text. It takes text only.
 * A failure comes back as text for the model (the default `errorFunction`),
 * not as a rejection.
 */
export const openAiAgents: Subject = {
  id: "openai-agents",
  label: "OpenAI Agents tool().invoke, Zod",
  packageName: "@openai/agents-core",
  calls: "tool({ parameters: zodSchema, execute }).invoke(new RunContext(), text)",
  connect: async (schemas, handler) => {
    const functionTool = tool({ name: "tool", description: "benchmark tool", parameters: schemas.zod, execute: async (input) => handler(input) });
    const context = new RunContext();
    return { text: (text) => functionTool.invoke(context, text) };
  },
};
