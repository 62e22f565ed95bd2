import { describe, expect, it } from "vitest";
import {
  MemoryLedger,
  ToolAbortedError,
  ToolApprovalRequiredError,
  ToolRateLimitedError,
  ToolRegistry,
  ToolTimeoutError,
  Type,
  type LedgerStore,
  type ToolCallContent,
} from "../src/index.js";

// A call given up before its handler ran (its caller aborted, its time ran out) uses nothing up:
// not its approval token, not a run of its rate limit, not its `once` claim; and a call waits for
// user code the registry cannot cancel (hooks, the approval rule) no longer than its limits.

const pay = { name: "pay", description: "Pay an invoice", parameters: Type.Object({ invoice: Type.String() }) };
const call = (id: string, invoice = "inv_1"): ToolCallContent => ({ id, name: "pay", arguments: { invoice } });

/** A `MemoryLedger` whose first `add` answers after `delayMs` (never, for `Infinity`). */
function ledgerWithSlowFirstAdd(delayMs: number): LedgerStore {
  const memory = new MemoryLedger();
  let first = true;
  return {
    get: (key) => memory.get(key),
    set: (key, value, options) => memory.set(key, value, options),
    delete: (key) => memory.delete(key),
    add: (key, value, options) => {
      if (!first) return memory.add(key, value, options);
      first = false;
      return delayMs === Infinity ? new Promise<boolean>(() => {}) : new Promise((resolve) => setTimeout(resolve, delayMs)).then(() => memory.add(key, value, options));
    },
  };
}

async function approvedToken(registry: ToolRegistry, toolCall: ToolCallContent): Promise<string> {
  const required: unknown = await registry.dispatch(toolCall).catch((error: unknown) => error);
  if (!(required instanceof ToolApprovalRequiredError)) throw new Error("expected the call to need approval");
  return registry.approve(required.request);
}

const rejection = (promise: Promise<unknown>): Promise<unknown> => promise.then(() => undefined, (error: unknown) => error);

describe("a call given up before its handler ran", () => {
  it("leaves its approval token good when its caller aborts at once", async () => {
    let runs = 0;
    const registry = new ToolRegistry().register(pay, () => (runs++, "paid"), { needsApproval: true });
    const token = await approvedToken(registry, call("c1"));
    const controller = new AbortController();
    const first = registry.dispatch(call("c1"), { approval: token, signal: controller.signal });
    controller.abort();
    const error = await rejection(first);
    expect(error).toBeInstanceOf(ToolAbortedError);
    expect((error as ToolAbortedError).started).toBe(false);
    expect(runs).toBe(0);
    await expect(registry.dispatch(call("c1"), { approval: token })).resolves.toBe("paid");
    expect(runs).toBe(1);
  });

  it("leaves its approval token good when its time ran out before the ledger marked it, and the mark came later", async () => {
    let runs = 0;
    const registry = new ToolRegistry({ ledger: ledgerWithSlowFirstAdd(60), timeoutMs: 30 }).register(pay, () => (runs++, "paid"), { needsApproval: true });
    const token = await approvedToken(registry, call("c1"));
    const error = await rejection(registry.dispatch(call("c1"), { approval: token }));
    expect(error).toBeInstanceOf(ToolTimeoutError);
    expect((error as ToolTimeoutError).started).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await expect(registry.dispatch(call("c1"), { approval: token })).resolves.toBe("paid");
    expect(runs).toBe(1);
  });

  it("gives its rate limit's run back when its caller aborted while it was fingerprinted", async () => {
    let runs = 0;
    const registry = new ToolRegistry().register(pay, () => (runs++, "paid"), { effects: "idempotent", rateLimit: { limit: 1, intervalMs: 60_000 } });
    const controller = new AbortController();
    const first = registry.dispatch(call("c1"), { signal: controller.signal });
    controller.abort();
    expect(await rejection(first)).toBeInstanceOf(ToolAbortedError);
    expect(runs).toBe(0);
    await expect(registry.dispatch(call("c2", "inv_2"))).resolves.toBe("paid");
  });

  it("asks the store again for a once claim whose first add never answered, rather than refusing it as in doubt", async () => {
    let runs = 0;
    const registry = new ToolRegistry({ ledger: ledgerWithSlowFirstAdd(Infinity), timeoutMs: 30 }).register(pay, () => (runs++, "paid"), { effects: "once" });
    const first = await rejection(registry.dispatch(call("c1")));
    expect(first).toBeInstanceOf(ToolTimeoutError);
    expect((first as ToolTimeoutError).started).toBe(false);
    await expect(registry.dispatch(call("c2"))).resolves.toBe("paid");
    expect(runs).toBe(1);
    expect(registry.ledgerStats().inDoubt).toBe(0);
  });
});

describe("a retry given up before it ran", () => {
  it("gives back the run it took when its caller aborts during the backoff", async () => {
    let runs = 0;
    const registry = new ToolRegistry().register(
      pay,
      () => {
        runs++;
        throw new Error("flaky");
      },
      { effects: "idempotent", retry: { retries: 1, minDelayMs: 50, maxDelayMs: 50 }, rateLimit: { limit: 2, intervalMs: 60_000 } },
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    expect(await rejection(registry.dispatch(call("c1"), { signal: controller.signal }))).toBeInstanceOf(ToolAbortedError);
    expect(runs).toBe(1);
    const second = await rejection(registry.dispatch(call("c2", "inv_2")));
    expect(second).not.toBeInstanceOf(ToolRateLimitedError);
    expect(runs).toBe(2);
  });

  it("does not wait out its backoff when its caller aborted as the attempt failed", async () => {
    const controller = new AbortController();
    const registry = new ToolRegistry().register(
      pay,
      () => {
        controller.abort();
        throw new Error("flaky");
      },
      { effects: "idempotent", retry: { retries: 1, minDelayMs: 5_000, maxDelayMs: 5_000 } },
    );
    const started = performance.now();
    expect(await rejection(registry.dispatch(call("c1"), { signal: controller.signal }))).toBeInstanceOf(ToolAbortedError);
    expect(performance.now() - started).toBeLessThan(2_500);
  });
});

describe("a call waiting for user code the registry cannot cancel", () => {
  const never = (): Promise<never> => new Promise(() => {});

  it("ends at its caller's abort while a before hook never answers, and frees its place for the next call", async () => {
    const registry = new ToolRegistry().register(pay, () => "paid", { concurrency: 1 });
    registry.use({ before: (hookCall) => ((hookCall.arguments as { invoice: string }).invoice === "slow" ? never() : undefined) });
    const controller = new AbortController();
    const stuck = registry.dispatch(call("c1", "slow"), { signal: controller.signal });
    controller.abort();
    const error = await rejection(stuck);
    expect(error).toBeInstanceOf(ToolAbortedError);
    expect((error as ToolAbortedError).started).toBe(false);
    await expect(registry.dispatch(call("c2"))).resolves.toBe("paid");
  });

  it("ends at its time limit while its needsApproval rule never answers, saying what held it", async () => {
    const registry = new ToolRegistry({ timeoutMs: 30 }).register(pay, () => "paid", { needsApproval: never });
    const error = await rejection(registry.dispatch(call("c1")));
    expect(error).toBeInstanceOf(ToolTimeoutError);
    expect((error as ToolTimeoutError).started).toBe(false);
    expect((error as ToolTimeoutError).waitedFor).toBe("its needsApproval rule did not answer in that time");
  });

  it("ends at its caller's abort while an after hook never answers, as a call whose handler ran", async () => {
    let runs = 0;
    const registry = new ToolRegistry().register(pay, () => (runs++, "paid"));
    registry.use({ after: never });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const error = await rejection(registry.dispatch(call("c1"), { signal: controller.signal }));
    expect(error).toBeInstanceOf(ToolAbortedError);
    expect((error as ToolAbortedError).started).toBe(true);
    expect(runs).toBe(1);
  });

  it("waits for a slow after hook past the tool's time limit: the tool completed, and its recorded result replays", async () => {
    let runs = 0;
    const registry = new ToolRegistry({ timeoutMs: 30 }).register(pay, () => (runs++, "paid"), { effects: "once" });
    registry.use({ after: () => new Promise((resolve) => setTimeout(() => resolve(undefined), 80)) });
    await expect(registry.dispatch(call("c1"))).resolves.toBe("paid");
    const [again] = await registry.dispatchAll([call("c2")]);
    expect(again).toMatchObject({ status: "ok", value: "paid", reused: "ledger" });
    expect(runs).toBe(1);
  });
});
