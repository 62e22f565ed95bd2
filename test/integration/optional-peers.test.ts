import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// The optional peer dependencies (`@modelcontextprotocol/sdk`, `@opentelemetry/api`, `bullmq`,
// `ioredis`) belong to their subpaths: the root import must never load one, or every user would
// need them. Read from the built dist/ (built by the global setup), following every static and
// dynamic import from each entry point.
const dist = resolve(import.meta.dirname, "..", "..", "dist");
const OPTIONAL_PEERS = ["@modelcontextprotocol/sdk", "@opentelemetry/api", "bullmq", "ioredis"];

/** The bare packages the module graph from `entry` imports, its own files followed. */
function packagesReachedFrom(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(file, "utf8");
    for (const match of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g)) {
      const specifier = match[1]!;
      if (specifier.startsWith(".")) visit(join(dirname(file), specifier));
      else packages.add(specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]!);
    }
  };
  visit(join(dist, entry));
  return packages;
}

describe("the optional peer dependencies", () => {
  it("are never reached from the root import", () => {
    const reached = packagesReachedFrom("index.js");
    expect(reached).toContain("typebox");
    for (const peer of OPTIONAL_PEERS) expect(reached, peer).not.toContain(peer);
  });

  it.each([
    ["otel/index.js", ["@opentelemetry/api"]],
    ["bullmq/index.js", ["bullmq", "ioredis"]],
    ["mcp/index.js", ["@modelcontextprotocol/sdk"]],
  ])("are reached from %s only as its own peers", (entry, own) => {
    const reached = packagesReachedFrom(entry);
    for (const peer of OPTIONAL_PEERS) expect(reached.has(peer), peer).toBe(own.includes(peer));
  });
});
