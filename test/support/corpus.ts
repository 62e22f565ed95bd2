import { existsSync } from "node:fs";
import { resolve } from "node:path";

/**
 * Third-party corpora are other people's data: never in this repository. A suite that
 * uses one reads it by path and is skipped, with one line saying so, when it is absent.
 */
const CORPORA = {
  bfcl: { variable: "BFCL_CORPUS", fallback: resolve(import.meta.dirname, "..", "..", "..", "shared", "corpus", "bfcl") },
  "provider-streams": {
    variable: "PROVIDER_STREAMS_CORPUS",
    fallback: resolve(import.meta.dirname, "..", "..", "..", "shared", "corpus", "provider-streams"),
  },
} as const;

/** The project's own BFCL-dialect fixtures, which run on every clone. */
export const BFCL_FIXTURES = resolve(import.meta.dirname, "..", "fixtures", "bfcl");

/**
 * The directory of a corpus: the environment variable when set, else `../shared/corpus/<name>`
 * beside the clone when it exists; `undefined` when there is none. With `REQUIRE_CORPUS=1` (CI,
 * where the corpus is beside the clone) an absent corpus is an error instead of a skip.
 */
export function corpusDirectory(name: keyof typeof CORPORA): string | undefined {
  const { variable, fallback } = CORPORA[name];
  const configured = process.env[variable];
  const directory = configured !== undefined && configured !== "" ? resolve(configured) : fallback;
  if (existsSync(directory)) return directory;
  if (process.env.REQUIRE_CORPUS === "1") throw new Error(`REQUIRE_CORPUS=1 but the ${name} corpus is not at ${directory} (set ${variable})`);
  console.warn(`${name} corpus not found at ${directory} (set ${variable} to its folder): skipping the suites that read it`);
  return undefined;
}
