import type { RateLimit } from "../policy/rate-limit.js";
import type { ToolRegistry } from "../registry/registry.js";

/** BullMQ's queue-wide rate limiter: at most `max` jobs every `duration` milliseconds, across all workers. */
export interface QueueLimiter {
  max: number;
  duration: number;
}

/**
 * The limiter a worker of `registry` can give BullMQ: when every tool it registers declares the
 * same `rateLimit`, with no `key` (one limit for all callers), BullMQ holds it across every worker
 * of the queue. Anything else (tools without a limit, different limits, limits per key) cannot be
 * one queue-wide limiter: each worker's registry then applies its tools' limits itself, per process.
 * Where it is one, a call the worker's own limit still refuses (BullMQ's windows are fixed, the
 * registry's slide) goes back to wait rather than failing.
 */
export function limiterOf(registry: ToolRegistry): QueueLimiter | undefined {
  let found: QueueLimiter | undefined;
  const tools = registry.list();
  for (const tool of tools) {
    const rateLimit: RateLimit<never> | undefined = registry.toolOptions(tool.name)?.rateLimit;
    if (rateLimit === undefined || rateLimit.key !== undefined) return undefined;
    const { limit, intervalMs } = rateLimit;
    if (found !== undefined && (found.max !== limit || found.duration !== intervalMs)) return undefined;
    found = { max: limit, duration: intervalMs };
  }
  return found;
}
