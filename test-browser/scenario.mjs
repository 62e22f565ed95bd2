// The calls of the browser test, run by the page (under the CSP) and by run.mjs in Node
// (with code generation allowed), so that the two can be compared outcome for outcome.
import { ToolRegistry } from "../dist/index.js";
import { notify, read } from "./tools.mjs";

/** One dispatch each; `arguments` is an object or the JSON text providers deliver. */
export const cases = [
  { label: "read: valid object", name: "read", arguments: { path: "a/b.txt", offset: 1 } },
  { label: "read: valid JSON text", name: "read", arguments: '{"path":"docs/readme.md"}' },
  { label: "read: missing required path", name: "read", arguments: { offset: 1 } },
  { label: "read: offset \"20\" (string for integer), object", name: "read", arguments: { path: "a", offset: "20" } },
  { label: "read: offset \"20\" (string for integer), JSON text", name: "read", arguments: '{"path":"b","offset":"20"}' },
  { label: "read: offset 1.5 (not an integer)", name: "read", arguments: { path: "a", offset: 1.5 } },
  { label: "read: offset -1 (below minimum)", name: "read", arguments: { path: "a", offset: -1 } },
  { label: "read: path against pattern", name: "read", arguments: { path: "UPPER" } },
  { label: "read: JSON text that does not parse", name: "read", arguments: '{"path":' },
  { label: "notify: valid object", name: "notify", arguments: { to: "ops@example.com", level: "warn", tags: ["disk"] } },
  { label: "notify: valid JSON text", name: "notify", arguments: '{"to":"ops@example.com","level":"info"}' },
  { label: "notify: email format", name: "notify", arguments: { to: "not-an-address", level: "info" } },
  { label: "notify: union of literals", name: "notify", arguments: { to: "ops@example.com", level: "debug" } },
  { label: "notify: additional property", name: "notify", arguments: { to: "ops@example.com", level: "info", cc: "x" } },
  { label: "notify: maxItems, JSON text", name: "notify", arguments: '{"to":"ops@example.com","level":"info","tags":["a","b","c","d"]}' },
  { label: "notify: minLength of an item", name: "notify", arguments: { to: "ops@example.com", level: "info", tags: [""] } },
  { label: "unknown tool", name: "raed", arguments: { path: "a" } },
];

/** One dispatchAll over a mix of good and bad calls. */
export const batch = [
  { type: "tool_call", id: "b1", name: "read", arguments: { path: "x.txt" } },
  { type: "tool_call", id: "b2", name: "read", arguments: '{"path":"x.txt","offset":"20"}' },
  { type: "tool_call", id: "b3", name: "notify", arguments: { to: "ops@example.com", level: "info" } },
  { type: "tool_call", id: "b4", name: "nope", arguments: {} },
];

export function makeRegistry(options) {
  const registry = new ToolRegistry(options);
  registry.register(read, ({ path, offset }) => ({ read: path, from: offset ?? 0 }));
  registry.register(notify, async ({ to, level, tags }) => `sent ${level} to ${to}${tags === undefined ? "" : ` [${tags.join(",")}]`}`);
  return registry;
}

function describeError(error) {
  const described = { ok: false, error: error?.name ?? typeof error, message: String(error?.message ?? error) };
  if (Array.isArray(error?.issues)) described.issues = [...error.issues];
  if (Array.isArray(error?.suggestions)) described.suggestions = [...error.suggestions];
  return described;
}

/** Registers the tools on a fresh registry, runs every case and the batch; returns JSON-safe outcomes. */
export async function runScenario(options) {
  const registry = makeRegistry(options);
  const outcomes = [];
  for (const { label, name, arguments: args } of cases) {
    try {
      const value = await registry.dispatch({ type: "tool_call", id: label, name, arguments: args });
      outcomes.push({ label, ok: true, value });
    } catch (error) {
      outcomes.push({ label, ...describeError(error) });
    }
  }
  const results = (await registry.dispatchAll(batch)).map((result) =>
    result.isError
      ? { toolCallId: result.toolCallId, toolName: result.toolName, isError: true, error: result.error?.name, content: result.content }
      : { toolCallId: result.toolCallId, toolName: result.toolName, isError: false, value: result.value },
  );
  return { outcomes, batch: results, stats: { ...registry.cacheStats(), ...registry.compileStats() } };
}
