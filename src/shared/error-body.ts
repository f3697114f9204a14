import type { StreamErrorInfo } from "./errors.ts";
import { parseJsonText } from "./long-member-name.ts";

/** Most bytes of a non-2xx body read to report the provider's error object. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** The reader of a non-2xx answer's error body, as `httpErrorInfo` hands it out while it reads: to cancel it. */
export type ErrorBodyReader = { cancel(reason?: unknown): Promise<void> };

/**
 * The `http-error` of a response that is not a 2xx, with the provider's error object (`data`)
 * when its body is JSON of at most {@link MAX_ERROR_BODY_BYTES} (a longer one is not read past
 * them): what the chain reports, from a `Response` given to it or from one that a reader of the
 * body opens itself (Gemini Interactions' resuming body). `opened` gets the body's reader as the read starts: a consumer
 * that goes away meanwhile cancels it there (the read then ends), so a body that stalls holds
 * nothing up. Not exported by the package.
 */
export async function httpErrorInfo(
  response: Response,
  opened?: (reader: ErrorBodyReader) => void,
): Promise<StreamErrorInfo> {
  const { status, body } = response;
  const error: StreamErrorInfo = { code: "http-error", status, message: `The provider answered with HTTP ${status}.` };
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  const decoder = new TextDecoder();
  let text = "";
  let read = 0;
  try {
    // No body, or one read already (an app that logged it first: locked), throws here; the status says it.
    reader = body!.getReader();
    opened?.(reader);
    // Bytes counted as they come: a body past the bound (a proxy's page, a body that never ends) is
    // no error object, and none of the chunk that passes it is decoded (one large chunk was, whole).
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      read += value.length;
      if (read > MAX_ERROR_BODY_BYTES) return error;
      text += decoder.decode(value, { stream: true });
    }
    // Non-JSON bodies (HTML error pages) are not passed on: they may echo internals.
    error.data = parseJsonText(text + decoder.decode());
  } catch {
    return error; // a body that fails or is no JSON: the status alone still says what happened
  } finally {
    void reader?.cancel().catch(() => {});
  }
  return error;
}
