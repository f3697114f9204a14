/**
 * A JavaScript body handed to workerd as a native stream, so that one which fails ends its
 * connection without workerd logging an uncaught exception.
 *
 * @module
 */

/**
 * `body` through a native `IdentityTransformStream`, written a chunk at a time as its reader takes
 * them (a write of the native pipe completes when it is read, so `body` is read no further ahead
 * than before). Why: workerd pumps a JavaScript body itself, and a body that errors (a resumable
 * response's client cut for lagging, `log-pump.ts`) leaves two "Uncaught (in promise)" exceptions
 * in its log, though the failure is expected and the client resumes; a native body aborted with
 * the same error fails the connection the same way, and only workerd's own note of a failed pump
 * is left. The native pipe does not tell `body` at once that its reader went away (only the next
 * write would fail), so `signal`, the request's (the `enable_request_signal` flag: it aborts when
 * the client disconnects), cancels `body` then, as workerd's cancel of a JavaScript body did.
 *
 * @example
 * ```ts
 * return new Response(nativeBody(withHeartbeat(logBody(cursor, leave), timers), request.signal), { headers });
 * ```
 */
export function nativeBody(body: ReadableStream<Uint8Array>, signal: AbortSignal): ReadableStream<Uint8Array> {
  const pipe = new IdentityTransformStream();
  const writer = pipe.writable.getWriter();
  const reader = body.getReader();
  let ended = false;
  const end = (reason: unknown): void => {
    if (ended) return;
    ended = true;
    signal.removeEventListener("abort", left);
    reader.cancel(reason).catch(() => undefined);
    writer.abort(reason).catch(() => undefined);
  };
  const left = (): void => end(signal.reason);
  if (signal.aborted) end(signal.reason);
  else signal.addEventListener("abort", left, { once: true });
  // A body that fails while a write waits for its reader (a client cut because it reads nothing)
  // fails the connection now, not at a next read that may never come.
  reader.closed.catch(end);
  const pump = async (): Promise<void> => {
    for (;;) {
      const result = await reader.read();
      if (ended) return;
      if (result.done) {
        ended = true;
        signal.removeEventListener("abort", left);
        return writer.close();
      }
      await writer.write(result.value);
    }
  };
  pump().catch(end);
  return pipe.readable;
}
