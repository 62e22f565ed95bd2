import { describe, expect, it } from "vitest";
import { Progress, progressLine, type ProgressStream } from "../bench/progress.js";

/** A stream that records what is written, as a terminal (or a pipe) would receive it. */
function recorder(isTTY: boolean, columns?: number): ProgressStream & { readonly chunks: string[] } {
  const chunks: string[] = [];
  return {
    isTTY,
    ...(columns === undefined ? {} : { columns }),
    chunks,
    write: (chunk) => {
      chunks.push(chunk);
      return true;
    },
  };
}

describe("bench progress", () => {
  it("writes nothing when the output is not a terminal", () => {
    const stream = recorder(false);
    const progress = new Progress(stream, () => 0);
    progress.begin("per-call", 3);
    progress.step(1, "small schema, object arguments", "round 1/28: registry.dispatch", 0.5);
    progress.clear();
    expect(progress.enabled).toBe(false);
    expect(stream.chunks).toEqual([]);
  });

  it("on a terminal, redraws one line with the section, the part, what runs and how far", () => {
    const stream = recorder(true, 200);
    let now = 0;
    const progress = new Progress(stream, () => now);
    progress.begin("per-call", 4);
    now = 12_000;
    progress.step(2, "small schema, JSON-text arguments", "round 14/28: zod parse", 0.5);
    const line = stream.chunks.at(-1)!;
    expect(line.startsWith("\r\u001b[2K")).toBe(true);
    expect(line).not.toContain("\n");
    expect(line).toContain("per-call 2/4: small schema, JSON-text arguments");
    expect(line).toContain("round 14/28: zod parse");
    expect(line).toContain(" 38%"); // (1 + 0.5) / 4
    expect(line).toContain("12 s");
  });

  it("redraws at most ten times a second within a part, and at once for a new part", () => {
    const stream = recorder(true);
    let now = 0;
    const progress = new Progress(stream, () => now);
    progress.begin("per-call", 2);
    progress.step(1, "a");
    const drawn = stream.chunks.length;
    now = 50;
    progress.step(1, "a", "round 2/28", 0.1);
    expect(stream.chunks.length).toBe(drawn);
    now = 60;
    progress.step(2, "b");
    expect(stream.chunks.length).toBe(drawn + 1);
    now = 200;
    progress.step(2, "b", "round 3/28", 0.2);
    expect(stream.chunks.length).toBe(drawn + 2);
  });

  it("reports an interleaved measurement's warm-up and rounds", () => {
    const stream = recorder(true);
    let now = 0;
    const progress = new Progress(stream, () => (now += 1000));
    progress.begin("MCP server", 2);
    const onStep = progress.measuring(2, "large schema");
    onStep({ phase: "warm-up", label: "createMcpServer(registry)", done: 0, total: 12, round: 0, rounds: 3 });
    expect(stream.chunks.at(-1)).toContain("warm-up: createMcpServer(registry)");
    onStep({ phase: "rounds", label: "MCP SDK McpServer, Zod", done: 6, total: 12, round: 2, rounds: 3 });
    expect(stream.chunks.at(-1)).toContain("round 2/3: MCP SDK McpServer, Zod");
    expect(stream.chunks.at(-1)).toContain(" 75%");
  });

  it("erases its line before tables are printed, once", () => {
    const stream = recorder(true);
    const progress = new Progress(stream, () => 0);
    progress.begin("memory", 1);
    progress.clear();
    progress.clear();
    expect(stream.chunks.at(-1)).toBe("\r\u001b[2K");
    expect(stream.chunks.filter((chunk) => chunk === "\r\u001b[2K")).toHaveLength(1);
  });

  it("cuts the line to the terminal's width", () => {
    const state = { section: "per-call", part: 1, parts: 9, partTitle: "x".repeat(200), detail: "", fraction: 0, elapsedSeconds: 3 };
    const line = progressLine(state, 60);
    expect(line.length).toBeLessThanOrEqual(59);
    expect(line.endsWith("…")).toBe(true);
  });
});
