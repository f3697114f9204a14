import { DEFAULT_SETTINGS, type Env, readSettings } from "../env.ts";

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

/** The one budget of this isolate ({@link isolateLogBudget}). */
const isolateBudget = new LogBudget(DEFAULT_SETTINGS.resumeMemoryBytes);
/** The bindings {@link isolateBudget}'s limit was read from. */
let limitFrom: Env | undefined;

/**
 * The budget of every running log in this isolate (the objects it runs share it), its limit the
 * `RESUME_MEMORY_BYTES` of `env`, the isolate's bindings: the same for every response, whatever
 * settings one runs with (a test's overrides), so no response moves the bound of the others.
 *
 * @example
 * ```ts
 * const log = storageBackedLog(limits, store, writer, isolateLogBudget(this.env));
 * ```
 */
export function isolateLogBudget(env: Env): LogBudget {
  if (limitFrom !== env) {
    isolateBudget.limit = readSettings(env).resumeMemoryBytes;
    limitFrom = env;
  }
  return isolateBudget;
}
