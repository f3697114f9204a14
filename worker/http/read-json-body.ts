import { HttpError } from "../response/json-error.ts";
import type { Timers } from "../runtime.ts";

/**
 * Longest a request body may take to arrive, in milliseconds: a body sent at one byte a second is
 * not read for ever (MAX_BODY_BYTES, 256 KiB, arrives in time at about 9 KB/s).
 */
export const BODY_READ_MS = 30_000;

/**
 * Reads a JSON request body of at most `maxBytes`. The size is checked while reading, not only
 * from `Content-Length` (chunked bodies have none, and the header can lie), and reading stops
 * at the limit. Non-JSON media types get 415: this also means a cross-origin page cannot send
 * the body as a CORS "simple request" without a preflight. The whole body must arrive within
 * {@link BODY_READ_MS} on `timers` (408 `request_timeout` past it).
 */
export async function readJsonBody(
  request: Request,
  maxBytes: number,
  limitName = "MAX_BODY_BYTES",
  timers?: Timers,
): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) {
    throw new HttpError(415, {
      code: "unsupported_media_type",
      message: "Send the request body as `Content-Type: application/json`.",
    });
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes, limitName);
  const text = await readText(request.body, maxBytes, limitName, timers);
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, { code: "invalid_json", message: "The request body is not valid JSON." });
  }
}

async function readText(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  limitName: string,
  timers: Timers | undefined,
): Promise<string> {
  if (!body) return "";
  const reader = body.getReader();
  // Fatal: JSON text is UTF-8 (RFC 8259 §8.1), and a body that is not would otherwise reach the
  // provider with U+FFFD where the client's bytes were, as if the client had written that.
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  let size = 0;
  let text = "";
  // One timer, cleared when the body is in: past it the reading is cancelled (a pending read then
  // ends) and the request is a 408.
  let late = false;
  const timer = timers?.setTimeout(() => {
    late = true;
    reader.cancel("the request body was too slow").catch(() => undefined);
  }, BODY_READ_MS);
  try {
    const all = await readAll();
    if (late) throw slow();
    return all;
  } catch (error) {
    throw late ? slow() : error;
  } finally {
    if (timer !== undefined) timers!.clearTimeout(timer);
  }

  async function readAll(): Promise<string> {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return text + utf8(() => decoder.decode());
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw tooLarge(maxBytes, limitName);
      }
      text += utf8(() => decoder.decode(value, { stream: true }));
    }
  }
}

/** The fatal decoder's text, or the 400 of a body that is not UTF-8 (its `TypeError` says no more). */
function utf8(decode: () => string): string {
  try {
    return decode();
  } catch {
    throw new HttpError(400, { code: "invalid_json", message: "The request body is not valid JSON: it is not UTF-8." });
  }
}

function slow(): HttpError {
  return new HttpError(408, {
    code: "request_timeout",
    message: `The request body did not arrive within ${BODY_READ_MS / 1000} s.`,
  });
}

function tooLarge(maxBytes: number, limitName: string): HttpError {
  return new HttpError(413, {
    code: "body_too_large",
    message: `The request body exceeds the limit of ${maxBytes} bytes (${limitName}).`,
  });
}
