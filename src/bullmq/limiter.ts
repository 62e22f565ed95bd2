import type { RateLimit } from "../policy/rate-limit.js";
import type { ToolRegistry } from "../registry/registry.js";

/** BullMQ's queue-wide rate limiter: at most `max` jobs every `duration` milliseconds, across all workers. */
export interface QueueLimiter {
  max: number;
  duration: number;
}

/**
 * The limiter a worker of `registry` can give BullMQ: only for a worker of one tool whose
 * `rateLimit` has no `key` (one limit for all callers), which BullMQ then holds across every
 * worker of the queue. BullMQ's limiter counts all the queue's jobs together, while the registry
 * keeps one limit per tool: for a registry of several tools (even with equal limits), limits per
 * key or no limit, there is none, and each worker's registry applies its tools' limits itself, per
 * process. Where it is one, a call the worker's own limit still refuses (BullMQ's windows are
 * fixed, the registry's slide) goes back to wait rather than failing.
 */
export function limiterOf(registry: ToolRegistry): QueueLimiter | undefined {
  const tools = registry.list();
  if (tools.length !== 1) return undefined;
  const rateLimit: RateLimit<never> | undefined = registry.toolOptions(tools[0]!.name)?.rateLimit;
  if (rateLimit === undefined || rateLimit.key !== undefined) return undefined;
  return { max: rateLimit.limit, duration: rateLimit.intervalMs };
}
