import { DEFAULT_SETTINGS } from "../env.ts";

/**
 * One bound on what the running responses' logs of an isolate hold in memory together. A running
 * log holds only the frames its attached clients have yet to read (the rest is in storage, read
 * back from there), so what it holds is its slowest client's lag, up to `RESUME_MAX_BYTES`; and
 * several lagging clients of several responses (of one object, or of the objects an isolate
 * runs) could hold that each, past the isolate's 128 MB. Past `RESUME_MEMORY_BYTES` in all, the
 * clients that hold the most are cut ({@link LogBudget.relieve}): the slowest of the log that
 * holds the most, one log at a time, until the total is back within the bound. Each resumes with
 * its `Last-Event-ID` from storage; no other client is touched, and every response runs on.
 *
 * @module
 */

/** A log as the budget sees it (`ResponseLog`). */
export interface BudgetHolder {
  /** UTF-16 units of frames it holds in memory. */
  readonly held: number;
  /** Cuts its slowest readers (their frames are in storage); returns how many. */
  cutSlowest(): number;
}

/**
 * The bytes (UTF-16 units) of frames the running logs hold in memory, bounded.
 *
 * @example
 * ```ts
 * const budget = new LogBudget(32 * 1024 * 1024);
 * budget.changed(log); // after the log grew or shrank
 * budget.relieve(); // after it grew: cuts the slowest readers of the largest logs while over
 * ```
 */
export class LogBudget {
  /** Most units held in all (`RESUME_MEMORY_BYTES`). */
  limit: number;
  readonly #held = new Map<BudgetHolder, number>();
  #total = 0;

  /** A budget of `limit` units. */
  constructor(limit: number) {
    this.limit = limit;
  }

  /** Units held by every log now. */
  get total(): number {
    return this.#total;
  }

  /** Notes what `holder` holds now (a log that holds nothing is forgotten). */
  changed(holder: BudgetHolder): void {
    const held = holder.held;
    this.#total += held - (this.#held.get(holder) ?? 0);
    if (held > 0) this.#held.set(holder, held);
    else this.#held.delete(holder);
  }

  /**
   * While over the limit, cuts the slowest readers of the log that holds the most (a log with
   * nobody left to cut is passed over). Returns how many readers were cut.
   */
  relieve(): number {
    let cut = 0;
    const spent = new Set<BudgetHolder>();
    while (this.#total > this.limit) {
      let largest: BudgetHolder | undefined;
      for (const [holder, held] of this.#held)
        if (!spent.has(holder) && held > (largest ? this.#held.get(largest)! : 0)) largest = holder;
      if (!largest) break;
      const readers = largest.cutSlowest();
      if (readers === 0) spent.add(largest);
      cut += readers;
    }
    return cut;
  }
}

/**
 * The budget of every running log in this isolate (the objects it runs share it); its limit is
 * the `RESUME_MEMORY_BYTES` of the latest response started.
 */
export const isolateLogBudget: LogBudget = new LogBudget(DEFAULT_SETTINGS.resumeMemoryBytes);
