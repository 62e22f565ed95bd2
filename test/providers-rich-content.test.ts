import { describe, expect, it } from "vitest";
import { ToolRegistry, type ContentItem, type ToolResult } from "../src/index.js";
import { anthropic, gemini, openAIChat, openAIResponses } from "../src/providers/index.js";
import { PDF, PNG, richResult, WAV } from "./fixtures/providers/rich.js";
import { thrownBy } from "./support/fixtures.js";

const registry = new ToolRegistry();
const claude = anthropic(registry);
const responses = openAIResponses(registry);
const chat = openAIChat(registry);
const google = gemini(registry);

const text = (value: string): ContentItem => ({ type: "text", text: value });
const png: ContentItem = { type: "image", data: PNG, mimeType: "image/png" };
const svg: ContentItem = { type: "image", data: PNG, mimeType: "image/svg+xml" };
const wav: ContentItem = { type: "audio", data: WAV, mimeType: "audio/wav" };
const pdf: ContentItem = { type: "resource", resource: { uri: "file:///reports/q3.pdf?v=2", mimeType: "application/pdf", blob: PDF } };
const zip: ContentItem = { type: "resource", resource: { uri: "file:///a.zip", mimeType: "application/zip", blob: PDF } };
const notes: ContentItem = { type: "resource", resource: { uri: "file:///notes.md", mimeType: "text/markdown", text: "# Notes" } };

const leftOut = (what: string, provider: string) => `[${what} of this result was left out: ${provider} does not take it in a tool result.]`;

describe("rich results for Anthropic", () => {
  it("sends a PDF resource as a document block named by its URI, and a text resource as its text", () => {
    expect(claude.result(richResult([pdf, notes])).content).toEqual([
      { type: "document", source: { type: "base64", media_type: "application/pdf", data: PDF }, title: "q3.pdf" },
      { type: "text", text: "# Notes" },
    ]);
  });

  it("says in text that audio, an SVG image and a zip file were left out, naming their types and never their data", () => {
    const content = claude.result(richResult([wav, svg, zip])).content;
    expect(content).toEqual([
      { type: "text", text: leftOut("An audio item (audio/wav)", "Anthropic") },
      { type: "text", text: leftOut("An image (image/svg+xml)", "Anthropic") },
      { type: "text", text: leftOut("A resource (application/zip)", "Anthropic") },
    ]);
    expect(JSON.stringify(content)).not.toContain(PDF);
  });

  it("adds the structured value's JSON as a text block, unless a text item already holds it", () => {
    expect(claude.result(richResult([png], { structuredContent: { width: 1 } })).content).toEqual([
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
      { type: "text", text: '{"width":1}' },
    ]);
    expect(claude.result(richResult([text('{"width":1}'), png], { structuredContent: { width: 1 } })).content).toHaveLength(2);
  });

  it("leaves content out for no items or only empty text (Anthropic refuses empty text blocks)", () => {
    expect(claude.result(richResult([]))).toEqual({ type: "tool_result", tool_use_id: "call_1" });
    expect(claude.result(richResult([text("")]))).toEqual({ type: "tool_result", tool_use_id: "call_1" });
  });
});

describe("rich results for OpenAI Responses", () => {
  it("sends a PDF resource as an input_file with a data: URL and a file name, and audio as text saying it was left out", () => {
    expect(responses.result(richResult([pdf, wav])).output).toEqual([
      { type: "input_file", file_data: `data:application/pdf;base64,${PDF}`, filename: "q3.pdf" },
      { type: "input_text", text: leftOut("An audio item (audio/wav)", "OpenAI Responses") },
    ]);
  });

  it("names a PDF whose URI ends in no file name document.pdf", () => {
    const unnamed: ContentItem = { type: "resource", resource: { uri: "https://example.com/", mimeType: "application/pdf", blob: PDF } };
    expect(responses.result(richResult([unnamed])).output).toEqual([{ type: "input_file", file_data: `data:application/pdf;base64,${PDF}`, filename: "document.pdf" }]);
  });

  it("sends an empty output for a toolContent with no items", () => {
    expect(responses.result(richResult([])).output).toBe("");
  });
});

describe("rich results for Gemini", () => {
  it("sends the text items joined as output, and images and PDFs as inlineData parts in order", () => {
    expect(google.result(richResult([text("Two pages:"), png, pdf, text("end")])).functionResponse).toEqual({
      id: "call_1",
      name: "screenshot",
      response: { output: "Two pages:\nend" },
      parts: [{ inlineData: { mimeType: "image/png", data: PNG } }, { inlineData: { mimeType: "application/pdf", data: PDF } }],
    });
  });

  it("sends no parts when nothing but text remains, and says audio was left out", () => {
    expect(google.result(richResult([wav])).functionResponse).toEqual({ id: "call_1", name: "screenshot", response: { output: leftOut("An audio item (audio/wav)", "Gemini") } });
  });
});

describe("rich results for OpenAI Chat Completions", () => {
  it("keeps a text-only toolContent as plain text, with no line about attachments", () => {
    expect(chat.result(richResult([text("a"), text("b")])).content).toBe("a\nb");
    expect(chat.followUp([richResult([text("a")])])).toEqual([]);
  });

  it("counts the images and documents that follow, and puts them in one user message after a line naming each call", () => {
    const first = richResult([png, pdf], {}, "call_1");
    const second = richResult([text("chart:"), png], {}, "call_2");
    const failed: ToolResult = { status: "error", toolCallId: "call_3", toolName: "t", isError: true, error: new Error("x"), content: "failed" };
    expect(chat.result(first).content).toBe("[1 image and 1 PDF document of this result follow in the next user message.]");
    expect(chat.result(second).content).toBe("chart:\n[1 image of this result follows in the next user message.]");
    expect(chat.followUp([first, failed, second])).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: '[The images and documents of the result of tool call "call_1":]' },
          { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
          { type: "file", file: { file_data: `data:application/pdf;base64,${PDF}`, filename: "q3.pdf" } },
          { type: "text", text: '[The images and documents of the result of tool call "call_2":]' },
          { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
        ],
      },
    ]);
  });

  it("refuses a followUp argument that is not an array of results", () => {
    expect(thrownBy(() => chat.followUp(richResult([png]) as never))).toBeInstanceOf(TypeError);
  });
});

describe("results that are not toolContent, in every adapter", () => {
  const pending: ToolResult = {
    status: "approval-required",
    toolCallId: "call_1",
    toolName: "pay",
    isError: false,
    request: { toolCallId: "call_1", toolName: "pay", arguments: {}, fingerprint: "f", requestedAt: "2026-01-01T00:00:00.000Z" },
  };
  const denied: ToolResult = { status: "denied", toolCallId: "call_1", toolName: "pay", isError: false, content: "The user declined." };
  const waiting = 'Tool "pay" needs the user\'s approval before it runs; it has not run yet.';

  it("answers a call waiting for approval, and a declined one, with text that is not an error", () => {
    expect(claude.result(pending)).toEqual({ type: "tool_result", tool_use_id: "call_1", content: waiting });
    expect(claude.result(denied)).toEqual({ type: "tool_result", tool_use_id: "call_1", content: "The user declined." });
    expect(responses.result(denied).output).toBe("The user declined.");
    expect(chat.result(pending).content).toBe(waiting);
    expect(google.result(denied).functionResponse.response).toEqual({ output: "The user declined." });
    expect(chat.followUp([pending, denied])).toEqual([]);
  });

  it("sends an object a handler returned as its JSON text, as before, even when it looks like content items", () => {
    const value = { content: [{ type: "image", data: PNG, mimeType: "image/png" }] };
    const plain: ToolResult = { status: "ok", toolCallId: "call_1", toolName: "t", isError: false, value };
    expect(claude.result(plain).content).toBe(JSON.stringify(value));
    expect(responses.result(plain).output).toBe(JSON.stringify(value));
    expect(google.result(plain).functionResponse).toEqual({ id: "call_1", name: "t", response: { output: value } });
    expect(chat.followUp([plain])).toEqual([]);
  });
});
