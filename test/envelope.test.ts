import { describe, expect, it, type Mock, vi } from "vitest";
import {
  MemoryLedger,
  ToolAbortedError,
  ToolApprovalError,
  ToolArgumentsValidationError,
  ToolEnvelopeError,
  ToolExecutionError,
  ToolLedgerError,
  ToolMismatchError,
  ToolNotAllowedError,
  ToolRegistry,
  ToolTimeoutError,
  Type,
  UnknownToolError,
  callFingerprint,
  type ToolCallEnvelope,
  type ToolContext,
  type ToolResult,
} from "../src/index.js";

const payParameters = Type.Object({ invoice: Type.String(), amount: Type.Integer({ minimum: 1 }) });
const pay = { name: "pay", description: "Pay an invoice", parameters: payParameters };
const call = { type: "tool_call" as const, id: "c1", name: "pay", arguments: { invoice: "inv_1", amount: 10 } };

type PayHandler = (args: { invoice: string; amount: number }, context: ToolContext) => unknown;

function payRegistry(handler: Mock<PayHandler> = vi.fn((args: { invoice: string; amount: number }) => `paid ${args.invoice}`), options: Parameters<ToolRegistry["register"]>[2] = {}, registryOptions = {}) {
  const registry = new ToolRegistry(registryOptions).register(pay, handler, options);
  return { registry, handler };
}

/** The envelope as it comes out of a queue or a socket: through JSON text. */
function overTheWire(envelope: ToolCallEnvelope): ToolCallEnvelope {
  return JSON.parse(JSON.stringify(envelope)) as ToolCallEnvelope;
}

function failure(result: ToolResult): Error {
  if (result.status !== "error") throw new Error(`expected a failure, got ${result.status}`);
  return result.error;
}

describe("registry.envelope", () => {
  it("packs the checked call as plain JSON with its fingerprints and no deadline when the tool has no time limit", async () => {
    const { registry } = payRegistry();
    const envelope = await registry.envelope(call);
    expect(overTheWire(envelope)).toEqual(envelope);
    expect(envelope).toEqual({
      v: 1,
      toolCallId: "c1",
      toolName: "pay",
      arguments: { invoice: "inv_1", amount: 10 },
      fingerprint: await callFingerprint("pay", { amount: 10, invoice: "inv_1" }),
      schemaFingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
      attempt: 1,
    });
  });

  it("carries the checked private copy, not the caller's object", async () => {
    const { registry } = payRegistry();
    const args = { invoice: "inv_1", amount: 10 };
    const envelope = await registry.envelope({ ...call, arguments: args });
    args.amount = 99;
    expect(envelope.arguments.amount).toBe(10);
  });

  it("reads JSON text arguments as dispatch does", async () => {
    const { registry } = payRegistry();
    expect((await registry.envelope({ ...call, arguments: '{"invoice":"inv_1","amount":10}' })).arguments).toEqual({ invoice: "inv_1", amount: 10 });
  });

  it("sets the deadline from the tool's time limit", async () => {
    const { registry } = payRegistry(undefined, { timeoutMs: 5_000 });
    const before = Date.now();
    const envelope = await registry.envelope(call);
    expect(envelope.timeoutMs).toBe(5_000);
    expect(envelope.deadline).toBeGreaterThanOrEqual(before + 5_000);
    expect(envelope.deadline).toBeLessThanOrEqual(Date.now() + 5_000);
  });

  it("rejects invalid arguments at once with the error dispatch gives", async () => {
    const { registry } = payRegistry();
    const error = await registry.envelope({ ...call, arguments: { invoice: "inv_1", amount: 0 } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolArgumentsValidationError);
    expect((error as ToolArgumentsValidationError).issues).toEqual(["/amount: must be >= 1"]);
  });

  it("refuses arguments that JSON would change (a Map, a Date, NaN), whose JSON another process would run unchecked, under another call's fingerprint", async () => {
    const registry = new ToolRegistry().register({ name: "store", description: "", parameters: Type.Object({ value: Type.Any(), note: Type.Optional(Type.String()) }) }, () => "stored");
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, new Map([["k", 1]]), new Date(0), [undefined]]) {
      const error = await registry.envelope({ ...call, name: "store", arguments: { value } }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolArgumentsValidationError);
      expect((error as ToolArgumentsValidationError).issues).toEqual(["/: arguments must be JSON data (no Map, Set, Date, NaN, infinite number such as 1e400, or undefined item) to be sent to another process"]);
    }
    // A model's JSON text reads 1e400 as Infinity.
    expect(await registry.envelope({ ...call, name: "store", arguments: '{"value":1e400}' }).catch((caught: unknown) => caught)).toBeInstanceOf(ToolArgumentsValidationError);
    // A property set to undefined is absent, to the check and in the JSON alike.
    expect((await registry.envelope({ ...call, name: "store", arguments: { value: 1, note: undefined } })).arguments).toEqual({ value: 1 });
  });

  it("rejects an unknown tool with the error dispatch gives", async () => {
    const { registry } = payRegistry();
    await expect(registry.envelope({ ...call, name: "pya" })).rejects.toBeInstanceOf(UnknownToolError);
  });

  it("refuses a tool outside the allow-list as dispatch does, so that it is never sent", async () => {
    const { registry } = payRegistry();
    await expect(registry.envelope(call, { allow: ["refund"] })).rejects.toBeInstanceOf(ToolNotAllowedError);
    expect((await registry.envelope(call, { allow: ["pay"] })).toolName).toBe("pay");
  });

  it("rejects a tool whose schema has no JSON form, which no other process could check", async () => {
    const refined = Type.Refine(Type.Object({ n: Type.Number() }), (value) => value.n > 0);
    const registry = new ToolRegistry().register({ name: "refined", description: "", parameters: refined }, () => 1);
    await expect(registry.envelope({ id: "1", name: "refined", arguments: { n: 1 } })).rejects.toThrow(/no JSON form/);
  });

  it("carries the traceparent an observer gives, and the approval token given", async () => {
    const { registry } = payRegistry();
    const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    registry.observe({ observe: (_call, proceed) => proceed(), traceparent: () => traceparent });
    const envelope = await registry.envelope(call, { approval: "token" });
    expect(envelope.traceparent).toBe(traceparent);
    expect(envelope.approval).toBe("token");
  });
});

describe("registry.execute", () => {
  it("resolves to the result dispatchAll gives for the same call", async () => {
    const sender = payRegistry().registry;
    const { registry: worker, handler } = payRegistry();
    const executed = await worker.execute(overTheWire(await sender.envelope(call)));
    const [local] = await payRegistry().registry.dispatchAll([call]);
    expect(executed).toEqual(local);
    expect(handler).toHaveBeenCalledOnce();
    expect(handler.mock.calls[0]![0]).toEqual({ invoice: "inv_1", amount: 10 });
  });

  it("gives a handler's failure as dispatchAll does, with the same text for the model", async () => {
    const throwing = () => {
      throw new Error("card declined");
    };
    const { registry: sender } = payRegistry();
    const executed = await payRegistry(vi.fn(throwing)).registry.execute(await sender.envelope(call));
    const [local] = await payRegistry(vi.fn(throwing)).registry.dispatchAll([call]);
    expect(failure(executed)).toBeInstanceOf(ToolExecutionError);
    expect(executed).toEqual(local);
  });

  it("refuses arguments changed on the wire to break the schema, without running the handler", async () => {
    const { registry: sender } = payRegistry();
    const { registry: worker, handler } = payRegistry();
    const envelope = await sender.envelope(call);
    const tampered = { ...envelope, arguments: { ...envelope.arguments, amount: -5 } };
    const result = await worker.execute(tampered);
    expect(failure(result)).toBeInstanceOf(ToolEnvelopeError);
    expect((failure(result) as ToolEnvelopeError).reason).toBe("tampered");
    expect(handler).not.toHaveBeenCalled();
  });

  it("refuses arguments changed on the wire even when their fingerprint was changed to match: the check runs again", async () => {
    const { registry: sender } = payRegistry();
    const { registry: worker, handler } = payRegistry();
    const envelope = await sender.envelope(call);
    const args = { ...envelope.arguments, amount: -5 };
    const result = await worker.execute({ ...envelope, arguments: args, fingerprint: await callFingerprint("pay", args) });
    expect(failure(result)).toBeInstanceOf(ToolArgumentsValidationError);
    expect(handler).not.toHaveBeenCalled();
  });

  it("refuses valid arguments that differ from the ones fingerprinted", async () => {
    const { registry: sender } = payRegistry();
    const { registry: worker, handler } = payRegistry();
    const envelope = await sender.envelope(call);
    const result = await worker.execute({ ...envelope, arguments: { ...envelope.arguments, amount: 1000 } });
    expect((failure(result) as ToolEnvelopeError).reason).toBe("tampered");
    expect(result).toMatchObject({ toolCallId: "c1", toolName: "pay", isError: true });
    expect(handler).not.toHaveBeenCalled();
  });

  it.each([
    ["not an object", "envelope"],
    ["another version", { v: 2 }],
    ["a fingerprint that is not one", { fingerprint: "abc" }],
    ["an attempt of 0", { attempt: 0 }],
    ["arguments that are not an object", { arguments: [1] }],
  ])("refuses an envelope with %s as malformed", async (_name, change) => {
    const { registry: sender } = payRegistry();
    const { registry: worker, handler } = payRegistry();
    const envelope = typeof change === "string" ? change : { ...(await sender.envelope(call)), ...change };
    const result = await worker.execute(envelope as unknown as ToolCallEnvelope);
    expect((failure(result) as ToolEnvelopeError).reason).toBe("malformed");
    expect(handler).not.toHaveBeenCalled();
  });

  it("refuses an envelope whose field cannot be read as malformed, resolving as it promises", async () => {
    const { registry: sender } = payRegistry();
    const { registry: worker, handler } = payRegistry();
    const envelope = await sender.envelope(call);
    const hostile = new Proxy({ ...envelope }, { get: (target, key) => { if (key === "arguments") throw new Error("trap"); return Reflect.get(target, key); } });
    const result = await worker.execute(hostile);
    expect((failure(result) as ToolEnvelopeError).reason).toBe("malformed");
    expect(handler).not.toHaveBeenCalled();
  });

  it("runs an envelope whose deadline is further than a timer can wait, rather than timing it out at once", async () => {
    const { registry: sender } = payRegistry(undefined, { timeoutMs: 60_000 });
    const { registry: worker } = payRegistry(vi.fn(async (args: { invoice: string; amount: number }) => { await new Promise((resolve) => setTimeout(resolve, 20)); return `paid ${args.invoice}`; }));
    const envelope = await sender.envelope(call);
    const result = await worker.execute({ ...envelope, deadline: Date.now() + 30 * 86_400_000 });
    expect(result).toMatchObject({ status: "ok", value: "paid inv_1" });
  });

  it("refuses a tool the executing registry does not have as missing", async () => {
    const { registry: sender } = payRegistry();
    const worker = new ToolRegistry();
    const result = await worker.execute(await sender.envelope(call));
    const error = failure(result) as ToolMismatchError;
    expect(error).toBeInstanceOf(ToolMismatchError);
    expect(error.reason).toBe("missing");
    expect(result.status === "error" && result.content).toContain('Tool "pay" was not run');
  });

  it("refuses a tool whose schema differs from the sender's, even when the arguments would pass", async () => {
    const { registry: sender } = payRegistry();
    const handler = vi.fn(() => "paid");
    const worker = new ToolRegistry().register({ ...pay, parameters: Type.Object({ invoice: Type.String(), amount: Type.Number() }) }, handler);
    const error = failure(await worker.execute(await sender.envelope(call))) as ToolMismatchError;
    expect(error.reason).toBe("schema");
    expect(handler).not.toHaveBeenCalled();
  });

  it("accepts the same schema written with its keys in another order", async () => {
    const { registry: sender } = payRegistry();
    const reordered = { required: ["invoice", "amount"], properties: { amount: { minimum: 1, type: "integer" }, invoice: { type: "string" } }, type: "object" } as const;
    const worker = new ToolRegistry().register({ ...pay, parameters: reordered }, () => "paid");
    expect((await worker.execute(await sender.envelope(call))).status).toBe("ok");
  });

  it("refuses an envelope whose deadline has passed without running the handler, and says it never started", async () => {
    const { registry: sender } = payRegistry(undefined, { timeoutMs: 1_000 });
    const { registry: worker, handler } = payRegistry();
    const envelope = await sender.envelope(call);
    const error = failure(await worker.execute({ ...envelope, deadline: Date.now() - 1 })) as ToolTimeoutError;
    expect(error).toBeInstanceOf(ToolTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 1_000, started: false, waitedFor: "its deadline had passed when it was delivered" });
    expect(error.message).toBe('Tool "pay" did not start within 1000 ms: its deadline had passed when it was delivered. It did not run; you may call it again.');
    expect(handler).not.toHaveBeenCalled();
  });

  it("times out at the deadline with the timeout dispatchAll gives, and aborts the handler's signal with it", async () => {
    const slow = (_args: unknown, { signal }: ToolContext) => new Promise<string>((resolve) => signal.addEventListener("abort", () => resolve(String(signal.reason))));
    const { registry: sender } = payRegistry(undefined, { timeoutMs: 30 });
    const { registry: worker } = payRegistry(vi.fn(slow));
    const executed = await worker.execute(await sender.envelope(call));
    const localRegistry = payRegistry(vi.fn(slow), { timeoutMs: 30 }).registry;
    const [local] = await localRegistry.dispatchAll([call]);
    expect(failure(executed)).toBeInstanceOf(ToolTimeoutError);
    expect(executed).toEqual(local);
    expect(worker.executionStats()).toEqual(localRegistry.executionStats());
  });

  it("tells a deadline that passed while the call waited for its turn as a timeout before it ran, as dispatchAll does", async () => {
    let finish!: () => void;
    const handler = vi.fn<PayHandler>().mockImplementationOnce(() => new Promise<string>((resolve) => (finish = () => resolve("paid first"))));
    const { registry: worker } = payRegistry(handler, { concurrency: 1 });
    const holding = worker.execute(await payRegistry().registry.envelope(call));
    const { registry: sender } = payRegistry(undefined, { timeoutMs: 30 });
    const waited = failure(await worker.execute(await sender.envelope({ ...call, id: "c2" }))) as ToolTimeoutError;
    const localRegistry = payRegistry(vi.fn<PayHandler>(() => new Promise(() => {})), { concurrency: 1, timeoutMs: 30 }).registry;
    void localRegistry.dispatchAll([{ ...call, id: "c1" }]);
    const [local] = await localRegistry.dispatchAll([{ ...call, id: "c2" }]);
    expect(waited).toBeInstanceOf(ToolTimeoutError);
    expect(waited).toMatchObject({ started: false, timeoutMs: 30, toolCallId: "c2" });
    expect(waited.message).toBe(failure(local!).message);
    expect(handler).toHaveBeenCalledOnce();
    finish();
    expect((await holding).status).toBe("ok");
  });

  it("aborts the handler when the caller's signal aborts", async () => {
    const { registry: sender } = payRegistry();
    const { registry: worker } = payRegistry(vi.fn((_args, { signal }: ToolContext) => new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason)))));
    const controller = new AbortController();
    const pending = worker.execute(await sender.envelope(call), { signal: controller.signal });
    controller.abort(new Error("user left"));
    expect(failure(await pending)).toBeInstanceOf(ToolAbortedError);
  });

  it("refuses a repeated attempt of a tool not declared safe to repeat as in doubt, without running it", async () => {
    const { registry: sender } = payRegistry();
    const { registry: worker, handler } = payRegistry();
    const envelope = await sender.envelope(call);
    const error = failure(await worker.execute({ ...envelope, attempt: 2 })) as ToolLedgerError;
    expect(error).toBeInstanceOf(ToolLedgerError);
    expect(error.reason).toBe("in-doubt");
    expect(handler).not.toHaveBeenCalled();
  });

  it("runs a repeated attempt of an idempotent tool again", async () => {
    const { registry: sender } = payRegistry();
    const { registry: worker, handler } = payRegistry(undefined, { effects: "idempotent" });
    expect((await worker.execute({ ...(await sender.envelope(call)), attempt: 2 })).status).toBe("ok");
    expect(handler).toHaveBeenCalledOnce();
  });

  it("replays a once tool's result on a second worker sharing its ledger, and never runs it twice", async () => {
    const ledger = new MemoryLedger();
    const { registry: sender } = payRegistry();
    const first = payRegistry(undefined, { effects: "once" }, { ledger });
    const second = payRegistry(undefined, { effects: "once" }, { ledger });
    const envelope = await sender.envelope(call);
    expect(await first.registry.execute(envelope)).toMatchObject({ status: "ok", value: "paid inv_1" });
    expect(await second.registry.execute({ ...envelope, attempt: 2 })).toMatchObject({ status: "ok", value: "paid inv_1", reused: "ledger" });
    expect(first.handler.mock.calls.length + second.handler.mock.calls.length).toBe(1);
  });

  it("runs an approved call with the token the envelope carries", async () => {
    const secret = "a-secret-of-at-least-thirty-two-bytes!!";
    const handler = vi.fn(() => "paid");
    const sender = new ToolRegistry({ approvalSecret: secret }).register(pay, () => "paid", { needsApproval: true });
    const worker = new ToolRegistry({ approvalSecret: secret }).register(pay, handler, { needsApproval: true });
    const pending = await worker.execute(await sender.envelope(call));
    expect(pending.status).toBe("approval-required");
    if (pending.status !== "approval-required") return;
    const token = await sender.approve(pending.request);
    expect(await worker.execute(await sender.envelope(call, { approval: token }))).toMatchObject({ status: "ok", value: "paid" });
    expect(handler).toHaveBeenCalledOnce();
  });

  it("runs a repeated attempt of an approved call's delivery with the token its first attempt used, for a tool that declares effects", async () => {
    const secret = "a-secret-of-at-least-thirty-two-bytes!!";
    const ledger = new MemoryLedger();
    const handler = vi.fn(() => "paid");
    const sender = new ToolRegistry({ approvalSecret: secret }).register(pay, () => "paid", { needsApproval: true, effects: "idempotent" });
    // Two workers on one ledger: the first used the token, then died before its job was done; the transport delivers the job again.
    const worker = (): ToolRegistry => new ToolRegistry({ approvalSecret: secret, ledger }).register(pay, handler, { needsApproval: true, effects: "idempotent" });
    const pending = await worker().execute(await sender.envelope(call));
    if (pending.status !== "approval-required") throw new Error(`expected approval-required, got ${pending.status}`);
    const envelope = await sender.envelope(call, { approval: await sender.approve(pending.request) });
    expect(await worker().execute(envelope, { delivery: "job_1@1000" })).toMatchObject({ status: "ok", value: "paid" });
    expect(await worker().execute({ ...envelope, attempt: 2 }, { delivery: "job_1@1000" })).toMatchObject({ status: "ok", value: "paid" });
    expect(handler).toHaveBeenCalledTimes(2);
  });

  it("refuses a used token to any other second use: a first attempt, another delivery, or a repeated attempt that names none", async () => {
    const secret = "a-secret-of-at-least-thirty-two-bytes!!";
    const handler = vi.fn(() => "paid");
    const sender = new ToolRegistry({ approvalSecret: secret }).register(pay, () => "paid", { needsApproval: true, effects: "idempotent" });
    const worker = new ToolRegistry({ approvalSecret: secret }).register(pay, handler, { needsApproval: true, effects: "idempotent" });
    const pending = await worker.execute(await sender.envelope(call));
    if (pending.status !== "approval-required") throw new Error(`expected approval-required, got ${pending.status}`);
    const envelope = await sender.envelope(call, { approval: await sender.approve(pending.request) });
    expect(await worker.execute(envelope, { delivery: "job_1@1000" })).toMatchObject({ status: "ok" });
    for (const [replayed, options] of [
      [envelope, { delivery: "job_1@1000" }],
      [{ ...envelope, attempt: 2 }, { delivery: "job_1@2000" }],
      [{ ...envelope, attempt: 2 }, {}],
    ] as const) {
      const refused = failure(await worker.execute(replayed, options)) as ToolApprovalError;
      expect(refused).toBeInstanceOf(ToolApprovalError);
      expect(refused.reason).toBe("used");
    }
    expect(handler).toHaveBeenCalledOnce();
  });

  it("refuses a repeated attempt of an approved call of a tool that declares no effects, whatever its token", async () => {
    const secret = "a-secret-of-at-least-thirty-two-bytes!!";
    const handler = vi.fn(() => "paid");
    const sender = new ToolRegistry({ approvalSecret: secret }).register(pay, () => "paid", { needsApproval: true });
    const worker = new ToolRegistry({ approvalSecret: secret }).register(pay, handler, { needsApproval: true });
    const pending = await worker.execute(await sender.envelope(call));
    if (pending.status !== "approval-required") throw new Error(`expected approval-required, got ${pending.status}`);
    const envelope = await sender.envelope(call, { approval: await sender.approve(pending.request) });
    expect(await worker.execute(envelope)).toMatchObject({ status: "ok" });
    expect((failure(await worker.execute({ ...envelope, attempt: 2 })) as ToolLedgerError).reason).toBe("in-doubt");
    expect(handler).toHaveBeenCalledOnce();
  });

  it("gives observers the traceparent the envelope carries", async () => {
    const { registry: worker } = payRegistry();
    const seen: (string | undefined)[] = [];
    worker.observe({ observe: (observed, proceed) => (seen.push(observed.traceparent), proceed()) });
    const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    await worker.execute({ ...(await payRegistry().registry.envelope(call)), traceparent });
    expect(seen).toEqual([traceparent]);
  });

  it("throws a TypeError for a signal that is not an AbortSignal", async () => {
    const { registry } = payRegistry();
    await expect(registry.execute(await registry.envelope(call), { signal: "stop" as never })).rejects.toThrow(TypeError);
  });

  it("throws a TypeError for a delivery that is not a string, before it reads the envelope, as for any option", async () => {
    const { registry } = payRegistry();
    await expect(registry.execute(await registry.envelope(call), { delivery: 5 as never })).rejects.toThrow("delivery must be a string, got 5");
    await expect(registry.execute({} as never, { delivery: 5 as never })).rejects.toThrow("delivery must be a string, got 5");
  });
});
