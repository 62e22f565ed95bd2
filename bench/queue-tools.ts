import { ToolRegistry, Type } from "../src/index.js";

/** The handlers the queue bench times: one that returns at once, one that waits 20 ms. */
export const HANDLER_MS: Readonly<Record<string, number>> = { instant: 0, wait20: 20 };

/** The bench's registry, the same on the sender and the workers: a tool per handler, `run(handlerMs)` behind each. */
export function queueBenchRegistry(run: (handlerMs: number) => unknown): ToolRegistry {
  const registry = new ToolRegistry();
  const parameters = Type.Object({ n: Type.Integer({ minimum: 0 }), label: Type.String({ maxLength: 32 }) });
  for (const [name, handlerMs] of Object.entries(HANDLER_MS)) registry.register({ name, description: `returns after ${handlerMs} ms`, parameters }, () => run(handlerMs));
  return registry;
}
