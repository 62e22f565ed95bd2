/** A tool's `circuitBreaker`: open after `failureThreshold` failures in a row, try again after `resetAfterMs`. */
export interface CircuitBreakerOptions {
  /** How many execution failures in a row open the circuit. */
  failureThreshold: number;
  /** How long the circuit stays open before one trial call is let through, in milliseconds. */
  resetAfterMs: number;
}

/**
 * A circuit breaker for one tool. Closed, it counts execution failures in a row (a success resets
 * the count); at the threshold it opens and refuses calls. After `resetAfterMs` it is half-open:
 * one trial call runs (others are refused meanwhile); success closes it, failure opens it again.
 */
export class CircuitBreaker {
  #failures = 0;
  #openedAt: number | undefined;
  /** The call let through as the half-open trial, while it runs. */
  #trial: object | undefined;

  constructor(readonly options: CircuitBreakerOptions) {}

  /** The state now: `"closed"`, `"open"` or `"half-open"`. */
  state(now = performance.now()): "closed" | "open" | "half-open" {
    if (this.#openedAt === undefined) return "closed";
    return now - this.#openedAt >= this.options.resetAfterMs ? "half-open" : "open";
  }

  /**
   * What {@link CircuitBreaker.admit} would answer now, without taking the trial: 0 when a call
   * could run, else how long until a trial may (1 while a trial runs).
   */
  refusal(now = performance.now()): number {
    if (this.#openedAt === undefined) return 0;
    const waited = now - this.#openedAt;
    if (waited < this.options.resetAfterMs) return Math.ceil(this.options.resetAfterMs - waited);
    return this.#trial !== undefined ? 1 : 0;
  }

  /**
   * Asks to let `call` run: 0 when it may (in the half-open state, as the one trial), else how
   * long until a trial may run, in milliseconds (0 is never returned for a refusal; a refusal
   * while a trial runs says 1).
   * @param call the call asking (any object that stands for it): only the trial's own release gives the trial back
   */
  admit(call: object, now = performance.now()): number {
    if (this.#openedAt === undefined) return 0;
    const waited = now - this.#openedAt;
    if (waited < this.options.resetAfterMs) return Math.ceil(this.options.resetAfterMs - waited);
    if (this.#trial !== undefined && this.#trial !== call) return 1;
    this.#trial = call;
    return 0;
  }

  /** The call that was admitted succeeded: the circuit closes. */
  succeeded(): void {
    this.#failures = 0;
    this.#openedAt = undefined;
    this.#trial = undefined;
  }

  /** The call that was admitted failed: one more failure in a row; at the threshold (or after a trial) the circuit opens. */
  failed(now = performance.now()): void {
    this.#failures++;
    if (this.#trial !== undefined || this.#failures >= this.options.failureThreshold) {
      this.#openedAt = now;
      this.#trial = undefined;
    }
  }

  /** The admitted `call` ended without a verdict on the tool (its caller aborted it): if it was the trial, the trial is given back. */
  released(call: object): void {
    if (this.#trial === call) this.#trial = undefined;
  }
}
