import { HttpError } from "../response/json-error.ts";
import type { Timers } from "../runtime.ts";
import { longMemberName, MAX_MEMBER_NAME_LENGTH } from "../../src/core.ts";

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
 * {@link BODY_READ_MS} on `timers` (408 `request_timeout` past it). A body sent with
 * `Content-Encoding: gzip` (or `deflate`) is decoded, the limit holding for what it was sent as and
 * for what it decodes to (a small body that inflates past it is a 413, its decoding stopped there);
 * another coding is a 415 whose `Accept-Encoding` names those taken (RFC 9110 §15.5.16), where its
 * bytes would otherwise be refused as text that is not UTF-8. JSON is read as UTF-8 whatever the
 * `charset` says (RFC 8259 §8.1, §11: the parameter has no effect), a leading UTF-8 BOM skipped;
 * a body in another charset is a 415 that says so (by its BOM, else its declared `charset`): UTF-16
 * or UTF-32, told by their BOM or their NUL pattern (RFC 4627 §3), or not UTF-8 under a declared
 * `charset` that is not; UTF-8 JSON is read whatever the label; bytes that are not UTF-8 in a body
 * that claims no other charset are a 400.
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
  // The declared charset only names what the bytes are once they fail as UTF-8 (RFC 8259 §11: it has no effect).
  const charset = declaredCharset(type);
  const coding = contentCoding(request.headers.get("content-encoding"));
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes, limitName);
  let body = request.body;
  if (coding && body) {
    // Read whole as sent (bounded, in time), then decoded from memory: no wait on the client there.
    const sent = await readChunks(body, maxBytes, limitName, timers);
    body = new Blob(sent).stream().pipeThrough(new DecompressionStream(coding));
  }
  const text = await readText(body, maxBytes, limitName, coding ? undefined : timers, coding, charset);
  // Before the parse: V8 parses many such names in quadratic time (./long-member-name.ts).
  const long = longMemberName(text);
  if (long !== undefined)
    throw new HttpError(400, {
      code: "invalid_json",
      message: `The request body has a member name longer than ${MAX_MEMBER_NAME_LENGTH} characters (at character ${long}).`,
    });
  try {
    return JSON.parse(text);
  } catch {
    // UTF-16 or UTF-32 without a BOM: a JSON text's first two characters are ASCII (RFC 4627 §3).
    if (text.charCodeAt(0) === 0 || text.charCodeAt(1) === 0)
      throw notUtf8(charset !== undefined ? `\`charset=${charset}\`` : "UTF-16 or UTF-32, by its NUL bytes");
    // No body at all (a `curl -X POST` without `-d`, a client that sent none) says so.
    const message = /^[ \t\n\r]*$/.test(text)
      ? "The request body is empty: send the request as a JSON object."
      : "The request body is not valid JSON.";
    throw new HttpError(400, { code: "invalid_json", message });
  }
}

/** The `charset` parameter of a media type, lower-cased and unquoted, unless it names UTF-8. */
function declaredCharset(type: string): string | undefined {
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(type)?.[1]?.toLowerCase();
  return charset === undefined || charset === "" || charset === "utf-8" || charset === "utf8" ? undefined : charset;
}

/** The 415 of a body in a charset other than UTF-8, with what tells it (`which`). */
function notUtf8(which: string): HttpError {
  return new HttpError(415, {
    code: "unsupported_media_type",
    message: `The request body is not UTF-8 (${which.slice(0, 60)}): send the JSON as UTF-8 (RFC 8259 §8.1).`,
  });
}

/** What tells the charset of a body that is not UTF-8: its BOM (UTF-16, UTF-32), else the declared one, if any. */
function charsetOf(head: Uint8Array, declared: string | undefined): string | undefined {
  const [a, b, c, d] = head;
  if (a === 0xff && b === 0xfe) return `${c === 0 && d === 0 ? "UTF-32LE" : "UTF-16LE"}, by its byte order mark`;
  if (a === 0xfe && b === 0xff) return "UTF-16BE, by its byte order mark";
  if (a === 0 && b === 0 && c === 0xfe && d === 0xff) return "UTF-32BE, by its byte order mark";
  return declared && `\`charset=${declared}\``;
}

/** The content coding to decode, undefined for none; a 415 for one the Worker does not decode. */
function contentCoding(header: string | null): "gzip" | "deflate" | undefined {
  const coding = header?.trim().toLowerCase() ?? "";
  if (coding === "" || coding === "identity") return undefined;
  if (coding === "gzip" || coding === "x-gzip") return "gzip";
  if (coding === "deflate") return "deflate";
  throw new HttpError(
    415,
    {
      code: "unsupported_media_type",
      message:
        "The request body's `Content-Encoding` is not one this Worker decodes: send it as is, or gzip or deflate.",
    },
    { "accept-encoding": "gzip, deflate" },
  );
}

/** The body's chunks, at most `maxBytes` in all, as they arrived (a 413 past the limit, a 408 past {@link BODY_READ_MS}). */
async function readChunks(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  limitName: string,
  timers: Timers | undefined,
): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  await readEach(body, maxBytes, limitName, timers, (chunk) => {
    chunks.push(chunk);
  });
  return chunks;
}

async function readText(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  limitName: string,
  timers: Timers | undefined,
  coding?: string,
  charset?: string,
): Promise<string> {
  if (!body) return "";
  // Fatal: JSON text is UTF-8 (RFC 8259 §8.1), and a body that is not would otherwise reach the
  // provider with U+FFFD where the client's bytes were, as if the client had written that.
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  let text = "";
  // The body's first bytes, held undecoded until 4 came (a BOM split across chunks: a client may
  // send a 1-byte first chunk), so that the charset is told by all of its BOM ({@link charsetOf}).
  let head: Uint8Array | undefined;
  let early: Uint8Array = new Uint8Array(0);
  const decode = (bytes: Uint8Array, first: Uint8Array) =>
    utf8(() => decoder.decode(bytes, { stream: true }), first, charset);
  await readEach(
    body,
    maxBytes,
    limitName,
    timers,
    (chunk) => {
      if (head !== undefined) return void (text += decode(chunk, head));
      early = early.length === 0 ? chunk : joined(early, chunk);
      if (early.length < HEAD_BYTES) return;
      head = early.slice(0, HEAD_BYTES);
      text += decode(early, head);
    },
    coding,
  );
  // A body of fewer bytes: decoded whole at its end.
  if (head === undefined) text = decode((head = early), early);
  return text + utf8(() => decoder.decode(), head, charset);
}

/** The bytes that tell a charset by its BOM: UTF-32's is 4. */
const HEAD_BYTES = 4;

function joined(a: Uint8Array, b: Uint8Array): Uint8Array {
  const both = new Uint8Array(a.length + b.length);
  both.set(a);
  both.set(b, a.length);
  return both;
}

/**
 * Reads `body` into `take`, at most `maxBytes` in all (a 413, the reading cancelled, past it), within
 * {@link BODY_READ_MS} on `timers`; a body decoded from `coding` that fails to decode is a 400, and
 * so is one whose bytes stop coming with an error (the client's upload cut).
 */
async function readEach(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  limitName: string,
  timers: Timers | undefined,
  take: (chunk: Uint8Array) => void,
  coding?: string,
): Promise<void> {
  const reader = body.getReader();
  let size = 0;
  // One timer, cleared when the body is in: past it the reading is cancelled (a pending read then
  // ends) and the request is a 408.
  let late = false;
  const timer = timers?.setTimeout(() => {
    late = true;
    reader.cancel("the request body was too slow").catch(() => undefined);
  }, BODY_READ_MS);
  try {
    await readAll();
    if (late) throw slow();
  } catch (error) {
    throw late ? slow() : error;
  } finally {
    if (timer !== undefined) timers!.clearTimeout(timer);
  }

  async function readAll(): Promise<void> {
    for (;;) {
      const { done, value } = await read();
      if (done) return;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge(maxBytes, limitName);
      }
      take(value);
    }
  }

  async function read(): Promise<ReadableStreamReadResult<Uint8Array>> {
    try {
      return await reader.read();
    } catch {
      // The client's own fault, never the Worker's (a 500 logged as unexpected): its upload was
      // cut (the connection lost, fewer bytes than its `Content-Length`) before the body was whole.
      if (coding === undefined)
        throw new HttpError(400, {
          code: "invalid_json",
          message: "The request body did not arrive whole: the connection was cut before its end.",
        });
      // The platform's decoder reads one gzip member (the Compression Streams spec): a body of
      // several (RFC 1952 §2.2, what `cat a.gz b.gz` makes) fails as trailing data: the message says so.
      const members = coding === "gzip" ? ", or more than one gzip member, which this Worker does not read" : "";
      throw new HttpError(400, {
        code: "invalid_json",
        message: `The request body is not valid JSON: it is not valid ${coding} (\`Content-Encoding\`)${members}.`,
      });
    }
  }
}

/**
 * The fatal decoder's text, or the error of a body that is not UTF-8 (its `TypeError` says no
 * more): a 415 naming the charset it is in ({@link charsetOf}: from `head`, its first bytes, or
 * `declared`), else a 400.
 */
function utf8(decode: () => string, head: Uint8Array, declared: string | undefined): string {
  try {
    return decode();
  } catch {
    const charset = charsetOf(head, declared);
    if (charset !== undefined) throw notUtf8(charset);
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
