import { ToolRegistry } from "../../src/index.js";
import type { Subject } from "./subject.js";

/** This library: `registry.dispatch` of a call with object arguments or JSON text. */
export const registry: Subject = {
  id: "registry",
  label: "registry.dispatch",
  packageName: "typebox-tool-registry",
  calls: "registry.dispatch({ id, name, arguments })",
  connect: async (schemas, handler) => {
    const tools = new ToolRegistry().register({ name: "tool", description: "benchmark tool", parameters: schemas.typebox }, (args) => handler(args));
    return {
      object: (args) => tools.dispatch({ type: "tool_call", id: "call_1", name: "tool", arguments: args }),
      text: (text) => tools.dispatch({ type: "tool_call", id: "call_1", name: "tool", arguments: text }),
    };
  },
};
