import { Type, type ToolCallContent, type ToolDefinition } from "../../src/index.js";

/** The example tool: read a file from an offset. */
export const readParameters = Type.Object({
  path: Type.String(),
  offset: Type.Optional(Type.Integer({ minimum: 0 })),
});

export const readTool = {
  name: "read",
  description: "Read a file",
  parameters: readParameters,
} satisfies ToolDefinition<typeof readParameters>;

/** A tool call as a model would send it. */
export function toolCall(name: string, args: ToolCallContent["arguments"], id = "call_1"): ToolCallContent {
  return { type: "tool_call", id, name, arguments: args };
}

/** The rejection of a promise, or a failure if it resolved. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the promise to reject, but it resolved");
}

/** The error a function throws, or a failure if it returned. */
export function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected the function to throw, but it returned");
}
