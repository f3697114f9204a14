/**
 * The first `max` bytes of a body as text, or what came of them before `signal` aborted (the rest
 * is not read; the caller cancels the body): what an error answer says, read to a bound.
 *
 * @example
 * ```ts
 * const text = await bodyPrefix(response.body, 4096, request.signal);
 * ```
 */
export async function bodyPrefix(body: ReadableStream<Uint8Array>, max: number, signal: AbortSignal): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let read = 0;
  const stop = (): void => void reader.cancel().catch(() => undefined);
  if (signal.aborted) stop();
  else signal.addEventListener("abort", stop, { once: true });
  try {
    while (read < max) {
      const { done, value } = await reader.read();
      if (done) break;
      const part = value.subarray(0, max - read);
      read += part.length;
      text += decoder.decode(part, { stream: true });
    }
  } catch {
    // A body cut short tells nothing more: what came is all there is to read.
  } finally {
    signal.removeEventListener("abort", stop);
    reader.releaseLock();
  }
  return text;
}
