/**
 * The timers a bounded wait runs on: `globalThis`'s by default, a manual clock in tests (so no
 * test sleeps). The one `timers` option of `streamToolCalls` (validation timeouts), `ToolRunner`
 * and `runToolLoop` (tool timeouts); the Worker's `Timers` fits it.
 *
 * @example
 * ```ts
 * const timers: Timers = { setTimeout: (callback, ms) => setTimeout(callback, ms), clearTimeout: (handle) => clearTimeout(handle as number) };
 * streamToolCalls(response, { provider: "openai", tools, timers });
 * ```
 */
export interface Timers {
  /** Calls `callback` once after `ms` milliseconds; returns a handle for `clearTimeout`. */
  setTimeout(callback: () => void, ms: number): unknown;
  /** Cancels a timer made by `setTimeout`. */
  clearTimeout(handle: unknown): void;
  /** The clock of these timers, in milliseconds (what a write window measures); `Date.now` when absent. */
  now?: (() => number) | undefined;
}

/** The platform's timers, looked up when used (a test may replace `globalThis`'s). */
export const platformTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as number),
};
