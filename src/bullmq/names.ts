import { describeOption } from "../options.js";

/** BullMQ's own default key prefix. */
const DEFAULT_PREFIX = "bull";

/**
 * A queue name: a non-empty string.
 * @throws TypeError naming the option
 */
export function checkQueueName(value: unknown): string {
  if (typeof value === "string" && value !== "") return value;
  throw new TypeError(`queueName must be a non-empty string, got ${describeOption(value)}`);
}

/**
 * A key prefix: a string, BullMQ's own (`bull`) when unset.
 * @throws TypeError naming the option
 */
export function checkPrefix(value: unknown): string {
  if (value === undefined) return DEFAULT_PREFIX;
  if (typeof value === "string") return value;
  throw new TypeError(`prefix must be a string, got ${describeOption(value)}`);
}

/** The Redis channel on which a queue asks its workers to cancel a job its caller gave up on. */
export function cancelChannel(prefix: string, queueName: string): string {
  return `${prefix}:${queueName}:ttr:cancel`;
}

/**
 * The Redis key that one repeat of a call sets (`SET NX`) to be the one that replaces its finished
 * job, the job of that id first enqueued at `enqueuedAt`: concurrent repeats still make one job.
 */
export function replaceClaimKey(prefix: string, queueName: string, jobId: string, enqueuedAt: number): string {
  return `${prefix}:${queueName}:ttr:replace:${jobId}:${enqueuedAt}`;
}
