/**
 * How a client protocol's endpoint answers: the events as its encoder's bytes, and the headers.
 *
 * @module
 */
import type { EncodableEvent, ProtocolEncoder } from "../../src/index.ts";
import { encodeBatches } from "../http/encode-batches.ts";
import { failedAnswer } from "../response/json-error.ts";
import { waitHeaders } from "../upstream/limit-refusal.ts";
import { waitInWords } from "../upstream/provider-wait.ts";
import { NOTHING_LEFT } from "../services/call-rules.ts";

/** The headers of a protocol answered as Server-Sent Events. */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
};

/**
 * The answer's bytes: each array of ready events as one chunk of `encoder`'s protocol, adjacent
 * fragments of one call (or of text) joined into one protocol delta (`joinDeltas`), so a model
 * that streams arguments a few characters at a time costs a delta per network chunk. The route
 * wraps it in `withHeartbeat` (an SSE comment, or the agent protocols' own frame after their
 * first event), so a client that left is found on the write; the encoder is a step of the
 * heartbeat's one stream over the events (`mapChunks`), not a stream of its own.
 */
export function encodeAnswer(
  batches: ReadableStream<readonly EncodableEvent[]>,
  encoder: ProtocolEncoder<EncodableEvent>,
): ReadableStream<Uint8Array> {
  return encodeBatches(batches, encoder);
}

/** The headers of a streamed answer: CORS, the protocol's own, and the replay's name (readable cross-origin). */
export function answerHeaders(
  cors: Record<string, string>,
  protocol: Readonly<Record<string, string>>,
  extra: Record<string, string>,
): Record<string, string> {
  const headers: Record<string, string> = { ...cors, ...protocol, ...extra, "x-content-type-options": "nosniff" };
  if (cors["access-control-allow-origin"] !== undefined && extra["x-replay-recording"] !== undefined) {
    headers["access-control-expose-headers"] =
      `${cors["access-control-expose-headers"] ?? "retry-after"}, x-replay-recording`;
  }
  return headers;
}

/**
 * The status and headers of an answer that was not streamed and failed (`failedAnswer`: its kind's
 * status), with the wait a rate limit's `message` says (the Worker's "please try again in 6.4s")
 * as the headers openai-node, @anthropic-ai/sdk and the AI SDK pace their retries by, as a 429
 * refused before the stream has them (`retry-after`, `retry-after-ms`; past a minute not retried),
 * and `x-should-retry: false` for an answer of calls `tool_choice` left out.
 */
export function failedInit(
  code: string | undefined,
  message: string | undefined,
  headers: Record<string, string>,
): ResponseInit {
  // An answer of calls tool_choice left out is no transient fault: openai-node and
  // @anthropic-ai/sdk retry a 502 twice, each the same request billed again, to the same model
  // (or a server that ignores the choice) answering alike; the error says why, the client decides.
  if (message === NOTHING_LEFT.message) return failedAnswer(code, { ...headers, "x-should-retry": "false" });
  const wait = message === undefined ? undefined : waitInWords(message);
  return failedAnswer(code, wait === undefined ? headers : { ...headers, ...waitHeaders(wait) });
}
