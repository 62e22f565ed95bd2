import { getEventListeners } from "node:events";
import { inspect } from "node:util";
import { describe, expect, it, vi } from "vitest";
import {
  ToolAbortedError,
  ToolArgumentsValidationError,
  ToolDefinitionError,
  ToolExecutionError,
  ToolRegistry,
  ToolTimeoutError,
  Type,
  UnknownToolError,
  type ToolDefinition,
  type ToolHandler,
  type TSchema,
} from "../src/index.js";
import { readParameters, readTool, rejectionOf, thrownBy, toolCall } from "./support/fixtures.js";

function registryWithRead(handler: ToolHandler<typeof readParameters> = (args) => args): ToolRegistry {
  return new ToolRegistry().register(readTool, handler);
}

describe("ToolRegistry.register", () => {
  it("refuses an option it does not know, at register and in the constructor, naming it and the ones it takes: a misspelt limit is never dropped", () => {
    expect(() => new ToolRegistry().register(readTool, () => 1, { timeout: 5_000 } as never)).toThrow(
      new TypeError('unknown option "timeout": the options are timeoutMs, effects, cacheTtlMs, onceTtlMs, needsApproval, maxResultBytes, concurrency, exclusive, shared, rateLimit, circuitBreaker, retry'),
    );
    expect(() => new ToolRegistry({ repair: () => undefined } as never)).toThrow(/^unknown option "repair": the options are cacheSize, cacheKey, timeoutMs, .*onRepair/);
    expect(() => new ToolRegistry(null as never)).toThrow(new TypeError("options must be an object, got null"));
    // Unset is unset, whatever the name.
    expect(new ToolRegistry({ repair: undefined } as never).register(readTool, () => 1, { timeout: undefined } as never).has("read")).toBe(true);
  });

  it("throws a definition error for a duplicate name", () => {
    const registry = registryWithRead();
    const error = thrownBy(() => registry.register(readTool, () => 1));
    expect(error).toBeInstanceOf(ToolDefinitionError);
    expect((error as ToolDefinitionError).toolName).toBe("read");
    expect((error as Error).message).toContain('"read"');
  });

  it.each(["", " ", "has space", "new\nline", "slash/name", "é", "x".repeat(129)])("throws a definition error for the invalid name %j", (name) => {
    const error = thrownBy(() => new ToolRegistry().register({ ...readTool, name }, () => 1));
    expect(error).toBeInstanceOf(ToolDefinitionError);
  });

  it.each(["read", "uber.ride", "get-weather_v2", "server:tool", "x".repeat(128)])("accepts the name %j", (name) => {
    expect(new ToolRegistry().register({ ...readTool, name }, () => 1).has(name)).toBe(true);
  });

  it("throws a definition error for a name that is not a string", () => {
    expect(thrownBy(() => new ToolRegistry().register({ ...readTool, name: 42 as unknown as string }, () => 1))).toBeInstanceOf(ToolDefinitionError);
  });

  it.each([undefined, null, "handler", 42, {}])("throws a definition error for the handler %j", (handler) => {
    const error = thrownBy(() => new ToolRegistry().register(readTool, handler as unknown as ToolHandler<typeof readParameters>));
    expect(error).toBeInstanceOf(ToolDefinitionError);
    expect((error as Error).message).toContain("handler");
  });

  it.each([null, 5, "object", []])("throws a definition error for parameters %j", (parameters) => {
    const definition = { ...readTool, parameters } as unknown as ToolDefinition;
    expect(thrownBy(() => new ToolRegistry().register(definition, () => 1))).toBeInstanceOf(ToolDefinitionError);
  });

  it("does not compile anything at registration", () => {
    const registry = new ToolRegistry();
    registry.register(readTool, () => 1).register({ ...readTool, name: "read2" }, () => 1);
    expect(registry.cacheStats()).toMatchObject({ size: 0, hits: 0, misses: 0 });
  });
});

describe("ToolRegistry look-ups", () => {
  it("has, get, list and unregister behave like a Map in registration order", () => {
    const registry = new ToolRegistry();
    const write = { name: "write", description: "Write a file", parameters: Type.Object({ path: Type.String(), text: Type.String() }) };
    registry.register(write, () => 1).register(readTool, () => 1);
    expect(registry.has("read")).toBe(true);
    expect(registry.get("read")).toEqual(readTool);
    expect(Object.isFrozen(registry.get("read"))).toBe(true);
    expect(registry.list()).toEqual([write, readTool]);
    expect(registry.unregister("write")).toBe(true);
    expect(registry.unregister("write")).toBe(false);
    expect(registry.has("write")).toBe(false);
    expect(registry.get("write")).toBeUndefined();
    expect(registry.list()).toEqual([readTool]);
  });

  it.each(["toString", "__proto__", "constructor", "hasOwnProperty", "valueOf"])("never mistakes %j for a tool", async (name) => {
    const registry = registryWithRead();
    expect(registry.has(name)).toBe(false);
    expect(registry.get(name)).toBeUndefined();
    expect(registry.unregister(name)).toBe(false);
    expect(await rejectionOf(registry.dispatch(toolCall(name, {})))).toBeInstanceOf(UnknownToolError);
  });

  it("registers a tool named like an Object.prototype member as an ordinary tool", async () => {
    const registry = new ToolRegistry().register({ ...readTool, name: "toString" }, () => "mine");
    expect(await registry.dispatch(toolCall("toString", { path: "a" }))).toBe("mine");
    expect(registry.has("valueOf")).toBe(false);
  });
});

describe("ToolRegistry.dispatch", () => {
  it("refuses an option it does not know, in every verb that runs calls, naming it and the ones it takes, before any handler runs", async () => {
    const handler = vi.fn(() => "ran");
    const registry = new ToolRegistry().register(readTool, handler);
    const call = toolCall("read", { path: "a" });
    // A time limit given to a call, which only `register` and the registry take, would otherwise be dropped.
    expect(await rejectionOf(registry.dispatch(call, { timeoutMs: 5 } as never))).toEqual(new TypeError('unknown option "timeoutMs": the options are signal, approval, data, allow'));
    expect(await rejectionOf(registry.dispatchAll([call], { approval: "token" } as never))).toEqual(
      new TypeError('unknown option "approval": the options are signal, data, allow, concurrency, approvals, order'),
    );
    expect(thrownBy(() => registry.dispatchStream([], { onInvalid: "continue", abortcontroller: new AbortController() } as never))).toEqual(
      new TypeError('unknown option "abortcontroller": the options are signal, data, allow, concurrency, approvals, order, onInvalid, abortController'),
    );
    expect(await rejectionOf(registry.envelope(call, { signal: new AbortController().signal } as never))).toEqual(new TypeError('unknown option "signal": the options are approval, allow'));
    const envelope = await registry.envelope(call);
    expect(await rejectionOf(registry.execute(envelope, { timeoutMs: 5 } as never))).toEqual(new TypeError('unknown option "timeoutMs": the options are signal, data, delivery'));
    expect(handler).not.toHaveBeenCalled();
    // Unset is unset, whatever the name; an inherited property is no option.
    const inherited = Object.create({ timeoutMs: 5 }) as object;
    expect(await registry.dispatch(call, { timeoutMs: undefined } as never)).toBe("ran");
    expect(await registry.dispatch(call, inherited)).toBe("ran");
    // `null` is no options, as `dispatchAll` reads it.
    expect(await registry.dispatch(call, null as never)).toBe("ran");
    expect(await registry.dispatchAll([call], null as never)).toMatchObject([{ status: "ok", value: "ran" }]);
    expect(await registry.execute(envelope, inherited)).toMatchObject({ status: "ok", value: "ran" });
  });

  it("refuses options that are not an object as a whole, where a number or a function was read as no options and a string's characters as options named 0, 1…", async () => {
    const handler = vi.fn(() => "ran");
    const registry = new ToolRegistry().register(readTool, handler);
    const call = toolCall("read", { path: "a" });
    expect(await rejectionOf(registry.dispatch(call, 5 as never))).toEqual(new TypeError("options must be an object, got 5"));
    expect(await rejectionOf(registry.dispatchAll([call], (() => undefined) as never))).toEqual(new TypeError("options must be an object, got function"));
    expect(await rejectionOf(registry.approve({ toolCallId: "1", toolName: "read", arguments: {}, fingerprint: "x", requestedAt: "" }, "x" as never))).toEqual(
      new TypeError('options must be an object, got "x"'),
    );
    expect(handler).not.toHaveBeenCalled();
  });

  it("checks a dispatch's options in one pass, however many names it inherits or leaves unset", async () => {
    const registry = new ToolRegistry().register(readTool, () => "ran");
    const inherited: Record<string, unknown> = {};
    for (let index = 0; index < 50_000; index++) inherited[`option${index}`] = 1;
    const options = Object.assign(Object.create(inherited) as object, { data: 1 });
    // Quadratic, this took minutes (a full check for each name); linear, a few milliseconds.
    const started = performance.now();
    expect(await registry.dispatch(toolCall("read", { path: "a" }), options)).toBe("ran");
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("resolves with what the handler returned, given checked arguments and the call's context", async () => {
    const handler = vi.fn((args: { path: string }, context: { toolCallId: string; toolName: string; signal: AbortSignal }) => ({
      args,
      toolCallId: context.toolCallId,
      toolName: context.toolName,
      aborted: context.signal.aborted,
    }));
    const registry = new ToolRegistry().register(readTool, handler);
    const result = await registry.dispatch(toolCall("read", { path: "a.txt", offset: 2 }, "call_42"));
    expect(result).toEqual({ args: { path: "a.txt", offset: 2 }, toolCallId: "call_42", toolName: "read", aborted: false });
  });

  it("awaits an async handler", async () => {
    const registry = registryWithRead(async ({ path }) => `contents of ${path}`);
    expect(await registry.dispatch(toolCall("read", { path: "a" }))).toBe("contents of a");
  });

  it("accepts arguments as JSON text, the way providers deliver them", async () => {
    const registry = registryWithRead();
    expect(await registry.dispatch(toolCall("read", '{"path":"a","offset":1}'))).toEqual({ path: "a", offset: 1 });
  });

  it("hands the handler a copy, so mutating the caller's object afterwards does not reach it", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const registry = registryWithRead(async (args) => { await gate; return args.path; });
    const input: Record<string, unknown> = { path: "safe.txt" };
    const pending = registry.dispatch(toolCall("read", input));
    input.path = "/etc/shadow";
    release();
    expect(await pending).toBe("safe.txt");
  });

  it("rejects an unknown tool, naming it and suggesting close registered names", async () => {
    const registry = registryWithRead();
    registry.register({ ...readTool, name: "write" }, () => 1);
    const error = (await rejectionOf(registry.dispatch(toolCall("reed", {})))) as UnknownToolError;
    expect(error).toBeInstanceOf(UnknownToolError);
    expect(error.name).toBe("UnknownToolError");
    expect(error.toolName).toBe("reed");
    expect(error.suggestions).toEqual(["read"]);
    expect(error.message).toContain('"reed"');
    expect(error.message).toContain('Did you mean "read"?');
  });

  it("rejects invalid arguments without running the handler", async () => {
    const handler = vi.fn(() => 1);
    const registry = new ToolRegistry().register(readTool, handler);
    const error = (await rejectionOf(registry.dispatch(toolCall("read", { path: 20 })))) as ToolArgumentsValidationError;
    expect(error).toBeInstanceOf(ToolArgumentsValidationError);
    expect(error.toolName).toBe("read");
    expect(error.issues).toEqual(["/path: must be string"]);
    expect(handler).not.toHaveBeenCalled();
  });

  it("lists issues in the order the schema declares its parameters, whatever order the model wrote them in", async () => {
    const registry = new ToolRegistry().register({ name: "add", description: "Add", parameters: Type.Object({ a: Type.Number(), b: Type.Number() }) }, ({ a, b }) => a + b);
    const error = (await rejectionOf(registry.dispatch(toolCall("add", '{"b":"2","a":"2.5"}')))) as ToolArgumentsValidationError;
    expect(error.issues).toEqual(["/a: must be number", "/b: must be number"]);
    const missing = (await rejectionOf(registry.dispatch(toolCall("add", { a: "2.5" })))) as ToolArgumentsValidationError;
    expect(missing.issues).toEqual(["/a: must be number", "/b: must have required properties b"]);
  });

  it("rejects invalid JSON text without running the handler", async () => {
    const handler = vi.fn(() => 1);
    const registry = new ToolRegistry().register(readTool, handler);
    const error = (await rejectionOf(registry.dispatch(toolCall("read", "{not json")))) as ToolArgumentsValidationError;
    expect(error.issues).toEqual(["/: arguments must be valid JSON"]);
    expect(handler).not.toHaveBeenCalled();
  });

  it("wraps what a handler throws in a ToolExecutionError with the original as cause", async () => {
    const boom = new Error("disk on fire");
    const registry = registryWithRead(() => { throw boom; });
    const error = (await rejectionOf(registry.dispatch(toolCall("read", { path: "a" }, "call_7")))) as ToolExecutionError;
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect(error.name).toBe("ToolExecutionError");
    expect(error.toolName).toBe("read");
    expect(error.toolCallId).toBe("call_7");
    expect(error.cause).toBe(boom);
    expect(error.message).toContain("disk on fire");
  });

  it("wraps a rejection and a thrown non-Error value the same way", async () => {
    const rejecting = registryWithRead(async () => Promise.reject(new Error("later")));
    expect(await rejectionOf(rejecting.dispatch(toolCall("read", { path: "a" })))).toBeInstanceOf(ToolExecutionError);
    for (const thrown of ["a string", undefined, null, 42]) {
      const registry = registryWithRead(() => { throw thrown; });
      const error = (await rejectionOf(registry.dispatch(toolCall("read", { path: "a" })))) as ToolExecutionError;
      expect(error).toBeInstanceOf(ToolExecutionError);
      expect(error.cause).toBe(thrown);
    }
  });

  it("checks what was registered: changing the schema object afterwards changes nothing", async () => {
    const parameters = Type.Object({ code: Type.String({ pattern: "^[a-z]+$" }) });
    const registry = new ToolRegistry().register({ name: "guarded", description: "", parameters }, () => 1);
    // Loosen the caller's object after registering, before and after the first compile.
    (parameters.properties.code as unknown as { pattern: string }).pattern = ".*";
    const before = await rejectionOf(registry.dispatch(toolCall("guarded", { code: "1; DROP TABLE" })));
    (parameters.properties as Record<string, unknown>).code = {};
    const after = await rejectionOf(registry.dispatch(toolCall("guarded", { code: "1; DROP TABLE" })));
    expect(before).toBeInstanceOf(ToolArgumentsValidationError);
    expect(after).toBeInstanceOf(ToolArgumentsValidationError);
    expect(registry.get("guarded")?.parameters).toEqual(Type.Object({ code: Type.String({ pattern: "^[a-z]+$" }) }));
  });

  it("refuses at register a schema that is not plain data: a cycle or a getter", () => {
    const cyclic: Record<string, unknown> = { type: "object", properties: {} };
    (cyclic.properties as Record<string, unknown>).self = cyclic;
    expect(thrownBy(() => new ToolRegistry().register({ name: "cyclic", description: "", parameters: cyclic }, () => 1))).toBeInstanceOf(ToolDefinitionError);
    const getter = { type: "object", properties: { get a() { return { type: "string" }; } } };
    const error = thrownBy(() => new ToolRegistry().register({ name: "getter", description: "", parameters: getter }, () => 1)) as ToolDefinitionError;
    expect(error.message).toContain("/properties/a: is a getter or setter");
  });

  it.each([
    ["an object used twice at each of 20 levels", 2, 20, "k"],
    ["an object used ten times at each of 7 levels", 10, 7, "k"],
    ["long names used 25 times at each of 5 levels", 25, 5, "k".repeat(61)],
  ])("refuses at register a schema that writes out too large: %s", (_label, width, depth, key) => {
    let schema: TSchema = Type.Integer();
    for (let level = 0; level < depth; level++) schema = Type.Object(Object.fromEntries(Array.from({ length: width }, (_, index) => [`${key}${index}`, schema])));
    const error = thrownBy(() => new ToolRegistry().register({ name: "shared", description: "", parameters: schema }, () => 1)) as ToolDefinitionError;
    expect(error).toBeInstanceOf(ToolDefinitionError);
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]).toMatchObject({ pointer: "/" });
    expect(error.problems[0]!.problem).toMatch(/^the schema holds more than (100000 objects and arrays|16777216 characters of names and strings) once written out \(an object used in several places counts in each\)/);
  });

  it("registers a schema that uses one object in many places within the bound", () => {
    let schema: TSchema = Type.Integer();
    for (let level = 0; level < 4; level++) schema = Type.Object(Object.fromEntries(Array.from({ length: 10 }, (_, index) => [`k${index}`, schema])));
    expect(new ToolRegistry().register({ name: "shared", description: "", parameters: schema }, () => 1).has("shared")).toBe(true);
  });
});

describe("ToolRegistry.compileAll", () => {
  it("compiles every registered schema up front", () => {
    const registry = registryWithRead();
    registry.register({ ...readTool, name: "other", parameters: Type.Object({ id: Type.Integer() }) }, () => 1);
    registry.compileAll();
    expect(registry.cacheStats()).toMatchObject({ size: 2, misses: 2 });
  });

  it("surfaces a schema that cannot compile at startup", () => {
    // A precompiled module whose validator for this schema is broken: the compile fails, not a call.
    const parameters = Type.Object({ code: Type.String() });
    const key = JSON.stringify({ properties: { code: { type: "string" } }, required: ["code"], type: "object" });
    const corrupt = { SetExternal: () => { throw new Error("corrupt module"); }, Check: () => true };
    const registry = new ToolRegistry({ precompiled: { [key]: corrupt } });
    registry.register({ name: "broken", description: "", parameters }, () => 1);
    const error = thrownBy(() => registry.compileAll()) as ToolDefinitionError;
    expect(error).toBeInstanceOf(ToolDefinitionError);
    expect(error.toolName).toBe("broken");
    expect(error.message).toContain("cannot compile");
  });
});

describe("ToolRegistry.dispatchAll", () => {
  it("returns one result per call, in input order, with mixed outcomes", async () => {
    const registry = registryWithRead(async ({ path }) => {
      // Finish out of order: later calls settle first.
      await new Promise((resolve) => setTimeout(resolve, path === "slow" ? 30 : 1));
      if (path === "fail") throw new Error("cannot read");
      return `read ${path}`;
    });
    const results = await registry.dispatchAll([
      toolCall("read", { path: "slow" }, "c1"),
      toolCall("nope", {}, "c2"),
      toolCall("read", { path: 5 }, "c3"),
      toolCall("read", '{"path":"fast"}', "c4"),
      toolCall("read", { path: "fail" }, "c5"),
    ]);
    expect(results.map((result) => [result.toolCallId, result.toolName, result.isError])).toEqual([
      ["c1", "read", false],
      ["c2", "nope", true],
      ["c3", "read", true],
      ["c4", "read", false],
      ["c5", "read", true],
    ]);
    expect(results[0]).toEqual({ status: "ok", toolCallId: "c1", toolName: "read", isError: false, value: "read slow" });
    expect(results[3]).toEqual({ status: "ok", toolCallId: "c4", toolName: "read", isError: false, value: "read fast" });
    const [, unknown, invalid, , failed] = results;
    if (!unknown?.isError || !invalid?.isError || !failed?.isError) throw new Error("expected failures");
    expect(unknown.error).toBeInstanceOf(UnknownToolError);
    expect(unknown.content).toContain('Unknown tool "nope"');
    expect(invalid.error).toBeInstanceOf(ToolArgumentsValidationError);
    expect(invalid.content).toContain('Invalid arguments for tool "read":\n  - /path: must be string');
    expect(failed.error).toBeInstanceOf(ToolExecutionError);
    expect(failed.content).toContain("cannot read");
  });

  it("never rejects for a per-call failure", async () => {
    const registry = registryWithRead(() => { throw "not even an Error"; });
    const results = await registry.dispatchAll([toolCall("read", { path: "a" }), toolCall("read", "][")]);
    expect(results.every((result) => result.isError)).toBe(true);
  });

  it("returns an empty list for no calls", async () => {
    expect(await registryWithRead().dispatchAll([])).toEqual([]);
  });

  it("holds its concurrency limit", async () => {
    let running = 0;
    let peak = 0;
    const registry = registryWithRead(async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 2));
      running--;
    });
    const calls = Array.from({ length: 40 }, (_, index) => toolCall("read", { path: String(index) }, `c${index}`));
    const results = await registry.dispatchAll(calls, { concurrency: 3 });
    expect(peak).toBe(3);
    expect(results.map((result) => result.toolCallId)).toEqual(calls.map((call) => call.id));
  });

  it("holds its limit, keeps order and loses no result across 20,000 calls", async () => {
    let running = 0;
    let peak = 0;
    const registry = registryWithRead(async ({ path }) => {
      running++;
      peak = Math.max(peak, running);
      // Settle in a scrambled order: some at once, some a macrotask later.
      if (Number(path) % 3 === 0) await new Promise((resolve) => setImmediate(resolve));
      else await Promise.resolve();
      running--;
      if (Number(path) % 5 === 0) throw new Error(`failed ${path}`);
      return Number(path);
    });
    const calls = Array.from({ length: 20_000 }, (_, index) =>
      index % 11 === 0 ? toolCall("read", { path: 5 }, `c${index}`) : toolCall("read", { path: String(index) }, `c${index}`),
    );
    const results = await registry.dispatchAll(calls, { concurrency: 7 });
    expect(peak).toBe(7);
    expect(results).toHaveLength(20_000);
    results.forEach((result, index) => {
      expect(result.toolCallId).toBe(`c${index}`);
      if (index % 11 === 0) expect(result.isError && result.error).toBeInstanceOf(ToolArgumentsValidationError);
      else if (index % 5 === 0) expect(result.isError && result.error).toBeInstanceOf(ToolExecutionError);
      else expect(result).toMatchObject({ isError: false, value: index });
    });
  });

  it("reports calls cut short by an abort of its signal as aborted results", async () => {
    const controller = new AbortController();
    const registry = registryWithRead((_args, { signal }) => new Promise((resolve) => signal.addEventListener("abort", () => resolve("late"))));
    const pending = registry.dispatchAll([toolCall("read", { path: "a" }, "c1"), toolCall("read", { path: "b" }, "c2")], { signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    const results = await pending;
    expect(results.map((result) => result.isError && result.error instanceof ToolAbortedError)).toEqual([true, true]);
  });

  it.each([0, -1, 1.5, Number.NaN])("refuses the concurrency %s", async (concurrency) => {
    const error = await rejectionOf(registryWithRead().dispatchAll([], { concurrency }));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toContain("concurrency");
  });
});

describe("timeouts and aborts", () => {
  it("fails a handler that runs past timeoutMs with a timeout error, and aborts its signal", async () => {
    let seenSignal: AbortSignal | undefined;
    const registry = new ToolRegistry({ timeoutMs: 20 }).register(readTool, (_args, { signal }) => {
      seenSignal = signal;
      return new Promise(() => {});
    });
    const error = (await rejectionOf(registry.dispatch(toolCall("read", { path: "a" }, "c9")))) as ToolTimeoutError;
    expect(error).toBeInstanceOf(ToolTimeoutError);
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect(error.message).toBe('Tool "read" timed out after 20 ms; it may still be running and may still complete, so check before calling it again.');
    expect(error.toolCallId).toBe("c9");
    expect(seenSignal?.aborted).toBe(true);
  });

  it("hands a guarded call's handler a plain context whose own enumerable signal survives a spread, inheritance and a Proxy, and nothing else", async () => {
    const controller = new AbortController();
    const registry = new ToolRegistry({ timeoutMs: 10_000 }).register(readTool, (_args, context) => ({
      keys: Object.keys(context),
      symbols: Object.getOwnPropertySymbols(context),
      prototype: Object.getPrototypeOf(context) === Object.prototype,
      constructor: (context as { constructor?: unknown }).constructor === Object,
      descriptor: Object.getOwnPropertyDescriptor(context, "signal"),
      spread: { ...context },
      inherited: (Object.create(context) as { signal: AbortSignal }).signal === context.signal,
      proxied: new Proxy(context, {}).signal === context.signal,
      json: JSON.parse(JSON.stringify({ ...context, signal: undefined })) as unknown,
    }));
    for (const options of [undefined, { signal: controller.signal }]) {
      const seen = (await registry.dispatch(toolCall("read", { path: "a" }, "c1"), options)) as Record<string, unknown>;
      expect(seen.keys).toEqual(["toolCallId", "toolName", "signal"]);
      expect(seen.symbols).toEqual([]);
      expect(seen.prototype).toBe(true);
      expect(seen.constructor).toBe(true);
      expect(seen.descriptor).toEqual({ value: expect.any(AbortSignal), writable: false, enumerable: true, configurable: true });
      expect(seen.spread).toEqual({ toolCallId: "c1", toolName: "read", signal: expect.any(AbortSignal) });
      expect(seen.inherited).toBe(true);
      expect(seen.proxied).toBe(true);
      expect(seen.json).toEqual({ toolCallId: "c1", toolName: "read" });
    }
  });

  it("keeps a guarded call's signal read-only, its other fields writable, and shows the context as its handler sees it, a cycle as a cycle", async () => {
    const registry = new ToolRegistry({ timeoutMs: 10_000 }).register(readTool, (_args, context) => {
      const signal = context.signal;
      const assigned = thrownBy(() => {
        context.signal = new AbortController().signal;
      });
      context.toolName = "renamed";
      (context as unknown as Record<string, unknown>).self = context;
      return { assigned, same: context.signal === signal, toolName: context.toolName, shown: inspect(context) };
    });
    const seen = (await registry.dispatch(toolCall("read", { path: "a" }, "c1"), { data: "tenant" })) as Record<string, unknown>;
    expect(seen.assigned).toBeInstanceOf(TypeError);
    expect(seen.same).toBe(true);
    expect(seen.toolName).toBe("renamed");
    expect(seen.shown).toBe("<ref *1> {\n  toolCallId: 'c1',\n  toolName: 'renamed',\n  signal: AbortSignal { aborted: false },\n  data: 'tenant',\n  self: [Circular *1]\n}");
  });

  it("lets a handler freeze, seal, or reshape a guarded call's context as a plain object, its signal still the call's", async () => {
    const signals: AbortSignal[] = [];
    const registry = new ToolRegistry({ timeoutMs: 20 }).register(readTool, (args, context) => {
      const shape = args.path;
      if (shape === "freeze") Object.freeze(context);
      if (shape === "seal") Object.seal(context);
      if (shape === "prevent") Object.preventExtensions(context);
      if (shape === "prototype") Object.setPrototypeOf(context, Object.prototype);
      if (shape === "redefine") Object.defineProperty(context, "signal", { value: context.signal, enumerable: true });
      signals.push(context.signal);
      const seen = {
        frozen: Object.isFrozen(context),
        extensible: Object.isExtensible(context),
        prototype: Object.getPrototypeOf(context) === Object.prototype && context instanceof Object,
        keys: Object.keys(context),
        spread: { ...context },
      };
      return new Promise((resolve) => setTimeout(() => resolve(seen), 100));
    });
    for (const shape of ["freeze", "seal", "prevent", "prototype", "redefine"]) {
      const error = await rejectionOf(registry.dispatch(toolCall("read", { path: shape })));
      // Reshaped or not, the context's signal is the call's: it aborts when the time runs out.
      expect(error).toBeInstanceOf(ToolTimeoutError);
      expect(signals.at(-1)!.aborted).toBe(true);
    }
    const deleted = new ToolRegistry({ timeoutMs: 10_000 }).register(readTool, (_args, context) => {
      const signal = context.signal;
      delete (context as { signal?: AbortSignal }).signal;
      return { kept: signal instanceof AbortSignal, present: "signal" in context, read: context.signal };
    });
    expect(await deleted.dispatch(toolCall("read", { path: "a" }))).toEqual({ kept: true, present: false, read: undefined });
    const frozen = new ToolRegistry({ timeoutMs: 10_000 }).register(readTool, (_args, context) => {
      Object.freeze(context);
      return { frozen: Object.isFrozen(context), prototype: Object.getPrototypeOf(context) === Object.prototype, spread: { ...context } };
    });
    expect(await frozen.dispatch(toolCall("read", { path: "a" }, "c1"))).toEqual({ frozen: true, prototype: true, spread: { toolCallId: "c1", toolName: "read", signal: expect.any(AbortSignal) } });
  });

  it("hands a dispatch's handler the caller's signal itself when there is no time limit, and a signal of the call's own under one", async () => {
    const controller = new AbortController();
    const seen = (context: { signal: AbortSignal }) => context.signal;
    const untimed = new ToolRegistry().register(readTool, (_args, context) => seen(context));
    const timed = new ToolRegistry({ timeoutMs: 10_000 }).register(readTool, (_args, context) => seen(context));
    expect(await untimed.dispatch(toolCall("read", { path: "a" }), { signal: controller.signal })).toBe(controller.signal);
    const own = (await timed.dispatch(toolCall("read", { path: "a" }), { signal: controller.signal })) as AbortSignal;
    expect(own).not.toBe(controller.signal);
    const [result] = await untimed.dispatchAll([toolCall("read", { path: "a" })], { signal: controller.signal });
    expect(result!.isError).toBe(false);
    expect((result as { value: unknown }).value).not.toBe(controller.signal);
    controller.abort("stop");
    // A call's own signal stops with its call: it never aborts once the call has settled.
    expect(own.aborted).toBe(false);
  });

  it("lets a tool override the registry's timeout", async () => {
    const registry = new ToolRegistry({ timeoutMs: 10_000 }).register(readTool, () => new Promise(() => {}), { timeoutMs: 10 });
    expect(await rejectionOf(registry.dispatch(toolCall("read", { path: "a" })))).toBeInstanceOf(ToolTimeoutError);
  });

  it("does not time out a handler that finishes in time", async () => {
    const registry = new ToolRegistry({ timeoutMs: 1000 }).register(readTool, async () => "done");
    expect(await registry.dispatch(toolCall("read", { path: "a" }))).toBe("done");
  });

  it("passes an abort of the caller's signal to the handler and rejects the dispatch", async () => {
    const controller = new AbortController();
    let handlerSawAbort = false;
    const registry = registryWithRead((_args, { signal }) => new Promise((resolve) => {
      signal.addEventListener("abort", () => { handlerSawAbort = true; resolve("too late"); });
    }));
    const pending = registry.dispatch(toolCall("read", { path: "a" }), { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("user pressed stop")), 5);
    const error = (await rejectionOf(pending)) as ToolAbortedError;
    expect(error).toBeInstanceOf(ToolAbortedError);
    expect(error.started).toBe(true);
    expect(handlerSawAbort).toBe(true);
  });

  it("does not start the handler when the signal is already aborted", async () => {
    const handler = vi.fn(() => 1);
    const registry = new ToolRegistry().register(readTool, handler);
    const error = await rejectionOf(registry.dispatch(toolCall("read", { path: "a" }), { signal: AbortSignal.abort() }));
    expect(error).toBeInstanceOf(ToolAbortedError);
    expect(error).toMatchObject({ started: false });
    expect(handler).not.toHaveBeenCalled();
  });

  it.each([0, -5, Number.NaN, "10"])("refuses the timeoutMs %j", (timeoutMs) => {
    const error = thrownBy(() => new ToolRegistry({ timeoutMs: timeoutMs as number }));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toContain("timeoutMs");
  });
});

describe("edges a new user meets", () => {
  it("makes no AbortController for a guarded call whose handler never reads its signal, and one for a handler that does", async () => {
    const Original = globalThis.AbortController;
    let made = 0;
    globalThis.AbortController = class Counted extends Original {
      constructor() {
        super();
        made++;
      }
    };
    try {
      const caller = new AbortController();
      const quiet = new ToolRegistry({ timeoutMs: 1000 }).register(readTool, () => "done");
      expect(await quiet.dispatch(toolCall("read", { path: "a" }), { signal: caller.signal })).toBe("done");
      expect(made).toBe(1);
      const listening = new ToolRegistry({ timeoutMs: 1000 }).register(readTool, (_args, { signal }) => signal.aborted);
      expect(await listening.dispatch(toolCall("read", { path: "a" }))).toBe(false);
      expect(made).toBe(2);
    } finally {
      globalThis.AbortController = Original;
    }
  });

  it("hands a signal first read after the call timed out already aborted, with the timeout as its reason", async () => {
    let context: { signal: AbortSignal } | undefined;
    const registry = new ToolRegistry({ timeoutMs: 10 }).register(readTool, (_args, given) => {
      context = given;
      return new Promise(() => undefined);
    });
    expect(await rejectionOf(registry.dispatch(toolCall("read", { path: "a" })))).toBeInstanceOf(ToolTimeoutError);
    expect(context!.signal.aborted).toBe(true);
    expect(context!.signal.reason).toBeInstanceOf(ToolTimeoutError);
  });

  it("hands the handler the context { toolCallId, toolName, signal } as a plain object", async () => {
    const registry = registryWithRead((_args, context) => ({ ...context }));
    expect(await registry.dispatch(toolCall("read", { path: "a" }, "call_3"))).toEqual({
      toolCallId: "call_3",
      toolName: "read",
      signal: expect.any(AbortSignal),
    });
  });

  it("lets handlers listen on a call's signal without listeners piling up across calls", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    let seen: AbortSignal | undefined;
    const registry = registryWithRead((_args, { signal }) => {
      seen = signal;
      signal.addEventListener("abort", () => undefined);
      expect(signal.aborted).toBe(false);
    });
    for (let call = 0; call < 1000; call++) await registry.dispatch(toolCall("read", { path: "a" }));
    await new Promise((resolve) => setImmediate(resolve));
    process.off("warning", onWarning);
    expect(getEventListeners(seen!, "abort")).toHaveLength(0);
    expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
    expect(AbortSignal.any([seen!]).aborted).toBe(false);
  });

  it("shows a registered name of 128 characters whole in messages", async () => {
    const name = "n".repeat(128);
    const registry = new ToolRegistry().register({ ...readTool, name }, () => 1);
    const error = (await rejectionOf(registry.dispatch(toolCall(name, {})))) as Error;
    expect(error.message.startsWith(`Invalid arguments for tool "${name}":\n`)).toBe(true);
  });

  it.each([Type.String(), Type.Array(Type.String()), { type: "integer" }, { type: ["object", "null"] }])("refuses a root schema that is not exactly an object schema, as every provider would: %j", (parameters) => {
    const error = thrownBy(() => new ToolRegistry().register({ name: "root", description: "", parameters: parameters as never }, () => 1));
    expect(error).toBeInstanceOf(ToolDefinitionError);
    expect((error as Error).message).toContain('type "object"');
  });

  it("refuses calls that are not an array, with a TypeError naming them", async () => {
    for (const calls of [null, {}, new Set(), "calls"]) {
      const error = await rejectionOf(registryWithRead().dispatchAll(calls as never));
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toContain("calls must be an array");
    }
    expect(await registryWithRead().dispatchAll([], null as never)).toEqual([]);
  });

  it("refuses a signal that is not an AbortSignal before the handler runs", async () => {
    const handler = vi.fn(() => 1);
    const registry = new ToolRegistry().register(readTool, handler);
    const error = await rejectionOf(registry.dispatch(toolCall("read", { path: "a" }), { signal: {} as AbortSignal }));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toContain("signal must be an AbortSignal");
    expect(handler).not.toHaveBeenCalled();
  });

  it("refuses, with one TypeError and before any call runs, a dispatchAll signal that is not an AbortSignal", async () => {
    const handler = vi.fn(() => 1);
    const registry = new ToolRegistry().register(readTool, handler);
    const error = await rejectionOf(registry.dispatchAll([toolCall("read", { path: "a" }), toolCall("read", { path: "b" })], { signal: "stop" as never }));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('signal must be an AbortSignal, got "stop"');
    expect(handler).not.toHaveBeenCalled();
  });

  it("reads each field of a call once, in dispatch and in dispatchAll", async () => {
    const reads = { name: 0, id: 0, arguments: 0 };
    const call = {
      get name() {
        reads.name++;
        return "read";
      },
      get id() {
        reads.id++;
        return "c1";
      },
      get arguments() {
        reads.arguments++;
        return { path: "a" };
      },
    };
    await registryWithRead().dispatch(call as never);
    expect(reads).toEqual({ name: 1, id: 1, arguments: 1 });
    const [result] = await registryWithRead().dispatchAll([call as never]);
    expect(result).toMatchObject({ toolCallId: "c1", toolName: "read", isError: false });
    expect(reads).toEqual({ name: 2, id: 2, arguments: 2 });
  });

  it("keeps a numeric call id as its digits", async () => {
    const [result] = await registryWithRead().dispatchAll([{ type: "tool_call", id: 5 as unknown as string, name: "read", arguments: { path: "a" } }]);
    expect(result?.toolCallId).toBe("5");
  });

  it("says so when a call names no tool", async () => {
    const error = (await rejectionOf(registryWithRead().dispatch({ id: "1", arguments: {} } as never))) as UnknownToolError;
    expect(error.message).toBe('The tool call names no tool. Available tools: "read".');
  });

  it("lets a tool lift the registry's time limit with timeoutMs Infinity", async () => {
    const registry = new ToolRegistry({ timeoutMs: 5 }).register(readTool, () => new Promise((resolve) => setTimeout(() => resolve("slow"), 30)), {
      timeoutMs: Infinity,
    });
    expect(await registry.dispatch(toolCall("read", { path: "a" }))).toBe("slow");
  });

  it("makes an aborted call a ToolExecutionError too: the tool did not complete", async () => {
    const error = await rejectionOf(registryWithRead().dispatch(toolCall("read", { path: "a" }), { signal: AbortSignal.abort("stop") }));
    expect(error).toBeInstanceOf(ToolAbortedError);
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect((error as Error).cause).toBe("stop");
  });
});
