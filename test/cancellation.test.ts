import { describe, expect, it, vi } from "vitest";
import { ToolRegistry, ToolTimeoutError, Type, type LateSettleReport } from "../src/index.js";
import { rejectionOf, toolCall } from "./support/fixtures.js";

const parameters = Type.Object({ secret: Type.String() });

describe("honest cancellation", () => {
  it("counts a timed-out handler that ignores its signal as abandoned until it settles, then reports it without its value", async () => {
    const reports: LateSettleReport[] = [];
    let finish!: (value: string) => void;
    const registry = new ToolRegistry({ onLateSettle: (report) => reports.push(report) }).register(
      { name: "zombie", description: "", parameters },
      () => new Promise<string>((resolve) => (finish = resolve)),
      { timeoutMs: 10 },
    );
    const error = await rejectionOf(registry.dispatch(toolCall("zombie", { secret: "s3cr3t" }, "c9")));
    expect(error).toBeInstanceOf(ToolTimeoutError);
    expect((error as Error).message).toContain("it may still be running and may still complete");
    expect(registry.executionStats()).toEqual({ running: 1, abandoned: 1, settledLate: 0 });
    finish("wrote the file anyway: s3cr3t");
    await vi.waitFor(() => expect(registry.executionStats()).toEqual({ running: 0, abandoned: 0, settledLate: 1 }));
    expect(reports).toEqual([{ toolName: "zombie", toolCallId: "c9", outcome: "fulfilled", lateByMs: expect.any(Number) }]);
    expect(reports[0]!.lateByMs).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(reports)).not.toContain("s3cr3t");
  });

  it("counts an aborted handler the same way, and reports a late rejection", async () => {
    const reports: LateSettleReport[] = [];
    let fail!: (error: Error) => void;
    const registry = new ToolRegistry({ onLateSettle: (report) => reports.push(report) }).register({ name: "slow", description: "", parameters }, () => new Promise((_, reject) => (fail = reject)));
    const controller = new AbortController();
    const pending = registry.dispatch(toolCall("slow", { secret: "x" }), { signal: controller.signal });
    await vi.waitFor(() => expect(registry.executionStats().running).toBe(1));
    controller.abort();
    await rejectionOf(pending);
    expect(registry.executionStats().abandoned).toBe(1);
    fail(new Error("late"));
    await vi.waitFor(() => expect(reports.map((report) => report.outcome)).toEqual(["rejected"]));
  });

  it("counts running handlers on the plain path too", async () => {
    let finish!: () => void;
    const registry = new ToolRegistry().register({ name: "plain", description: "", parameters }, () => new Promise<void>((resolve) => (finish = resolve)));
    const pending = registry.dispatch(toolCall("plain", { secret: "x" }));
    expect(registry.executionStats().running).toBe(1);
    finish();
    await pending;
    expect(registry.executionStats()).toEqual({ running: 0, abandoned: 0, settledLate: 0 });
    registry.register({ name: "sync", description: "", parameters }, () => {
      throw new Error("x");
    });
    await rejectionOf(registry.dispatch(toolCall("sync", { secret: "x" })));
    expect(registry.executionStats().running).toBe(0);
  });

  it("ignores an onLateSettle that throws", async () => {
    let finish!: () => void;
    const registry = new ToolRegistry({
      onLateSettle: () => {
        throw new Error("listener bug");
      },
    }).register({ name: "z", description: "", parameters }, () => new Promise<void>((resolve) => (finish = resolve)), { timeoutMs: 5 });
    await rejectionOf(registry.dispatch(toolCall("z", { secret: "x" })));
    finish();
    await vi.waitFor(() => expect(registry.executionStats().settledLate).toBe(1));
  });
});

describe("a handler that aborts its own caller's signal before it returns", () => {
  it("is given up at once, counted as abandoned until it settles, and its rejection is heard (no unhandled rejection)", async () => {
    const controller = new AbortController();
    let fail!: (error: Error) => void;
    const registry = new ToolRegistry().register({ name: "self", description: "", parameters }, () => {
      controller.abort();
      return new Promise((_, reject) => (fail = reject));
    });
    expect(await rejectionOf(registry.dispatch(toolCall("self", { secret: "x" }), { signal: controller.signal }))).toMatchObject({ name: "ToolAbortedError" });
    expect(registry.executionStats()).toMatchObject({ abandoned: 1, running: 1 });
    fail(new Error("late"));
    await vi.waitFor(() => expect(registry.executionStats()).toEqual({ running: 0, abandoned: 0, settledLate: 1 }));
  });
});
