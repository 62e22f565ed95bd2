import { describe, expect, it } from "vitest";
import { MemoryLedger, ToolRegistry, ToolTimeoutError, Type, type RegisterOptions } from "../src/index.js";
import { rejectionOf, thrownBy, toolCall } from "./support/fixtures.js";

const parameters = Type.Object({ id: Type.String() });

/** A registry whose tools record when each call starts and ends, on one timeline. */
function timedRegistry(tools: Record<string, RegisterOptions & { ms?: number }>) {
  const events: string[] = [];
  const registry = new ToolRegistry();
  for (const [name, { ms = 20, ...options }] of Object.entries(tools)) {
    registry.register(
      { name, description: name, parameters },
      async ({ id }) => {
        events.push(`start ${id}`);
        await new Promise((resolve) => setTimeout(resolve, ms));
        events.push(`end ${id}`);
        return id;
      },
      options,
    );
  }
  return { registry, events };
}

/** Whether the runs of two ids overlapped on the timeline. */
function overlapped(events: readonly string[], a: string, b: string): boolean {
  const [startA, endA, startB, endB] = [`start ${a}`, `end ${a}`, `start ${b}`, `end ${b}`].map((event) => events.indexOf(event)) as [number, number, number, number];
  return startA < endB && startB < endA;
}

describe("exclusive and shared resources", () => {
  it("never overlap two exclusive calls, run them in model order, and let an unrelated call overlap them", async () => {
    const { registry, events } = timedRegistry({ edit: { exclusive: "fs:write" }, write: { exclusive: "fs:write", ms: 5 }, fetch: {} });
    const results = await registry.dispatchAll([toolCall("edit", { id: "e1" }, "1"), toolCall("write", { id: "w2" }, "2"), toolCall("fetch", { id: "f3" }, "3")]);
    expect(results.map((result) => result.status)).toEqual(["ok", "ok", "ok"]);
    expect(overlapped(events, "e1", "w2")).toBe(false);
    expect(events.indexOf("start e1")).toBeLessThan(events.indexOf("start w2"));
    expect(overlapped(events, "e1", "f3")).toBe(true);
  });

  it("keep model order for exclusive calls even when the first is slower to get ready", async () => {
    const { registry, events } = timedRegistry({ slow: { exclusive: "fs:write", effects: "idempotent" }, fast: { exclusive: "fs:write" } });
    // The first call computes a fingerprint (idempotent) before it runs; the second has nothing to do first.
    await registry.dispatchAll([toolCall("slow", { id: "a" }, "1"), toolCall("fast", { id: "b" }, "2"), toolCall("fast", { id: "c" }, "3")]);
    expect(events.filter((event) => event.startsWith("start"))).toEqual(["start a", "start b", "start c"]);
    expect(overlapped(events, "a", "b") || overlapped(events, "b", "c")).toBe(false);
  });

  it("let shared holders overlap each other, never an exclusive holder", async () => {
    const { registry, events } = timedRegistry({ read: { shared: "fs" }, write: { exclusive: "fs" } });
    await registry.dispatchAll([toolCall("read", { id: "r1" }, "1"), toolCall("read", { id: "r2" }, "2"), toolCall("write", { id: "w" }, "3"), toolCall("read", { id: "r3" }, "4")]);
    expect(overlapped(events, "r1", "r2")).toBe(true);
    for (const reader of ["r1", "r2", "r3"]) expect(overlapped(events, reader, "w")).toBe(false);
    // A writer is not starved: the reader behind it waits for it.
    expect(events.indexOf("start r3")).toBeGreaterThan(events.indexOf("end w"));
  });

  it("hold across dispatches: separate dispatch calls never overlap on an exclusive key", async () => {
    const { registry, events } = timedRegistry({ edit: { exclusive: ["fs:write", "git"] } });
    await Promise.all([registry.dispatch(toolCall("edit", { id: "a" })), registry.dispatch(toolCall("edit", { id: "b" }))]);
    expect(overlapped(events, "a", "b")).toBe(false);
  });

  it("stay held by a timed-out handler that runs on, until it settles", async () => {
    const events: string[] = [];
    let finish!: () => void;
    const registry = new ToolRegistry()
      .register({ name: "stuck", description: "", parameters }, async () => {
        events.push("start stuck");
        await new Promise<void>((resolve) => (finish = resolve));
        events.push("end stuck");
      }, { exclusive: "fs:write", timeoutMs: 10 })
      .register({ name: "edit", description: "", parameters }, () => {
        events.push("start edit");
      }, { exclusive: "fs:write" });
    expect(await rejectionOf(registry.dispatch(toolCall("stuck", { id: "a" })))).toBeInstanceOf(ToolTimeoutError);
    const edit = registry.dispatch(toolCall("edit", { id: "b" }));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(events).toEqual(["start stuck"]);
    finish();
    await edit;
    expect(events).toEqual(["start stuck", "end stuck", "start edit"]);
  });

  it("bound a call's wait by its time limit: it never runs, and says so", async () => {
    let finish!: () => void;
    const registry = new ToolRegistry()
      .register({ name: "hold", description: "", parameters }, () => new Promise<void>((resolve) => (finish = resolve)), { exclusive: "db" })
      .register({ name: "wait", description: "", parameters }, () => "ran", { exclusive: "db", timeoutMs: 20 });
    const holding = registry.dispatch(toolCall("hold", { id: "a" }));
    const error = await rejectionOf(registry.dispatch(toolCall("wait", { id: "b" })));
    expect(error).toBeInstanceOf(ToolTimeoutError);
    expect(error).toMatchObject({ started: false, waitedFor: "other calls held what it needs" });
    expect((error as Error).message).toContain("did not start within 20 ms");
    finish();
    await holding;
    expect(await registry.dispatch(toolCall("wait", { id: "c" }))).toBe("ran");
  });

  it("give a waiting call up when its caller aborts", async () => {
    let finish!: () => void;
    const registry = new ToolRegistry()
      .register({ name: "hold", description: "", parameters }, () => new Promise<void>((resolve) => (finish = resolve)), { exclusive: "db" })
      .register({ name: "wait", description: "", parameters }, () => "ran", { exclusive: "db" });
    const holding = registry.dispatch(toolCall("hold", { id: "a" }));
    const controller = new AbortController();
    const waiting = registry.dispatch(toolCall("wait", { id: "b" }), { signal: controller.signal });
    controller.abort();
    const error = await rejectionOf(waiting);
    expect(error).toMatchObject({ name: "ToolAbortedError", started: false });
    expect((error as Error).message).toContain("was aborted before it ran");
    finish();
    await holding;
  });

  it("refuse a key that is not a non-empty string", () => {
    expect(thrownBy(() => timedRegistry({ edit: { exclusive: "" } }))).toBeInstanceOf(TypeError);
    expect(thrownBy(() => timedRegistry({ edit: { shared: [1] as never } }))).toBeInstanceOf(TypeError);
  });
});

describe("a tool's concurrency", () => {
  it("caps how many of its runs overlap, across dispatches, serving them in order", async () => {
    let running = 0;
    let most = 0;
    const started: string[] = [];
    const registry = new ToolRegistry().register(
      { name: "crawl", description: "", parameters },
      async ({ id }) => {
        started.push(id);
        most = Math.max(most, ++running);
        await new Promise((resolve) => setTimeout(resolve, 10));
        running--;
      },
      { concurrency: 2 },
    );
    const ids = ["a", "b", "c", "d", "e", "f"];
    await Promise.all([registry.dispatchAll(ids.slice(0, 3).map((id) => toolCall("crawl", { id }, id))), registry.dispatchAll(ids.slice(3).map((id) => toolCall("crawl", { id }, id)))]);
    expect(most).toBe(2);
    expect(started).toHaveLength(6);
  });
});

describe("dispatchAll's order", () => {
  it('"sequential" runs one call at a time, in order', async () => {
    const { registry, events } = timedRegistry({ a: {}, b: { ms: 1 } });
    await registry.dispatchAll([toolCall("a", { id: "1" }, "1"), toolCall("b", { id: "2" }, "2"), toolCall("a", { id: "3" }, "3")], { order: "sequential" });
    expect(events).toEqual(["start 1", "end 1", "start 2", "end 2", "start 3", "end 3"]);
  });

  it('"parallel" (the default) lets unrelated calls overlap', async () => {
    const { registry, events } = timedRegistry({ a: {} });
    await registry.dispatchAll([toolCall("a", { id: "1" }, "1"), toolCall("a", { id: "2" }, "2")]);
    expect(overlapped(events, "1", "2")).toBe(true);
  });

  it("refuses another order", async () => {
    expect(await rejectionOf(new ToolRegistry().dispatchAll([], { order: "random" as never }))).toBeInstanceOf(TypeError);
  });
});

describe("a turn whose caller aborts part way", () => {
  it("begins none of the calls after the abort: no hook, approval request, repair report or ledger entry, each aborted before it ran", async () => {
    const controller = new AbortController();
    const stored: string[] = [];
    const store = new MemoryLedger();
    const ledger = { get: (key: string) => store.get(key), set: (key: string, value: never, options: never) => (stored.push(`set ${key.split(":")[0]}`), store.set(key, value, options)), delete: (key: string) => (stored.push(`delete ${key.split(":")[0]}`), store.delete(key)), add: (key: string, value: never, options: never) => (stored.push(`add ${key.split(":")[0]}`), store.add(key, value, options)) };
    const heard: string[] = [];
    const registry = new ToolRegistry({ ledger, approvalSecret: "a test secret of at least thirty-two bytes", onRepair: () => void heard.push("repair") })
      .register({ name: "first", description: "", parameters }, () => (controller.abort(new Error("the user left")), "first"))
      .register({ name: "pay", description: "", parameters }, () => "paid", { effects: "once" })
      .register({ name: "wire", description: "", parameters }, () => "wired", { needsApproval: true })
      .register({ name: "count", description: "", parameters: Type.Object({ n: Type.Integer() }) }, () => "counted");
    registry.use({ before: (call) => void heard.push(`before ${call.toolName}`) });
    const results = await registry.dispatchAll(
      [toolCall("first", { id: "1" }, "c1"), toolCall("pay", { id: "2" }, "c2"), toolCall("wire", { id: "3" }, "c3"), toolCall("count", { n: "4" }, "c4"), toolCall("count", { n: 4.5 }, "c5")],
      { order: "sequential", signal: controller.signal },
    );
    expect(results.map((result) => result.status)).toEqual(["ok", "error", "error", "error", "error"]);
    for (const result of results.slice(1)) expect(result).toMatchObject({ error: { name: "ToolAbortedError", started: false } });
    expect(heard).toEqual(["before first"]);
    expect(stored).toEqual([]);
  });
});
