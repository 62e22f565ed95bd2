import { describe, expect, it } from "vitest";
import { ToolDeniedError, ToolHookError, ToolRegistry, Type, type ToolSuccess } from "../src/index.js";
import { rejectionOf, thrownBy, toolCall } from "./support/fixtures.js";

const parameters = Type.Object({ path: Type.String(), limit: Type.Optional(Type.Integer({ maximum: 100 })) });
const read = { name: "read", description: "Read", parameters };

function registry() {
  const seen: unknown[] = [];
  const tools = new ToolRegistry().register(read, (args) => {
    seen.push(args);
    return `contents of ${args.path}`;
  });
  return { tools, seen };
}

describe("before hooks", () => {
  it("run after the check, with the checked arguments and the caller's data", async () => {
    const { tools } = registry();
    const calls: unknown[] = [];
    tools.use({ before: (call, context) => void calls.push([call, context]) });
    await tools.dispatch(toolCall("read", '{"path":"a"}', "c1"), { data: { user: "ann" } });
    expect(calls).toEqual([[{ toolCallId: "c1", toolName: "read", arguments: { path: "a" } }, { toolCallId: "c1", toolName: "read", data: { user: "ann" } }]]);
    await rejectionOf(tools.dispatch(toolCall("read", { path: 1 })));
    expect(calls).toHaveLength(1);
  });

  it("deny: the handler never runs, and the reason reaches the model as a denial, not an error", async () => {
    const { tools, seen } = registry();
    tools.use({ before: (call) => ((call.arguments as { path: string }).path.startsWith("/etc") ? { deny: "system files are off limits" } : undefined) });
    const [denied, allowed] = await tools.dispatchAll([toolCall("read", { path: "/etc/passwd" }, "a"), toolCall("read", { path: "notes" }, "b")]);
    expect(denied).toMatchObject({ status: "denied", isError: false, toolCallId: "a" });
    expect(denied?.status === "denied" && denied.content).toBe('Tool "read" was not run: the application declined this call. "system files are off limits"');
    expect(allowed?.status).toBe("ok");
    expect(seen).toEqual([{ path: "notes" }]);
    expect(await rejectionOf(tools.dispatch(toolCall("read", { path: "/etc/x" })))).toBeInstanceOf(ToolDeniedError);
  });

  it("new arguments are copied and checked again before the handler sees them", async () => {
    const { tools, seen } = registry();
    const replacement = { path: "safe", limit: 10 };
    tools.use({ before: () => ({ arguments: replacement }) });
    await tools.dispatch(toolCall("read", { path: "anything" }));
    expect(seen).toEqual([{ path: "safe", limit: 10 }]);
    expect(seen[0]).not.toBe(replacement);
  });

  it("new arguments the schema refuses fail the call as a hook error with the issues, and the handler never runs", async () => {
    const { tools, seen } = registry();
    tools.use({ before: () => ({ arguments: { path: "x", limit: 1_000 } }) });
    const error = await rejectionOf(tools.dispatch(toolCall("read", { path: "x" })));
    expect(error).toBeInstanceOf(ToolHookError);
    expect((error as ToolHookError).issues).toEqual(["/limit: must be <= 100"]);
    expect(seen).toEqual([]);
  });

  it("deny is read once: a getter that answers otherwise the second time gives the reason it gave first", async () => {
    const { tools, seen } = registry();
    tools.use({
      before: () => {
        let reads = 0;
        return { get deny(): unknown { return reads++ === 0 ? "no" : 42; } } as never;
      },
    });
    const [denied] = await tools.dispatchAll([toolCall("read", { path: "a" })]);
    expect(denied?.status === "denied" && denied.content).toBe('Tool "read" was not run: the application declined this call. "no"');
    expect(seen).toEqual([]);
  });

  it("compose in order: each sees what the one before it left, and a denial stops the rest", async () => {
    const { tools, seen } = registry();
    const order: string[] = [];
    tools.use({ before: () => (order.push("first"), { arguments: { path: "from first" } }) });
    tools.use({ before: (call) => (order.push(`second saw ${(call.arguments as { path: string }).path}`), undefined) });
    const remove = tools.use({ before: () => (order.push("third"), { deny: "no" }) });
    tools.use({ before: () => void order.push("fourth") });
    expect(await rejectionOf(tools.dispatch(toolCall("read", { path: "x" })))).toBeInstanceOf(ToolDeniedError);
    expect(order).toEqual(["first", "second saw from first", "third"]);
    remove();
    order.length = 0;
    await tools.dispatch(toolCall("read", { path: "x" }));
    expect(order).toEqual(["first", "second saw from first", "fourth"]);
    expect(seen).toEqual([{ path: "from first" }]);
  });
});

describe("after hooks", () => {
  it("may replace the value, in order", async () => {
    const { tools } = registry();
    tools.use({ after: (_, result) => ({ value: `${String(result.value)} (redacted)` }) });
    tools.use({ after: (_, result) => ({ value: String(result.value).toUpperCase() }) });
    tools.use({ after: () => undefined });
    expect(await tools.dispatch(toolCall("read", { path: "a" }))).toBe("CONTENTS OF A (REDACTED)");
  });

  it("see how a reused result came to be", async () => {
    const tools = new ToolRegistry().register(read, () => "x", { effects: "read-only", cacheTtlMs: 60_000 });
    const reuses: unknown[] = [];
    tools.use({ after: (_, result) => void reuses.push(result.reused) });
    await tools.dispatch(toolCall("read", { path: "a" }));
    const [second] = await tools.dispatchAll([toolCall("read", { path: "a" })]);
    expect(reuses).toEqual([undefined, "cache"]);
    expect((second as ToolSuccess).reused).toBe("cache");
  });
});

describe("a before hook that changes the arguments in place", () => {
  it("is checked as a returned value is: a change the schema refuses fails the call, and the handler never sees it", async () => {
    const { tools, seen } = registry();
    tools.use({ before: (call) => void ((call.arguments as { limit?: number }).limit = 1_000) });
    const [result] = await tools.dispatchAll([toolCall("read", { path: "a" })]);
    expect(result).toMatchObject({ status: "error", error: { name: "ToolHookError", issues: ["/limit: must be <= 100"] } });
    expect(seen).toEqual([]);
  });

  it("cannot change what the handler received by keeping the object and changing it later", async () => {
    let kept: { path: string } | undefined;
    const seen: unknown[] = [];
    const tools = new ToolRegistry().register(read, async (args) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      seen.push({ ...args });
      return "read";
    });
    tools.use({ before: (call) => void (kept = call.arguments as { path: string }) });
    const running = tools.dispatch(toolCall("read", { path: "a" }));
    await new Promise((resolve) => setTimeout(resolve, 1));
    kept!.path = "/etc/shadow";
    await running;
    expect(seen).toEqual([{ path: "a" }]);
  });
});

describe("a throwing hook", () => {
  it.each([
    ["before throws", { before: () => { throw new Error("boom"); } }, false],
    ["before rejects", { before: () => Promise.reject(new Error("boom")) }, false],
    ["before answers nonsense", { before: () => 42 as never }, false],
    ["after throws", { after: () => { throw new Error("boom"); } }, true],
    ["after answers nonsense", { after: () => 42 as never }, true],
    // Answers that throw as they are read.
    ["before answers a deny getter that throws", { before: () => ({ get deny(): never { throw new Error("getter boom"); } }) as never }, false],
    ["before answers a proxy whose has trap throws", { before: () => new Proxy({}, { has: () => { throw new Error("trap boom"); } }) as never }, false],
    ["before answers an arguments getter that throws", { before: () => ({ get arguments(): never { throw new Error("getter boom"); } }) as never }, false],
    ["after answers a value getter that throws", { after: () => ({ get value(): never { throw new Error("getter boom"); } }) as never }, true],
    ["after answers a proxy whose has trap throws", { after: () => new Proxy({}, { has: () => { throw new Error("trap boom"); } }) as never }, true],
  ])("is an error of its own class, never a crash, that says whether the tool ran (%s)", async (_, hooks, ran) => {
    const { tools, seen } = registry();
    tools.use(hooks);
    const [result] = await tools.dispatchAll([toolCall("read", { path: "a" })]);
    expect(result?.status).toBe("error");
    expect(result?.status === "error" && result.error).toBeInstanceOf(ToolHookError);
    expect(result?.status === "error" && result.error).toMatchObject({ ran });
    expect(seen).toHaveLength(ran ? 1 : 0);
    expect(result?.status === "error" && result.content).toBe(
      ran
        ? 'Tool "read" ran, but a check of the application failed on its result, which is not given. It may have taken effect: do not call it again as it is; tell the user if it matters.'
        : 'Tool "read" could not run: a check of the application failed. Do not retry this call as it is; tell the user if it matters.',
    );
  });

  it("is refused by use when it is not hooks", () => {
    expect(thrownBy(() => new ToolRegistry().use({} as never))).toBeInstanceOf(TypeError);
    expect(thrownBy(() => new ToolRegistry().use({ before: 1 } as never))).toBeInstanceOf(TypeError);
  });
});
