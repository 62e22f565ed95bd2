import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// The nearest folder above this file with a package.json: the repository root, whether the bench
// runs compiled from bench-dist/bench/ or from its sources under vitest.
const REPOSITORY_ROOT = nearestPackageFolder(dirname(fileURLToPath(import.meta.url)));

function nearestPackageFolder(start: string): string {
  for (let folder = start; ; folder = dirname(folder)) {
    if (existsSync(join(folder, "package.json"))) return folder;
    if (dirname(folder) === folder) throw new Error(`no package.json above ${start}`);
  }
}

/** A path inside the repository, from its root. */
export function repositoryPath(relativePath: string): string {
  return join(REPOSITORY_ROOT, relativePath);
}
