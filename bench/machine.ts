import { readFileSync } from "node:fs";
import { cpus, platform, arch, totalmem } from "node:os";
import { repositoryPath } from "./paths.js";

/** Where the numbers were measured. */
export interface MachineInfo {
  readonly cpu: string;
  readonly cores: number;
  readonly totalMemoryBytes: number;
  readonly node: string;
  readonly v8: string;
  readonly platform: string;
  /** The measured libraries and their pinned versions, from package.json. */
  readonly libraries: Readonly<Record<string, string>>;
}

const MEASURED_LIBRARIES = [
  "typebox",
  "lru-cache",
  "ajv",
  "zod",
  "@mariozechner/pi-ai",
  "ai",
  "@openai/agents-core",
  "@langchain/core",
  "@modelcontextprotocol/sdk",
  "partial-json",
];

interface Manifest {
  readonly version: string;
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
}

/** The pinned version of `packageName` in package.json (this library's own for its name), or `?`. */
export function pinnedVersion(packageName: string): string {
  const manifest = JSON.parse(readFileSync(repositoryPath("package.json"), "utf8")) as Manifest;
  if (packageName === "typebox-tool-registry") return manifest.version;
  return manifest.dependencies?.[packageName] ?? manifest.devDependencies?.[packageName] ?? "?";
}

/** The CPU, memory, Node and library versions of this run. */
export function describeMachine(): MachineInfo {
  return {
    cpu: cpus()[0]?.model ?? "unknown CPU",
    cores: cpus().length,
    totalMemoryBytes: totalmem(),
    node: process.version,
    v8: process.versions.v8,
    platform: `${platform()} ${arch()}`,
    libraries: Object.fromEntries(MEASURED_LIBRARIES.map((name) => [name, pinnedVersion(name)])),
  };
}
