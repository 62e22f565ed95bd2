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

  it("neither checks nor repairs a call whose caller has already aborted, observed or not", async () => {
    for (const observed of [false, true]) {
      const reports: RepairReport[] = [];
      const { registry, handler } = registryWith((report) => reports.push(report));
      if (observed) registry.observe({ observe: (_call, proceed) => proceed() });
      const error = await rejectionOf(registry.dispatch(toolCall("run", { count: "20" }), { signal: AbortSignal.abort() }));
      expect(error).toMatchObject({ name: "ToolAbortedError", started: false });
      expect(reports).toEqual([]);
      expect(handler).not.toHaveBeenCalled();
    }
  });

  it("runs the repaired call when onRepair throws: the report is best effort, as onLateSettle's is", async () => {
    const { registry, handler } = registryWith(() => {
      throw new Error("logger down");
    });
    expect(await registry.dispatch(toolCall("run", '{"count":"5"}'))).toEqual({ count: 5 });
    const [result] = await registry.dispatchAll([toolCall("run", { count: "6" })]);
    expect(result).toMatchObject({ status: "ok", value: { count: 6 }, repairs: [{ pointer: "/count", from: "string", to: "number" }] });
    expect(handler).toHaveBeenCalledTimes(2);
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
    expect(repaired).toEqual({ status: "ok", toolCallId: "a", toolName: "run", isError: false, value: { count: 2 }, repairs: [{ pointer: "/count", from: "string", to: "number" }] });
    expect(clean).toEqual({ status: "ok", toolCallId: "b", toolName: "run", isError: false, value: { count: 2 } });
  });

  describe("the shapes real models send", () => {
    const search = Type.Object({
      query: Type.String(),
      filter: Type.Optional(Type.Object({ city: Type.String(), days: Type.Optional(Type.Integer()) })),
      tags: Type.Optional(Type.Array(Type.String())),
      limit: Type.Optional(Type.Integer({ minimum: 1 })),
    });

    function searchRegistry(options: { maxArgumentBytes?: number } = {}) {
      const reports: RepairReport[] = [];
      const handler = vi.fn((args: unknown) => args);
      const registry = new ToolRegistry({ ...options, onRepair: (report) => reports.push(report) }).register({ name: "search", description: "", parameters: search }, handler);
      return { registry, reports, handler };
    }

    it("parses an object or array sent as JSON text, leaves out a null optional property, wraps a lone value, and reports each", async () => {
      const { registry, reports } = searchRegistry();
      const args = JSON.stringify({ query: "hotels", filter: JSON.stringify({ city: "Paris", days: 3 }), tags: "cheap", limit: null });
      expect(await registry.dispatch(toolCall("search", args, "call_7"))).toEqual({ query: "hotels", filter: { city: "Paris", days: 3 }, tags: ["cheap"] });
      expect(reports).toEqual([
        {
          toolName: "search",
          toolCallId: "call_7",
          repairs: [
            { pointer: "/filter", from: "string", to: "object" },
            { pointer: "/tags", from: "string", to: "array" },
            { pointer: "/limit", from: "null", to: "omitted" },
          ],
        },
      ]);
    });

    it("keeps the original issues when anything is still wrong after the repairs", async () => {
      const { registry, reports, handler } = searchRegistry();
      const error = await rejectionOf(registry.dispatch(toolCall("search", { query: 5, filter: '{"city":"Paris"}' })));
      expect((error as ToolArgumentsValidationError).issues).toEqual(["/query: must be string", '/filter: must be object with properties "city", "days"']);
      expect(reports).toEqual([]);
      expect(handler).not.toHaveBeenCalled();
    });

    it("checks the repaired copy with the tool's own validator: a repair that breaks another rule of the schema saves nothing", async () => {
      const linked = { type: "object", properties: { a: { type: "integer" }, b: { type: "integer" } }, dependentRequired: { a: ["b"] } } as never;
      const report = vi.fn();
      const registry = new ToolRegistry({ onRepair: report }).register({ name: "linked", description: "", parameters: linked }, () => 1);
      const error = await rejectionOf(registry.dispatch(toolCall("linked", { a: 1, b: null })));
      expect((error as ToolArgumentsValidationError).issues).toEqual(["/b: must be integer"]);
      expect(report).not.toHaveBeenCalled();
    });

    it("honours maxArgumentBytes for JSON text inside object arguments: a longer text is never parsed", async () => {
      const { registry, reports } = searchRegistry({ maxArgumentBytes: 1024 });
      const tags = JSON.stringify(Array.from({ length: 400 }, (_, index) => `t${index}`));
      expect(await rejectionOf(registry.dispatch(toolCall("search", { query: "q", tags })))).toBeInstanceOf(ToolArgumentsValidationError);
      expect(reports).toEqual([]);
      const short = JSON.stringify(["a", "b"]);
      expect(await registry.dispatch(toolCall("search", { query: "q", tags: short }))).toEqual({ query: "q", tags: ["a", "b"] });
    });

    it("never puts a value in a report: pointers and JSON types only", async () => {
      const { registry, reports } = searchRegistry();
      await registry.dispatch(toolCall("search", { query: "q", filter: '{"city":"secret-city-42"}', tags: "secret-tag-42" }));
      expect(JSON.stringify(reports)).not.toContain("secret");
    });
  });

  it("refuses an onRepair option that is not a function, naming it", () => {
    expect(() => new ToolRegistry({ onRepair: true as unknown as () => void })).toThrow("onRepair must be a function, got true");
  });
});
