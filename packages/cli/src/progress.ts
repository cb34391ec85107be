/**
 * A progress bar on standard error. On a terminal it redraws one line; elsewhere it
 * stays silent for short runs and prints a line per 10% for long ones (over 2 s), so CI
 * logs show progress without thousands of carriage returns.
 * @module
 */
import type { CliIO } from "./io.js";

/** Reports progress of a long operation. */
export class ProgressBar {
  private readonly start = performance.now();
  private lastDraw = 0;
  private lastDecile = -1;
  private drawn = false;

  /**
   * @param io - where to write.
   * @param label - shown before the bar.
   * @param enabled - false for --quiet and --json (default true).
   */
  constructor(
    private readonly io: CliIO,
    private readonly label: string,
    private readonly enabled = true,
  ) {}

  /** Report `done` of `total` units. */
  update(done: number, total: number): void {
    if (!this.enabled || total <= 0) return;
    const now = performance.now();
    const frac = Math.min(1, done / total);
    if (this.io.errIsTTY) {
      if (now - this.lastDraw < 100 && done < total) return;
      this.lastDraw = now;
      const width = 30;
      const fill = Math.round(frac * width);
      const bar = `${"#".repeat(fill)}${" ".repeat(width - fill)}`;
      this.io.err(`\r${this.label} [${bar}] ${(frac * 100).toFixed(0).padStart(3)}% ${done}/${total}`);
      this.drawn = true;
      return;
    }
    const decile = Math.floor(frac * 10);
    if (now - this.start < 2_000 || decile === this.lastDecile) return;
    this.lastDecile = decile;
    this.io.err(`${this.label}: ${(frac * 100).toFixed(0)}% (${done}/${total}), ${((now - this.start) / 1000).toFixed(1)} s\n`);
  }

  /** Finish the bar (ends the redrawn line on a terminal). */
  done(): void {
    if (this.drawn) this.io.err("\n");
    this.drawn = false;
  }

  /**
   * Write `line` (ending in a newline) while the bar may be on screen. On a terminal it starts on a
   * line of its own, below the bar or a `^C` the terminal echoed, and the bar's line counts as ended
   * (the next update draws it again below the line; `done()` adds no empty line). Elsewhere every line
   * written is whole already, and `line` is written as it is.
   */
  interject(line: string): void {
    this.io.err(this.io.errIsTTY ? `\n${line}` : line);
    this.drawn = false;
  }

  /**
   * Remove the bar, e.g. when the work was interrupted: on a terminal the redrawn line is erased
   * (with the `^C` the terminal may have echoed after it), the cursor left at its start.
   */
  clear(): void {
    if (this.drawn) this.io.err("\r\x1b[2K");
    this.drawn = false;
  }
}
