import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * Full garbage collections, in a test runner started without --expose-gc: two, since one that
 * finishes a marking already under way keeps what was allocated during it.
 */
export function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  gc();
  gc();
}

/** A turn of the event loop: objects a WeakRef was made to are kept until the current job ends. */
export const nextTurn = (): Promise<unknown> => new Promise((resolve) => setTimeout(resolve, 0));
