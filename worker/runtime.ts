/**
 * What the Worker takes from its surroundings, injected so that tests replace the network and
 * the clock (CONVENTIONS.md point 8): the upstream `fetch` and the timers behind the idle
 * timeout and the replay pacing.
 *
 * @module
 */

/** A timer handle, opaque to callers. */
export type TimerHandle = unknown;

/** The timer functions and the clock the Worker uses; tests pass a manual clock. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
  /** The clock the timers run on, in milliseconds (`Date.now`, which a Worker advances at each I/O). */
  now(): number;
}

/**
 * Sends a request to a provider: called as the platform's `fetch(url, init)`, so that the
 * platform builds the request once (a `Request` made first and given to `fetch` is built again from
 * it: about 10,000 instructions a request in workerd, stop 75's callgrind). A fake reads what it needs with
 * `new Request(url, init)`.
 */
export type SendRequest = (url: string, init: RequestInit) => Promise<Response>;

/** Everything non-deterministic the Worker reaches for. */
export interface Runtime {
  /** Sends a request to a real provider. */
  fetch: SendRequest;
  timers: Timers;
}

/** The platform's own network and clock. */
export const platformRuntime: Runtime = {
  fetch: (url, init) => fetch(url, init),
  timers: {
    setTimeout: (callback, ms) => setTimeout(callback, ms),
    clearTimeout: (handle) => clearTimeout(handle as number),
    now: () => Date.now(),
  },
};

/**
 * Resolves after `ms` on the given timers, or at once for `ms <= 0` (so a zero delay never
 * touches a clock); rejects with the signal's reason when it aborts first.
 */
export function sleep(timers: Timers, ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      timers.clearTimeout(handle);
      reject(signal?.reason);
    };
    const handle = timers.setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
