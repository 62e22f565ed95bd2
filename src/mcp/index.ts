export { createMcpServer } from "./server.js";
export { registerMcpTools } from "./client.js";
export type { McpToolClient, RegisterMcpToolsOptions, McpToolRegistration, McpSkippedTool } from "./client.js";
export { McpToolError, McpProtocolError, McpListLimitError } from "./errors.js";
