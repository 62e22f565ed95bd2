import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import type { ToolStreamEvent } from "../../src/index.js";
import { corpusDirectory } from "../support/corpus.js";
import { permissiveRegistry, PROVIDERS, readRecording, recordingsOf } from "../support/provider-streams.js";

const corpus = corpusDirectory("provider-streams");

// Real recordings from OpenAI-compatible, Responses, Anthropic and Gemini APIs (other people's data,
// read by path and never copied here), each replayed through the provider's official SDK.
describe.skipIf(corpus === undefined)("the recorded provider streams", () => {
  for (const provider of PROVIDERS) {
    for (const file of corpus === undefined ? [] : recordingsOf(corpus, provider)) {
      it(`${provider}/${file}: the adapter reads every call the SDK does, lets every event through, and each call runs`, async () => {
        // The SDKs log an event they cannot parse before they throw it.
        vi.spyOn(console, "error").mockImplementation(() => undefined);
        const outcome = await readRecording(provider, join(corpus!, provider, file));
        if (outcome.thrown !== undefined) {
          // A recording the SDK itself cannot read (one holds events that are not JSON): the adapter throws what the SDK throws.
          expect(outcome.thrown.direct).toBeInstanceOf(Error);
          expect(String(outcome.thrown.adapted)).toBe(String(outcome.thrown.direct));
          return;
        }
        expect(outcome.seen).toBe(outcome.yielded);
        expect(outcome.calls.map((call) => call.toolName)).toEqual(outcome.reference.map((call) => call.name));
        outcome.calls.forEach((call, index) => {
          const reference = outcome.reference[index]!;
          if (reference.id !== undefined) expect(call.toolCallId).toBe(reference.id);
          expect(call.done).toBe(true);
          expect(JSON.parse(call.text)).toEqual(reference.args);
        });
        const registry = permissiveRegistry(outcome.reference.map((call) => call.name));
        const events: ToolStreamEvent[] = [];
        for await (const event of registry.dispatchStream(outcome.deltas)) events.push(event);
        const results = events.filter((event) => event.type === "tool-result");
        expect(results).toHaveLength(outcome.reference.length);
        for (const event of results) expect(event.type === "tool-result" && event.result.isError).toBe(false);
      });
    }
  }
});
