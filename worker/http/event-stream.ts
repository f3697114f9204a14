import { readyBatches, ToolCallEventEncoder, ToolCallEventEncoderStream } from "../../src/index.ts";
import { encodeBatches } from "./encode-batches.ts";

/**
 * The Worker's own response format: events as Server-Sent Events frames (`event: <type>`,
 * `id: <sequence>`, `data: <json>`), read back by `ToolCallEventDecoderStream` or an
 * `EventSource`. Other client protocols get a module of their own beside this one.
 *
 * @module
 */

/** The headers of every event-stream answer. */
export const EVENT_STREAM_HEADERS: Record<string, string> = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
  "x-content-type-options": "nosniff",
};

/**
 * Events (any union discriminated on `type`) as the bytes of an event-stream body, ids counting
 * from `firstId`. The events that are ready together (those of one upstream chunk) become one
 * chunk of the body, written as soon as the upstream has nothing more ready: one UTF-8 encoding
 * and one enqueue per batch rather than per event. Within a batch, adjacent fragments of one call
 * (or of text) are one frame (`joinDeltas`): a model that streams arguments a few characters at a
 * time costs a frame per network chunk, not per fragment.
 */
export function eventStreamBody<E extends { readonly type: string }>(
  events: ReadableStream<E>,
  firstId = 0,
): ReadableStream<Uint8Array> {
  return readyBatches(events).pipeThrough(new ToolCallEventEncoderStream<E>({ firstId, joinDeltas: true }));
}

/** Arrays of events (`streamToolCallBatches`, `readyBatches`) as the bytes of an event-stream body: one chunk per array, its fragments joined. */
export function eventStreamBodyOfBatches<E extends { readonly type: string }>(
  batches: ReadableStream<readonly E[]>,
  firstId = 0,
): ReadableStream<Uint8Array> {
  return encodeBatches(batches, new ToolCallEventEncoder<E>({ firstId }));
}
