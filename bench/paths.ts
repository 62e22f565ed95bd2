import { fileURLToPath } from "node:url";

// The compiled bench runs from bench-dist/bench/, two levels below the repository root.
const REPOSITORY_ROOT = new URL("../../", import.meta.url);

/** A path inside the repository, from its root. */
export function repositoryPath(relativePath: string): string {
  return fileURLToPath(new URL(relativePath, REPOSITORY_ROOT));
}
