// `npm run bench:packed`: pack the library, install the tarball into a scratch folder inside the
// repository (so that the harness's other imports resolve from the repository's node_modules),
// and run the independent harness against that install.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const folder = join(root, ".bench-packed");
rmSync(folder, { recursive: true, force: true });
mkdirSync(folder, { recursive: true });
execFileSync("npm", ["pack", "--silent", "--pack-destination", folder], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
const tarball = readdirSync(folder).find((file) => file.endsWith(".tgz"));
writeFileSync(join(folder, "package.json"), JSON.stringify({ name: "packed-harness", private: true, type: "module" }));
execFileSync("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--no-package-lock", join(folder, tarball)], { cwd: folder, stdio: "inherit" });
cpSync(join(root, "bench", "packed", "harness.mjs"), join(folder, "harness.mjs"));
console.log(`installed ${tarball}; Node ${process.version}`);
execFileSync(process.execPath, ["--expose-gc", join(folder, "harness.mjs")], { cwd: folder, stdio: "inherit" });
