import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import * as providers from "../src/providers/index.js";

const src = resolve(import.meta.dirname, "..", "src");
const importsOf = (folder: string) =>
  readdirSync(join(src, folder))
    .filter((file) => file.endsWith(".ts"))
    .flatMap((file) => [...readFileSync(join(src, folder, file), "utf8").matchAll(/^(?:import|export)[^;]*? from "([^"]+)";/gms)].map((match) => [file, match[1]!] as const));

describe("the providers subpath", () => {
  it("exports the four adapters, the Gemini id prefix and the typed errors, and no internals", () => {
    expect(Object.keys(providers).sort()).toEqual([
      "GENERATED_GEMINI_ID_PREFIX",
      "ProviderFormatError",
      "ProviderLimitError",
      "ProviderNameError",
      "ProviderSchemaError",
      "anthropic",
      "gemini",
      "openAIChat",
      "openAIResponses",
    ]);
  });
});

describe("layers", () => {
  it("src/streaming imports nothing from the layers above it (registry, providers, mcp), and knows no provider", () => {
    const imports = importsOf("streaming");
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter(([, from]) => /registry|providers|mcp|bfcl/.test(from))).toEqual([]);
  });

  it("src/mcp imports nothing from src/providers", () => {
    const imports = importsOf("mcp");
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter(([, from]) => from.includes("providers"))).toEqual([]);
  });

  it("src/providers keeps no private copy of the schema toolkit: strict mode imports pointer, references and keywords from src/schema", () => {
    const strict = importsOf("providers").filter(([file]) => file === "strict.ts").map(([, from]) => from);
    expect(strict).toEqual(expect.arrayContaining(["../schema/pointer.js", "../schema/references.js", "../schema/keywords.js"]));
    const text = readFileSync(join(src, "providers", "strict.ts"), "utf8");
    expect(text).not.toMatch(/decodeURIComponent|replace\(\/~1\/g|const MAX_REF_HOPS/);
  });
});
