import { describeOption, oneOf, positiveInteger } from "../options.js";
import type { DispatchAllOptions, ToolCallContent, ToolResult } from "../types.js";

/**
 * `dispatchAll`'s calls, checked to be an array (the registry's, a queue's).
 * @throws TypeError for anything else
 */
export function checkCalls(calls: unknown): void {
  if (!Array.isArray(calls)) throw new TypeError(`calls must be an array of tool calls, got ${describeOption(calls)}`);
}

/**
 * How many calls of one `dispatchAll` (or stream) may run at once: `concurrency` (no bound when
 * unset), or one with `order: "sequential"`.
 * @throws TypeError for an `order` or a `concurrency` of the wrong kind
 */
export function concurrencyOf(options: Pick<DispatchAllOptions, "order" | "concurrency">): number {
  const order = options.order === undefined ? "parallel" : oneOf("order", options.order, ["parallel", "sequential"]);
  return order === "sequential" ? 1 : positiveInteger("concurrency", options.concurrency ?? Infinity, true);
}

/**
 * Settles every call with `settle`, at most `concurrency` at a time (the next starts as one
 * settles, in input order), and gives their results in input order.
 * @param settle one call's way to its result, which never rejects (a failure is a result)
 */
export async function settleAll(calls: readonly ToolCallContent[], concurrency: number, settle: (call: ToolCallContent) => Promise<ToolResult>): Promise<ToolResult[]> {
  const results = new Array<ToolResult>(calls.length);
  let next = 0;
  const work = async (): Promise<void> => {
    while (next < calls.length) {
      const index = next++;
      results[index] = await settle(calls[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, calls.length) }, work));
  return results;
}
