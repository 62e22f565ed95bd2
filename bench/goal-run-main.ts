import { runColdStartRatio } from "./cold-start-ratio.js";
import { evaluateGoals } from "./goals.js";
import { GOALS_LINE } from "./goal-runs.js";
import { runMcpRoundTrip } from "./mcp-round-trip.js";
import { runOtelOverhead } from "./otel-overhead.js";
import { runPerCall } from "./per-call.js";
import { Progress } from "./progress.js";
import { parseSettings } from "./settings.js";

// Started by `npm run bench -- --check` (see goal-runs.ts): the groups of the goals measured again
// in this fresh process, with the bench's settings, their goals written as one JSON line.
const settings = parseSettings(process.argv.slice(2));
const quiet = new Progress({ isTTY: false, write: () => true });
// In the main run's order: tracing right after the per-call groups (see main.ts).
const perCall = await runPerCall(settings.perCall, quiet);
const tracing = await runOtelOverhead(settings.perCall, quiet);
const mcp = await runMcpRoundTrip(settings.perCall, quiet);
const coldStart = await runColdStartRatio(settings.perCall, () => {});
console.log(`${GOALS_LINE}${JSON.stringify(evaluateGoals([...perCall.groups, ...mcp.groups, coldStart, tracing]))}`);
