import { chunkReader } from "../../shared/chunk-reader.ts";
import { type ErrorBodyReader, httpErrorInfo } from "../../shared/error-body.ts";
import { isInstance, ToolCallStreamError } from "../../shared/errors.ts";
import { InteractionsEventCursor, type GeminiInteractionsResumePoint } from "./gemini-interactions-event-cursor.ts";

/** A body to read: a `fetch` response, its byte stream, or an iterator of its chunks. */
export type GeminiInteractionsBody = Response | ReadableStream<Uint8Array> | AsyncIterator<Uint8Array>;

/** Options of {@link geminiInteractionsResumingBody}. */
export interface GeminiInteractionsResumeOptions {
  /**
   * Opens the rest of the interaction's stream after `point.lastEventId`: the answer to `GET
   * {base}/interactions/{id}?stream=true&last_event_id={id}` ({@link geminiInteractionsResumeUrl}),
   * as `@google/genai`'s `interactions.get(id, { stream: true, last_event_id })` asks for it. A
   * rejection, or a response that is not a 2xx, ends the body as the drop did.
   */
  reopen(point: GeminiInteractionsResumePoint): Promise<GeminiInteractionsBody>;
  /**
   * How many times the stream may be resumed, in all.
   *
   * @defaultValue 3
   */
  maxResumes?: number;
}

/** A response (duck-typed, as the chain reads one: a Response of another realm is one too), not a body. */
const isResponse = (body: GeminiInteractionsBody): body is Response =>
  !("next" in body && typeof body.next === "function") && typeof (body as ReadableStream).getReader !== "function";

/**
 * The body's chunks as an iterator, whatever it came as. A response that is not a 2xx is the
 * chain's own `http-error` with the provider's error object, as `streamToolCalls` reports it
 * for a response it is given.
 */
async function open(
  body: GeminiInteractionsBody,
  reading: (reader: ErrorBodyReader) => void,
): Promise<AsyncIterator<Uint8Array>> {
  if (isResponse(body) && !body.ok) throw new ToolCallStreamError(await httpErrorInfo(body, reading));
  return iteratorOf(body);
}

/** The body's chunks as an iterator (a response's body whatever its status: to cancel it). */
function iteratorOf(body: GeminiInteractionsBody): AsyncIterator<Uint8Array> {
  if ("next" in body && typeof body.next === "function") return body;
  const stream = isResponse(body) ? body.body : (body as ReadableStream<Uint8Array>);
  if (!stream) return { next: async () => ({ done: true, value: undefined }) };
  const reader = chunkReader(stream);
  return {
    next: async () => {
      const result = await reader.read();
      return result.done ? { done: true, value: undefined } : result;
    },
    return: async (reason?: unknown) => {
      await reader.cancel(reason);
      return { done: true, value: undefined };
    },
  };
}

/** An error after which the stream is not resumed: the reader's own abort or timeout, a limit of the library's, a clock. */
const final = (error: unknown): boolean => {
  if (isInstance(error, ToolCallStreamError)) return true;
  // A Proxy's `name` getter may throw too: such a failure is a drop like any other.
  try {
    return isInstance(error, Error) && (error.name === "AbortError" || error.name === "TimeoutError");
  } catch {
    return false;
  }
};

/**
 * A Gemini Interactions body that resumes itself when the connection drops mid-stream, for
 * `streamToolCalls(..., { provider: "gemini-interactions" })` to read as one stream. Its bytes go
 * on whole events at a time, noting the interaction's id (its `interaction.created` event) and each
 * event's `event_id`. When the body fails or ends before the interaction's end
 * (`interaction.completed`, an `error` event, `[DONE]`), `reopen` is asked for the rest after the
 * last event id, and reading goes on there: the half event that was cut is dropped, and events
 * passed on already after the last id (those without one) are left out of the resumed stream, so
 * no event is lost or passed twice and the calls come whole. At most `maxResumes` times; never
 * after the reader stopped, or after an `AbortError` or `TimeoutError` (the application's own
 * signal) or a `ToolCallStreamError`. A stream never resumed ends as the drop did (its cut event
 * passed on, for the chain to report the cut calls as discarded). Only a stored interaction can be
 * read again: with `store: false` nothing is resumed (`reopen`'s answer is an error).
 *
 * @example
 * ```ts
 * const headers = { "x-goog-api-key": key, "content-type": "application/json" };
 * const response = await fetch(`${base}/interactions`, { method: "POST", headers, body });
 * const body = geminiInteractionsResumingBody(response, {
 *   reopen: (point) => fetch(geminiInteractionsResumeUrl(base, point), { headers }),
 * });
 * for await (const event of streamToolCalls(body, { provider: "gemini-interactions" })) console.log(event.type);
 * ```
 */
export function geminiInteractionsResumingBody(
  body: GeminiInteractionsBody,
  options: GeminiInteractionsResumeOptions,
): AsyncIterableIterator<Uint8Array> {
  const { reopen, maxResumes = 3 } = options;
  const cursor = new InteractionsEventCursor();
  let current: AsyncIterator<Uint8Array> | undefined;
  let resumes = 0;
  let stopped = false;
  /** The error body being read, if any: `return()` cancels it, as it cancels a body. */
  let errorBody: ErrorBodyReader | undefined;
  const reading = (reader: ErrorBodyReader): void => void (errorBody = reader);

  /** Opens the rest of the stream; false when it cannot (or the reader stopped meanwhile). */
  const resume = async (error?: unknown): Promise<boolean> => {
    const point = cursor.point;
    if (stopped || point === undefined || resumes >= maxResumes || final(error)) return false;
    resumes++;
    let next: AsyncIterator<Uint8Array>;
    try {
      next = await open(await reopen(point), reading);
    } catch {
      return false;
    }
    if (stopped) {
      await next.return?.();
      return false;
    }
    current = next;
    cursor.resumed();
    return true;
  };

  const iterator: AsyncIterableIterator<Uint8Array> = {
    next: async () => {
      for (;;) {
        let result: IteratorResult<Uint8Array>;
        try {
          current ??= await open(body, reading);
          result = await current.next();
        } catch (error) {
          if (await resume(error)) continue;
          throw error;
        }
        if (result.done) {
          if (await resume()) continue;
          const rest = cursor.rest();
          return rest ? { done: false, value: rest } : { done: true, value: undefined };
        }
        const out = cursor.push(result.value);
        if (out !== undefined) return { done: false, value: out };
      }
    },
    return: async (reason?: unknown) => {
      stopped = true;
      await errorBody?.cancel(reason).catch(() => {});
      try {
        // Never read: the body is cancelled as it came (a non-2xx response's was read and cancelled).
        current ??= iteratorOf(body);
      } catch {
        return { done: true, value: undefined };
      }
      await current.return?.(reason);
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

/**
 * The URL that reads a stored interaction's stream again from after `point.lastEventId` (from
 * its start without one): `GET {baseUrl}/interactions/{id}?stream=true&last_event_id=...`.
 *
 * @example
 * ```ts
 * geminiInteractionsResumeUrl("https://generativelanguage.googleapis.com/v1beta", { interactionId: "v1_a", lastEventId: "evt_5" });
 * // "https://generativelanguage.googleapis.com/v1beta/interactions/v1_a?stream=true&last_event_id=evt_5"
 * ```
 */
export function geminiInteractionsResumeUrl(baseUrl: string, point: GeminiInteractionsResumePoint): string {
  const { interactionId, lastEventId } = point;
  const after = lastEventId === undefined ? "" : `&last_event_id=${encodeURIComponent(lastEventId)}`;
  // Trailing slashes trimmed by a loop: `/\/+$/` retries at every slash of a long run (quadratic).
  let end = baseUrl.length;
  while (end > 0 && baseUrl.charCodeAt(end - 1) === 0x2f) end--;
  return `${baseUrl.slice(0, end)}/interactions/${encodeURIComponent(interactionId)}?stream=true${after}`;
}
