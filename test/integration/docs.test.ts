import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { precompileValidators, ToolArgumentsValidationError, validateToolArguments } from "../../src/index.js";
import { corpusDirectory } from "../support/corpus.js";
import { demand, type RecordedRequest, type ReplyTo, startReplayServer } from "../fixtures/providers/replay-server.js";

// The documentation's TypeScript: every `ts` block of README.md and docs/*.md is a file of its own
// (so a block cannot borrow names from another), type-checked under strict settings against the
// built package (reached by its own name: the temporary project lies inside this package) and the
// real SDK types, then run where it is a program.
const root = resolve(import.meta.dirname, "..", "..");
const documents = ["README.md", ...readdirSync(join(root, "docs")).filter((file) => file.endsWith(".md")).map((file) => `docs/${file}`)];

interface Block {
  /** `README.md:42`: the document and the line of the opening fence. */
  readonly name: string;
  readonly file: string;
  readonly code: string;
}

function blocksOf(document: string): Block[] {
  const lines = readFileSync(join(root, document), "utf8").split("\n");
  const blocks: Block[] = [];
  for (let index = 0; index < lines.length; index++) {
    const fence = /^```(\S*)/.exec(lines[index]!);
    if (fence === null) continue;
    const start = index;
    const body: string[] = [];
    while (++index < lines.length && lines[index] !== "```") body.push(lines[index]!);
    if (fence[1] !== "ts") continue;
    const file = `${document.replace(/[^A-Za-z0-9]+/g, "_")}_L${start + 1}.ts`;
    blocks.push({ name: `${document}:${start + 1}`, file, code: `${body.join("\n")}\n` });
  }
  return blocks;
}

const blocks = documents.flatMap(blocksOf);
let folder: string;
const diagnostics = new Map<string, string[]>();

beforeAll(() => {
  mkdirSync(join(root, ".test-tmp"), { recursive: true });
  folder = mkdtempSync(join(root, ".test-tmp", "docs-"));
  mkdirSync(join(folder, "blocks"));
  for (const block of blocks) writeFileSync(join(folder, "blocks", block.file), block.code);
  // What a block that imports generated validators finds: the module precompileValidators writes for no schemas.
  writeFileSync(join(folder, "blocks", "validators.generated.ts"), precompileValidators([]));
  writeFileSync(
    join(folder, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        lib: ["ES2023", "DOM"],
        types: ["node"],
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        skipLibCheck: true,
        rootDir: "blocks",
        outDir: "out",
      },
      include: ["blocks"],
    }),
  );
  // One run for every block: the native tsc of typescript@7, emitting JavaScript to run.
  const tsc = spawnSync(join(root, "node_modules", ".bin", "tsc"), ["-p", "tsconfig.json"], { cwd: folder, encoding: "utf8" });
  for (const line of tsc.stdout.split("\n")) {
    const match = /^blocks\/([^(]+)\((\d+),\d+\): (error .*)$/.exec(line);
    if (match === null) continue;
    const [, file, row, message] = match;
    diagnostics.set(file!, [...(diagnostics.get(file!) ?? []), `line ${row}: ${message}`]);
  }
  if (tsc.status !== 0 && diagnostics.size === 0) throw new Error(`tsc failed without diagnostics:\n${tsc.stdout}${tsc.stderr}`);
  // What the programs read and write: the quick start's notes.txt; src/, where the precompile step writes.
  writeFileSync(join(folder, "notes.txt"), 'Ship "v2" on Friday.\n');
  mkdirSync(join(folder, "src"));
}, 120_000);

afterAll(() => rmSync(folder, { recursive: true, force: true }));

function blockWith(document: string, marker: string): Block {
  const found = blocks.filter((block) => block.name.startsWith(`${document}:`) && block.code.includes(marker));
  if (found.length !== 1) throw new Error(`expected one block of ${document} containing ${marker}, found ${found.length}`);
  return found[0]!;
}

const script = (block: Block) => join(folder, "out", block.file.replace(/\.ts$/, ".js"));

/** Runs a block to its end; resolves with its stdout, or rejects with its stderr. */
function runToEnd(block: Block, env: Record<string, string> = {}, cwd = folder): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [script(block)], { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill(), 30_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0) resolvePromise(stdout);
      else reject(new Error(`${block.name} exited with ${code}:\n${stderr}`));
    });
  });
}

describe("README.md", () => {
  const readme = readFileSync(join(root, "README.md"), "utf8");

  it("is at most 15 KB", () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(15 * 1024);
  });

  it("opens as a front door: what it is, install, set-up, quick start, strictness, subpaths, errors, benchmark", () => {
    const headings = readme.split("\n").filter((line) => line.startsWith("## "));
    expect(headings.slice(0, 5)).toEqual(["## Quick start", "## Strict, and errors for two readers", "## Subpaths", "## Errors", "## Benchmark"]);
    const order = ["npm install typebox-tool-registry", "npm ci && npm run bench", "npm test", "## Quick start"].map((text) => readme.indexOf(text));
    expect(order.every((position, index) => position > 0 && (index === 0 || position > order[index - 1]!))).toBe(true);
  });

  it("has a table for every subpath the package exports, linking to its page", () => {
    const exports = Object.keys((JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports: Record<string, unknown> }).exports);
    for (const subpath of exports.filter((path) => path !== "./package.json")) {
      const name = subpath === "." ? "typebox-tool-registry" : `typebox-tool-registry/${subpath.slice(2)}`;
      const heading = new RegExp(`^### \`${name}\`: \\[docs/(\\w+)\\.md\\]\\(docs/\\1\\.md\\)$`, "m").exec(readme);
      expect(heading, name).not.toBeNull();
      expect(existsSync(join(root, "docs", `${heading![1]}.md`))).toBe(true);
    }
  });

  it("shows a benchmark table and the command that made it", () => {
    const benchmark = readme.slice(readme.indexOf("## Benchmark"));
    expect(benchmark).toMatch(/`npm run bench( -- --check)?`/);
    expect(benchmark).toMatch(/\n\| .+ \|\n\| ---/);
  });
});

describe("the documentation", () => {
  it("writes TypeScript only in ts blocks, so that the test below sees all of it", () => {
    for (const document of documents) expect(readFileSync(join(root, document), "utf8")).not.toMatch(/^```(typescript|tsx|mts|cts)\b/m);
    expect(blocks.length).toBeGreaterThan(15);
  });

  it("uses no history words", () => {
    for (const document of [...documents, "CONTRIBUTING.md", "CHANGELOG.md"]) {
      expect(readFileSync(join(root, document), "utf8"), document).not.toMatch(/\bthe (seed|issue|contract)\b/i);
    }
  });

  it("quotes the line that ends a capped issue list as the library writes it, and never says it counts the rest", () => {
    const closed = { name: "closed", description: "", parameters: { type: "object", properties: {}, additionalProperties: false } };
    let lastIssue: string | undefined;
    try {
      validateToolArguments(closed, Object.fromEntries(Array.from({ length: 25 }, (_, index) => [`k${index}`, 1])));
    } catch (error) {
      lastIssue = (error as ToolArgumentsValidationError).issues.at(-1);
    }
    expect(lastIssue).toBe("/: more issues not shown");
    for (const document of ["docs/registry.md", "docs/security.md"]) expect(readFileSync(join(root, document), "utf8"), document).toContain(lastIssue);
    for (const document of documents) expect(readFileSync(join(root, document), "utf8"), document).not.toMatch(/counts the rest/);
  });

  it.each(blocks.map((block) => [block.name, block] as const))("%s compiles on its own", (_name, block) => {
    expect(diagnostics.get(block.file) ?? []).toEqual([]);
  });
});

/** The OpenAI Chat Completions object for an assistant turn: tool calls, or a final text. */
function chatCompletion(message: Record<string, unknown>): { json: unknown } {
  const toolCalls = message.tool_calls !== undefined;
  return {
    json: {
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 1_700_000_000,
      model: "gpt-4.1-2025-04-14",
      choices: [{ index: 0, message: { role: "assistant", content: null, refusal: null, annotations: [], ...message }, logprobs: null, finish_reason: toolCalls ? "tool_calls" : "stop" }],
      usage: { prompt_tokens: 80, completion_tokens: 40, total_tokens: 120 },
    },
  };
}

const toolMessages = (request: RecordedRequest) => (request.body as { messages: Array<Record<string, unknown>> }).messages.filter((message) => message.role === "tool");

describe("the documentation's programs, run", () => {
  it("README quick start: reads the file the model asks for, sends its text as it is (not JSON-encoded), prints the final answer", async () => {
    const replies: ReplyTo[] = [
      (request) => {
        const tools = (request.body as { tools: Array<{ function: { name: string } }> }).tools;
        demand(tools.map((tool) => tool.function.name).join() === "read_file", "the read_file tool must be sent");
        return chatCompletion({ tool_calls: [{ id: "call_1", type: "function", function: { name: "read_file", arguments: '{"path":"notes.txt"}' } }] });
      },
      (request) => {
        demand(toolMessages(request)[0]?.content === 'Ship "v2" on Friday.\n', "the file's text must be sent as it is");
        return chatCompletion({ content: "Ship v2 on Friday." });
      },
    ];
    const server = await startReplayServer(replies);
    try {
      const stdout = await runToEnd(blockWith("README.md", "chat.completions.create"), { OPENAI_API_KEY: "test", OPENAI_BASE_URL: `${server.origin}/v1` });
      expect(stdout).toBe("Ship v2 on Friday.\n");
      expect(server.requests).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  const weatherResult = JSON.stringify({ city: "Paris", celsius: 21 });

  it("docs/providers.md, OpenAI Chat Completions: sends weather_current, answers the call, prints the final answer", async () => {
    const server = await startReplayServer([
      (request) => {
        demand((request.body as { tools: Array<{ function: { name: string } }> }).tools[0]?.function.name === "weather_current", "the mapped name must be sent");
        return chatCompletion({ tool_calls: [{ id: "call_1", type: "function", function: { name: "weather_current", arguments: '{"city":"Paris"}' } }] });
      },
      (request) => {
        demand(toolMessages(request)[0]?.content === weatherResult, "the result must be the value's JSON");
        return chatCompletion({ content: "21 °C in Paris." });
      },
    ]);
    try {
      expect(await runToEnd(blockWith("docs/providers.md", "chat.completions.create"), { OPENAI_API_KEY: "test", OPENAI_BASE_URL: `${server.origin}/v1` })).toBe("21 °C in Paris.\n");
    } finally {
      await server.close();
    }
  });

  it("docs/streaming.md, a streamed loop: runs the call as it streams, answers it, prints the final answer as it streams", async () => {
    const chunk = (delta: unknown, finishReason: string | null = null) => ({
      data: { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1_700_000_000, model: "gpt-4.1", choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] },
    });
    const server = await startReplayServer([
      () => ({
        events: [
          chunk({ role: "assistant", content: null }),
          chunk({ tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "weather_current", arguments: '{"ci' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: 'ty":"Paris"}' } }] }),
          chunk({}, "tool_calls"),
          { data: "[DONE]" },
        ],
      }),
      (request) => {
        demand(toolMessages(request)[0]?.content === weatherResult, "the result must be the value's JSON");
        const assistant = (request.body as { messages: Array<Record<string, unknown>> }).messages.find((message) => message.role === "assistant") as { tool_calls?: unknown[] } | undefined;
        demand(assistant?.tool_calls?.length === 1, "the streamed assistant message must be sent back with its call");
        return { events: [chunk({ role: "assistant", content: "21 °C " }), chunk({ content: "in Paris." }), chunk({}, "stop"), { data: "[DONE]" }] };
      },
    ]);
    try {
      expect(await runToEnd(blockWith("docs/streaming.md", "chat.completions.stream"), { OPENAI_API_KEY: "test", OPENAI_BASE_URL: `${server.origin}/v1` })).toBe("21 °C in Paris.\n");
    } finally {
      await server.close();
    }
  });

  it("docs/streaming.md, onInvalid: \"abort\": stops the model's stream at the first certain problem, and ends without throwing", async () => {
    const event = (type: string, body: Record<string, unknown> = {}) => ({ event: type, data: { type, ...body } });
    const usage = { input_tokens: 10, output_tokens: 10 };
    const server = await startReplayServer([
      () => ({
        events: [
          event("message_start", { message: { id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-6", content: [], stop_reason: null, stop_sequence: null, usage } }),
          event("content_block_start", { index: 0, content_block: { type: "tool_use", id: "toolu_1", name: "write_file", input: {} } }),
          event("content_block_delta", { index: 0, delta: { type: "input_json_delta", partial_json: '{"path":"notes.md","mode":' } }),
          // A model that would go on for a long time: the abort must stop it.
          { ...event("content_block_delta", { index: 0, delta: { type: "input_json_delta", partial_json: '"x"' } }), delayMs: 5_000 },
        ],
      }),
    ]);
    try {
      const started = Date.now();
      await runToEnd(blockWith("docs/streaming.md", 'onInvalid: "abort"'), { ANTHROPIC_API_KEY: "test", ANTHROPIC_BASE_URL: server.origin });
      expect(Date.now() - started).toBeLessThan(4_000);
    } finally {
      await server.close();
    }
  });

  it("docs/providers.md, OpenAI Responses: answers the call by call_id, prints the final answer", async () => {
    const response = (output: unknown[]) => ({
      json: { id: "resp_1", object: "response", created_at: 1_741_476_542, status: "completed", error: null, incomplete_details: null, model: "gpt-4.1", output, parallel_tool_calls: true, tool_choice: "auto", tools: [] },
    });
    const server = await startReplayServer([
      () => response([{ type: "function_call", id: "fc_1", call_id: "call_a", name: "weather_current", arguments: '{"city":"Paris"}', status: "completed" }]),
      (request) => {
        const output = (request.body as { input: Array<Record<string, unknown>> }).input.find((item) => item.type === "function_call_output");
        demand(output?.call_id === "call_a" && output.output === weatherResult, "the output must answer call_a with the value's JSON");
        return response([{ type: "message", id: "msg_1", status: "completed", role: "assistant", content: [{ type: "output_text", text: "21 °C in Paris.", annotations: [] }] }]);
      },
    ]);
    try {
      expect(await runToEnd(blockWith("docs/providers.md", "responses.create"), { OPENAI_API_KEY: "test", OPENAI_BASE_URL: `${server.origin}/v1` })).toBe("21 °C in Paris.\n");
    } finally {
      await server.close();
    }
  });

  it("docs/providers.md, Anthropic: answers the tool_use block, prints the final answer", async () => {
    const usage = { input_tokens: 100, output_tokens: 20 };
    const message = (content: unknown[], stop: string) => ({ json: { id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-6", content, stop_reason: stop, stop_sequence: null, usage } });
    const server = await startReplayServer([
      () => message([{ type: "tool_use", id: "toolu_1", name: "weather_current", input: { city: "Paris" } }], "tool_use"),
      (request) => {
        const last = (request.body as { messages: Array<{ content: Array<Record<string, unknown>> }> }).messages.at(-1);
        demand(last?.content[0]?.tool_use_id === "toolu_1" && last.content[0].content === weatherResult, "the tool_result must answer toolu_1 with the value's JSON");
        return message([{ type: "text", text: "21 °C in Paris.", citations: null }], "end_turn");
      },
    ]);
    try {
      expect(await runToEnd(blockWith("docs/providers.md", "client.messages.create"), { ANTHROPIC_API_KEY: "test", ANTHROPIC_BASE_URL: server.origin })).toBe("21 °C in Paris.\n");
    } finally {
      await server.close();
    }
  });

  it("docs/providers.md, Gemini: answers the functionCall with a functionResponse, prints the final answer", async () => {
    const candidate = (parts: unknown[]) => ({ json: { candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }] } });
    const server = await startReplayServer([
      () => candidate([{ functionCall: { name: "weather_current", args: { city: "Paris" } } }]),
      (request) => {
        const contents = (request.body as { contents: Array<{ role: string; parts: Array<Record<string, unknown>> }> }).contents;
        const response = contents.at(-1)?.parts[0]?.functionResponse as { name?: string; response?: unknown } | undefined;
        demand(response?.name === "weather_current" && JSON.stringify(response.response) === JSON.stringify({ output: { city: "Paris", celsius: 21 } }), "the functionResponse must answer weather_current");
        return candidate([{ text: "21 °C in Paris." }]);
      },
    ]);
    try {
      expect(await runToEnd(blockWith("docs/providers.md", "generateContent"), { GEMINI_API_KEY: "test", GOOGLE_GEMINI_BASE_URL: server.origin })).toBe("21 °C in Paris.\n");
    } finally {
      await server.close();
    }
  });

  it("docs/providers.md, BFCL: gives each entry its own registry, so a name used by many entries registers in each", async () => {
    const bfcl = blockWith("docs/bfcl.md", "fromBfclFunction(fn)");
    const cwd = mkdtempSync(join(folder, "bfcl-"));
    // The project's own BFCL-dialect lines, one function named in two entries (as the real file names 27).
    const fn = { name: "calculate_area", description: "Area", parameters: { type: "dict", properties: { base: { type: "integer" } }, required: ["base"] } };
    const lines = ["a", "b"].map((id) => JSON.stringify({ id, question: [[{ role: "user", content: "area?" }]], function: [fn] }));
    writeFileSync(join(cwd, "BFCL_v4_simple_python.json"), `${lines.join("\n")}\n`);
    expect(await runToEnd(bfcl, {}, cwd)).toBe("2 entries, 2 functions\n");
    const corpus = corpusDirectory("bfcl");
    if (corpus !== undefined) {
      const real = mkdtempSync(join(folder, "bfcl-corpus-"));
      symlinkSync(join(corpus, "BFCL_v4_simple_python.json"), join(real, "BFCL_v4_simple_python.json"));
      expect(await runToEnd(bfcl, {}, real)).toBe("400 entries, 400 functions\n");
    }
  });

  it.each([
    ["stateless", "new StreamableHTTPServerTransport()"],
    ["stateful", "sessionIdGenerator"],
  ])("docs/mcp.md, %s Streamable HTTP: the SDK's HTTP client lists and calls the served tools", async (_mode, marker) => {
    const { child, url } = await serve(blockWith("docs/mcp.md", marker));
    try {
      const client = new Client({ name: "docs-test", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(url));
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["add"]);
      expect(await client.callTool({ name: "add", arguments: { a: 2, b: 3 } })).toEqual({ content: [{ type: "text", text: "5" }] });
      await client.close();
    } finally {
      child.kill();
    }
  });

  it("docs/mcp.md, a client of that server: registers its tools with a prefix", async () => {
    const { child, url } = await serve(blockWith("docs/mcp.md", "sessionIdGenerator"));
    const agent = spawn(process.execPath, [script(blockWith("docs/mcp.md", "registerMcpTools"))], { cwd: folder, env: { ...process.env, MCP_URL: url.href } });
    try {
      // The agent keeps its connection open, waiting for list changes: read its first line.
      const line = await new Promise<string>((resolveLine, reject) => {
        let stdout = "";
        let stderr = "";
        agent.stdout.on("data", (chunk: Buffer) => {
          stdout += chunk.toString();
          if (stdout.includes("\n")) resolveLine(stdout.split("\n")[0]!);
        });
        agent.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
        agent.on("exit", (code) => reject(new Error(`the agent exited with ${code}:\n${stderr}`)));
      });
      expect(line).toBe("[ 'calc.add' ]");
    } finally {
      agent.kill();
      child.kill();
    }
  });

  // Every other block that declares nothing it does not define runs to its end without an error.
  const special = ["chat.completions.create", "chat.completions.stream", "onInvalid: \"abort\"", "responses.create", "client.messages.create", "generateContent", "fromBfclFunction(fn)", "listen(Number", "registerMcpTools"];
  const plain = blocks.filter((block) => !/^declare /m.test(block.code) && !special.some((marker) => block.code.includes(marker)));
  it.each(plain.map((block) => [block.name, block] as const))("%s runs to its end", async (_name, block) => {
    await runToEnd(block);
  });
});

/** Starts a server block on a free port of 127.0.0.1 and waits until it answers. */
async function serve(block: Block): Promise<{ child: ChildProcess; url: URL }> {
  const port = await freePort();
  const child = spawn(process.execPath, [script(block)], { cwd: folder, env: { ...process.env, PORT: String(port) }, stdio: "ignore" });
  const url = new URL(`http://127.0.0.1:${port}/mcp`);
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) throw new Error(`${block.name} exited with ${child.exitCode}`);
    const answered = await fetch(url, { method: "DELETE" }).then(
      () => true,
      () => false,
    );
    if (answered) return { child, url };
    await new Promise((resolveWait) => setTimeout(resolveWait, 50));
  }
  child.kill();
  throw new Error(`${block.name} did not listen on ${url.href}`);
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolvePort(port));
    });
  });
}

