/**
 * The events of a response in batches of every event ready from one upstream chunk: what the
 * Durable Object appends to its log, writes to storage and sends as one body chunk.
 *
 * @module
 */

/** Any event union discriminated on `type` (stream events, run events, the interrupted ending). */
export type AnyEvent = { readonly type: string };

/**
 * `events` in batches of the events that are ready.
 *
 * @example
 * ```ts
 * const batches = readyEventBatches(streamToolCalls(body)); // ReadableStream<ToolCallEvent[]>
 * ```
 */
export function readyEventBatches<E extends AnyEvent>(events: ReadableStream<E>): ReadableStream<E[]> {
  // Placeholder until the library's batching primitive lands: one event per batch.
  return events.pipeThrough(new TransformStream<E, E[]>({ transform: (event, out) => out.enqueue([event]) }));
}
