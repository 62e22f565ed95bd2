/** A source of uniform numbers in [0, 1). */
export type Random = () => number;

/**
 * A seeded pseudo-random generator (mulberry32): the same seed gives the same
 * sequence on every run, so every benchmark input is reproducible.
 */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [min, max], both included. */
export function randomInt(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

/** One element of a non-empty list. */
export function pickOne<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** Whether an event of probability `probability` happens. */
export function chance(random: Random, probability: number): boolean {
  return random() < probability;
}

/**
 * Draws ranks 0..count-1 with a Zipf law of exponent `exponent`: rank k has
 * weight 1/(k+1)^exponent, so a few tools get most calls and a long tail gets few.
 */
export function zipfSampler(count: number, exponent: number, random: Random): () => number {
  const cumulative = new Float64Array(count);
  let total = 0;
  for (let rank = 0; rank < count; rank++) {
    total += 1 / (rank + 1) ** exponent;
    cumulative[rank] = total;
  }
  return () => {
    const target = random() * total;
    let low = 0;
    let high = count - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return low;
  };
}
