import { describe, expect, it } from "vitest";
import type { BehaviourRow } from "../bench/behaviour.js";
import { renderChart } from "../bench/chart.js";
import { evaluateGoals } from "../bench/goals.js";
import type { TimedGroup } from "../bench/groups.js";
import { REPORT_SECTIONS, renderHtmlReport } from "../bench/html-report.js";
import type { CaseTiming } from "../bench/measure.js";
import type { BenchResults } from "../bench/results.js";
import { attribute, elementsByTag, parseHtml, textOf } from "./support/html.js";

function timing(id: string, label: string, medianNs: number): CaseTiming {
  return { id, label, medianNs, spread: 0.05, lowNs: medianNs * 0.95, highNs: medianNs * 1.05, iterations: 1000 };
}

function group(id: string, timings: readonly CaseTiming[]): TimedGroup {
  return { id, title: `${id} <group>`, timings };
}

/** A run's results with made-up figures: every section filled, one label with markup characters. */
function sampleResults(): BenchResults {
  const perCallGroups = ["small", "large"].flatMap((size) => [
    group(`${size} object`, [timing("dispatch", "registry.dispatch", 200), timing("reference", "reference: handler(check(copy(args)))", 150), timing("compile-per-call", "Compile", 50_000), timing("pi-ai", "pi-ai <validate> & co", 5_000)]),
    group(`${size} json`, [timing("dispatch", "registry.dispatch", 400), timing("reference", "reference", 380)]),
    group(`${size} invalid`, [timing("valid", "valid", 200), timing("invalid", "invalid", 1_500)]),
  ]);
  const signal = group("small signal", [timing("dispatch", "no signal", 200), timing("signal", "signal", 250), timing("timeout", "timeout", 300)]);
  const mcp = ["small", "large"].map((size) => group(`${size} mcp`, [timing("registry-mcp", "createMcpServer", 40_000), timing("mcp-sdk-zod", "McpServer", 50_000)]));
  const tracing = group("small otel", [timing("dispatch", "registry.dispatch", 200), timing("otel-idle", "instrument(registry), then dispatch", 205)]);
  const cold = group("cold start", [timing("register-first-call", "register + first dispatch", 150_000), timing("compile", "Compile", 100_000)]);
  const behaviour: BehaviourRow = {
    id: "registry", label: "registry.dispatch", packageName: "typebox-tool-registry", version: "0.2.0", form: "object",
    validates: "yes", coercion: "refused", unknownKeys: "kept", handlerGets: "a deep copy", valuesInErrors: "no",
  };
  return {
    machine: { cpu: "Test CPU", cores: 2, totalMemoryBytes: 2 ** 34, node: "v20.20.2", v8: "11.3", platform: "linux x64", libraries: { typebox: "1.4.3" } },
    settings: {
      quick: false, check: true, corpusDirectory: undefined, perCall: { rounds: 28, batchMs: 20, warmupMs: 200 }, coldStartSizes: [100], coldStartRepeats: 3,
      populationSize: 100, sweepCalls: 1000, cacheSizes: [16, Infinity], cacheKeyCalls: 100, memorySchemas: 100, churnSchemas: 200, churnCacheSize: 64, churnCheckpoints: 2,
      streaming: { rounds: 15, batchMs: 40, warmupMs: 300, payloadBytes: 100_000 },
    },
    argv: ["--check"],
    perCall: { groups: [...perCallGroups, signal] },
    mcp: { groups: mcp },
    coldStart: { group: cold, rows: [{ tools: 100, registerMs: 4, compileAllMs: 10, firstCallMeanUs: 150, firstCallP95Us: 300, compileMeanUs: 100, secondCallMedianUs: 120, thirdCallMedianUs: 2 }] },
    behaviour: [behaviour],
    goals: evaluateGoals([...perCallGroups, signal, ...mcp, cold, tracing]),
    cacheSweep: { source: "100 generated tools", tools: 100, calls: 1000, zipfExponent: 1.1, rows: [16, Infinity].map((cacheSize) => ({ cacheSize, hits: 900, misses: 100, evictions: 80, hitRate: 0.9, compileMs: 12, rejected: 0, callsPerSecond: 50_000, heapBytes: 2 ** 20 })) },
    cacheKey: { cacheSize: 1024, calls: 100, rows: [{ label: "identity key", key: "identity", freshCopies: false, misses: 10, hitRate: 0.9, microsecondsPerCall: 3 }] },
    memory: {
      perValidator: { schemas: 100, growthBytes: 9_000, heldBytes: 8_000 },
      churn: { schemas: 200, cacheSize: 64, checkpoints: [{ schemasSeen: 100, boundedBytes: 2 ** 20, unboundedBytes: 2 ** 21 }, { schemasSeen: 200, boundedBytes: 2 ** 20, unboundedBytes: 2 ** 22 }], boundedHeldBytes: 2 ** 19, unboundedHeldBytes: 2 ** 21 },
    },
    streaming: {
      payloads: [
        { name: "batch upsert", bytes: 100_000, deltas: 3_000, timings: [timing("stream", "stream", 900_000), timing("reference", "JSON.parse + check", 350_000)], partialJsonNs: 2e9 },
      ],
      perDeltaNs: { insideString: 80, structured: 190 },
      latency: { calls: 3, handlerMs: 50, streamMs: 200, dispatchStream: { firstResultMs: 106, lastResultMs: 260, beforeStreamEnd: 2 }, collectThenDispatchAll: { firstResultMs: 208, lastResultMs: 260, beforeStreamEnd: 0 } },
      goals: [],
    },
    tracing,
    sectionSeconds: { "per-call": 30, memory: 6 },
    durationSeconds: 61.5,
  };
}

describe("the bench's HTML report", () => {
  const html = renderHtmlReport(sampleResults());
  const { document, errors } = parseHtml(html);

  it("is well-formed HTML: no parse error at all", () => {
    expect(errors).toEqual([]);
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(attribute(elementsByTag(document, "html")[0]!, "lang")).toBe("en");
    expect(textOf(elementsByTag(document, "title")[0]!)).toBe("typebox-tool-registry benchmark");
  });

  it("has every section, in order, each with its heading, and a link to each", () => {
    const sections = elementsByTag(document, "section");
    expect(sections.map((section) => attribute(section, "id"))).toEqual(REPORT_SECTIONS.map(([id]) => id));
    for (const [index, section] of sections.entries()) expect(textOf(elementsByTag(section, "h2")[0]!)).toBe(REPORT_SECTIONS[index]![1]);
    expect(elementsByTag(document, "a").map((link) => attribute(link, "href"))).toEqual(REPORT_SECTIONS.map(([id]) => `#${id}`));
  });

  it("names the machine and Node, and shows every goal with its result", () => {
    expect(textOf(elementsByTag(document, "header")[0]!)).toContain("Test CPU, 2 cores, 16.0 GiB RAM, linux x64; Node v20.20.2");
    const goalsTable = elementsByTag(sectionById("goals"), "table")[0]!;
    const rows = elementsByTag(goalsTable, "tr").slice(1);
    expect(rows).toHaveLength(sampleResults().goals.length);
    expect(textOf(rows[0]!)).toMatch(/^dispatch \/ reference, small object1\.33x.*FAIL/);
  });

  it("embeds the chart with a legend, and draws each case's spread", () => {
    const chart = sectionById("chart");
    const svg = elementsByTag(chart, "svg")[0]!;
    expect(svg).toBeDefined();
    expect(elementsByTag(chart, "ul")[0] && textOf(elementsByTag(chart, "ul")[0]!)).toContain("rival libraries");
    // One whisker per timed case, plus the legend's sample.
    const cases = [...sampleResults().perCall.groups, ...sampleResults().mcp.groups, sampleResults().coldStart.group].flatMap((entry) => entry.timings).length;
    expect(elementsByTag(svg, "path")).toHaveLength(cases + 1);
    expect(textOf(svg)).toContain("Cold start");
    expect(textOf(svg)).toContain("Memory");
    const spreads = elementsByTag(sectionById("per-call"), "span").filter((span) => attribute(span, "class") === "spread");
    expect(spreads).toHaveLength(sampleResults().perCall.groups.flatMap((entry) => entry.timings).length);
  });

  it("escapes labels, so a rival's name cannot break the page", () => {
    expect(html).toContain("pi-ai &lt;validate&gt; &amp; co");
    expect(html).not.toContain("<validate>");
    expect(textOf(sectionById("per-call"))).toContain("pi-ai <validate> & co");
  });

  it("shows each streamed payload against one JSON.parse plus check and partial-json, one delta's cost, and the latency", () => {
    const streaming = textOf(sectionById("streaming"));
    expect(streaming).toContain("batch upsert: 100,000 bytes in 3,000 deltas");
    expect(streaming).toContain("partial-json, the prefix re-parsed on every delta");
    expect(streaming).toContain("80 ns inside a long string");
    expect(streaming).toContain("106 ms");
  });

  it("writes the same chart as the standalone SVG", () => {
    expect(html).toContain(renderChart(sampleResults()).trim());
  });

  function sectionById(id: string) {
    const section = elementsByTag(document, "section").find((candidate) => attribute(candidate, "id") === id);
    if (section === undefined) throw new Error(`no section ${id}`);
    return section;
  }
});
