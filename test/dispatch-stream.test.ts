import { inspect } from "node:util";
import { describe, expect, it, vi } from "vitest";
import {
  ToolAbortedError,
  ToolArgumentsValidationError,
  ToolRegistry,
  ToolTimeoutError,
  Type,
  UnknownToolError,
  type RepairReport,
  type ToolCallDelta,
  type ToolResultEvent,
  type ToolStreamEvent,
} from "../src/index.js";
import { DeltaPipe, settle } from "./support/delta-pipe.js";
import { collectGarbage } from "./support/garbage.js";
import { readTool, thrownBy } from "./support/fixtures.js";

function tools(handler: (args: { path: string; offset?: number }) => unknown = (args) => args.path, options: ConstructorParameters<typeof ToolRegistry>[0] = {}) {
  return new ToolRegistry(options).register(readTool, handler);
}

/** Reads every event, in the background, into a list the test can look at while the stream goes on. */
function collect(events: AsyncIterable<ToolStreamEvent>): { events: ToolStreamEvent[]; done: Promise<unknown> } {
  const seen: ToolStreamEvent[] = [];
  const done = (async () => {
    for await (const event of events) seen.push(event);
  })();
  return { events: seen, done };
}

const results = (events: readonly ToolStreamEvent[]) => events.filter((event): event is ToolResultEvent => event.type === "tool-result");
const summary = (events: readonly ToolStreamEvent[]): string[] =>
  events.map((event) => (event.type === "tool-result" ? `${event.type} ${event.toolCallId} ${event.result.status === "ok" ? String(event.result.value) : event.result.status}` : `${event.type} ${event.toolCallId}`));

describe("registry.dispatchStream", () => {
  it("yields each call's start, its deltas with the value and issues so far, and its result", async () => {
    const deltas: ToolCallDelta[] = [
      { toolCallId: "a", toolName: "read", argumentsDelta: '{"pa' },
      { toolCallId: "a", argumentsDelta: 'th":"x"}' },
      { toolCallId: "a", done: true },
    ];
    const events: ToolStreamEvent[] = [];
    for await (const event of tools().dispatchStream(deltas)) events.push(event);
    expect(summary(events)).toEqual(["tool-call-start a", "tool-call-delta a", "tool-call-delta a", "tool-result a x"]);
    const second = events[2]!;
    expect(second.type === "tool-call-delta" && [second.argumentsDelta, second.value, second.issues]).toEqual(['th":"x"}', { path: "x" }, []]);
    expect(events.every((event) => event.index === 0 && event.toolName === "read")).toBe(true);
    expect(results(events)[0]!.result).toEqual({ status: "ok", toolCallId: "a", toolName: "read", isError: false, value: "x" });
  });

  it("writes a delta event as JSON, and shows it in Node's inspect, with its value as it is at that moment", async () => {
    const events: ToolStreamEvent[] = [];
    for await (const event of tools().dispatchStream([{ toolCallId: "a", toolName: "read", argumentsDelta: '{"path":"x' }, { toolCallId: "a", done: true }])) events.push(event);
    const delta = events.find((event) => event.type === "tool-call-delta")!;
    const plain = { type: "tool-call-delta", index: 0, toolCallId: "a", toolName: "read", argumentsDelta: '{"path":"x', value: { path: "x" }, issues: [] };
    expect(JSON.parse(JSON.stringify(delta))).toEqual(plain);
    expect(inspect(delta)).toBe(inspect(plain));
    // Its own properties, all of them: deep equality and a spread see the value too.
    expect(delta).toEqual(plain);
    expect({ ...delta }).toEqual(plain);
    expect(Object.keys(delta)).toEqual(Object.keys(plain));
  });

  it("runs each call the moment its arguments are complete, while the model is still streaming the next", async () => {
    const started: string[] = [];
    const pipe = new DeltaPipe();
    const run = collect(tools((args) => started.push(args.path)).dispatchStream(pipe));
    pipe.write({ toolCallId: "a", toolName: "read", argumentsDelta: '{"path":"first"}', done: true }, { toolCallId: "b", toolName: "read", argumentsDelta: '{"path":"sec' });
    await settle();
    expect(started).toEqual(["first"]);
    expect(summary(run.events)).toContain("tool-result a 1");
    pipe.write({ toolCallId: "b", argumentsDelta: 'ond"}', done: true });
    pipe.end();
    await run.done;
    expect(started).toEqual(["first", "second"]);
  });

  it("gives results in the order calls settle, with index telling each call's place in the stream", async () => {
    const pipe = new DeltaPipe();
    const slow = tools(async (args) => {
      await settle(args.path === "slow" ? 30 : 0);
      return args.path;
    });
    const run = collect(slow.dispatchStream(pipe));
    pipe.write({ toolCallId: "a", toolName: "read", argumentsDelta: '{"path":"slow"}', done: true }, { toolCallId: "b", toolName: "read", argumentsDelta: '{"path":"quick"}', done: true });
    pipe.end();
    await run.done;
    expect(results(run.events).map((event) => [event.toolCallId, event.index])).toEqual([
      ["b", 1],
      ["a", 0],
    ]);
  });

  it("runs a call that names a tool under the id of a call already finished as a call of its own, as dispatchAll does", async () => {
    const deltas: ToolCallDelta[] = [
      { toolCallId: "call_0", toolName: "read", argumentsDelta: '{"path":"first"}', done: true },
      { toolCallId: "call_0", argumentsDelta: '{"path":"late"}' },
      { toolCallId: "call_0", toolName: "read", argumentsDelta: '{"path":"second"}', done: true },
    ];
    const events: ToolStreamEvent[] = [];
    for await (const event of tools().dispatchStream(deltas)) events.push(event);
    expect(summary(events).filter((line) => !line.startsWith("tool-call-delta")).sort()).toEqual(["tool-call-start call_0", "tool-call-start call_0", "tool-result call_0 first", "tool-result call_0 second"]);
    expect(results(events).map((event) => event.index).sort()).toEqual([0, 1]);
  });

  it("fails a call to an unknown tool at its start, before its arguments arrive, and ignores them", async () => {
    const pipe = new DeltaPipe();
    const run = collect(tools().dispatchStream(pipe));
    pipe.write({ toolCallId: "a", toolName: "raed" });
    await settle();
    expect(summary(run.events)).toEqual(["tool-call-start a", "tool-result a error"]);
    const failure = results(run.events)[0]!.result;
    expect(failure.isError && failure.error).toBeInstanceOf(UnknownToolError);
    expect(failure.isError && failure.content).toContain('Did you mean "read"?');
    pipe.write({ toolCallId: "a", argumentsDelta: '{"path":"x"}', done: true });
    pipe.end();
    await run.done;
    expect(run.events).toHaveLength(2);
  });

  it("fails a call cut off mid-arguments with `/: arguments must be valid JSON`, and still runs the others", async () => {
    const deltas: ToolCallDelta[] = [
      { toolCallId: "a", toolName: "read", argumentsDelta: '{"path":"a"}' },
      { toolCallId: "b", toolName: "read", argumentsDelta: '{"path":"b' },
    ];
    const events: ToolStreamEvent[] = [];
    for await (const event of tools().dispatchStream(deltas)) events.push(event);
    const byId = Object.fromEntries(results(events).map((event) => [event.toolCallId, event.result]));
    expect(byId.a).toMatchObject({ isError: false, value: "a" });
    expect(byId.b!.isError && (byId.b!.error as ToolArgumentsValidationError).issues).toEqual(["/: arguments must be valid JSON"]);
  });

  it("says once that a call is invalid as soon as a problem is certain, never runs it, and answers it with the final check's issues", async () => {
    const handler = vi.fn(() => 1);
    const pipe = new DeltaPipe();
    const run = collect(tools(handler).dispatchStream(pipe));
    pipe.write({ toolCallId: "a", toolName: "read", argumentsDelta: '{"path":7,' });
    await settle();
    expect(run.events.filter((event) => event.type === "tool-call-invalid")).toMatchObject([{ toolCallId: "a", issues: ["/path: must be string"] }]);
    pipe.write({ toolCallId: "a", argumentsDelta: '"offset":-1' }, { toolCallId: "a", argumentsDelta: "}", done: true });
    pipe.end();
    await run.done;
    expect(run.events.filter((event) => event.type === "tool-call-invalid")).toHaveLength(1);
    expect(handler).not.toHaveBeenCalled();
    const failure = results(run.events)[0]!.result;
    expect(failure.isError && (failure.error as ToolArgumentsValidationError).issues).toEqual(["/path: must be string", "/offset: must be >= 0"]);
  });

  it("answers a call whose arguments never became JSON as dispatch would, whatever was certain before", async () => {
    const events: ToolStreamEvent[] = [];
    for await (const event of tools().dispatchStream([{ toolCallId: "a", toolName: "read", argumentsDelta: '{"path":7', done: true }])) events.push(event);
    expect(summary(events)).toEqual(["tool-call-start a", "tool-call-delta a", "tool-call-invalid a", "tool-result a error"]);
    const failure = results(events)[0]!.result;
    expect(failure.isError && (failure.error as ToolArgumentsValidationError).issues).toEqual(["/: arguments must be valid JSON"]);
  });

  it("says a call is invalid when its final check fails, too (a missing property is known only at the end)", async () => {
    const events: ToolStreamEvent[] = [];
    for await (const event of tools().dispatchStream([{ toolCallId: "a", toolName: "read", argumentsDelta: "{}", done: true }])) events.push(event);
    expect(summary(events)).toEqual(["tool-call-start a", "tool-call-delta a", "tool-call-invalid a", "tool-result a error"]);
  });

  it('with onInvalid: "abort", aborts the controller at the first call certain to fail; calls the abort cut short fail as aborted', async () => {
    const abortController = new AbortController();
    const pipe = new DeltaPipe();
    const run = collect(tools().dispatchStream(pipe, { onInvalid: "abort", abortController }));
    pipe.write({ toolCallId: "a", toolName: "read", argumentsDelta: '{"path":"ok"}', done: true }, { toolCallId: "b", toolName: "read", argumentsDelta: '{"pa' }, { toolCallId: "c", toolName: "read", argumentsDelta: '{"path":[' });
    await settle();
    expect(abortController.signal.aborted).toBe(true);
    expect(abortController.signal.reason).toBeInstanceOf(ToolArgumentsValidationError);
    // The SDK's stream, given the controller's signal, stops with an error of its own.
    pipe.fail(new Error("Request was aborted."));
    await run.done;
    const byId = Object.fromEntries(results(run.events).map((event) => [event.toolCallId, event.result]));
    expect(byId.a).toMatchObject({ isError: false, value: "ok" });
    expect(byId.b!.isError && byId.b!.error).toBeInstanceOf(ToolAbortedError);
    expect(byId.b!.isError && byId.b!.error).toMatchObject({ started: false });
    expect(byId.c!.isError && (byId.c!.error as ToolArgumentsValidationError).issues).toEqual(["/path: must be string"]);
  });

  it('with onInvalid: "abort", aborts at a call to an unknown tool, and not for a valid stream', async () => {
    const first = new AbortController();
    for await (const _event of tools().dispatchStream([{ toolCallId: "a", toolName: "nope" }], { onInvalid: "abort", abortController: first })) void _event;
    expect(first.signal.aborted).toBe(true);
    const second = new AbortController();
    for await (const _event of tools().dispatchStream([{ toolCallId: "a", toolName: "read", argumentsDelta: '{"path":"x"}', done: true }], { onInvalid: "abort", abortController: second })) void _event;
    expect(second.signal.aborted).toBe(false);
  });

  it("gives every started call its result, then throws the stream's own error", async () => {
    const pipe = new DeltaPipe();
    const seen: ToolStreamEvent[] = [];
    const failure = new Error("connection reset");
    pipe.write({ toolCallId: "a", toolName: "read", argumentsDelta: '{"path":"a"}', done: true }, { toolCallId: "b", toolName: "read", argumentsDelta: '{"pa' });
    pipe.fail(failure);
    const error = await (async () => {
      try {
        for await (const event of tools().dispatchStream(pipe)) seen.push(event);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBe(failure);
    expect(results(seen).map((event) => [event.toolCallId, event.result.isError])).toEqual(
      expect.arrayContaining([
        ["a", false],
        ["b", true],
      ]),
    );
  });

  const dropped = new Error("connection dropped");
  it.each([
    [
      "a plain iterable whose generator throws",
      function* (): Generator<ToolCallDelta> {
        yield { toolCallId: "a", toolName: "read", argumentsDelta: '{"path":"a"}', done: true };
        yield { toolCallId: "b", toolName: "read", argumentsDelta: '{"pa' };
        throw dropped;
      },
    ],
    [
      "an async iterator whose next() throws rather than rejects",
      (): AsyncIterable<ToolCallDelta> => {
        const steps: ToolCallDelta[] = [
          { toolCallId: "a", toolName: "read", argumentsDelta: '{"path":"a"}', done: true },
          { toolCallId: "b", toolName: "read", argumentsDelta: '{"pa' },
        ];
        return {
          [Symbol.asyncIterator]: () => ({
            next: () => {
              const step = steps.shift();
              if (step === undefined) throw dropped;
              return Promise.resolve({ done: false, value: step });
            },
          }),
        };
      },
    ],
  ] as const)("gives every started call its result, then throws the stream's own error, from %s too", async (_source, deltas) => {
    // A handler still running when the source fails: it must finish, not be aborted.
    const registry = tools(async (args) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return args.path;
    });
    const seen: ToolStreamEvent[] = [];
    const error = await (async () => {
      try {
        for await (const event of registry.dispatchStream(deltas() as Iterable<ToolCallDelta>)) seen.push(event);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBe(dropped);
    expect(results(seen).map((event) => [event.toolCallId, event.result.isError])).toEqual(
      expect.arrayContaining([
        ["a", false],
        ["b", true],
      ]),
    );
  });

  it("runs at most `concurrency` handlers at once", async () => {
    let running = 0;
    let most = 0;
    const registry = tools(async () => {
      most = Math.max(most, ++running);
      await settle(5);
      running--;
    });
    const deltas = Array.from({ length: 6 }, (_, index): ToolCallDelta => ({ toolCallId: `c${index}`, toolName: "read", argumentsDelta: '{"path":"x"}', done: true }));
    const events: ToolStreamEvent[] = [];
    for await (const event of registry.dispatchStream(deltas, { concurrency: 2 })) events.push(event);
    expect(most).toBe(2);
    expect(results(events)).toHaveLength(6);
  });

  it("aborts running handlers with the caller's signal, and applies time limits", async () => {
    const controller = new AbortController();
    const registry = new ToolRegistry()
      .register(readTool, (_args, { signal }) => new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason))))
      .register({ ...readTool, name: "slow" }, () => new Promise(() => undefined), { timeoutMs: 10 });
    const pipe = new DeltaPipe();
    const run = collect(registry.dispatchStream(pipe, { signal: controller.signal }));
    pipe.write({ toolCallId: "a", toolName: "read", argumentsDelta: '{"path":"x"}', done: true }, { toolCallId: "b", toolName: "slow", argumentsDelta: '{"path":"x"}', done: true });
    await settle(30);
    controller.abort(new Error("user stopped"));
    pipe.end();
    await run.done;
    const byId = Object.fromEntries(results(run.events).map((event) => [event.toolCallId, event.result]));
    expect(byId.a!.isError && byId.a!.error).toBeInstanceOf(ToolAbortedError);
    expect(byId.b!.isError && byId.b!.error).toBeInstanceOf(ToolTimeoutError);
  });

  it("keeps arguments that arrive before the name, and fails a call that never names its tool as dispatch does", async () => {
    const events: ToolStreamEvent[] = [];
    const deltas: ToolCallDelta[] = [
      { toolCallId: "a", argumentsDelta: '{"path":' },
      { toolCallId: "a", toolName: "read", argumentsDelta: '"x"}', done: true },
      { toolCallId: "b", argumentsDelta: "{}", done: true },
    ];
    for await (const event of tools().dispatchStream(deltas)) events.push(event);
    const byId = Object.fromEntries(results(events).map((event) => [event.toolCallId, event.result]));
    expect(byId.a).toMatchObject({ isError: false, value: "x" });
    expect(byId.b).toMatchObject({ isError: true, toolName: "", content: expect.stringContaining("The tool call names no tool.") });
  });

  it("fails a call with the error its delta carries (a provider stream that could not be read)", async () => {
    const events: ToolStreamEvent[] = [];
    const error = new Error("unreadable");
    for await (const event of tools().dispatchStream([{ toolCallId: "a", toolName: "read", argumentsDelta: "{" }, { toolCallId: "a", error }])) events.push(event);
    expect(results(events)[0]!.result).toMatchObject({ isError: true, error });
  });

  it("answers with the repairs it made when repair is on", async () => {
    const registry = tools((args) => args.offset, { onRepair: () => undefined });
    const events: ToolStreamEvent[] = [];
    for await (const event of registry.dispatchStream([{ toolCallId: "a", toolName: "read", argumentsDelta: '{"path":"x","offset":"3"}', done: true }])) events.push(event);
    expect(results(events)[0]!.result).toEqual({ status: "ok", toolCallId: "a", toolName: "read", isError: false, value: 3, repairs: [{ pointer: "/offset", from: "string", to: "number" }] });
  });

  it("runs, with repair on, a call whose null for an optional property or lone value for a list repair mends, as dispatch does", async () => {
    const repairs: RepairReport[] = [];
    const registry = new ToolRegistry({ onRepair: (report) => repairs.push(report) }).register(
      { name: "t", description: "", parameters: Type.Object({ city: Type.String(), units: Type.Optional(Type.String()), ids: Type.Optional(Type.Array(Type.Integer())) }) },
      (args) => args,
    );
    const deltas: ToolCallDelta[] = [
      { toolCallId: "a", toolName: "t", argumentsDelta: '{"city":"Paris","units":null}', done: true },
      { toolCallId: "b", toolName: "t", argumentsDelta: '{"city":"Paris","ids":5}', done: true },
    ];
    const events: ToolStreamEvent[] = [];
    for await (const event of registry.dispatchStream(deltas, { onInvalid: "abort", abortController: new AbortController() })) events.push(event);
    expect(events.some((event) => event.type === "tool-call-invalid" || (event.type === "tool-call-delta" && event.issues.length > 0))).toBe(false);
    expect(results(events).map((event) => event.result.status === "ok" && event.result.value)).toEqual([{ city: "Paris" }, { city: "Paris", ids: [5] }]);
    expect(repairs.map((report) => report.toolCallId)).toEqual(["a", "b"]);
  });

  it("tells onRepair nothing of a call that does not run, even when a repeated key hides its certain problem and repair would mend the rest", async () => {
    const repairs: RepairReport[] = [];
    const registry = new ToolRegistry({ onRepair: (report) => repairs.push(report) }).register(
      { name: "t", description: "", parameters: Type.Object({ city: Type.String(), ids: Type.Optional(Type.Array(Type.Integer())) }) },
      () => "ran",
    );
    // `"city":1` is certain to be wrong; JSON.parse keeps the later "Paris", and repair would wrap 5.
    const events: ToolStreamEvent[] = [];
    for await (const event of registry.dispatchStream([{ toolCallId: "a", toolName: "t", argumentsDelta: '{"city":1,"city":"Paris","ids":5}', done: true }])) events.push(event);
    const [result] = results(events);
    expect(result!.result).toMatchObject({ isError: true, error: expect.any(ToolArgumentsValidationError) });
    expect(repairs).toEqual([]);
  });

  it("closes the stream when the caller stops reading", async () => {
    const pipe = new DeltaPipe();
    pipe.write({ toolCallId: "a", toolName: "read", argumentsDelta: '{"path":"x"}', done: true });
    for await (const event of tools().dispatchStream(pipe)) if (event.type === "tool-call-start") break;
    expect(pipe.closed).toBe(true);
  });

  it("never starts the calls still waiting when the caller leaves the loop, and aborts the signals of those running", async () => {
    const started: number[] = [];
    const signals: AbortSignal[] = [];
    const registry = new ToolRegistry().register({ name: "charge", description: "", parameters: Type.Object({ n: Type.Integer() }) }, async ({ n }, context) => {
      started.push(n);
      signals.push(context.signal);
      await new Promise((resolve) => setTimeout(resolve, 20));
      return n;
    });
    const deltas: ToolCallDelta[] = [0, 1, 2].map((n) => ({ toolCallId: `c${n}`, toolName: "charge", argumentsDelta: `{"n":${n}}`, done: true }));
    for await (const event of registry.dispatchStream(deltas, { concurrency: 1 })) if (event.type === "tool-result") break;
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Call 1 took call 0's place the moment call 0 settled, before the loop saw its result: it is stopped, and call 2 never starts.
    expect(started).toEqual([0, 1]);
    expect(signals.map((signal) => signal.aborted)).toEqual([false, true]);
    expect(signals[1]!.reason).toMatchObject({ name: "AbortError" });
  });

  it("throws a TypeError for a delta that is not one, and closes the stream", async () => {
    const pipe = new DeltaPipe();
    pipe.write({ toolCallId: 7 } as never);
    const error = await (async () => {
      try {
        for await (const _event of tools().dispatchStream(pipe)) void _event;
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toEqual(new TypeError("a delta's toolCallId must be a string, got 7"));
    expect(pipe.closed).toBe(true);
  });

  it("throws a TypeError naming a bad option before reading anything", () => {
    const registry = tools();
    expect(thrownBy(() => registry.dispatchStream(7 as never))).toEqual(new TypeError("deltas must be an async iterable of tool call deltas, got 7"));
    expect(thrownBy(() => registry.dispatchStream([], { concurrency: 0 }))).toEqual(new TypeError("concurrency must be a positive integer or Infinity, got 0"));
    expect(thrownBy(() => registry.dispatchStream([], { onInvalid: "stop" as never }))).toEqual(new TypeError('onInvalid must be "continue" or "abort", got "stop"'));
    expect(thrownBy(() => registry.dispatchStream([], { onInvalid: "abort" }))).toEqual(new TypeError('abortController must be an AbortController when onInvalid is "abort", got undefined'));
    expect(thrownBy(() => registry.dispatchStream([], { abortController: {} as never }))).toEqual(new TypeError("abortController must be an AbortController, got object"));
    expect(thrownBy(() => registry.dispatchStream([], { signal: {} as never }))).toEqual(new TypeError("signal must be an AbortSignal, got object"));
  });

  it("holds a few dozen bytes for each finished call while the stream goes on, not the whole call", async () => {
    const registry = tools();
    const count = 20_000;
    let heapAtEnd = 0;
    let heapAtStart = 0;
    async function* deltas(): AsyncGenerator<ToolCallDelta> {
      collectGarbage();
      heapAtStart = process.memoryUsage().heapUsed;
      for (let index = 0; index < count; index++) yield { toolCallId: `c${index}`, toolName: "read", argumentsDelta: `{"path":"p${index}"}`, done: true };
      // Every call has settled and its result was yielded before the last delta is asked for.
      await new Promise((resolve) => setTimeout(resolve, 0));
      collectGarbage();
      heapAtEnd = process.memoryUsage().heapUsed;
    }
    let results = 0;
    for await (const event of registry.dispatchStream(deltas())) if (event.type === "tool-result") results++;
    expect(results).toBe(count);
    expect((heapAtEnd - heapAtStart) / count).toBeLessThan(200);
  });

  it("handles a stream with no calls", async () => {
    const events: ToolStreamEvent[] = [];
    for await (const event of tools().dispatchStream((async function* () {})())) events.push(event);
    expect(events).toEqual([]);
  });
});

describe("a streamed call, once its arguments are complete, takes dispatchAll's own path", () => {
  const SECRET = "a test secret of at least thirty-two bytes";

  it("fails at its start a tool the allow-list leaves out, and never names it to the model", async () => {
    const registry = tools().register({ ...readTool, name: "delete_file" }, () => "deleted");
    const events: ToolStreamEvent[] = [];
    for await (const event of registry.dispatchStream([{ toolCallId: "a", toolName: "delete_file" }, { toolCallId: "b", toolName: "read", argumentsDelta: '{"path":"x"}', done: true }], { allow: ["read"] })) events.push(event);
    const byId = Object.fromEntries(results(events).map((event) => [event.toolCallId, event.result]));
    expect(byId.a!.isError && byId.a!.error.name).toBe("ToolNotAllowedError");
    expect(byId.b).toMatchObject({ status: "ok", value: "x" });
  });

  it("asks for approval as dispatchAll does, and runs with the approval given for its call id", async () => {
    const runs: unknown[] = [];
    const registry = new ToolRegistry({ approvalSecret: SECRET }).register(readTool, (args) => runs.push(args), { needsApproval: true });
    const stream = (approvals?: Record<string, string>) => registry.dispatchStream([{ toolCallId: "c1", toolName: "read", argumentsDelta: '{"path":"x"}', done: true }], approvals === undefined ? {} : { approvals });
    let pending: ToolStreamEvent | undefined;
    for await (const event of stream()) if (event.type === "tool-result") pending = event;
    expect(pending).toMatchObject({ type: "tool-result", result: { status: "approval-required" } });
    expect(runs).toEqual([]);
    const result = (pending as ToolResultEvent).result;
    if (result.status !== "approval-required") throw new Error("expected an approval request");
    const token = await registry.approve(result.request);
    for await (const _event of stream({ c1: token })) void _event;
    expect(runs).toEqual([{ path: "x" }]);
  });

  it("is seen by the registry's observers, and gives the handler the stream's data", async () => {
    const seen: Array<[string, unknown]> = [];
    const registry = tools((_args) => _args.path).register({ ...readTool, name: "data" }, (_args, context) => context.data);
    registry.observe({ observe: async (call, proceed) => {
      const result = await proceed();
      seen.push([call.toolCallId, call.arguments]);
      return result;
    } });
    const events: ToolStreamEvent[] = [];
    for await (const event of registry.dispatchStream([{ toolCallId: "a", toolName: "data", argumentsDelta: '{"path":"x"}', done: true }, { toolCallId: "b", toolName: "nope" }], { data: { user: "u1" } })) events.push(event);
    expect(seen).toEqual(expect.arrayContaining([["a", { path: "x" }], ["b", undefined]]));
    expect(results(events).find((event) => event.toolCallId === "a")!.result).toMatchObject({ status: "ok", value: { user: "u1" } });
  });

  it('runs the calls one at a time, as they complete, with order: "sequential"', async () => {
    let running = 0;
    let most = 0;
    const registry = tools(async () => {
      most = Math.max(most, ++running);
      await settle(5);
      running--;
    });
    const deltas = Array.from({ length: 3 }, (_, index): ToolCallDelta => ({ toolCallId: `c${index}`, toolName: "read", argumentsDelta: '{"path":"x"}', done: true }));
    for await (const _event of registry.dispatchStream(deltas, { order: "sequential" })) void _event;
    expect(most).toBe(1);
  });
});

describe("a streamed call's result", () => {
  it("is the ToolResult dispatchAll gives for the same call", async () => {
    const registry = new ToolRegistry().register({ name: "sum", description: "", parameters: Type.Object({ a: Type.Number(), b: Type.Number() }) }, ({ a, b }) => a + b);
    const texts = ['{"a":1,"b":2}', '{"a":1}', '{"a":"1","b":2}', "{"];
    const streamed: unknown[] = [];
    const deltas = texts.map((text, index): ToolCallDelta => ({ toolCallId: `c${index}`, toolName: "sum", argumentsDelta: text, done: true }));
    for await (const event of registry.dispatchStream(deltas)) if (event.type === "tool-result") streamed[event.index] = event.result;
    const all = await registry.dispatchAll(texts.map((text, index) => ({ id: `c${index}`, name: "sum", arguments: text })));
    expect(streamed.map((result) => ({ ...(result as object), error: undefined }))).toEqual(all.map((result) => ({ ...result, error: undefined })));
  });

  it("is dispatch's own for a call over maxArgumentBytes, prepared and counted once: a first failure is no repeat", async () => {
    const text = `{"s":"${"x".repeat(60)}`;
    const streamedRegistry = tools(undefined, { maxArgumentBytes: 50 });
    const events: ToolStreamEvent[] = [];
    for await (const event of streamedRegistry.dispatchStream([{ toolCallId: "a", toolName: "read", argumentsDelta: text }, { toolCallId: "a", done: true }])) events.push(event);
    const dispatchedRegistry = tools(undefined, { maxArgumentBytes: 50 });
    const [expected] = await dispatchedRegistry.dispatchAll([{ id: "a", name: "read", arguments: text }]);
    const streamed = results(events)[0]!.result;
    expect(streamed).toEqual(expected);
    expect(streamed.isError && (streamed.error as ToolArgumentsValidationError).repeats).toBe(0);
    expect(streamed.isError && streamed.content).not.toContain("same arguments");
    expect(streamedRegistry.failureStats()).toEqual({ argumentFailures: 1, repeatedFailures: 0 });
  });
});
