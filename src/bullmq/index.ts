export { createToolQueue } from "./queue.js";
export type { ToolQueue, ToolQueueOptions } from "./queue.js";
export { createToolWorker } from "./worker.js";
export type { ToolWorker, ToolWorkerOptions } from "./worker.js";
export { RedisLedger } from "./ledger.js";
export type { RedisLedgerOptions } from "./ledger.js";
export { ToolQueueConnectionError, ToolJobFailedError } from "./errors.js";
export type { RedisConnection } from "./connection.js";
export type { QueueLimiter } from "./limiter.js";
