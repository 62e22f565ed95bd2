import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** What a raw server answers: the JSON text of each result, as a server the SDK did not write would send it. */
export interface RawAnswers {
  list(): string;
  call(): string;
}

/**
 * An SDK `Client` connected to a server that answers `tools/list` and `tools/call` with the JSON
 * text given, parsed as the SDK's own transports parse a message: no SDK server stands between, so
 * nothing is checked or rewritten on the server's side.
 */
export async function connectRaw(answers: RawAnswers): Promise<Client> {
  const transport: Transport = {
    async start() {},
    async close() {
      transport.onclose?.();
    },
    async send(message: JSONRPCMessage) {
      if (!("method" in message) || !("id" in message)) return;
      const result =
        message.method === "initialize"
          ? JSON.stringify({ protocolVersion: (message.params as { protocolVersion: string }).protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "raw", version: "1" } })
          : message.method === "tools/list"
            ? answers.list()
            : message.method === "tools/call"
              ? answers.call()
              : "{}";
      const text = `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${result}}`;
      queueMicrotask(() => transport.onmessage?.(JSON.parse(text) as JSONRPCMessage));
    },
  };
  const client = new Client({ name: "test-client", version: "1.0.0" });
  await client.connect(transport);
  return client;
}
