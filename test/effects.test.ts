import { describe, expect, it, vi } from "vitest";
import { MemoryLedger, ToolLedgerError, ToolRegistry, ToolTimeoutError, Type, type LedgerStore, type RegisterOptions, type ToolSuccess } from "../src/index.js";
import { failingLedger, FileLedger, temporaryLedgerPath } from "./support/file-ledger.js";
import { rejectionOf, thrownBy, toolCall } from "./support/fixtures.js";

const payParameters = Type.Object({ invoice: Type.String(), amount: Type.Number() });
const payTool = { name: "pay", description: "Pay an invoice", parameters: payParameters };

/** A registry with one `pay` tool whose runs are counted. */
function payRegistry(options: RegisterOptions = {}, registryOptions: ConstructorParameters<typeof ToolRegistry>[0] = {}) {
  const runs: unknown[] = [];
  const registry = new ToolRegistry(registryOptions).register(
    payTool,
    async (args) => {
      runs.push(args);
      // Long enough for identical calls started with it to join it, on a loaded machine too (each fingerprint is hashed off the main thread).
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { paid: args.amount, run: runs.length };
    },
    options,
  );
  return { registry, runs };
}

/** A `pay` tool whose runs last until `finish` is called, then return `result`. */
function gatedPayRegistry(options: RegisterOptions, result: string) {
  const waiting: Array<() => void> = [];
  let runs = 0;
  const registry = new ToolRegistry().register(
    payTool,
    async () => {
      runs++;
      await new Promise<void>((resolve) => waiting.push(resolve));
      return result;
    },
    options,
  );
  return { registry, finish: () => waiting.splice(0).forEach((resolve) => resolve()), runs: () => runs };
}

const call = (id: string, args: Record<string, unknown> | string = { invoice: "inv_1", amount: 10 }) => toolCall("pay", args, id);
/** A read-only `pay` tool whose one run lasts until `finish` is called, then returns what `result` makes. */
function gatedRegistry(result: () => unknown) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const registry = new ToolRegistry().register(
    payTool,
    async () => {
      await gate;
      return result() as never;
    },
    { effects: "read-only" },
  );
  return { registry, finish: () => release() };
}

describe("concurrent identical calls", () => {
  it.each(["read-only", "idempotent", "once"] as const)("to a %s tool share one run", async (effects) => {
    const { registry, runs } = payRegistry({ effects });
    const results = await registry.dispatchAll([call("a"), call("b", { amount: 10, invoice: "inv_1" }), call("c", '{"invoice":"inv_1","amount":10.0}')]);
    expect(runs).toHaveLength(1);
    expect(results.map((result) => (result as ToolSuccess).value)).toEqual([{ paid: 10, run: 1 }, { paid: 10, run: 1 }, { paid: 10, run: 1 }]);
    expect(results.map((result) => (result as ToolSuccess).reused)).toEqual([undefined, "in-flight", "in-flight"]);
    expect(registry.ledgerStats()).toMatchObject({ runs: 1, inFlight: 2 });
  });

  it("each get a result of their own: what one caller, or its after hook, changes in its result, another does not see", async () => {
    const { registry, finish } = gatedRegistry(() => ({ paid: 10, secret: "s" }));
    // An after hook that redacts the result for one caller, in place.
    registry.use({ after: (_call, result, context) => void (context.toolCallId === "a" && ((result.value as { secret: string }).secret = "redacted")) });
    const own = registry.dispatch(call("a"));
    const joined = registry.dispatch(call("b"));
    await vi.waitFor(() => expect(registry.ledgerStats().inFlight).toBe(1));
    finish();
    expect(await own).toEqual({ paid: 10, secret: "redacted" });
    expect(await joined).toEqual({ paid: 10, secret: "s" });
  });

  it("share a result JSON would change as it is, rather than a copy that differs from it", async () => {
    const at = new Date(0);
    const { registry, finish } = gatedRegistry(() => ({ at }));
    const own = registry.dispatch(call("a"));
    const joined = registry.dispatch(call("b"));
    await vi.waitFor(() => expect(registry.ledgerStats().inFlight).toBe(1));
    finish();
    expect(await joined).toBe(await own);
    expect(((await joined) as { at: unknown }).at).toBe(at);
  });

  it("to a tool with no declared effects each run (today's behaviour)", async () => {
    const { registry, runs } = payRegistry();
    const results = await registry.dispatchAll([call("a"), call("b")]);
    expect(runs).toHaveLength(2);
    expect(results.every((result) => result.status === "ok" && !("reused" in result))).toBe(true);
  });

  it("with different arguments each run", async () => {
    const { registry, runs } = payRegistry({ effects: "read-only" });
    await registry.dispatchAll([call("a"), call("b", { invoice: "inv_2", amount: 10 })]);
    expect(runs).toHaveLength(2);
  });

  it("share a failure too, and a later call runs again", async () => {
    let runs = 0;
    let fail!: () => void;
    const registry = new ToolRegistry().register(
      payTool,
      async () => {
        // The first run fails when the test says; later ones at once.
        if (++runs === 1) await new Promise<void>((resolve) => (fail = resolve));
        throw new Error("bank offline");
      },
      { effects: "idempotent" },
    );
    const settling = registry.dispatchAll([call("a"), call("b")]);
    // Each call's fingerprint is hashed off the main thread: the run fails only once the second call joined it.
    await vi.waitFor(() => expect(registry.ledgerStats().inFlight).toBe(1));
    fail();
    const results = await settling;
    expect(results.map((result) => result.status)).toEqual(["error", "error"]);
    expect(runs).toBe(1);
    await registry.dispatchAll([call("c")]);
    expect(runs).toBe(2);
  });
});

describe("a call that joins an identical call in flight", () => {
  it("ends at its own caller's abort, already heard or heard while it waits, and the run it joined goes on", async () => {
    const { registry, finish, runs } = gatedPayRegistry({ effects: "read-only" }, "done");
    const first = registry.dispatch(call("a"));
    await vi.waitFor(() => expect(runs()).toBe(1));
    const aborted = new AbortController();
    aborted.abort(new Error("user left"));
    expect(await rejectionOf(registry.dispatch(call("b"), { signal: aborted.signal }))).toMatchObject({ name: "ToolAbortedError", toolCallId: "b" });
    const later = new AbortController();
    const waiting = rejectionOf(registry.dispatch(call("c"), { signal: later.signal }));
    later.abort();
    expect(await waiting).toMatchObject({ name: "ToolAbortedError", toolCallId: "c" });
    finish();
    expect(await first).toBe("done");
    expect(runs()).toBe(1);
  });

  it.each([
    ["read-only", { status: "ok", toolCallId: "b", value: "paid inv_1" }, 2],
    ["idempotent", { status: "ok", toolCallId: "b", value: "paid inv_1" }, 2],
    // A once call never runs twice: the aborted run's outcome is not known yet, and the joiner says so.
    ["once", { status: "error", toolCallId: "b", error: { name: "ToolLedgerError", reason: "in-doubt" } }, 1],
  ] as const)("does not fail with the abort of the %s run it joined, which that run's own caller made", async (effects, expected, expectedRuns) => {
    let runs = 0;
    const waiting: Array<() => void> = [];
    // Each run lasts until it is let go, or until its own caller aborts it.
    const registry = new ToolRegistry().register(
      payTool,
      (args, { signal }) =>
        new Promise((resolve, reject) => {
          runs++;
          waiting.push(() => resolve(`paid ${args.invoice}`));
          signal.addEventListener("abort", () => reject(signal.reason));
        }),
      { effects },
    );
    const owner = new AbortController();
    const first = rejectionOf(registry.dispatch(call("a"), { signal: owner.signal }));
    await vi.waitFor(() => expect(runs).toBe(1));
    const joiner = registry.dispatchAll([call("b")]);
    await vi.waitFor(() => expect(registry.ledgerStats().inFlight).toBe(1));
    owner.abort(new Error("user A left"));
    expect(await first).toMatchObject({ name: "ToolAbortedError", toolCallId: "a" });
    if (expectedRuns === 2) await vi.waitFor(() => expect(runs).toBe(2));
    waiting.splice(0).forEach((letGo) => letGo());
    const [result] = await joiner;
    expect(result).toMatchObject(expected);
    expect(runs).toBe(expectedRuns);
  });
});

describe("a call that joins an identical run of a tool that holds a resource", () => {
  it("gives up its place in line at once, so a run behind it is never waited on by a call ahead of it", async () => {
    let runs = 0;
    const registry = new ToolRegistry().register(payTool, (args) => `paid ${args.invoice} #${++runs}`, { effects: "read-only", exclusive: "db" });
    // The first call reaches the ledger later than the second: it joins the run of a call behind it in line.
    registry.use({ before: async (_call, context) => void (context.toolCallId === "a" && (await new Promise((resolve) => setTimeout(resolve, 50)))) });
    const settled = registry.dispatchAll([call("a"), call("b")]);
    const outcome = await Promise.race([settled, new Promise((resolve) => setTimeout(() => resolve("still waiting"), 2_000))]);
    expect(outcome).toMatchObject([{ status: "ok", value: "paid inv_1 #1" }, { status: "ok", value: "paid inv_1 #1" }]);
    expect(runs).toBe(1);
  });
});

describe("ledgerStats().runs", () => {
  it("counts the handler's runs: none for a call refused before it ran, one for each retry", async () => {
    let runs = 0;
    const registry = new ToolRegistry()
      .register({ ...payTool, name: "limited" }, () => ++runs, { effects: "read-only", rateLimit: { limit: 1, intervalMs: 60_000 } })
      .register({ ...payTool, name: "flaky" }, () => {
        runs++;
        throw new Error("flaky");
      }, { effects: "idempotent", retry: { retries: 2, minDelayMs: 1, maxDelayMs: 1 } });
    await registry.dispatchAll([1, 2, 3].map((amount) => toolCall("limited", { invoice: "inv", amount }, `l${amount}`)), { order: "sequential" });
    expect(registry.ledgerStats().runs).toBe(1);
    await registry.dispatchAll([toolCall("flaky", { invoice: "inv", amount: 1 }, "f1")]);
    expect(runs).toBe(4);
    expect(registry.ledgerStats().runs).toBe(4);
  });
});

describe("a tool registered again under its name", () => {
  it("never answers a call with a run of its former registration still in flight", async () => {
    const { registry, finish } = gatedPayRegistry({ effects: "idempotent" }, "old handler");
    const old = registry.dispatch(call("a"));
    await vi.waitFor(() => expect(registry.executionStats().running).toBe(1));
    registry.unregister("pay");
    registry.register(payTool, () => "new handler", { effects: "idempotent" });
    const [result] = await registry.dispatchAll([call("b")]);
    expect(result).toMatchObject({ status: "ok", value: "new handler" });
    expect(result).not.toHaveProperty("reused");
    finish();
    expect(await old).toBe("old handler");
  });
});

describe("a read-only tool with cacheTtlMs", () => {
  it("answers a repeat from the cache until the time to live runs out", async () => {
    const { registry, runs } = payRegistry({ effects: "read-only", cacheTtlMs: 80 });
    const [first] = await registry.dispatchAll([call("a")]);
    const [second] = await registry.dispatchAll([call("b")]);
    expect(runs).toHaveLength(1);
    expect(second).toMatchObject({ status: "ok", reused: "cache", value: (first as ToolSuccess).value });
    await new Promise((resolve) => setTimeout(resolve, 120));
    const [third] = await registry.dispatchAll([call("c")]);
    expect(runs).toHaveLength(2);
    expect((third as ToolSuccess).reused).toBeUndefined();
  });

  it("hands out a fresh copy each time, so one caller cannot change another's result", async () => {
    const { registry } = payRegistry({ effects: "read-only", cacheTtlMs: 10_000 });
    const first = (await registry.dispatch(call("a"))) as { paid: number };
    first.paid = 999;
    expect(await registry.dispatch(call("b"))).toEqual({ paid: 10, run: 1 });
  });

  it("still runs when the store fails (a cache is only a shortcut)", async () => {
    const { registry, runs } = payRegistry({ effects: "read-only", cacheTtlMs: 10_000 }, { ledger: failingLedger(new MemoryLedger(), ["get", "set"]) });
    expect(await registry.dispatch(call("a"))).toEqual({ paid: 10, run: 1 });
    expect(await registry.dispatch(call("b"))).toEqual({ paid: 10, run: 2 });
    expect(runs).toHaveLength(2);
    expect(registry.ledgerStats().storeErrors).toBe(4);
  });

  it("is refused at register for a tool that is not read-only", () => {
    expect(thrownBy(() => payRegistry({ effects: "idempotent", cacheTtlMs: 1_000 }))).toBeInstanceOf(TypeError);
    expect(thrownBy(() => payRegistry({ cacheTtlMs: 1_000 }))).toBeInstanceOf(TypeError);
  });
});

describe("a once tool", () => {
  it("does not run again for the same arguments: the stored result is replayed, marked as such", async () => {
    const { registry, runs } = payRegistry({ effects: "once" });
    const [first] = await registry.dispatchAll([call("a")]);
    const [second] = await registry.dispatchAll([call("b", { amount: 10.0, invoice: "inv_1" })]);
    expect(runs).toHaveLength(1);
    expect(first).toMatchObject({ status: "ok", value: { paid: 10, run: 1 } });
    expect((first as ToolSuccess).reused).toBeUndefined();
    expect(second).toMatchObject({ status: "ok", toolCallId: "b", reused: "ledger", value: { paid: 10, run: 1 } });
    expect(registry.ledgerStats()).toMatchObject({ runs: 1, ledger: 1 });
  });

  it("replays across a restart with a persistent ledger", async () => {
    const path = temporaryLedgerPath();
    const before = payRegistry({ effects: "once" }, { ledger: new FileLedger(path) });
    await before.registry.dispatch(call("a"));
    const after = payRegistry({ effects: "once" }, { ledger: new FileLedger(path) });
    const [replayed] = await after.registry.dispatchAll([call("b")]);
    expect(after.runs).toHaveLength(0);
    expect(replayed).toMatchObject({ status: "ok", reused: "ledger", value: { paid: 10, run: 1 } });
  });

  it("runs again after its handler failed: only a completed run is kept", async () => {
    let fail = true;
    const registry = new ToolRegistry().register(
      payTool,
      () => {
        if (fail) throw new Error("declined by the bank");
        return "paid";
      },
      { effects: "once" },
    );
    expect((await registry.dispatchAll([call("a")]))[0]?.status).toBe("error");
    fail = false;
    expect(await registry.dispatch(call("b"))).toBe("paid");
  });

  it("fails closed when the store cannot be read: a typed error, and the handler does not run", async () => {
    const { registry, runs } = payRegistry({ effects: "once" }, { ledger: failingLedger(new MemoryLedger(), ["get", "add"]) });
    const error = await rejectionOf(registry.dispatch(call("a")));
    expect(error).toBeInstanceOf(ToolLedgerError);
    expect(error).toMatchObject({ toolName: "pay", reason: "unavailable" });
    expect((error as Error).cause).toBeInstanceOf(Error);
    expect((error as Error).message).toContain("must not run twice");
    expect(runs).toHaveLength(0);
  });

  it("never runs twice when its result could not be recorded: the repeat is refused as in doubt", async () => {
    const memory = new MemoryLedger();
    const { registry, runs } = payRegistry({ effects: "once" }, { ledger: failingLedger(memory, ["set"]) });
    expect(await registry.dispatch(call("a"))).toEqual({ paid: 10, run: 1 });
    const [repeat] = await registry.dispatchAll([call("b")]);
    expect(runs).toHaveLength(1);
    expect(repeat).toMatchObject({ status: "error", error: { reason: "in-doubt" } });
    expect(repeat?.status === "error" && repeat.content).toContain("may already have taken effect");
    expect(registry.ledgerStats()).toMatchObject({ inDoubt: 1, storeErrors: 1 });
  });

  it("keeps its claim while a timed-out handler runs on, and records the late result", async () => {
    const { registry, finish, runs } = gatedPayRegistry({ effects: "once", timeoutMs: 10 }, "paid late");
    expect(await rejectionOf(registry.dispatch(call("a")))).toBeInstanceOf(ToolTimeoutError);
    expect(await rejectionOf(registry.dispatch(call("b")))).toMatchObject({ reason: "in-doubt" });
    finish();
    await vi.waitFor(() => expect(registry.executionStats().settledLate).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const [replayed] = await registry.dispatchAll([call("c")]);
    expect(replayed).toMatchObject({ status: "ok", reused: "ledger", value: "paid late" });
    expect(runs()).toBe(1);
  });

  it("replays a rich result as a rich result, and a result with no JSON as a typed refusal", async () => {
    const { toolContent, isToolContent } = await import("../src/index.js");
    const registry = new ToolRegistry()
      .register(payTool, () => toolContent([{ type: "text", text: "receipt" }]), { effects: "once" })
      .register({ ...payTool, name: "big" }, () => 10n, { effects: "once" });
    await registry.dispatch(call("a"));
    const replayed = await registry.dispatch(call("b"));
    expect(isToolContent(replayed)).toBe(true);
    expect(replayed).toMatchObject({ content: [{ type: "text", text: "receipt" }] });
    await registry.dispatch(toolCall("big", { invoice: "x", amount: 1 }, "c"));
    expect(await rejectionOf(registry.dispatch(toolCall("big", { invoice: "x", amount: 1 }, "d")))).toMatchObject({ reason: "unrecorded" });
  });
});

describe("the ledger option", () => {
  it("refuses what is not a store", () => {
    expect(thrownBy(() => new ToolRegistry({ ledger: {} as never }))).toBeInstanceOf(TypeError);
  });

  it("works with a store that has no atomic add (read, then write)", async () => {
    const memory = new MemoryLedger();
    const store = { get: (key: string) => memory.get(key), set: memory.set.bind(memory), delete: memory.delete.bind(memory) };
    const { registry, runs } = payRegistry({ effects: "once" }, { ledger: store });
    await registry.dispatch(call("a"));
    await registry.dispatch(call("b"));
    expect(runs).toHaveLength(1);
  });

  it("works with a store that answers null for a key it does not hold, as Redis clients do", async () => {
    const entries = new Map<string, unknown>();
    const store = {
      get: async (key: string) => (entries.get(key) ?? null) as never,
      set: async (key: string, value: unknown) => void entries.set(key, value),
      delete: async (key: string) => void entries.delete(key),
    };
    const { registry, runs } = payRegistry({ effects: "once" }, { ledger: store });
    expect(await registry.dispatch(call("a"))).toEqual({ paid: 10, run: 1 });
    expect(await registry.dispatch(call("b"))).toEqual({ paid: 10, run: 1 });
    expect(runs).toHaveLength(1);
  });
});

describe("a ledger that does not answer", () => {
  /** A store whose calls wait until `answer` is called, then go to a MemoryLedger. */
  function stalledLedger() {
    const memory = new MemoryLedger();
    const waiting: Array<() => void> = [];
    const later = <T>(step: () => Promise<T>): Promise<T> => new Promise<T>((resolve, reject) => waiting.push(() => step().then(resolve, reject)));
    const store: LedgerStore = {
      get: (key) => later(() => memory.get(key)),
      set: (key, value, options) => later(() => memory.set(key, value, options)),
      delete: (key) => later(() => memory.delete(key)),
      add: (key, value, options) => later(() => memory.add(key, value, options)),
    };
    return { store, memory, answer: () => waiting.splice(0).forEach((step) => step()) };
  }

  it("never holds a once call past its time limit or its caller's abort, and gives back a claim it makes after", async () => {
    const { store, memory, answer } = stalledLedger();
    const { registry, runs } = payRegistry({ effects: "once", timeoutMs: 40 }, { ledger: store });
    const timedOut = await rejectionOf(registry.dispatch(call("a")));
    expect(timedOut).toMatchObject({ name: "ToolTimeoutError", started: false, waitedFor: "its ledger store did not answer in that time" });
    expect((timedOut as Error).message).toBe('Tool "pay" did not start within 40 ms: its ledger store did not answer in that time. It did not run; you may call it again.');
    const controller = new AbortController();
    const aborted = rejectionOf(registry.dispatch(call("b", { invoice: "inv_2", amount: 10 }), { signal: controller.signal }));
    controller.abort();
    expect(await aborted).toMatchObject({ name: "ToolAbortedError", started: false });
    expect(runs).toHaveLength(0);
    answer();
    // The claims the store made after the calls gave up are deleted once it answers again.
    await vi.waitFor(async () => {
      answer();
      expect(memory.size).toBe(0);
    });
  });

  it("never holds a memoized read past the caller's abort", async () => {
    const { store } = stalledLedger();
    const { registry, runs } = payRegistry({ effects: "read-only", cacheTtlMs: 60_000 }, { ledger: store });
    const controller = new AbortController();
    const aborted = rejectionOf(registry.dispatch(call("a"), { signal: controller.signal }));
    controller.abort();
    expect(await aborted).toMatchObject({ name: "ToolAbortedError", started: false });
    expect(runs).toHaveLength(0);
  });
});

describe("MemoryLedger", () => {
  it("keeps at most max memoized results, dropping the least recently used first", async () => {
    const ledger = new MemoryLedger({ max: 2 });
    const evictable = { ttlMs: 60_000, evictable: true };
    await ledger.set("a", 1, evictable);
    await ledger.set("b", 2, evictable);
    expect(await ledger.get("a")).toBe(1);
    await ledger.set("c", 3, evictable);
    expect([await ledger.get("a"), await ledger.get("b"), await ledger.get("c")]).toEqual([1, undefined, 3]);
  });

  it("never drops an entry that must be kept for room: past max a new one is refused until some expire", async () => {
    const ledger = new MemoryLedger({ max: 2 });
    await ledger.set("once:a", 1, { ttlMs: 30 });
    expect(await ledger.add("approval:b", 2, { ttlMs: 60_000 })).toBe(true);
    // Memoized results have room of their own, and never push a kept entry out.
    for (let n = 0; n < 10; n++) await ledger.set(`cache:${n}`, n, { ttlMs: 60_000, evictable: true });
    await expect(ledger.add("approval:c", 3, { ttlMs: 60_000 })).rejects.toThrow(/^MemoryLedger is full: it holds 2 entries that must be kept/);
    await ledger.set("once:a", 4, { ttlMs: 30 });
    expect([await ledger.get("once:a"), await ledger.get("approval:b")]).toEqual([4, 2]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await ledger.add("approval:c", 3, { ttlMs: 60_000 })).toBe(true);
  });

  it("keeps a used approval and a once record however many memoized results a model's calls make", async () => {
    let pays = 0;
    const registry = new ToolRegistry({ ledger: new MemoryLedger({ max: 3 }), approvalSecret: "a secret of at least thirty-two bytes!!" })
      .register(payTool, () => ++pays, { needsApproval: true })
      .register({ name: "charge", description: "Charge once", parameters: payParameters }, () => ++pays, { effects: "once" })
      .register({ name: "lookup", description: "Look up", parameters: Type.Object({ q: Type.String() }) }, ({ q }) => q, { effects: "read-only", cacheTtlMs: 60_000 });
    const payCall = call("p");
    const request = ((await rejectionOf(registry.dispatch(payCall))) as { request: Parameters<ToolRegistry["approve"]>[0] }).request;
    const token = await registry.approve(request);
    expect(await registry.dispatch(payCall, { approval: token })).toBe(1);
    expect(await registry.dispatch(toolCall("charge", { invoice: "inv_1", amount: 10 }, "c1"))).toBe(2);
    for (let n = 0; n < 20; n++) await registry.dispatch(toolCall("lookup", { q: `k${n}` }, `l${n}`));
    expect(await rejectionOf(registry.dispatch(payCall, { approval: token }))).toMatchObject({ name: "ToolApprovalError", reason: "used" });
    const [replayed] = await registry.dispatchAll([toolCall("charge", { invoice: "inv_1", amount: 10 }, "c2")]);
    expect(replayed).toMatchObject({ status: "ok", reused: "ledger", value: 2 });
    expect(pays).toBe(2);
  });
});
