import { describe, expect, it, vi } from "vitest";
import { ToolArgumentsValidationError, ToolRegistry, Type, type RepairReport } from "../src/index.js";
import { rejectionOf, toolCall } from "./support/fixtures.js";

const parameters = Type.Object({
  count: Type.Integer({ minimum: 1 }),
  ratio: Type.Optional(Type.Number()),
  dryRun: Type.Optional(Type.Boolean()),
  label: Type.Optional(Type.String()),
});

function registryWith(repair?: (report: RepairReport) => void) {
  const handler = vi.fn((args: unknown) => args);
  const registry = new ToolRegistry(repair === undefined ? {} : { onRepair: repair }).register({ name: "run", description: "", parameters }, handler);
  return { registry, handler };
}

describe("model-friendly repair", () => {
  it("is off by default: \"20\" stays an error", async () => {
    const { registry, handler } = registryWith();
    const error = await rejectionOf(registry.dispatch(toolCall("run", { count: "20" })));
    expect((error as ToolArgumentsValidationError).issues).toEqual(["/count: must be integer (>= 1)"]);
    expect(handler).not.toHaveBeenCalled();
  });

  it("honours maxArgumentBytes: text over the limit is refused, never parsed for repair", async () => {
    const handler = vi.fn((args: unknown) => args);
    const registry = new ToolRegistry({ onRepair: () => undefined, maxArgumentBytes: 1024 }).register({ name: "run", description: "", parameters }, handler);
    const large = JSON.stringify({ count: "20", label: "x".repeat(4096) });
    const error = await rejectionOf(registry.dispatch(toolCall("run", large)));
    expect((error as ToolArgumentsValidationError).issues).toEqual(["/: arguments must not be larger than 1024 bytes"]);
    expect(handler).not.toHaveBeenCalled();
  });

  it("converts unambiguous strings, checks again, and reports every repair before the handler runs", async () => {
    const reports: RepairReport[] = [];
    const { registry, handler } = registryWith((report) => reports.push(report));
    const result = await registry.dispatch(toolCall("run", '{"count":"20","ratio":"0.5","dryRun":"true","label":"7"}', "call_9"));
    expect(result).toEqual({ count: 20, ratio: 0.5, dryRun: true, label: "7" });
    expect(handler).toHaveBeenCalledTimes(1);
    expect(reports).toEqual([
      {
        toolName: "run",
        toolCallId: "call_9",
        repairs: [
          { pointer: "/count", from: "string", to: "number" },
          { pointer: "/ratio", from: "string", to: "number" },
          { pointer: "/dryRun", from: "string", to: "boolean" },
        ],
      },
    ]);
  });

  it("does not touch the caller's object", async () => {
    const { registry } = registryWith(() => undefined);
    const input = { count: "3" };
    await registry.dispatch(toolCall("run", input));
    expect(input).toEqual({ count: "3" });
  });

  it("keeps the original issues when the repaired value still fails", async () => {
    const report = vi.fn();
    const { registry, handler } = registryWith(report);
    const error = await rejectionOf(registry.dispatch(toolCall("run", { count: "0" })));
    expect((error as ToolArgumentsValidationError).issues).toEqual(["/count: must be integer (>= 1)"]);
    expect(report).not.toHaveBeenCalled();
    expect(handler).not.toHaveBeenCalled();
  });

  it.each([
    ["a word", { count: "twenty" }],
    ["a padded number", { count: " 20" }],
    ["\"yes\" for a boolean", { count: 1, dryRun: "yes" }],
    ["\"1\" for a boolean", { count: 1, dryRun: "1" }],
  ])("leaves %s alone", async (_label, args) => {
    const report = vi.fn();
    const { registry } = registryWith(report);
    expect(await rejectionOf(registry.dispatch(toolCall("run", args)))).toBeInstanceOf(ToolArgumentsValidationError);
    expect(report).not.toHaveBeenCalled();
  });

  it("lists the repairs in dispatchAll's result", async () => {
    const { registry } = registryWith(() => undefined);
    const [repaired, clean] = await registry.dispatchAll([toolCall("run", { count: "2" }, "a"), toolCall("run", { count: 2 }, "b")]);
    expect(repaired).toEqual({ toolCallId: "a", toolName: "run", isError: false, value: { count: 2 }, repairs: [{ pointer: "/count", from: "string", to: "number" }] });
    expect(clean).toEqual({ toolCallId: "b", toolName: "run", isError: false, value: { count: 2 } });
  });

  it("refuses an onRepair option that is not a function, naming it", () => {
    expect(() => new ToolRegistry({ onRepair: true as unknown as () => void })).toThrow("onRepair must be a function, got true");
  });
});
