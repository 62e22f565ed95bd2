import { afterEach, describe, expect, it, vi } from "vitest";
import {
  callFingerprint,
  MemoryLedger,
  ToolApprovalError,
  ToolApprovalRequiredError,
  ToolArgumentsValidationError,
  ToolRegistry,
  Type,
  type ApprovalRequest,
  type LedgerStore,
  type RegisterOptions,
  type ToolRegistryOptions,
} from "../src/index.js";
import { FileLedger, temporaryLedgerPath } from "./support/file-ledger.js";
import { rejectionOf, thrownBy, toolCall } from "./support/fixtures.js";

const SECRET = "a test secret of at least thirty-two bytes";
const payParameters = Type.Object({ invoice: Type.String(), amount: Type.Number(), note: Type.Optional(Type.String()) });
const payTool = { name: "pay", description: "Pay an invoice", parameters: payParameters };

function payRegistry(options: RegisterOptions<{ invoice: string; amount: number; note?: string }> = { needsApproval: true }, registryOptions: ToolRegistryOptions = {}) {
  const runs: unknown[] = [];
  const registry = new ToolRegistry({ approvalSecret: SECRET, ...registryOptions }).register(
    payTool,
    (args) => {
      runs.push(args);
      return `paid ${args.amount}`;
    },
    options,
  );
  return { registry, runs };
}

const args = { invoice: "inv_1", amount: 10 };
const call = (id = "call_1", callArgs: Record<string, unknown> | string = args) => toolCall("pay", callArgs, id);

/** The approval request a call of a tool that needs approval rejects with. */
async function requestOf(registry: ToolRegistry, id = "call_1", callArgs: Record<string, unknown> | string = args): Promise<ApprovalRequest> {
  const error = await rejectionOf(registry.dispatch(call(id, callArgs)));
  if (!(error instanceof ToolApprovalRequiredError)) throw new Error(`expected an approval request, got ${String(error)}`);
  return error.request;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("a tool that needs approval", () => {
  it("is checked, then not run: dispatch rejects with the request, plain JSON with the checked arguments and their fingerprint", async () => {
    const { registry, runs } = payRegistry();
    const request = await requestOf(registry, "call_1", '{"amount":10.0,"invoice":"inv_1"}');
    expect(runs).toHaveLength(0);
    expect(request).toEqual({ toolCallId: "call_1", toolName: "pay", arguments: { amount: 10, invoice: "inv_1" }, fingerprint: await callFingerprint("pay", args), requestedAt: expect.any(String) });
    expect(JSON.parse(JSON.stringify(request))).toEqual(request);
    expect(Number.isNaN(Date.parse(request.requestedAt))).toBe(false);
  });

  it("is a third kind of result in dispatchAll, beside ok and error", async () => {
    const { registry } = payRegistry();
    registry.register({ name: "echo", description: "Echo", parameters: Type.Object({}) }, () => "hi");
    const results = await registry.dispatchAll([call("a"), toolCall("echo", {}, "b"), toolCall("nope", {}, "c")]);
    expect(results.map((result) => [result.status, result.isError])).toEqual([
      ["approval-required", false],
      ["ok", false],
      ["error", true],
    ]);
    expect(results[0]).toMatchObject({ toolCallId: "a", toolName: "pay", request: { toolCallId: "a", arguments: args } });
  });

  it("still refuses invalid arguments first, as a validation error", async () => {
    const { registry } = payRegistry();
    expect(await rejectionOf(registry.dispatch(call("a", { invoice: "inv_1", amount: "10" })))).toBeInstanceOf(ToolArgumentsValidationError);
  });

  it("runs exactly the approved arguments, once, with the token", async () => {
    const { registry, runs } = payRegistry();
    const token = await registry.approve(await requestOf(registry), { approvedBy: "alice" });
    expect(typeof token).toBe("string");
    expect(await registry.dispatch(call(), { approval: token })).toBe("paid 10");
    expect(runs).toEqual([args]);
  });

  it("takes tokens by call id in dispatchAll", async () => {
    const { registry, runs } = payRegistry();
    const request = await requestOf(registry, "a");
    const results = await registry.dispatchAll([call("a"), call("b", { invoice: "inv_2", amount: 5 })], { approvals: { a: await registry.approve(request) } });
    expect(results.map((result) => result.status)).toEqual(["ok", "approval-required"]);
    expect(runs).toEqual([args]);
  });

  it("asks only when the predicate says so, given the checked arguments", async () => {
    const seen: unknown[] = [];
    const { registry, runs } = payRegistry({
      needsApproval: (checked, context) => {
        seen.push([checked, context.toolCallId, context.data]);
        return checked.amount > 100;
      },
    });
    expect(await registry.dispatch(call("a"), { data: { user: "u1" } })).toBe("paid 10");
    expect(await rejectionOf(registry.dispatch(call("b", { invoice: "inv_1", amount: 500 })))).toBeInstanceOf(ToolApprovalRequiredError);
    expect(runs).toHaveLength(1);
    expect(seen[0]).toEqual([args, "a", { user: "u1" }]);
  });

  it("gives the predicate a copy of its own: what it changes, now or later, never reaches the handler", async () => {
    let kept: { amount: number } | undefined;
    const { registry, runs } = payRegistry({
      needsApproval: (checked) => {
        kept = checked;
        checked.amount = 1e9;
        return false;
      },
    });
    const running = registry.dispatch(call());
    kept!.amount = 2e9;
    expect(await running).toBe("paid 10");
    expect(runs).toEqual([args]);
  });

  it.each([
    ["throws", () => {
      throw new Error("policy service down");
    }],
    ["rejects", () => Promise.reject(new Error("policy service down"))],
    ["returns something other than false", () => "maybe" as unknown as boolean],
  ])("asks for approval when the predicate %s (fails closed)", async (_, needsApproval) => {
    const { registry, runs } = payRegistry({ needsApproval });
    expect(await rejectionOf(registry.dispatch(call()))).toBeInstanceOf(ToolApprovalRequiredError);
    expect(runs).toHaveLength(0);
  });
});

describe("an approval token", () => {
  it("is refused as used the second time, and the handler does not run again", async () => {
    const { registry, runs } = payRegistry();
    const token = await registry.approve(await requestOf(registry));
    await registry.dispatch(call(), { approval: token });
    const error = await rejectionOf(registry.dispatch(call(), { approval: token }));
    expect(error).toBeInstanceOf(ToolApprovalError);
    expect(error).toMatchObject({ reason: "used", toolName: "pay" });
    expect(runs).toHaveLength(1);
  });

  it("is used up only by a run: a call refused or aborted before its handler ran leaves it good", async () => {
    let release!: () => void;
    const runs: string[] = [];
    const registry = new ToolRegistry({ approvalSecret: SECRET }).register(
      payTool,
      async (args, { toolCallId }) => {
        runs.push(toolCallId);
        if (toolCallId === "first") await new Promise<void>((resolve) => (release = resolve));
        return `paid ${args.amount}`;
      },
      { needsApproval: true, concurrency: 1 },
    );
    const first = registry.dispatch(call("first"), { approval: await registry.approve(await requestOf(registry, "first")) });
    await vi.waitFor(() => expect(runs).toEqual(["first"]));
    const token = await registry.approve(await requestOf(registry, "second"));
    const controller = new AbortController();
    const waiting = rejectionOf(registry.dispatch(call("second"), { approval: token, signal: controller.signal }));
    controller.abort();
    expect(await waiting).toMatchObject({ name: "ToolAbortedError", started: false });
    release();
    await first;
    expect(await registry.dispatch(call("second"), { approval: token })).toBe("paid 10");
    expect(await rejectionOf(registry.dispatch(call("second"), { approval: token }))).toMatchObject({ name: "ToolApprovalError", reason: "used" });
    expect(runs).toEqual(["first", "second"]);
  });

  it("stays good, with the rate limit's run, whichever turn of the event loop an abort before the handler lands on", async () => {
    /** A ledger that aborts `controller` `turns` turns of the event loop after the token's use is marked. */
    class AbortingLedger extends MemoryLedger {
      controller: AbortController | undefined;
      turns = 0;
      override add(key: string, value: Parameters<MemoryLedger["add"]>[1], options: Parameters<MemoryLedger["add"]>[2]): Promise<boolean> {
        const added = super.add(key, value, options);
        const controller = this.controller;
        if (controller !== undefined && key.startsWith("approval:")) {
          let turn = added.then(() => undefined);
          for (let index = 0; index < this.turns; index++) turn = turn.then(() => undefined);
          void turn.then(() => controller.abort());
        }
        return added;
      }
    }
    const outcomes = new Set<string>();
    for (let turns = 0; turns < 30; turns++) {
      let runs = 0;
      const ledger = new AbortingLedger();
      const registry = new ToolRegistry({ approvalSecret: SECRET, ledger }).register(
        payTool,
        () => {
          runs++;
          return "paid";
        },
        { needsApproval: true, rateLimit: { limit: 1, intervalMs: 60_000 } },
      );
      const token = await registry.approve(await requestOf(registry));
      const controller = new AbortController();
      Object.assign(ledger, { controller, turns });
      const outcome = await registry.dispatch(call(), { approval: token, signal: controller.signal }).then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      );
      ledger.controller = undefined;
      if ("value" in outcome || (outcome.error as { started?: boolean }).started === true) {
        // The handler ran: the token and the run are used up.
        expect(runs).toBe(1);
        outcomes.add("ran");
      } else {
        // It never ran: the token and the rate limit's one run are still there for the next try.
        expect(outcome.error).toMatchObject({ name: "ToolAbortedError", started: false });
        expect(runs).toBe(0);
        await vi.waitFor(async () => expect(await registry.dispatch(call(), { approval: token })).toBe("paid"));
        outcomes.add("not run");
      }
    }
    expect(outcomes).toEqual(new Set(["ran", "not run"]));
  });

  it("is used once even when two calls carry it at the same time", async () => {
    const { registry, runs } = payRegistry();
    const token = await registry.approve(await requestOf(registry));
    const results = await registry.dispatchAll([call(), call()], { approvals: { call_1: token } });
    expect(results.map((result) => result.status).sort()).toEqual(["error", "ok"]);
    expect(runs).toHaveLength(1);
  });

  it.each([
    ["a changed claim", (token: string) => `${token.slice(0, 5)}${token[5] === "A" ? "B" : "A"}${token.slice(6)}`],
    ["a changed signature", (token: string) => `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`],
    ["no signature", (token: string) => token.split(".")[0]!],
    ["garbage", () => "not a token"],
    ["an empty string", () => ""],
    ["a huge string", () => "x".repeat(100_000)],
  ])("is refused as tampered with %s, and the handler does not run", async (_, tamper) => {
    const { registry, runs } = payRegistry();
    const token = await registry.approve(await requestOf(registry));
    const error = await rejectionOf(registry.dispatch(call(), { approval: tamper(token) }));
    expect(error).toMatchObject({ name: "ToolApprovalError", reason: "tampered" });
    expect(runs).toHaveLength(0);
  });

  it("has one spelling: a signature whose last character differs only in the bits its bytes do not use is refused as tampered", async () => {
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const { registry, runs } = payRegistry();
    const token = await registry.approve(await requestOf(registry));
    const respelt = `${token.slice(0, -1)}${alphabet[alphabet.indexOf(token.at(-1)!) ^ 1]}`;
    expect(respelt).not.toBe(token);
    expect(await rejectionOf(registry.dispatch(call(), { approval: respelt }))).toMatchObject({ reason: "tampered" });
    expect(await registry.dispatch(call(), { approval: token })).toBe("paid 10");
    expect(runs).toHaveLength(1);
  });

  it("stays used past its expiry for a registry sharing the ledger whose clock runs behind", async () => {
    const ledger = new MemoryLedger();
    const ahead = payRegistry(undefined, { ledger });
    const behind = payRegistry(undefined, { ledger });
    const token = await ahead.registry.approve(await requestOf(ahead.registry), { expiresInMs: 200 });
    expect(await ahead.registry.dispatch(call(), { approval: token })).toBe("paid 10");
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The token has expired by the ledger's time; the other registry's clock says it has not.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() - 5_000 });
    expect(await rejectionOf(behind.registry.dispatch(call(), { approval: token }))).toMatchObject({ reason: "used" });
    expect(behind.runs).toHaveLength(0);
  });

  it("is never asked for arguments a person would be shown otherwise than they run (a Map shows as {}), and a token for what JSON shows never runs them", async () => {
    const registry = new ToolRegistry({ approvalSecret: SECRET }).register(
      { name: "configure", description: "", parameters: Type.Object({ env: Type.Unknown() }) },
      ({ env }) => `configured ${env instanceof Map ? "a Map" : JSON.stringify(env)}`,
      { needsApproval: true },
    );
    const [asked] = await registry.dispatchAll([toolCall("configure", { env: new Map([["LD_PRELOAD", "/tmp/evil.so"]]) }, "c1")]);
    expect(asked).toMatchObject({ status: "error", error: { name: "ToolArgumentsValidationError", issues: ["/: arguments must be JSON data (no Map, Set, Date, NaN or undefined item) for a person to approve them"] } });
    for (const [shown, runs] of [[{}, new Map([["a", 1]])], [[null], [undefined]], [null, Number.NaN], [{}, new Set([1])]] as const) {
      const error = await rejectionOf(registry.dispatch(toolCall("configure", { env: shown }, "c2")));
      if (!(error instanceof ToolApprovalRequiredError)) throw new Error(`expected an approval request, got ${String(error)}`);
      const request = error.request;
      const token = await registry.approve(request);
      const [result] = await registry.dispatchAll([toolCall("configure", { env: runs }, request.toolCallId)], { approvals: { [request.toolCallId]: token } });
      expect(result).toMatchObject({ status: "error", error: { name: "ToolApprovalError", reason: "mismatch" } });
    }
  });

  it("is asked for arguments whose JSON shows them as they run: -0 (JSON's 0) and an undefined property (left out)", async () => {
    const registry = new ToolRegistry({ approvalSecret: SECRET }).register(
      { name: "move", description: "", parameters: Type.Object({ dx: Type.Number(), memo: Type.Optional(Type.String()) }) },
      ({ dx }) => `moved ${dx}`,
      { needsApproval: true },
    );
    const [fromText, fromObject] = await registry.dispatchAll([toolCall("move", '{"dx": -0.0}', "c1"), toolCall("move", { dx: 1, memo: undefined }, "c2")]);
    expect(fromText).toMatchObject({ status: "approval-required", request: { arguments: { dx: 0 } } });
    expect(fromObject).toMatchObject({ status: "approval-required", request: { arguments: { dx: 1 } } });
  });

  it("is refused as tampered when signed under another secret", async () => {
    const other = payRegistry(undefined, { approvalSecret: "another secret, also thirty-two bytes long" });
    const { registry, runs } = payRegistry();
    const token = await other.registry.approve(await requestOf(registry));
    expect(await rejectionOf(registry.dispatch(call(), { approval: token }))).toMatchObject({ reason: "tampered" });
    expect(runs).toHaveLength(0);
  });

  it("is refused as expired after its time", async () => {
    const { registry, runs } = payRegistry();
    const token = await registry.approve(await requestOf(registry), { expiresInMs: 1_000 });
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 1_001 });
    expect(await rejectionOf(registry.dispatch(call(), { approval: token }))).toMatchObject({ reason: "expired" });
    expect(runs).toHaveLength(0);
  });

  it.each([
    ["other arguments", call("call_1", { invoice: "inv_1", amount: 11 })],
    ["another call id", call("call_2")],
    ["another tool", toolCall("refund", args, "call_1")],
  ])("is refused as a mismatch for %s, and the handler does not run", async (_, otherCall) => {
    const { registry, runs } = payRegistry();
    registry.register({ ...payTool, name: "refund" }, () => "refunded", { needsApproval: true });
    const token = await registry.approve(await requestOf(registry));
    const error = await rejectionOf(registry.dispatch(otherCall, { approval: token }));
    expect(error).toMatchObject({ reason: "mismatch" });
    expect((error as Error).message).toContain("different call or different arguments");
    expect(runs).toHaveLength(0);
  });

  it("binds the arguments as checked now: a repaired spelling of the same values matches, other values do not", async () => {
    const { registry, runs } = payRegistry();
    const token = await registry.approve(await requestOf(registry));
    expect(await registry.dispatch(call("call_1", '{ "invoice": "inv_1", "amount": 1e1 }'), { approval: token })).toBe("paid 10");
    expect(runs).toHaveLength(1);
  });

  it("is refused by approve when the request's arguments were altered after it was made", async () => {
    const { registry } = payRegistry();
    const request = await requestOf(registry);
    const altered = { ...request, arguments: { ...args, amount: 1_000_000 } };
    expect(await rejectionOf(registry.approve(altered))).toMatchObject({ reason: "mismatch" });
  });

  it("survives JSON, a restart and a new registry with the same secret and a persistent ledger, and stays one use", async () => {
    const path = temporaryLedgerPath();
    const first = payRegistry(undefined, { ledger: new FileLedger(path) });
    const stored = JSON.stringify(await requestOf(first.registry));
    const token = JSON.parse(JSON.stringify(await first.registry.approve(JSON.parse(stored) as ApprovalRequest))) as string;
    const second = payRegistry(undefined, { ledger: new FileLedger(path) });
    expect(await second.registry.dispatch(call(), { approval: token })).toBe("paid 10");
    const third = payRegistry(undefined, { ledger: new FileLedger(path) });
    expect(await rejectionOf(third.registry.dispatch(call(), { approval: token }))).toMatchObject({ reason: "used" });
    expect(second.runs).toHaveLength(1);
    expect(third.runs).toHaveLength(0);
  });

  it("fails closed when the ledger cannot say whether it was used", async () => {
    const memory = new MemoryLedger();
    const ledger: LedgerStore = { get: () => Promise.reject(new Error("down")), set: memory.set.bind(memory), delete: memory.delete.bind(memory), add: () => Promise.reject(new Error("down")) };
    const { registry, runs } = payRegistry(undefined, { ledger });
    const token = await registry.approve(await requestOf(registry));
    expect(await rejectionOf(registry.dispatch(call(), { approval: token }))).toMatchObject({ name: "ToolLedgerError", reason: "unavailable" });
    expect(runs).toHaveLength(0);
  });

  it("is refused as tampered by a registry with no secret", async () => {
    const { registry } = payRegistry();
    const token = await registry.approve(await requestOf(registry));
    const bare = new ToolRegistry().register(payTool, () => "paid");
    expect(await rejectionOf(bare.dispatch(call(), { approval: token }))).toMatchObject({ reason: "tampered" });
  });
});

describe("registry.deny", () => {
  it("answers the model that the user declined, as a result that is not an error", async () => {
    const { registry, runs } = payRegistry();
    const denial = registry.deny(await requestOf(registry), { reason: "not this month" });
    expect(denial).toMatchObject({ status: "denied", isError: false, toolCallId: "call_1", toolName: "pay" });
    expect(denial.content).toContain("The user declined");
    expect(denial.content).toContain('"not this month"');
    expect(runs).toHaveLength(0);
  });
});

describe("approval options", () => {
  it("signs with a random secret of the registry's own when given none: its tokens are good there only", async () => {
    const runs: unknown[] = [];
    const registry = new ToolRegistry().register(payTool, (payment) => runs.push(payment), { needsApproval: true });
    const token = await registry.approve(await requestOf(registry));
    const twin = new ToolRegistry().register(payTool, (payment) => runs.push(payment), { needsApproval: true });
    expect(await rejectionOf(twin.dispatch(call(), { approval: token }))).toMatchObject({ name: "ToolApprovalError", reason: "tampered" });
    expect(runs).toHaveLength(0);
    await registry.dispatch(call(), { approval: token });
    expect(runs).toEqual([args]);
  });

  it("takes any non-empty secret, and refuses an empty one or one that is not text or bytes", async () => {
    const { registry, runs } = payRegistry(undefined, { approvalSecret: "short" });
    await registry.dispatch(call(), { approval: await registry.approve(await requestOf(registry)) });
    expect(runs).toHaveLength(1);
    expect(thrownBy(() => new ToolRegistry({ approvalSecret: "" }))).toBeInstanceOf(TypeError);
    expect(thrownBy(() => new ToolRegistry({ approvalSecret: new Uint8Array(0) }))).toBeInstanceOf(TypeError);
    expect(thrownBy(() => new ToolRegistry({ approvalSecret: 42 as never }))).toBeInstanceOf(TypeError);
  });

  it("refuses a token that is not a string, and an expiry that never ends", async () => {
    const { registry } = payRegistry();
    expect(await rejectionOf(registry.dispatch(call(), { approval: 42 as never }))).toBeInstanceOf(TypeError);
    expect(await rejectionOf(registry.approve(await requestOf(registry), { expiresInMs: Infinity }))).toBeInstanceOf(TypeError);
  });

  it("never issues a token its own check would refuse as tampered: one that would be too long is refused at approve", async () => {
    const { registry, runs } = payRegistry();
    const request = await requestOf(registry);
    const error = await rejectionOf(registry.approve(request, { approvedBy: "u".repeat(3_000) }));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/^the approval token would be \d+ characters, over the 4096 a token may have: shorten approvedBy/);
    const token = await registry.approve(request, { approvedBy: "u".repeat(1_000) });
    expect(await registry.dispatch(call(), { approval: token })).toBe("paid 10");
    expect(runs).toHaveLength(1);
  });

  it("refuses an option approve or deny does not know: a misspelt lifetime never leaves a token the default one", async () => {
    const { registry } = payRegistry();
    const request = await requestOf(registry);
    expect(await rejectionOf(registry.approve(request, { expiresIn: 1_000 } as never))).toEqual(new TypeError('unknown option "expiresIn": the options are expiresInMs, approvedBy'));
    expect(thrownBy(() => registry.deny(request, { reasons: "no" } as never))).toEqual(new TypeError('unknown option "reasons": the options are reason'));
  });
});
