// Browser test: the registry keeps validating where code generation is forbidden.
//
// Serves a page under `Content-Security-Policy: default-src 'self'; script-src 'self' 'sha256-…'`
// (no 'unsafe-eval', no 'unsafe-inline'; the hash admits only the inline import map), loads the
// built dist/ with TypeBox and lru-cache from node_modules, and drives Debian's Chromium with
// playwright-core. The page dispatches the calls of scenario.mjs twice, on a plain registry
// (TypeBox's interpreter) and on one given precompiled validators generated here; this script
// asserts the outcomes. A control page, the same but with 'unsafe-eval' added, shows that the
// checks tell the two environments apart.
//
// Run: npm run build && node test-browser/run.mjs   (needs dist/; set BROWSER_TEST_DUMP=1 to print the raw results)

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = "1";

const TIMEOUT_MS = 30_000;
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..");

let passed = 0;
let failed = 0;

function check(label, run) {
  try {
    run();
    passed++;
    console.log(`  ok    ${label}`);
  } catch (error) {
    failed++;
    console.log(`  FAIL  ${label}`);
    console.log(String(error?.message ?? error).replace(/^/gm, "        "));
  }
}

function finish(extra) {
  if (extra !== undefined) console.log(extra);
  console.log(`browser: ${passed} passed, ${failed} failed`);
  process.exitCode = failed === 0 ? 0 : 1;
}

// A last resort against anything that hangs despite the per-step timeouts.
const watchdog = setTimeout(() => {
  failed++;
  finish("watchdog: the browser test did not finish within 120 s");
  process.exit(1);
}, 120_000);
watchdog.unref();

// ---------------------------------------------------------------------------------------------
// What the page may load
// ---------------------------------------------------------------------------------------------

if (!existsSync(join(root, "dist", "index.js"))) {
  failed++;
  finish("dist/index.js is missing: run `npm run build` first (npm run test:browser does)");
  process.exit(1);
}

const { precompileValidators } = await import(new URL("../dist/index.js", import.meta.url).href);
const { definitions } = await import("./tools.mjs");
const { cases, runScenario } = await import("./scenario.mjs");

const readJson = (path) => JSON.parse(readFileSync(join(root, path), "utf8"));
const typeboxPackage = readJson("node_modules/typebox/package.json");
const lruPackage = readJson("node_modules/lru-cache/package.json");
const re2jsPackage = readJson("node_modules/re2js/package.json");

/** The import map: every export of typebox, lru-cache's browser ESM build, and re2js's ESM build. */
const imports = {};
for (const [subpath, target] of Object.entries(typeboxPackage.exports)) {
  const file = typeof target === "string" ? target : (target.import ?? target.default);
  imports[subpath === "." ? "typebox" : `typebox/${subpath.slice(2)}`] = `/node_modules/typebox/${file.replace(/^\.\//, "")}`;
}
const lruTarget = lruPackage.exports["."].import.browser.default;
imports["lru-cache"] = `/node_modules/lru-cache/${lruTarget.replace(/^\.\//, "")}`;
// The generated validators import this package's ./precompiled subpath (and nothing of TypeBox's directly).
const ownPackage = readJson("package.json");
imports[`${ownPackage.name}/precompiled`] = `/${ownPackage.exports["./precompiled"].default.replace(/^\.\//, "")}`;
imports.re2js = `/node_modules/re2js/${re2jsPackage.exports["."].import.default.replace(/^\.\//, "")}`;
const importMap = JSON.stringify({ imports }, null, 2);
const importMapHash = createHash("sha256").update(importMap, "utf8").digest("base64");

const CSP = `default-src 'self'; script-src 'self' 'sha256-${importMapHash}' 'report-sample'`;
const CONTROL_CSP = `default-src 'self'; script-src 'self' 'sha256-${importMapHash}' 'report-sample' 'unsafe-eval'`;

const validatorsSource = precompileValidators(definitions);

// Every bare specifier that the page's part of dist/ (the graph of dist/index.js) and the
// generated module import must be in the import map.
const specifiers = (source) => [...source.matchAll(/^\s*(?:import|export)\b(?:[^;"']*?\bfrom)?\s*["']([^"']+)["']/gm)].map((match) => match[1]);
const needed = new Set();
// The generated module reaches TypeBox through this package's ./precompiled subpath: follow that file too.
const precompiledRuntime = join(root, ownPackage.exports["./precompiled"].default);
for (const pending = [join(root, "dist", "index.js"), precompiledRuntime], seen = new Set(pending); pending.length > 0; ) {
  const file = pending.pop();
  for (const specifier of specifiers(readFileSync(file, "utf8"))) {
    if (!/^\.{1,2}\//.test(specifier)) {
      needed.add(specifier);
      continue;
    }
    const imported = resolve(dirname(file), specifier);
    if (!seen.has(imported)) {
      seen.add(imported);
      pending.push(imported);
    }
  }
}
for (const specifier of specifiers(validatorsSource)) needed.add(specifier);

const HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>typebox-tool-registry under a Content-Security-Policy</title>
<script src="/test-browser/csp-probe.js"></script>
<script type="importmap">${importMap}</script>
<script>window.__inlineCanaryRan = true;</script>
<script type="module" src="/test-browser/page.js"></script>
</head>
<body>
<h1>typebox-tool-registry under a Content-Security-Policy</h1>
<p>The import map runs by its hash; the inline canary script before the module has none and must be blocked.</p>
<pre id="status">running</pre>
<pre id="results"></pre>
</body>
</html>
`;

// Directories served as they are, and the test's own browser files.
const STATIC_ROOTS = ["dist", "node_modules/typebox/build", "node_modules/lru-cache/dist/esm", "node_modules/re2js/build"].map((dir) => realpathSync(join(root, dir)));
const PAGE_FILES = new Set(["/test-browser/csp-probe.js", "/test-browser/page.js", "/test-browser/scenario.mjs", "/test-browser/tools.mjs"]);
const TYPES = { ".js": "text/javascript; charset=utf-8", ".mjs": "text/javascript; charset=utf-8", ".map": "application/json; charset=utf-8" };

function staticFile(pathname) {
  if (PAGE_FILES.has(pathname)) return join(root, pathname);
  const file = resolve(root, `.${pathname}`);
  if (!(extname(file) in TYPES) || !existsSync(file)) return undefined;
  const real = realpathSync(file);
  return STATIC_ROOTS.some((dir) => real.startsWith(dir + sep)) ? real : undefined;
}

const served = { total: 0, notFound: [] };

function handle(request, response) {
  const url = new URL(request.url ?? "/", "http://127.0.0.1");
  const control = url.pathname === "/control.html";
  // Every response carries the policy (the control page's allows eval).
  response.setHeader("Content-Security-Policy", control ? CONTROL_CSP : CSP);
  response.setHeader("Cache-Control", "no-store");
  response.setHeader("X-Content-Type-Options", "nosniff");
  served.total++;
  let body;
  let type;
  if (url.pathname === "/" || url.pathname === "/index.html" || control) {
    [body, type] = [HTML, "text/html; charset=utf-8"];
  } else if (url.pathname === "/generated/validators.js") {
    [body, type] = [validatorsSource, TYPES[".js"]];
  } else if (url.pathname === "/favicon.ico") {
    response.writeHead(204).end();
    return;
  } else {
    const file = staticFile(url.pathname);
    if (file !== undefined) [body, type] = [readFileSync(file), TYPES[extname(file)]];
  }
  if (body === undefined) {
    served.notFound.push(url.pathname);
    response.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("not found\n");
    return;
  }
  response.writeHead(200, { "Content-Type": type }).end(body);
}

// ---------------------------------------------------------------------------------------------
// Expected outcomes
// ---------------------------------------------------------------------------------------------

const invalid = (issues) => ({ ok: false, error: "ToolArgumentsValidationError", issues });
const EXPECTED = {
  "read: valid object": { ok: true, value: { read: "a/b.txt", from: 1 } },
  "read: valid JSON text": { ok: true, value: { read: "docs/readme.md", from: 0 } },
  "read: missing required path": invalid(['/path: must have required properties path']),
  'read: offset "20" (string for integer), object': invalid(["/offset: must be integer (>= 0)"]),
  'read: offset "20" (string for integer), JSON text': invalid(["/offset: must be integer (>= 0)"]),
  "read: offset 1.5 (not an integer)": invalid(["/offset: must be integer (>= 0)"]),
  "read: offset -1 (below minimum)": invalid(["/offset: must be >= 0"]),
  "read: path against pattern": invalid(['/path: must match pattern "^[a-z./]+$"']),
  "read: JSON text that does not parse": invalid(["/: arguments must be valid JSON"]),
  "notify: valid object": { ok: true, value: "sent warn to ops@example.com [disk]" },
  "notify: valid JSON text": { ok: true, value: "sent info to ops@example.com" },
  "notify: email format": invalid(['/to: must match format "email"']),
  "notify: union of literals": invalid(['/level: must be one of "info", "warn"']),
  "notify: additional property": invalid(['/cc: is not an allowed property (allowed: "to", "level", "tags")']),
  "notify: maxItems, JSON text": invalid(["/tags: must not have more than 3 items"]),
  "notify: minLength of an item": invalid(["/tags/0: must not have fewer than 1 characters"]),
  "unknown tool": { ok: false, error: "UnknownToolError", suggestions: ["read"] },
};
const EXPECTED_BATCH = [
  { toolCallId: "b1", toolName: "read", isError: false, value: { read: "x.txt", from: 0 } },
  {
    toolCallId: "b2",
    toolName: "read",
    isError: true,
    error: "ToolArgumentsValidationError",
    content: 'Invalid arguments for tool "read":\n  - /offset: must be integer (>= 0)', // then a hint for the model
  },
  { toolCallId: "b3", toolName: "notify", isError: false, value: "sent info to ops@example.com" },
  { toolCallId: "b4", toolName: "nope", isError: true, error: "UnknownToolError" },
];
const KNOWN_CALLS = cases.filter((c) => c.name !== "raed").length + EXPECTED_BATCH.filter((b) => b.error !== "UnknownToolError").length;

/** The outcome of a case, without the fields EXPECTED does not pin. */
const pinned = (outcome, expected) => Object.fromEntries(Object.keys(expected).map((key) => [key, outcome[key]]));

function checkScenario(mode, scenario, node, { codeGeneration, interpreted }) {
  assert.equal(scenario.outcomes.length, cases.length, `${mode}: every case ran`);
  for (const outcome of scenario.outcomes) {
    check(`${mode}: ${outcome.label}`, () => {
      const expected = EXPECTED[outcome.label];
      assert.ok(expected, `no expectation for ${outcome.label}`);
      assert.deepEqual(pinned(outcome, expected), expected);
      if (!outcome.ok && outcome.issues) {
        assert.equal(outcome.message, [`Invalid arguments for tool "${cases.find((c) => c.label === outcome.label).name}":`, ...outcome.issues.map((i) => `  - ${i}`)].join("\n"));
      }
    });
  }
  check(`${mode}: dispatchAll returns one result per call, in order`, () => {
    const withoutContent = (results) => results.map(({ content: _content, ...rest }) => rest);
    assert.deepEqual(withoutContent(scenario.batch), withoutContent(EXPECTED_BATCH));
    assert.ok(scenario.batch[1].content.startsWith(`${EXPECTED_BATCH[1].content}\n`), scenario.batch[1].content);
    assert.match(scenario.batch[3].content, /Unknown tool "nope"/);
  });
  check(`${mode}: same outcomes as Node with code generation`, () => {
    assert.deepEqual(scenario.outcomes, node.outcomes);
    assert.deepEqual(scenario.batch, node.batch);
  });
  check(`${mode}: cacheStats() codeGeneration ${codeGeneration}, interpreted ${interpreted}`, () => {
    const { compileMs, ...stats } = scenario.stats;
    assert.equal(typeof compileMs, "number");
    assert.deepEqual(stats, { size: 2, max: 1024, hits: KNOWN_CALLS - 2, misses: 2, evictions: 0, codeGeneration, interpreted });
  });
}

// ---------------------------------------------------------------------------------------------
// Run
// ---------------------------------------------------------------------------------------------

const withTimeout = (promise, ms, what) =>
  Promise.race([promise, new Promise((_resolve, reject) => setTimeout(() => reject(new Error(`${what}: timed out after ${ms} ms`)), ms).unref())]);

const server = createServer(handle);
let summary;
let browser;
let browserProcess;
try {
  console.log("browser test: typebox-tool-registry under a Content-Security-Policy without 'unsafe-eval'");
  check("the import map covers every bare import of dist/ and of the generated validators", () => {
    assert.deepEqual([...needed].filter((specifier) => !(specifier in imports)), []);
    assert.ok(needed.has("typebox/guard") && needed.has("typebox-tool-registry/precompiled") && needed.has("lru-cache"), [...needed].join(", "));
    assert.deepEqual([...new Set(specifiers(validatorsSource))], ["typebox-tool-registry/precompiled"], "the generated module imports this package only");
  });

  await withTimeout(new Promise((ready, fail) => server.once("error", fail).listen(0, "127.0.0.1", ready)), TIMEOUT_MS, "server listen");
  const origin = `http://127.0.0.1:${server.address().port}`;
  console.log(`  server ${origin}, Chromium ${CHROMIUM}`);

  const node = await runScenario({});
  assert.equal(node.stats.codeGeneration, true, "Node (the reference run) compiles with code generation");

  const { chromium } = await import("playwright-core");
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic"],
    timeout: TIMEOUT_MS,
  });
  browserProcess = browser.process?.();
  console.log(`  ${browser.version()}`);

  async function load(path) {
    const page = await browser.newPage();
    const log = { responses: [], pageErrors: [], console: [], failedRequests: [] };
    page.on("response", (response) => log.responses.push({ url: response.url(), status: response.status(), csp: response.headers()["content-security-policy"] }));
    // An uncaught error (a module that fails to resolve or load, say) ends the wait at once.
    let onPageError;
    const pageError = new Promise((_resolve, reject) => (onPageError = reject));
    pageError.catch(() => undefined);
    page.on("pageerror", (error) => {
      log.pageErrors.push(String(error?.stack || error?.message || error));
      onPageError(new Error(`uncaught error in the page: ${error?.message ?? error}`));
    });
    page.on("console", (message) => log.console.push(`${message.type()}: ${message.text()}`));
    page.on("requestfailed", (request) => log.failedRequests.push(`${request.url()}: ${request.failure()?.errorText}`));
    let response;
    try {
      response = await page.goto(`${origin}${path}`, { timeout: TIMEOUT_MS, waitUntil: "load" });
      await Promise.race([page.waitForFunction(() => window.__results !== undefined, undefined, { timeout: TIMEOUT_MS }), pageError]);
    } catch (error) {
      const details = { notFound: served.notFound, failedRequests: log.failedRequests, pageErrors: log.pageErrors, console: log.console };
      throw new Error(`${path}: no results: ${error.message}\n${JSON.stringify(details, null, 2)}`);
    }
    const results = await page.evaluate(() => window.__results);
    const dom = { status: await page.textContent("#status", { timeout: TIMEOUT_MS }), results: await page.textContent("#results", { timeout: TIMEOUT_MS }) };
    await page.close();
    if (process.env.BROWSER_TEST_DUMP) console.log(JSON.stringify({ path, results, log }, null, 2));
    return { response, results, dom, log };
  }

  // ---- The page under the CSP --------------------------------------------------------------
  const strict = await load("/");
  const { results } = strict;
  if (results.fatal !== undefined) throw new Error(`the page failed:\n${results.fatal}\n${strict.log.pageErrors.join("\n")}`);

  console.log(`\nunder "${CSP}"`);
  check("the page's policy is the strict one: no 'unsafe-eval', no 'unsafe-inline'", () => {
    const policy = strict.response.headers()["content-security-policy"];
    assert.equal(policy, CSP);
    assert.doesNotMatch(policy, /unsafe-eval|unsafe-inline|wasm-unsafe-eval/);
  });
  check("every response the page received carried the policy, and nothing was missing", () => {
    assert.ok(strict.log.responses.length >= 20, `only ${strict.log.responses.length} responses`);
    assert.deepEqual(strict.log.responses.filter((r) => r.csp !== CSP || r.status >= 400), []);
    assert.deepEqual(strict.log.failedRequests, []);
    assert.deepEqual(strict.log.pageErrors, []);
    for (const needle of ["/dist/index.js", "/dist/validation/cache.js", "/generated/validators.js", "/node_modules/typebox/build/compile/index.mjs", imports["lru-cache"]]) {
      assert.ok(strict.log.responses.some((r) => r.url === origin + needle), `not loaded: ${needle}`);
    }
  });
  check("new Function() and eval() throw EvalError", () => {
    assert.equal(results.newFunction.blocked, true, "new Function was allowed: the page did not run under the CSP");
    assert.match(results.newFunction.error, /^EvalError: .*Content Security Policy/);
    assert.equal(results.indirectEval.blocked, true, "eval was allowed: the page did not run under the CSP");
    assert.match(results.indirectEval.error, /^EvalError: /);
  });
  const evalViolations = results.violations.filter((v) => v.blockedURI === "eval");
  check("each attempt was a reported, enforced CSP violation: ours two, and TypeBox's one probe", () => {
    assert.equal(evalViolations.length, 3, `eval violations: ${JSON.stringify(results.violations, null, 2)}`);
    for (const violation of evalViolations) {
      assert.equal(violation.disposition, "enforce");
      assert.equal(violation.effectiveDirective, "script-src");
      assert.equal(violation.originalPolicy, CSP);
    }
    const samples = evalViolations.map((v) => v.sample);
    assert.ok(samples.some((s) => s.includes("return 1")), `no violation for new Function: ${samples}`);
    assert.ok(samples.some((s) => s.includes("2 + 2")), `no violation for eval: ${samples}`);
    const typeboxProbe = `${origin}/node_modules/typebox/build/system/environment/evaluate.mjs`;
    assert.equal(evalViolations.filter((v) => v.sourceFile === typeboxProbe).length, 1, `TypeBox's probe: ${JSON.stringify(evalViolations, null, 2)}`);
  });
  check("an inline script without the hash was blocked (no 'unsafe-inline')", () => {
    assert.equal(results.inlineCanaryRan, false);
    assert.ok(results.violations.some((v) => v.blockedURI === "inline" && v.disposition === "enforce"));
  });
  check("results are written to the DOM too", () => {
    assert.equal(strict.dom.status, "done");
    assert.deepEqual(JSON.parse(strict.dom.results), results);
  });

  console.log("\nplain registry (TypeBox's interpreter)");
  checkScenario("plain", results.plain, node, { codeGeneration: false, interpreted: 2 });
  console.log("\nnew ToolRegistry({ precompiled: validators })");
  checkScenario("precompiled", results.precompiled, node, { codeGeneration: false, interpreted: 0 });

  // ---- Control: the same page with 'unsafe-eval' -------------------------------------------
  console.log(`\ncontrol: the same page under "${CONTROL_CSP}"`);
  const control = await load("/control.html");
  check("control: eval runs, TypeBox compiles with code generation, same outcomes", () => {
    assert.equal(control.results.fatal, undefined, control.results.fatal);
    assert.equal(control.response.headers()["content-security-policy"], CONTROL_CSP);
    assert.equal(control.results.newFunction.blocked, false);
    assert.equal(control.results.indirectEval.blocked, false);
    assert.deepEqual(control.results.violations.filter((v) => v.blockedURI === "eval"), []);
    assert.equal(control.results.inlineCanaryRan, false);
    for (const mode of ["plain", "precompiled"]) {
      assert.deepEqual(control.results[mode].outcomes, node.outcomes);
      assert.equal(control.results[mode].stats.codeGeneration, true);
      assert.equal(control.results[mode].stats.interpreted, 0);
    }
  });

  check("the server found every file the pages asked for", () => {
    assert.deepEqual(served.notFound, []);
    assert.ok(served.total >= strict.log.responses.length + control.log.responses.length);
  });

  const { stats: plainStats } = results.plain;
  const { stats: precompiledStats } = results.precompiled;
  summary = (
    [
      "",
      `summary: under the CSP, ${evalViolations.length} eval attempts were blocked and reported, and both registries validated:`,
      `  plain registry:       codeGeneration=${plainStats.codeGeneration} interpreted=${plainStats.interpreted} hits=${plainStats.hits} misses=${plainStats.misses}`,
      `  precompiled registry: codeGeneration=${precompiledStats.codeGeneration} interpreted=${precompiledStats.interpreted} hits=${precompiledStats.hits} misses=${precompiledStats.misses}`,
    ].join("\n")
  );
} catch (error) {
  failed++;
  summary = `\nFAIL  ${String(error?.stack ?? error)}`;
} finally {
  if (browser !== undefined) {
    await withTimeout(browser.close(), 10_000, "browser close").catch((error) => {
      console.log(`closing the browser: ${error.message}; killing pid ${browserProcess?.pid}`);
      browserProcess?.kill("SIGKILL");
    });
  }
  server.closeAllConnections();
  await new Promise((closed) => server.close(closed));
  clearTimeout(watchdog);
  finish(summary);
}
