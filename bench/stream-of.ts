// The body a benchmark reads: recorded network chunks, one per pull, as fetch hands a body over.

/** A stream of `chunks`, one enqueued per pull (none before the reader asks). */
export function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else controller.close();
    },
  });
}
