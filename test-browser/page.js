// The browser side of the test: runs under the page's Content-Security-Policy.
// Results go to window.__results and to the #results element; run.mjs asserts them.
import { validators } from "/generated/validators.js";
import { runScenario } from "./scenario.mjs";

const status = document.getElementById("status");

function attempt(run) {
  try {
    run();
    return { blocked: false };
  } catch (error) {
    return { blocked: true, error: `${error?.name}: ${error?.message}` };
  }
}

async function until(condition, ms) {
  const end = performance.now() + ms;
  while (!condition() && performance.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
}

async function main() {
  // Our own probes first: TypeBox's (memoised) probe comes later, from the registry.
  const newFunction = attempt(() => new Function("return 1"));
  const indirectEval = attempt(() => (0, eval)("2 + 2"));
  const plain = await runScenario({});
  const precompiled = await runScenario({ precompiled: validators });
  // securitypolicyviolation events are queued as tasks: give them time to arrive.
  const evalViolations = () => window.__cspViolations.filter((violation) => violation.blockedURI === "eval").length;
  await until(() => evalViolations() >= 3, newFunction.blocked ? 3000 : 300);
  return {
    newFunction,
    indirectEval,
    inlineCanaryRan: window.__inlineCanaryRan === true,
    plain,
    precompiled,
    violations: window.__cspViolations,
    userAgent: navigator.userAgent,
  };
}

main().then(
  (results) => {
    window.__results = results;
    document.getElementById("results").textContent = JSON.stringify(results, null, 2);
    status.textContent = "done";
  },
  (error) => {
    window.__results = { fatal: String(error?.stack ?? error) };
    document.getElementById("results").textContent = window.__results.fatal;
    status.textContent = "failed";
  },
);
