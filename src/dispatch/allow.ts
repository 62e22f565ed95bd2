import { describeOption } from "../options.js";

/** Which registered tools a dispatch may run: an iterable of registry names, or a predicate of the name. */
export type AllowList = Iterable<string> | ((toolName: string) => boolean);

/**
 * The `allow` option as a test of a registry name, or `undefined` when unset. Names are matched
 * exactly, as the registry looks them up: no case folding, no trimming, so no spelling of a name
 * reaches a tool outside the list. A predicate that throws, or answers anything but `true`, refuses.
 * @throws TypeError for anything else (a single string too: pass `[name]`)
 */
export function allowTest(allow: unknown): ((toolName: string) => boolean) | undefined {
  if (allow === undefined) return undefined;
  if (typeof allow === "function") {
    const predicate = allow as (toolName: string) => unknown;
    return (toolName) => {
      try {
        return predicate(toolName) === true;
      } catch {
        return false;
      }
    };
  }
  if (typeof allow === "object" && allow !== null && typeof (allow as Iterable<unknown>)[Symbol.iterator] === "function") {
    const names = new Set<string>();
    for (const name of allow as Iterable<unknown>) {
      if (typeof name !== "string") throw new TypeError(`allow must hold tool names (strings), got ${describeOption(name)}`);
      names.add(name);
    }
    return (toolName) => names.has(toolName);
  }
  throw new TypeError(`allow must be an iterable of tool names or a function of the name, got ${describeOption(allow)}`);
}
