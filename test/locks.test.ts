import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Claim, ResourceLocks, type Ticket } from "../src/policy/locks.js";

const claimArbitrary: fc.Arbitrary<Claim> = fc.oneof(
  fc.record({ key: fc.constantFrom("a", "b", "c"), mode: fc.constantFrom("exclusive" as const, "shared" as const) }),
  fc.record({ key: fc.constant("slots"), mode: fc.constant("slot" as const), limit: fc.constant(2) }),
);
/** A ticket's claims: one per key at most, as a tool's options give them. */
const claimsArbitrary = fc.uniqueArray(claimArbitrary, { minLength: 1, maxLength: 3, selector: (claim) => claim.key });
/** A step: take a ticket, or release the n-th held (or waiting) one. */
const stepArbitrary = fc.oneof(claimsArbitrary.map((claims) => ({ reserve: claims })), fc.nat(20).map((index) => ({ release: index })));

function checkHoldings(held: readonly Ticket[]): void {
  const byKey = new Map<string, Claim[]>();
  for (const ticket of held) for (const claim of ticket.claims) byKey.set(claim.key, [...(byKey.get(claim.key) ?? []), claim]);
  for (const claims of byKey.values()) {
    if (claims.some((claim) => claim.mode === "exclusive")) expect(claims).toHaveLength(1);
    const slots = claims.filter((claim) => claim.mode === "slot");
    if (slots.length > 0) expect(slots.length).toBeLessThanOrEqual(slots[0]!.limit!);
  }
}

describe("ResourceLocks", () => {
  it("never lets an exclusive holder overlap anyone, nor slots exceed their limit, and grants every ticket once the others are released", () => {
    fc.assert(
      fc.property(fc.array(stepArbitrary, { maxLength: 60 }), (steps) => {
        const locks = new ResourceLocks();
        const tickets: Ticket[] = [];
        const grantOrder: Ticket[] = [];
        const live = (): Ticket[] => tickets.filter((ticket) => !released.has(ticket));
        const released = new Set<Ticket>();
        const noteGrants = (): void => {
          for (const ticket of live()) if (ticket.held && !grantOrder.includes(ticket)) grantOrder.push(ticket);
        };
        for (const step of steps) {
          if ("reserve" in step) tickets.push(locks.reserve(step.reserve));
          else {
            const candidates = live();
            const ticket = candidates[step.release % Math.max(1, candidates.length)];
            if (ticket !== undefined) {
              ticket.release();
              released.add(ticket);
            }
          }
          noteGrants();
          checkHoldings(live().filter((ticket) => ticket.held));
        }
        // Release holders one by one: every waiting ticket is granted in turn.
        for (let guard = 0; live().length > 0 && guard < 1_000; guard++) {
          const holder = live().find((ticket) => ticket.held);
          expect(holder).toBeDefined();
          holder!.release();
          released.add(holder!);
          noteGrants();
          checkHoldings(live().filter((ticket) => ticket.held));
        }
        expect(locks.waiting).toBe(0);
        // Tickets claiming one key exclusively were granted in the order they were taken.
        for (const key of ["a", "b", "c"]) {
          const writers = tickets.filter((ticket) => ticket.claims.some((claim) => claim.key === key && claim.mode === "exclusive") && grantOrder.includes(ticket));
          const granted = grantOrder.filter((ticket) => writers.includes(ticket));
          expect(granted).toEqual(writers);
        }
      }),
      { numRuns: 3_000 },
    );
  });

  it("lets a ticket leave its place in line before it is granted", async () => {
    const locks = new ResourceLocks();
    const first = locks.reserve([{ key: "k", mode: "exclusive" }]);
    const second = locks.reserve([{ key: "k", mode: "exclusive" }]);
    const third = locks.reserve([{ key: "k", mode: "exclusive" }]);
    second.release();
    first.release();
    await third.granted;
    expect([second.held, third.held]).toEqual([false, true]);
  });
});
