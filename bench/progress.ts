import type { MeasureStep } from "./measure.js";

/** Where progress goes: a terminal, or anything else (then nothing is written). */
export interface ProgressStream {
  readonly isTTY?: boolean;
  /** The terminal's width in characters, when known. */
  readonly columns?: number;
  write(chunk: string): boolean;
}

/** What the progress line shows. */
export interface ProgressState {
  readonly section: string;
  /** The part under way (1-based) and how many the section has. */
  readonly part: number;
  readonly parts: number;
  readonly partTitle: string;
  /** What is running now: `round 12/28: zod parse`. */
  readonly detail: string;
  /** How far the section is, 0 to 1. */
  readonly fraction: number;
  readonly elapsedSeconds: number;
}

const BAR_WIDTH = 20;
const REDRAW_MS = 100;
// Carriage return, then erase the whole line: the next draw or print starts on a clean line.
const ERASE_LINE = "\r\u001b[2K";

/** The one line of progress for `state`, cut to `columns` characters. */
export function progressLine(state: ProgressState, columns = 100): string {
  const fraction = Math.min(1, Math.max(0, state.fraction));
  const filled = Math.round(fraction * BAR_WIDTH);
  const bar = `[${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}] ${String(Math.round(fraction * 100)).padStart(3)}%`;
  const where = `${state.section} ${state.part}/${state.parts}: ${state.partTitle}`;
  const line = `${bar} ${state.elapsedSeconds.toFixed(0)} s  ${where}${state.detail === "" ? "" : ` · ${state.detail}`}`;
  return line.length > columns - 1 ? `${line.slice(0, Math.max(0, columns - 2))}…` : line;
}

/**
 * Shows how far a run is on one line of the terminal, redrawn in place (at
 * most ten times a second, and only between timed batches). Writes nothing
 * when the stream is not a terminal, so piped output and CI logs stay clean.
 */
export class Progress {
  readonly #stream: ProgressStream;
  readonly #now: () => number;
  readonly #started: number;
  #state: Omit<ProgressState, "elapsedSeconds"> = { section: "", part: 0, parts: 0, partTitle: "", detail: "", fraction: 0 };
  #lastDrawMs = -Infinity;
  #shown = false;

  /** @param now milliseconds from a monotonic clock */
  constructor(stream: ProgressStream = process.stdout, now: () => number = () => performance.now()) {
    this.#stream = stream;
    this.#now = now;
    this.#started = now();
  }

  /** Whether anything is drawn: only on a terminal. */
  get enabled(): boolean {
    return this.#stream.isTTY === true;
  }

  /** A new section of `parts` parts begins. */
  begin(section: string, parts: number): void {
    this.#state = { section, part: 0, parts, partTitle: "", detail: "", fraction: 0 };
    this.#draw(true);
  }

  /** Part `part` (1-based) of the section is under way, `fraction` (0 to 1) of the way through. */
  step(part: number, partTitle: string, detail = "", fraction = 0): void {
    const { section, parts } = this.#state;
    const newPart = part !== this.#state.part;
    this.#state = { section, part, parts, partTitle, detail, fraction: (part - 1 + Math.min(1, Math.max(0, fraction))) / Math.max(1, parts) };
    this.#draw(newPart);
  }

  /** A listener for `measureInterleaved` that reports part `part`'s rounds. */
  measuring(part: number, partTitle: string): (step: MeasureStep) => void {
    return (step) => {
      const detail = step.phase === "warm-up" ? `warm-up: ${step.label}` : `round ${step.round}/${step.rounds}: ${step.label}`;
      this.step(part, partTitle, detail, step.done / step.total);
    };
  }

  /** Erases the line, before a table is printed or when the run ends. */
  clear(): void {
    if (!this.enabled || !this.#shown) return;
    this.#stream.write(ERASE_LINE);
    this.#shown = false;
  }

  #draw(force: boolean): void {
    if (!this.enabled) return;
    const now = this.#now();
    if (!force && now - this.#lastDrawMs < REDRAW_MS) return;
    this.#lastDrawMs = now;
    // A terminal that does not say its width reports 0 columns.
    const columns = this.#stream.columns !== undefined && this.#stream.columns > 0 ? this.#stream.columns : undefined;
    this.#stream.write(`${ERASE_LINE}${progressLine({ ...this.#state, elapsedSeconds: (now - this.#started) / 1e3 }, columns)}`);
    this.#shown = true;
  }
}
