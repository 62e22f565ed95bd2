export { createMcpServer } from "./server.js";
export { registerMcpTools } from "./client.js";
export type { McpToolClient, RegisterMcpToolsOptions, McpToolRegistration } from "./client.js";
export { McpToolError, McpProtocolError } from "./errors.js";
