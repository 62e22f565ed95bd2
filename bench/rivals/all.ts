import { aiSdkJsonSchema, aiSdkZod } from "./ai-sdk.js";
import { ajv } from "./ajv.js";
import { langChain } from "./langchain.js";
import { bareMcpServer, registryMcpServer, sdkMcpServer } from "./mcp.js";
import { openAiAgents } from "./openai-agents.js";
import { piAi } from "./pi-ai.js";
import { registry } from "./registry.js";
import type { Subject } from "./subject.js";
import { zod } from "./zod.js";

/** The libraries a user would pick instead of the registry, raced per call on the same tools. */
export const RIVALS: readonly Subject[] = [aiSdkZod, aiSdkJsonSchema, openAiAgents, langChain, piAi, ajv, zod];

/** The MCP servers raced on the same in-memory transport and client: this library's first, the floor last. */
export const MCP_SERVERS: readonly Subject[] = [registryMcpServer, sdkMcpServer, bareMcpServer];

/** Everything the behaviour probe tries: the registry, its MCP server, then every rival. */
export const PROBED: readonly Subject[] = [registry, registryMcpServer, ...RIVALS, sdkMcpServer];
