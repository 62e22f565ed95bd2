export { createMcpServer } from "./server.js";
export { registerMcpTools } from "./client.js";
export type { McpToolClient, RegisterMcpToolsOptions, RefreshMcpToolsOptions, McpToolRegistration, McpSkippedTool } from "./client.js";
export { McpToolError, McpProtocolError, McpListLimitError } from "./errors.js";
