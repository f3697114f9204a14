import { HttpError } from "../response/json-error.ts";

/**
 * Reads a JSON request body of at most `maxBytes`. The size is checked while reading, not only
 * from `Content-Length` (chunked bodies have none, and the header can lie), and reading stops
 * at the limit. Non-JSON media types get 415: this also means a cross-origin page cannot send
 * the body as a CORS "simple request" without a preflight.
 */
export async function readJsonBody(request: Request, maxBytes: number, limitName = "MAX_BODY_BYTES"): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) {
    throw new HttpError(415, {
      code: "unsupported_media_type",
      message: "Send the request body as `Content-Type: application/json`.",
    });
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes, limitName);
  const text = await readText(request.body, maxBytes, limitName);
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, { code: "invalid_json", message: "The request body is not valid JSON." });
  }
}

async function readText(body: ReadableStream<Uint8Array> | null, maxBytes: number, limitName: string): Promise<string> {
  if (!body) return "";
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes, limitName);
    }
    text += decoder.decode(value, { stream: true });
  }
}

function tooLarge(maxBytes: number, limitName: string): HttpError {
  return new HttpError(413, {
    code: "body_too_large",
    message: `The request body exceeds the limit of ${maxBytes} bytes (${limitName}).`,
  });
}
