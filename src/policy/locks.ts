/** How a call holds one resource: alone (`exclusive`), beside other readers (`shared`), or as one of a tool's `concurrency` slots. */
export type HoldMode = "exclusive" | "shared" | "slot";

/** One resource a call needs: its key, how it holds it, and for a slot, how many may hold it at once. */
export interface Claim {
  readonly key: string;
  readonly mode: HoldMode;
  /** For `"slot"`: how many holders at most. */
  readonly limit?: number;
}

/** What is held of one resource now. */
interface Holding {
  exclusive: boolean;
  count: number;
}

/**
 * A place in line for a set of resources, taken when a call starts (so calls are served in the
 * order they started) and held from its grant until it is released.
 */
export class Ticket {
  #state: "waiting" | "granted" | "released" = "waiting";
  #grant: (() => void) | undefined;
  readonly #granted: Promise<void>;

  constructor(
    readonly claims: readonly Claim[],
    readonly locks: ResourceLocks,
  ) {
    this.#granted = new Promise<void>((resolve) => (this.#grant = resolve));
  }

  /** Whether the ticket holds its resources now. */
  get held(): boolean {
    return this.#state === "granted";
  }

  /** Settles when the resources are held. */
  get granted(): Promise<void> {
    return this.#granted;
  }

  /** Called by the locks when every claim is held. */
  grant(): void {
    this.#state = "granted";
    this.#grant!();
  }

  /** Gives the resources back (or the place in line, if not granted yet); later calls do nothing. */
  release(): void {
    if (this.#state === "released") return;
    const wasHeld = this.#state === "granted";
    this.#state = "released";
    this.locks.leave(this, wasHeld);
  }
}

/**
 * Read-write locks and counting slots over named resources, served first come, first served:
 * a ticket is granted when all its claims can be held at once and no earlier waiting ticket
 * wants one of its resources in a conflicting way (so a writer is not starved by readers, and
 * calls holding a key exclusively run in the order they took their tickets). All of a ticket's
 * claims are granted together, so no call holds one resource while waiting for another: no deadlock.
 */
export class ResourceLocks {
  readonly #holdings = new Map<string, Holding>();
  readonly #waiting: Ticket[] = [];
  /** How many claims of waiting tickets name each key: a look along the line stops once every such key is blocked. */
  readonly #waitingKeys = new Map<string, number>();

  /** Takes a place in line now, for `claims`; await `ticket.granted`, then `release()` it. */
  reserve(claims: readonly Claim[]): Ticket {
    const ticket = new Ticket(claims, this);
    this.#waiting.push(ticket);
    this.#count(ticket, 1);
    this.#serve();
    return ticket;
  }

  /** A ticket left: its resources are free again (or its place in line is). */
  leave(ticket: Ticket, wasHeld: boolean): void {
    if (wasHeld) {
      for (const claim of ticket.claims) {
        const holding = this.#holdings.get(claim.key)!;
        holding.count--;
        if (claim.mode === "exclusive") holding.exclusive = false;
        if (holding.count === 0) this.#holdings.delete(claim.key);
      }
    } else {
      const index = this.#waiting.indexOf(ticket);
      if (index >= 0) {
        this.#waiting.splice(index, 1);
        this.#count(ticket, -1);
      }
    }
    this.#serve();
  }

  /** Counts a ticket's claims in (or out of) {@link ResourceLocks.#waitingKeys}. */
  #count(ticket: Ticket, change: 1 | -1): void {
    for (const claim of ticket.claims) {
      const count = (this.#waitingKeys.get(claim.key) ?? 0) + change;
      if (count === 0) this.#waitingKeys.delete(claim.key);
      else this.#waitingKeys.set(claim.key, count);
    }
  }

  /** How many tickets wait now. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Grants, in order, every waiting ticket that can hold its claims and is not behind a conflicting earlier one. */
  #serve(): void {
    // What earlier waiting tickets want, by key: readers only (a later reader may pass), or more.
    const blocked = new Map<string, "readers" | "all">();
    // Keys blocked for every later ticket: once they are all the keys any waiting ticket names, none
    // further along can be granted, and the look stops (else a line of N calls on one key costs N² steps).
    let blockedForAll = 0;
    for (let index = 0; index < this.#waiting.length && blockedForAll < this.#waitingKeys.size; ) {
      const ticket = this.#waiting[index]!;
      if (ticket.claims.every((claim) => this.#free(claim) && !behind(blocked, claim))) {
        this.#waiting.splice(index, 1);
        this.#count(ticket, -1);
        for (const claim of ticket.claims) {
          const holding = this.#holdings.get(claim.key) ?? { exclusive: false, count: 0 };
          holding.count++;
          if (claim.mode === "exclusive") holding.exclusive = true;
          this.#holdings.set(claim.key, holding);
        }
        ticket.grant();
      } else {
        for (const claim of ticket.claims) {
          if (claim.mode === "shared" && blocked.has(claim.key)) continue;
          const mode = claim.mode === "shared" ? "readers" : "all";
          if (mode === "all" && blocked.get(claim.key) !== "all") blockedForAll++;
          blocked.set(claim.key, mode);
        }
        index++;
      }
    }
  }

  #free(claim: Claim): boolean {
    const holding = this.#holdings.get(claim.key);
    if (holding === undefined) return true;
    switch (claim.mode) {
      case "exclusive":
        return false;
      case "shared":
        return !holding.exclusive;
      case "slot":
        return holding.count < claim.limit!;
    }
  }
}

/** Whether `claim` must wait behind an earlier waiting ticket: readers may pass readers; anything else keeps its place. */
function behind(blocked: ReadonlyMap<string, "readers" | "all">, claim: Claim): boolean {
  const earlier = blocked.get(claim.key);
  return earlier === "all" || (earlier === "readers" && claim.mode !== "shared");
}
