import type { StreamErrorInfo, ToolCallEvent } from "../../src/index.ts";

/**
 * A provider body as the chain reads it under a `ResponseWatch` (./response-watch.ts), a stream
 * of it for what needs one, and the events that end a response whose events failed.
 *
 * @module
 */

/** A provider body read under a `ResponseWatch`: its chunks, read one `next()` at a time; `return()` stops it. */
export type WatchedBody = AsyncIterableIterator<Uint8Array>;

/**
 * A watched body as a stream, for what needs one (the body of a `Response`): pulled as it is
 * read, and cancelling it stops the body.
 *
 * @example
 * ```ts
 * return new Response(streamOf(watch.body(response.body!, () => controller.abort())), { headers });
 * ```
 */
export function streamOf(body: WatchedBody): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      pull: async (controller) => {
        const result = await body.next();
        if (result.done) controller.close();
        else controller.enqueue(result.value);
      },
      cancel: async (reason) => void (await body.return?.(reason)),
    },
    { highWaterMark: 0 },
  );
}

/**
 * The `error` and `abort` that end a response whose events failed unexpectedly
 * (`ResponseWatch.events`); the open calls are not known there, so none is listed.
 *
 * @example
 * ```ts
 * const events = watch.events(chain, (error) => failureEvents(error));
 * ```
 */
export function failureEvents(error: StreamErrorInfo): [ToolCallEvent, ToolCallEvent] {
  return [
    { type: "error", error },
    { type: "abort", reason: "stream-failed", discarded: [], error },
  ];
}
