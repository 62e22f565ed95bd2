import { existsSync, readdirSync } from "node:fs";
import { replayBfcl, type ReplayReport } from "./bfcl-replay.js";
import { repositoryPath } from "./paths.js";

/**
 * `npm run bench:bfcl [-- --corpus <dir>]`: replays every BFCL ground-truth answer through the
 * loader and the registry, and prints the share accepted with every refusal classified. The
 * corpus is found as the tests find it: `--corpus`, else `BFCL_CORPUS`, else `../shared/corpus/bfcl`
 * beside the clone. Exits with status 1 when the library made any error, 2 when there is no corpus.
 */
const argv = process.argv.slice(2);
const flag = argv.indexOf("--corpus");
const configured = flag >= 0 ? argv[flag + 1] : process.env.BFCL_CORPUS;
const directory = configured !== undefined && configured !== "" ? configured : repositoryPath("../shared/corpus/bfcl");
if (!existsSync(directory) || !readdirSync(directory).some((file) => /^BFCL_v4_.*\.json$/.test(file))) {
  console.error(`npm run bench:bfcl: no BFCL_v4_*.json files at ${directory} (pass --corpus <dir> or set BFCL_CORPUS; the corpus is not part of this repository)`);
  process.exit(2);
}
const started = performance.now();
const report = await replayBfcl(directory);
console.log(formatReport(report, (performance.now() - started) / 1e3));
if (report.libraryErrors.length > 0) process.exitCode = 1;

/** The report as text: the share accepted, the refusals by class, and every library error. */
function formatReport(report: ReplayReport, seconds: number): string {
  const share = (count: number) => `${count} of ${report.answers} (${((100 * count) / report.answers).toFixed(1)}%)`;
  const datasetTotal = [...report.datasetErrors.values()].reduce((sum, count) => sum + count, 0);
  const lines = [
    `BFCL replay of ${report.directory}: ${report.files} files, ${report.calls} ground-truth calls, ${report.answers} answers (every listed option), ${seconds.toFixed(1)} s`,
    "",
    `accepted:              ${share(report.accepted)}; first-listed answers ${report.firstAccepted} of ${report.calls} (${((100 * report.firstAccepted) / report.calls).toFixed(1)}%)`,
    `refused:               ${report.answers - report.accepted}: dataset errors ${datasetTotal}, library errors ${report.libraryErrors.length}`,
    `  with defaultNull "strict": accepted ${share(report.acceptedStrictDefaultNull)}`,
    `  with onRepair:             accepted ${share(report.acceptedWithRepair)}`,
    `empty option lists:    ${report.emptyOptionLists} (parameters that accept no value; sent left out)`,
    "",
    "dataset errors (the answer breaks its own schema, as the dialect reads it):",
    ...[...report.datasetErrors].sort((a, b) => b[1] - a[1]).map(([kind, count]) => `  ${String(count).padStart(5)}  ${kind}`),
    "",
    `library errors: ${report.libraryErrors.length}`,
    ...report.libraryErrors.map((finding) => `  ${finding.where}: ${finding.kind}`),
  ];
  return lines.join("\n");
}
