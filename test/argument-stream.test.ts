import { inspect } from "node:util";
import { describe, expect, it, vi } from "vitest";
import { ToolArgumentsValidationError, ToolRegistry, Type, UnknownToolError, type RepairReport } from "../src/index.js";
import { readParameters, readTool, rejectionOf, thrownBy, toolCall } from "./support/fixtures.js";

function registry(options: ConstructorParameters<typeof ToolRegistry>[0] = {}) {
  const handler = vi.fn((args: unknown) => args);
  return { registry: new ToolRegistry(options).register(readTool, handler), handler };
}

/** Pushes `text` in pieces of `size` characters; returns the last state. */
function pushAll(stream: { push(delta: string): unknown }, text: string, size = 3) {
  let state: unknown;
  for (let start = 0; start < text.length; start += size) state = stream.push(text.slice(start, start + size));
  return state as { value: unknown; issues: readonly string[]; done: boolean };
}

describe("registry.argumentStream", () => {
  it("ends with the private checked copy dispatch gives the handler", async () => {
    const { registry: tools, handler } = registry();
    const text = '{"path":"notes.txt","offset":4}';
    const stream = tools.argumentStream<typeof readParameters>("read");
    const state = pushAll(stream, text);
    expect(state.done).toBe(false);
    const args = stream.end();
    expect(args).toEqual({ path: "notes.txt", offset: 4 });
    await tools.dispatch(toolCall("read", text));
    expect(handler.mock.calls[0]![0]).toEqual(args);
    // Private: not the partial value the pushes showed.
    expect(args).not.toBe(state.value);
  });

  it("says done is false until end(), and true after it on a state kept from a push, whether end() passed or threw", () => {
    const { registry: tools } = registry();
    const passing = tools.argumentStream("read");
    const kept = passing.push('{"path":"notes.txt"}');
    expect(kept.done).toBe(false);
    passing.end();
    expect(kept.done).toBe(true);
    expect({ ...kept }).toEqual({ value: { path: "notes.txt" }, issues: [], done: true });
    const failing = tools.argumentStream("read");
    const refused = failing.push('{"path":4}');
    expect(() => failing.end()).toThrow(ToolArgumentsValidationError);
    expect(refused.done).toBe(true);
  });

  it("writes each push's state as JSON, and shows it in Node's inspect, as { value, issues, done } at that moment", () => {
    const stream = registry().registry.argumentStream("read");
    const first = stream.push('{"path":"no');
    expect(JSON.parse(JSON.stringify(first))).toEqual({ value: { path: "no" }, issues: [], done: false });
    expect(inspect(first)).toBe(inspect({ value: { path: "no" }, issues: [], done: false }));
    const second = stream.push('tes.txt","offset":"4"');
    expect(JSON.parse(JSON.stringify(second))).toEqual({ value: { path: "notes.txt", offset: "4" }, issues: ["/offset: must be integer (>= 0)"], done: false });
  });

  it("returns { value, issues, done } as its own properties, which deep equality, a spread and Object.keys see", () => {
    const stream = registry().registry.argumentStream("read");
    const state = stream.push('{"path":"no');
    expect(state).toEqual({ value: { path: "no" }, issues: [], done: false });
    expect(Object.keys(state)).toEqual(["value", "issues", "done"]);
    expect({ ...state }).toEqual({ value: { path: "no" }, issues: [], done: false });
    expect(Object.create(state).value).toEqual({ path: "no" });
    expect(() => new Proxy(state, {}).value).toThrow(TypeError);
  });

  it("keeps each state's issues as they were at its push, while its value is the stream's one value", () => {
    const stream = registry().registry.argumentStream("read");
    const first = stream.push('{"path":"notes.txt"');
    const second = stream.push(',"offset":"4"');
    const third = stream.push("}");
    expect(first).toEqual({ value: { path: "notes.txt", offset: "4" }, issues: [], done: false });
    expect(second.issues).toEqual(["/offset: must be integer (>= 0)"]);
    // A push that finds no new issue shows what the last one showed, and is the same state.
    expect(third).toBe(second);
  });

  it("makes a new state at each push once the value was read, so that a UI's setState sees each change", () => {
    const stream = registry().registry.argumentStream("read");
    const states = ['{"pa', 'th":"no', "tes", '.txt"}'].map((piece) => {
      const state = stream.push(piece);
      void state.value;
      return state;
    });
    expect(new Set(states).size).toBe(4);
    expect(states[3]!.value).toEqual({ path: "notes.txt" });
  });

  it("throws at end() the ToolArgumentsValidationError dispatch throws, with the same issues", async () => {
    const { registry: tools } = registry();
    const text = '{"path":7,"offset":-1,"extra":true}';
    const stream = tools.argumentStream("read");
    pushAll(stream, text);
    const streamed = thrownBy(() => stream.end()) as ToolArgumentsValidationError;
    // Through another registry: through this one, the same refusal again would be a repeat, and say so.
    const dispatched = (await rejectionOf(registry().registry.dispatch(toolCall("read", text)))) as ToolArgumentsValidationError;
    expect(streamed).toBeInstanceOf(ToolArgumentsValidationError);
    expect(streamed.issues).toEqual(dispatched.issues);
    expect(streamed.message).toBe(dispatched.message);
  });

  it("ends a text cut short with `/: arguments must be valid JSON`", () => {
    const stream = registry().registry.argumentStream("read");
    stream.push('{"path":"no');
    expect((thrownBy(() => stream.end()) as ToolArgumentsValidationError).issues).toEqual(["/: arguments must be valid JSON"]);
  });

  it("ends an empty text as dispatch ends an empty string: not JSON", () => {
    const stream = registry().registry.argumentStream("read");
    expect((thrownBy(() => stream.end()) as ToolArgumentsValidationError).issues).toEqual(["/: arguments must be valid JSON"]);
  });

  it("builds the partial value when it is read, as one value brought up to date at each read", () => {
    const stream = registry().registry.argumentStream("read");
    const first = stream.push('{"path":"no');
    const value = first.value as Record<string, unknown>;
    expect(value).toEqual({ path: "no" });
    stream.push('tes.txt","offset":1');
    const third = stream.push("2}");
    expect(third.value).toBe(value);
    expect(value).toEqual({ path: "notes.txt", offset: 12 });
  });

  it("stops keeping text past maxArgumentBytes: the size is the one issue, and end() throws dispatch's size error", async () => {
    const { registry: tools } = registry({ maxArgumentBytes: 64 });
    const stream = tools.argumentStream("read");
    expect(stream.push('{"path":7,"offset":0,"note":"').issues).toEqual(["/path: must be string"]);
    const state = stream.push("x".repeat(100));
    expect(state.issues).toEqual(["/: arguments must not be larger than 64 bytes"]);
    expect(stream.push('"}').issues).toEqual(["/: arguments must not be larger than 64 bytes"]);
    const streamed = thrownBy(() => stream.end()) as ToolArgumentsValidationError;
    const dispatched = (await rejectionOf(tools.dispatch(toolCall("read", `{"path":7,"offset":0,"note":"${"x".repeat(100)}"}`)))) as ToolArgumentsValidationError;
    expect(streamed.issues).toEqual(dispatched.issues);
  });

  it("prepares an oversized call once: end() throws dispatch's error for a first failure, and the registry counts one failure", async () => {
    const text = `{"s":"${"x".repeat(60)}`;
    const { registry: streamed } = registry({ maxArgumentBytes: 50 });
    const stream = streamed.argumentStream("read");
    expect(stream.push(text).issues).toEqual(["/: arguments must not be larger than 50 bytes"]);
    const error = thrownBy(() => stream.end()) as ToolArgumentsValidationError;
    const { registry: dispatched } = registry({ maxArgumentBytes: 50 });
    const expected = (await rejectionOf(dispatched.dispatch(toolCall("read", text)))) as ToolArgumentsValidationError;
    expect([error.issues, error.repeats]).toEqual([expected.issues, 0]);
    expect(streamed.failureStats()).toEqual({ argumentFailures: 1, repeatedFailures: 0 });
    expect(streamed.failureStats()).toEqual(dispatched.failureStats());
    // The same text streamed again is a repeat, as a second dispatch of it would be.
    const again = streamed.argumentStream("read");
    again.push(text);
    expect((thrownBy(() => again.end()) as ToolArgumentsValidationError).repeats).toBe(1);
    expect(streamed.failureStats()).toEqual({ argumentFailures: 2, repeatedFailures: 1 });
  });

  it("counts bytes as dispatch does: characters outside ASCII take two or three", () => {
    const { registry: tools } = registry({ maxArgumentBytes: 30 });
    const stream = tools.argumentStream("read");
    // 9 characters of JSON around 8 of "é" (2 bytes each): 25 bytes, then 3 more of "€" (3 bytes each): 34.
    expect(stream.push(`{"path":"${"é".repeat(8)}`).issues).toEqual([]);
    expect(stream.push("€€€").issues).toEqual(["/: arguments must not be larger than 30 bytes"]);
  });

  it("repairs at end() as dispatch does when repair is on, reporting the call id given", () => {
    const reports: RepairReport[] = [];
    const tools = new ToolRegistry({ onRepair: (report) => reports.push(report) }).register(readTool, () => 1);
    const stream = tools.argumentStream("read", { toolCallId: "call_7" });
    // "12" may become 12: with repair on, nothing is certain about a string.
    expect(stream.push('{"path":"a","offset":"12"}').issues).toEqual([]);
    expect(stream.end()).toEqual({ path: "a", offset: 12 });
    expect(reports).toEqual([{ toolName: "read", toolCallId: "call_7", repairs: [{ pointer: "/offset", from: "string", to: "number" }] }]);
  });

  it("reports nothing, when repair is on, about a required property's null that repair wraps as an array's one item, as dispatch accepts it", async () => {
    const parameters = { type: "object", properties: { v: { type: "array" } }, required: ["v"] };
    const tools = new ToolRegistry({ onRepair: () => {} }).register({ name: "list", description: "", parameters }, (args) => args);
    expect(await tools.dispatch({ id: "1", name: "list", arguments: '{"v":null}' })).toEqual({ v: [null] });
    const stream = tools.argumentStream("list");
    expect(stream.push('{"v":null}').issues).toEqual([]);
    expect(stream.end()).toEqual({ v: [null] });
    // Items that refuse null: repair cannot wrap it, and the stream says so at once.
    const strict = new ToolRegistry({ onRepair: () => {} }).register({ name: "list", description: "", parameters: { ...parameters, properties: { v: { type: "array", items: { type: "string" } } } } }, (args) => args);
    expect(strict.argumentStream("list").push('{"v":null').issues).toEqual(["/v: must be array of string"]);
  });

  it("throws UnknownToolError for a name no tool has, with the close names", () => {
    const error = thrownBy(() => registry().registry.argumentStream("raed")) as UnknownToolError;
    expect(error).toBeInstanceOf(UnknownToolError);
    expect(error.suggestions).toEqual(["read"]);
  });

  it("throws a TypeError for a name or an id that is not a string, a delta that is not one, and a push or end after end", () => {
    const tools = registry().registry;
    expect(thrownBy(() => tools.argumentStream(7 as never))).toEqual(new TypeError("toolName must be a string, got 7"));
    expect(thrownBy(() => tools.argumentStream("read", { toolCallId: 7 as never }))).toEqual(new TypeError("toolCallId must be a string, got 7"));
    const stream = tools.argumentStream("read");
    expect(thrownBy(() => stream.push({} as never))).toEqual(new TypeError("delta must be a string, got object"));
    stream.push('{"path":"a"}');
    stream.end();
    expect(thrownBy(() => stream.push("x"))).toEqual(new TypeError("push() was called after end(): the arguments are complete"));
    expect(thrownBy(() => stream.end())).toEqual(new TypeError("end() was already called"));
  });

  it("names the tool it streams for", () => {
    expect(registry().registry.argumentStream("read").toolName).toBe("read");
  });
});
