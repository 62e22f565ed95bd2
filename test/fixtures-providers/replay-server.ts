import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the server received, with its JSON body parsed. */
export interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
}

/** One server-sent event: `event:` line (optional) and `data:` (an object is sent as JSON). */
export interface ServerSentEvent {
  event?: string;
  data: unknown;
}

/** What the server answers: a JSON body, or an event stream. */
export type Reply = { json: unknown } | { events: ServerSentEvent[] };

/**
 * Answers one request. It may throw to refuse the request: the server then
 * answers 400 with the message, as the real APIs refuse a malformed request,
 * and the SDK rejects with it.
 */
export type ReplyTo = (request: RecordedRequest) => Reply;

/** A local stand-in for a provider's HTTP API. */
export interface ReplayServer {
  /** `http://127.0.0.1:<port>`, for the SDK's `baseURL`. */
  readonly origin: string;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * Starts a server on 127.0.0.1 at a random port that answers the n-th
 * request with `replies[n]`, replaying documented API responses so that the
 * official SDKs parse them with their own code.
 */
export async function startReplayServer(replies: readonly ReplyTo[]): Promise<ReplayServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((incoming, response) => {
    void answer(incoming, response);
  });
  async function answer(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const request: RecordedRequest = { method: incoming.method ?? "", path: incoming.url ?? "", body: text === "" ? undefined : JSON.parse(text) };
    requests.push(request);
    const replyTo = replies[requests.length - 1];
    let reply: Reply;
    try {
      if (replyTo === undefined) throw new Error(`unexpected request ${requests.length} to ${request.path}`);
      reply = replyTo(request);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      response.writeHead(400, { "content-type": "application/json" });
      response.end(JSON.stringify({ type: "error", error: { type: "invalid_request_error", message } }));
      return;
    }
    if ("json" in reply) {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(reply.json));
      return;
    }
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    for (const { event, data } of reply.events) {
      const payload = typeof data === "string" ? data : JSON.stringify(data);
      response.write(`${event === undefined ? "" : `event: ${event}\n`}data: ${payload}\n\n`);
    }
    response.end();
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/** Throws (so the server refuses the request) unless `condition` holds. */
export function demand(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}
