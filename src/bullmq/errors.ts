import { ToolExecutionError, ToolRegistryError } from "../errors.js";
import { describeName } from "../text/describe.js";

/**
 * The queue's Redis could not be reached when a call was to be enqueued, or refused the job (out of
 * memory, read-only): it was not enqueued, and did not run. `connection` names the server
 * (`redis://host:port/db`, never a password), `cause` is the client's error when there was one,
 * without the command's arguments.
 */
export class ToolQueueConnectionError extends ToolRegistryError {
  override readonly name = "ToolQueueConnectionError";
  /** The Redis server, as `redis://host:port/db`. */
  readonly connection: string;
  readonly toolName: string;

  /** @param options `refused` when Redis answered the enqueue with an error, rather than not at all */
  constructor(toolName: string, connection: string, options?: ErrorOptions & { readonly refused?: boolean }) {
    super(`Tool ${describeName(toolName)} was not run: its queue at ${connection} ${options?.refused === true ? "refused the job" : "could not be reached"}. Try again later.`, options);
    this.connection = connection;
    this.toolName = toolName;
  }
}

/**
 * The queue gave up on a call's job (its worker failed outside the tool, or the job stalled more
 * often than the queue allows), or the call can no longer learn its job's outcome (the connection
 * to Redis was lost, the queue's events could not be read, the job completed with what is not the
 * call's result): the tool may or may not have run. `reason` is BullMQ's, or says which.
 */
export class ToolJobFailedError extends ToolExecutionError {
  override readonly name = "ToolJobFailedError";
  /** Why: the queue's reason for failing the job, as BullMQ gives it, or why the outcome is not known. */
  readonly reason: string;

  constructor(toolName: string, toolCallId: string, reason: string) {
    super(toolName, toolCallId, undefined, `Tool ${describeName(toolName)} did not complete where it runs, and may or may not have taken effect. Check before calling it again.`);
    this.reason = reason;
  }
}
