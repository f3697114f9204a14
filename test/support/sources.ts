// Byte sources that record what the consumer did to them, for cancellation and fault tests.

/** A source of byte chunks that records `cancel` and can fail after the chunks. */
export interface RecordingSource {
  stream: ReadableStream<Uint8Array>;
  /** How many chunks the consumer pulled. */
  readonly pulled: number;
  /** The reason `cancel` was called with, or `undefined` while it was not. */
  readonly cancelled: { reason: unknown } | undefined;
}

/** Serves `chunks` one per pull, then closes, or errors with `failWith` when it is given. */
export function recordingSource(chunks: readonly Uint8Array[], failWith?: unknown): RecordingSource {
  let pulled = 0;
  let cancelled: { reason: unknown } | undefined;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled < chunks.length) controller.enqueue(chunks[pulled++]!);
        else if (failWith !== undefined) controller.error(failWith);
        else controller.close();
      },
      cancel(reason) {
        cancelled = { reason };
      },
    },
    { highWaterMark: 0 },
  );
  return {
    stream,
    get pulled() {
      return pulled;
    },
    get cancelled() {
      return cancelled;
    },
  };
}

/**
 * Waits, in microtask turns only (no timers), until `check` holds; fails after `turns` turns.
 * Cancellation travels through pipes in promise reactions, so it settles within a few turns.
 */
export async function eventually(check: () => boolean, message: string, turns = 1000): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (check()) return;
    await Promise.resolve();
  }
  throw new Error(message);
}
