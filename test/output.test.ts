import { describe, expect, it } from "vitest";
import { isToolContent, toolContent, ToolDefinitionError, ToolRegistry, ToolResultValidationError, Type, type ToolContent, type ToolResult, type ToolSuccess } from "../src/index.js";
import { rejectionOf, thrownBy, toolCall } from "./support/fixtures.js";
import { anthropic, gemini, openAIChat, openAIResponses } from "../src/providers/index.js";
import { LONGEST_PROVIDER_NAME } from "../src/text/content-notes.js";

const weatherOutput = Type.Object({ celsius: Type.Number(), city: Type.String() }, { additionalProperties: false });
const weatherTool = { name: "weather", description: "Weather in a city", parameters: Type.Object({ city: Type.String() }), outputSchema: weatherOutput };
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

describe("a tool's outputSchema", () => {
  it("lets a matching result through", async () => {
    const registry = new ToolRegistry().register(weatherTool, ({ city }) => ({ celsius: 21, city }));
    expect(await registry.dispatch(toolCall("weather", { city: "Oslo" }))).toEqual({ celsius: 21, city: "Oslo" });
  });

  it("reports a mismatch as: the tool ran, and its result did not match (pointers, never values)", async () => {
    let runs = 0;
    const registry = new ToolRegistry().register(weatherTool, () => {
      runs++;
      return { celsius: "secret-warm", city: "Oslo", extra: "secret-extra" } as never;
    });
    const error = await rejectionOf(registry.dispatch(toolCall("weather", { city: "Oslo" }, "c1")));
    expect(error).toBeInstanceOf(ToolResultValidationError);
    expect(error).toMatchObject({ toolName: "weather", toolCallId: "c1" });
    const { issues, message } = error as ToolResultValidationError;
    expect(issues.some((issue) => issue.startsWith("/celsius:"))).toBe(true);
    expect(issues.some((issue) => issue.startsWith("/extra:"))).toBe(true);
    expect(message).toContain("ran, but its result did not match its declared output");
    expect(message).toContain("do not call it again");
    expect(message).not.toContain("secret");
    expect(runs).toBe(1);
    const [result] = await registry.dispatchAll([toolCall("weather", { city: "Oslo" })]);
    expect(result?.status === "error" && result.content).toContain("ran, but its result did not match");
  });

  it("checks a rich result's structuredContent, and refuses a rich result without one", async () => {
    const registry = new ToolRegistry()
      .register(weatherTool, ({ city }) => toolContent([{ type: "text", text: "sunny" }], { structuredContent: { celsius: 21, city } }))
      .register({ ...weatherTool, name: "bare" }, () => toolContent([{ type: "text", text: "sunny" }]) as never);
    const value = (await registry.dispatch(toolCall("weather", { city: "Oslo" }))) as ToolContent;
    expect(value.structuredContent).toEqual({ celsius: 21, city: "Oslo" });
    expect(await rejectionOf(registry.dispatch(toolCall("bare", { city: "Oslo" })))).toBeInstanceOf(ToolResultValidationError);
  });

  it("checks the result as the model receives it, its JSON: the same verdict on a run and on a cached replay", async () => {
    class Account {
      readonly #balance = 42;
      get balance(): number {
        return this.#balance;
      }
    }
    const balance = { name: "balance", description: "", parameters: Type.Object({}), outputSchema: Type.Object({ balance: Type.Number() }) };
    const registry = new ToolRegistry()
      .register(balance, () => new Account() as never, { effects: "read-only", cacheTtlMs: 60_000 })
      .register({ ...balance, name: "disguised" }, () => ({ balance: 1, toJSON: () => "other" }) as never)
      .register({ name: "dated", description: "", parameters: Type.Object({}), outputSchema: Type.Object({ at: Type.String() }) }, () => ({ at: new Date(0) }) as never);
    const [first, cached] = await registry.dispatchAll([toolCall("balance", {}, "c1"), toolCall("balance", {}, "c2")]);
    for (const result of [first, cached]) {
      expect(result).toMatchObject({ status: "error", error: { name: "ToolResultValidationError", issues: ["/balance: must have required properties balance"] } });
    }
    expect(await rejectionOf(registry.dispatch(toolCall("disguised", {})))).toBeInstanceOf(ToolResultValidationError);
    expect(await registry.dispatch(toolCall("dated", {}))).toEqual({ at: new Date(0) });
    // Keys inherited from a plain object: the check would read them, JSON does not.
    const inherited = new ToolRegistry().register(balance, () => Object.create({ balance: 42 }) as never);
    expect(await rejectionOf(inherited.dispatch(toolCall("balance", {})))).toBeInstanceOf(ToolResultValidationError);
    // A key that is not enumerable: the check would read it, JSON does not.
    const hidden = new ToolRegistry().register(balance, () => Object.defineProperty({}, "balance", { value: 42, enumerable: false }) as never);
    const [refused] = await hidden.dispatchAll([toolCall("balance", {})]);
    expect(refused).toMatchObject({ status: "error", error: { name: "ToolResultValidationError", issues: ["/balance: must have required properties balance"] } });
  });

  it("takes a result whose proxy throws for a key it does not know as its JSON, in the check and in a provider's message", async () => {
    const strict = <T extends object>(target: T): T => new Proxy(target, { get: (object, key) => { if (key === "then" || key === "toJSON" || key in object) return Reflect.get(object, key); throw new TypeError(`unknown key ${String(key)}`); } });
    const registry = new ToolRegistry()
      .register({ name: "config", description: "", parameters: Type.Object({}) }, () => strict({ region: "eu" }))
      .register({ name: "checked", description: "", parameters: Type.Object({}), outputSchema: Type.Object({ region: Type.String() }) }, () => strict({ region: "eu" }));
    const results = await registry.dispatchAll([toolCall("config", {}, "c1"), toolCall("checked", {}, "c2")]);
    for (const result of results) {
      expect(result.status).toBe("ok");
      expect(openAIChat(registry).result(result)).toEqual({ role: "tool", tool_call_id: result.toolCallId, content: '{"region":"eu"}' });
    }
  });

  it("tells the model a rich result's structuredContent could not be sent, naming its type, rather than dropping it", async () => {
    const registry = new ToolRegistry().register({ name: "report", description: "", parameters: Type.Object({}) }, () =>
      toolContent([{ type: "text", text: "Report:" }], { structuredContent: { total: 3, id: 10n } }),
    );
    const [result] = await registry.dispatchAll([toolCall("report", {}, "c1")]);
    expect(openAIChat(registry).result(result!).content).toBe("Report:\nThe tool returned a value that cannot be sent as JSON (object).");
  });

  it("refuses a result it cannot read (a getter that throws) as one that could not be checked, never with the getter's error", async () => {
    const registry = new ToolRegistry().register(weatherTool, () => Object.defineProperty({ city: "Oslo" }, "celsius", { enumerable: true, get: () => { throw new Error("sensor offline"); } }) as never);
    const error = await rejectionOf(registry.dispatch(toolCall("weather", { city: "Oslo" })));
    expect(error).toBeInstanceOf(ToolResultValidationError);
    expect((error as ToolResultValidationError).issues).toEqual(["/: the result could not be checked against the output schema"]);
  });

  it("must be a sound object schema, checked at register", () => {
    const bad = thrownBy(() => new ToolRegistry().register({ ...weatherTool, outputSchema: { type: "object", properties: { a: { type: "nope" } } } as never }, () => ({}) as never));
    expect(bad).toBeInstanceOf(ToolDefinitionError);
    expect(thrownBy(() => new ToolRegistry().register({ ...weatherTool, outputSchema: Type.String() as never }, () => ({}) as never))).toBeInstanceOf(ToolDefinitionError);
  });

  it("is kept in the registered definition as a frozen snapshot", () => {
    const output = { type: "object", properties: { n: { type: "number" } } };
    const registry = new ToolRegistry().register({ name: "n", description: "", parameters: Type.Object({}), outputSchema: output as never }, () => ({ n: 1 }) as never);
    output.properties.n.type = "string";
    expect(registry.get("n")?.outputSchema).toEqual({ type: "object", properties: { n: { type: "number" } } });
  });
});

describe("toolContent", () => {
  it("makes a frozen rich result that isToolContent recognises", () => {
    const content = toolContent([{ type: "text", text: "hi" }, { type: "image", data: PNG, mimeType: "image/png" }]);
    expect(isToolContent(content)).toBe(true);
    expect(isToolContent({ content: [] })).toBe(false);
    expect(Object.isFrozen(content) && Object.isFrozen(content.content) && Object.isFrozen(content.content[1])).toBe(true);
  });

  it.each([
    ["an item with an unknown type", [{ type: "video", data: PNG }]],
    ["an image with a data: URL", [{ type: "image", data: `data:image/png;base64,${PNG}`, mimeType: "image/png" }]],
    ["an image without a media type", [{ type: "image", data: PNG }]],
    ["text that is not a string", [{ type: "text", text: 42 }]],
    ["a resource with neither text nor blob", [{ type: "resource", resource: { uri: "file:///a" } }]],
    ["an image whose base64 is not padded to whole quanta", [{ type: "image", data: "iVBORw0", mimeType: "image/png" }]],
    ["an image with padding inside its base64", [{ type: "image", data: "iV==RW0K", mimeType: "image/png" }]],
    ["an image with three padding characters", [{ type: "image", data: "A===", mimeType: "image/png" }]],
  ])("refuses %s with a TypeError that does not quote the data", (_, items) => {
    const error = thrownBy(() => toolContent(items as never));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).not.toContain(PNG.slice(0, 20));
  });
});

describe("toolContent, given large base64", () => {
  it("takes an image of 6 MB (its base64 was tested by a pattern that ran out of stack past 3.35 MB), padded or not", () => {
    const data = Buffer.alloc(6_000_000, 7).toString("base64");
    expect(toolContent([{ type: "image", data, mimeType: "image/png" }]).content[0]).toMatchObject({ type: "image", mimeType: "image/png" });
    const padded = Buffer.alloc(6_000_001, 7).toString("base64");
    expect(padded.endsWith("==")).toBe(true);
    expect(toolContent([{ type: "resource", resource: { uri: "file:///a.bin", blob: padded } }]).content).toHaveLength(1);
  });
});

describe("maxResultBytes", () => {
  const echo = { name: "echo", description: "Echo", parameters: Type.Object({ text: Type.String() }) };

  const bytesOf = (text: string) => new TextEncoder().encode(text).length;

  it("cuts a larger result to the limit, its notice included, and marks the result truncated", async () => {
    const registry = new ToolRegistry({ maxResultBytes: 1_000 }).register(echo, ({ text }) => text);
    const [cut, whole] = await registry.dispatchAll([toolCall("echo", { text: "x".repeat(10_000) }, "a"), toolCall("echo", { text: "short" }, "b")]);
    expect(cut).toMatchObject({ status: "ok", truncated: true });
    const value = (cut as ToolSuccess).value as string;
    expect(bytesOf(value)).toBe(1_000);
    expect(value).toMatch(/^x+\n\[Result cut to 1000 of its 10000 bytes\. Ask for less \(a narrower query, one page\) to see the rest\.\]$/);
    expect(whole).toEqual({ status: "ok", toolCallId: "b", toolName: "echo", isError: false, value: "short" });
  });

  it("shortens the notice where the full one would take more than half of a small limit", async () => {
    const registry = new ToolRegistry({ maxResultBytes: 100 }).register(echo, ({ text }) => text);
    const value = (await registry.dispatch(toolCall("echo", { text: "x".repeat(1_000) }))) as string;
    expect(value).toBe(`${"x".repeat(61)}\n[Result cut to 100 of its 1000 bytes.]`);
  });

  it("counts UTF-8 bytes and never splits a character", async () => {
    const registry = new ToolRegistry({ maxResultBytes: 13 }).register(echo, ({ text }) => text);
    // 14 bytes, 7 of room before "\n[cut]": é (2) and one emoji (4) fit; the next emoji would end at byte 10.
    expect(await registry.dispatch(toolCall("echo", { text: "é😀😀😀" }))).toBe("é😀\n[cut]");
  });

  it("cuts the JSON text of an object result", async () => {
    const registry = new ToolRegistry({ maxResultBytes: 12 }).register(echo, ({ text }) => ({ text }));
    expect(await registry.dispatch(toolCall("echo", { text: "abcdefghijkl" }))).toBe('{"text\n[cut]');
  });

  it("per tool overrides the registry's, and Infinity lifts it; a limit too small for any notice keeps the text alone", async () => {
    const registry = new ToolRegistry({ maxResultBytes: 5 })
      .register(echo, ({ text }) => text, { maxResultBytes: Infinity })
      .register({ ...echo, name: "tight" }, ({ text }) => text, { maxResultBytes: 2 });
    expect(await registry.dispatch(toolCall("echo", { text: "abcdefgh" }))).toBe("abcdefgh");
    const [tight] = await registry.dispatchAll([toolCall("tight", { text: "abcdefgh" })]);
    expect(tight).toMatchObject({ value: "ab", truncated: true });
  });

  const imageNote = "[An image (image/png) of this result was left out: OpenAI Chat Completions does not take it in a tool result.]";
  const imageFollows = "[1 image of this result follows in the next user message.]";

  it("keeps a rich result's items in order while they fit, within the limit, and leaves out an image that does not", async () => {
    const registry = new ToolRegistry({ maxResultBytes: 200 }).register(echo, () =>
      toolContent([{ type: "text", text: "0123456789" }, { type: "image", data: PNG, mimeType: "image/png" }, { type: "text", text: "tail" }, { type: "text", text: "x".repeat(200) }]),
    );
    const [result] = await registry.dispatchAll([toolCall("echo", { text: "" })]);
    expect(result).toMatchObject({ truncated: true });
    const texts = ((result as ToolSuccess).value as ToolContent).content.map((item) => (item.type === "text" ? item.text : item.type));
    expect(texts).toEqual([
      "0123456789",
      "[an image (image/png) left out: the result is over its size limit]",
      "tail",
      expect.stringMatching(/^x+$/),
      // The four items (the image as the longer of its data and the note an adapter may send for it),
      // the three newlines between them, and the line Chat Completions adds for an image that follows.
      `[Result cut to 200 of its ${10 + Math.max(PNG.length, bytesOf(imageNote)) + 4 + 200 + 3 + bytesOf(imageFollows) + 1} bytes. Ask for less (a narrower query, one page) to see the rest.]`,
    ]);
    expect(texts.reduce((sum, text) => sum + bytesOf(text), 0) + texts.length - 1).toBe(200);
  });

  it("counts a rich result's structuredContent as the text the adapters send for it, and a cut result keeps none", async () => {
    const structuredContent = { rows: "y".repeat(400) };
    const registry = new ToolRegistry({ maxResultBytes: 300 }).register(echo, () => toolContent([{ type: "text", text: "summary" }], { structuredContent }));
    const [result] = await registry.dispatchAll([toolCall("echo", { text: "" })]);
    expect(result).toMatchObject({ truncated: true });
    const value = (result as ToolSuccess).value as ToolContent;
    expect("structuredContent" in value).toBe(false);
    const sent = openAIChat(registry).result(result!);
    expect(bytesOf(sent.content as string)).toBeLessThanOrEqual(300);
  });

  /** The text each provider's tool-result message holds for `result`, its text parts joined by newlines. */
  const messageTexts = (registry: ToolRegistry, result: ToolResult): Record<string, string> => {
    const texts = (parts: unknown): string => (Array.isArray(parts) ? parts.flatMap((part: { text?: unknown }) => (typeof part.text === "string" ? [part.text] : [])).join("\n") : String(parts ?? ""));
    return {
      chat: openAIChat(registry).result(result).content,
      responses: texts(openAIResponses(registry).result(result).output),
      anthropic: texts(anthropic(registry).result(result).content),
      gemini: String((gemini(registry).result(result).functionResponse.response as { output?: unknown }).output ?? ""),
    };
  };

  it.each([
    ["100 audio items an adapter replaces by notes", 1_000, Array.from({ length: 100 }, () => ({ type: "audio" as const, data: "AAAA", mimeType: "audio/wav" }))],
    ["an image of a type no adapter takes", 50, [{ type: "image" as const, data: "AAAA", mimeType: "image/svg+xml" }]],
    ["a binary resource", 60, [{ type: "resource" as const, resource: { uri: "file:///a.bin", mimeType: "application/octet-stream", blob: "AAAA" } }]],
  ])("keeps every provider's message within the limit for %s, counting the notes sent in their place", async (_label, maxResultBytes, items) => {
    const registry = new ToolRegistry({ maxResultBytes }).register(echo, () => toolContent(items));
    const [result] = await registry.dispatchAll([toolCall("echo", { text: "" })]);
    expect(result).toMatchObject({ truncated: true });
    for (const [provider, text] of Object.entries(messageTexts(registry, result!))) expect({ provider, bytes: bytesOf(text) <= maxResultBytes }).toEqual({ provider, bytes: true });
  });

  it("cuts a text resource that crosses the limit as the text it is sent as, rather than leaving it out", async () => {
    const registry = new ToolRegistry({ maxResultBytes: 300 }).register(echo, () => toolContent([{ type: "resource", resource: { uri: "file:///notes.txt", mimeType: "text/plain", text: "n".repeat(1_200) } }]));
    const [result] = await registry.dispatchAll([toolCall("echo", { text: "" })]);
    const texts = ((result as ToolSuccess).value as ToolContent).content.map((item) => (item.type === "text" ? item.text : item.type));
    expect(texts).toEqual([expect.stringMatching(/^n{100,}$/), "[Result cut to 300 of its 1200 bytes. Ask for less (a narrower query, one page) to see the rest.]"]);
    expect(texts.reduce((sum, text) => sum + bytesOf(text), 0) + texts.length - 1).toBe(300);
  });

  it("sizes notes with the longest name of a provider that writes them", () => {
    const registry = new ToolRegistry();
    for (const adapter of [openAIChat(registry), openAIResponses(registry), anthropic(registry), gemini(registry)]) expect(adapter.provider.length).toBeLessThanOrEqual(LONGEST_PROVIDER_NAME.length);
  });
});

describe("an unsound outputSchema", () => {
  it("is named as the output schema in the error and its problems", () => {
    const error = thrownBy(() => new ToolRegistry().register({ ...weatherTool, outputSchema: { type: "object", properties: { a: { type: "nope" } } } as never }, () => ({}) as never));
    expect((error as Error).message).toContain("its outputSchema is invalid at /properties/a");
    expect((error as Error).message).not.toContain("parameters");
    expect((error as ToolDefinitionError).problems.every((problem) => problem.schema === "outputSchema")).toBe(true);
  });
});
