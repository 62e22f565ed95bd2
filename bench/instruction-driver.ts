// Run by `npm run bench:instructions` under valgrind, once per case and call count:
// node instruction-driver.js <group id> <case id> <calls>
import { INSTRUCTION_GROUPS } from "./instruction-groups.js";

const [groupId, caseId, callsText] = process.argv.slice(2);
const group = INSTRUCTION_GROUPS.find((candidate) => candidate.id === groupId);
const benchCase = group?.cases().find((candidate) => candidate.id === caseId);
const calls = Number(callsText);
if (benchCase === undefined || !Number.isInteger(calls) || calls < 0) {
  console.error(`usage: instruction-driver.js <group> <case> <calls>; no case ${String(caseId)} in group ${String(groupId)}`);
  process.exit(2);
}
benchCase.setUp?.(calls);
await benchCase.run(calls);
