// Fakes for the tool runner and loop tests: a manual clock, promises settled by hand, handlers
// that record what they were given, and an input stream the test feeds and leaves open.
import type { CompletedToolCallEvent, JsonValue, RunnableTool, ToolHandlerContext } from "../../src/index.ts";

/** Timers that fire only when the test advances the clock: no test sleeps or depends on real time. */
export interface ManualTimers {
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  /** The clock, in milliseconds from 0 (what a write window measures). */
  now(): number;
  /** Moves the clock forward, firing every timer that falls due. */
  advance(ms: number): void;
  /** The delays of the timers still pending. */
  readonly pending: number[];
}

/** A clock that starts at 0 and moves only on `advance`. */
export function manualTimers(): ManualTimers {
  let now = 0;
  let next = 0;
  const timers = new Map<number, { at: number; ms: number; callback: () => void }>();
  return {
    setTimeout(callback, ms) {
      timers.set(++next, { at: now + ms, ms, callback });
      return next;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    now: () => now,
    advance(ms) {
      now += ms;
      for (const [handle, timer] of [...timers].sort((a, b) => a[1].at - b[1].at)) {
        if (timer.at > now || !timers.has(handle)) continue;
        timers.delete(handle);
        timer.callback();
      }
    },
    get pending() {
      return [...timers.values()].map((timer) => timer.ms);
    },
  };
}

/** A promise with its settle functions. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

/** Makes a {@link Deferred}. */
export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** One run of a {@link ControlledTool}: what it was given and how to settle it. */
export interface ToolRun {
  args: JsonValue;
  context: ToolHandlerContext;
  result: Deferred<JsonValue>;
}

/** A tool whose runs the test settles by hand, recording each run and how many run at once. */
export interface ControlledTool extends RunnableTool {
  readonly runs: ToolRun[];
  /** Runs not settled yet. */
  readonly running: number;
  /** The most runs that were unsettled at the same time. */
  readonly peak: number;
}

/** A tool whose every run waits until the test settles `runs[i].result`. */
export function controlledTool(extra: Partial<RunnableTool> = {}): ControlledTool {
  const runs: ToolRun[] = [];
  let running = 0;
  let peak = 0;
  return {
    ...extra,
    run(args, context) {
      const result = deferred<JsonValue>();
      runs.push({ args, context, result });
      running++;
      peak = Math.max(peak, running);
      const settled = (): void => void running--;
      result.promise.then(settled, settled);
      return result.promise;
    },
    get runs() {
      return runs;
    },
    get running() {
      return running;
    },
    get peak() {
      return peak;
    },
  };
}

/** A complete call, as the accumulator emits it. */
export function toolCall(
  index: number,
  name: string,
  args: JsonValue,
  extra: Partial<CompletedToolCallEvent> = {},
): CompletedToolCallEvent {
  return {
    type: "tool-call",
    index,
    id: `call_${index}`,
    name,
    arguments: args,
    rawArguments: JSON.stringify(args),
    ...extra,
  };
}

/** A readable the test writes to and closes by hand, recording a cancel. */
export interface OpenSource<T> {
  stream: ReadableStream<T>;
  push(chunk: T): void;
  close(): void;
  readonly cancelled: { reason: unknown } | undefined;
}

/** An input that stays open until the test closes it. */
export function openSource<T>(): OpenSource<T> {
  let controller!: ReadableStreamDefaultController<T>;
  let cancelled: { reason: unknown } | undefined;
  const stream = new ReadableStream<T>({
    start(c) {
      controller = c;
    },
    cancel(reason) {
      cancelled = { reason };
    },
  });
  return {
    stream,
    push: (chunk) => controller.enqueue(chunk),
    close: () => controller.close(),
    get cancelled() {
      return cancelled;
    },
  };
}

/** A stream read continuously in the background, as a consumer awaiting its next event does. */
export interface LiveReader<T> {
  /** Everything read so far. */
  readonly events: T[];
  /** Settles when the stream has ended (or rejects when it errored). */
  readonly done: Promise<T[]>;
  cancel(reason?: unknown): Promise<void>;
}

/** Starts reading `stream` at once and keeps a read pending until it ends. */
export function live<T>(stream: ReadableStream<T>): LiveReader<T> {
  const reader = stream.getReader();
  const events: T[] = [];
  const done = (async () => {
    for (;;) {
      const { done: ended, value } = await reader.read();
      if (ended) return events;
      events.push(value);
    }
  })();
  return { events, done, cancel: (reason) => reader.cancel(reason) };
}

/** What a replayed model saw: each request the loop made. */
export interface ReplayedModel {
  call: (request: { step: number; messages: readonly unknown[]; signal: AbortSignal }) => Promise<Response>;
  readonly requests: { step: number; messages: readonly unknown[]; signal: AbortSignal }[];
}

/** A fake `call` that answers step N with the recorded response body N (SSE text), as the provider did. */
export function replayModel(responses: readonly string[]): ReplayedModel {
  const requests: ReplayedModel["requests"] = [];
  return {
    requests,
    call(request) {
      requests.push(request);
      const body = responses[request.step - 1];
      if (body === undefined) return Promise.reject(new Error(`no recorded response for step ${request.step}`));
      return Promise.resolve(new Response(body, { headers: { "content-type": "text/event-stream" } }));
    },
  };
}

/**
 * The stream's events once it ends, or `"hung"` when it has not ended after a bounded wait of `ms`
 * (then it is cancelled): how a hang shows as a failing test. No timing is asserted: a stream that
 * ends does so without waiting on any timer, and the bound only stops a test that would never end.
 */
export async function endsOrHangs<T>(stream: ReadableStream<T>, ms = 5_000): Promise<T[] | "hung"> {
  const reader = live(stream);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<"hung">((resolve) => {
    timer = setTimeout(() => resolve("hung"), ms);
  });
  const outcome = await Promise.race([reader.done, hung]);
  clearTimeout(timer);
  if (outcome === "hung") await reader.cancel("hung");
  return outcome;
}
