/**
 * The Worker never echoes a provider's internals: the library puts a provider's own error
 * payload on `error.data` of `error` (and `abort`, `invalid-tool-call`) events, verbatim, and
 * that payload can quote request ids, internal hosts, account details or part of a key. Every
 * event the Worker sends, on every endpoint, goes through {@link withoutProviderData}; the typed
 * `code` stays, and so does the library's `message` of a `provider-error` when it is one of its
 * fixed sentences (naming at most an exception type such as Bedrock's `throttlingException`);
 * any other is replaced by a sentence of the Worker's. Before `data` goes, a `provider-error` is
 * given its `kind` (overloaded, rate-limited, context overflow: worker/upstream/provider-error-kind.ts),
 * which every encoder answers in its client's terms, and for a known kind the Worker's sentence; a
 * rate limit the provider said is one of tokens keeps only that, as `{"error": {"type": "tokens"}}`
 * (OpenAI's type of it, which the Chat Completions encoder writes).
 *
 * @module
 */
import { mapChunks } from "../http/batch-map.ts";
import { classifyProviderError } from "../upstream/provider-error-kind.ts";
import { NOTHING_LEFT } from "./call-rules.ts";

/** Events without `error.data`; everything else passes unchanged, with backpressure and cancellation. */
export function withoutProviderData<E extends { readonly type: string }>(events: ReadableStream<E>): ReadableStream<E> {
  return events.pipeThrough(
    new TransformStream<E, E>({ transform: (event, out) => out.enqueue(stripped(event)) }, undefined, {
      highWaterMark: 0,
    }),
  );
}

/**
 * {@link withoutProviderData} for arrays of events (`streamToolCallBatches`, `readyBatches`): an
 * array with nothing to strip passes as it is, so the events without an `error` cost one check each.
 */
export function withoutProviderDataInBatches<E extends { readonly type: string }>(
  batches: ReadableStream<readonly E[]>,
): ReadableStream<E[]> {
  return mapChunks(batches, strippedAll);
}

function strippedAll<E extends { readonly type: string }>(batch: readonly E[]): E[] {
  let copy: E[] | undefined;
  for (let i = 0; i < batch.length; i++) {
    const event = batch[i]!;
    const clean = stripped(event);
    if (clean !== event) (copy ??= batch.slice())[i] = clean;
  }
  return copy ?? (batch as E[]);
}

/** The library's sentences for a provider's error; the name is an exception type, an identifier. */
const LIBRARY_MESSAGE =
  /^The provider reported (?:an error inside the stream|that the response failed|[A-Za-z][A-Za-z0-9]{0,63} inside the stream)\.$/;
const PROVIDER_ERROR = "The provider reported an error inside the stream.";

function stripped<E extends { readonly type: string }>(event: E): E {
  const error = (event as { error?: unknown }).error;
  if (typeof error !== "object" || error === null) return event;
  const { data: provider, ...rest } = error as Record<string, unknown>;
  if (rest["code"] !== "provider-error") return Object.hasOwn(error, "data") ? { ...event, error: rest } : event;
  const { kind, message, limit } = classifyProviderError(provider);
  // The Worker's own (a tool loop's answer of calls tool_choice left out, ./call-rules.ts) says why as it is.
  const own = rest["message"] === NOTHING_LEFT.message;
  const safe = own || (typeof rest["message"] === "string" && LIBRARY_MESSAGE.test(rest["message"]));
  const said = { ...rest, message: message ?? (safe ? rest["message"] : PROVIDER_ERROR), kind };
  // A limit of tokens stays, as the Worker's own payload in OpenAI's shape, which the Chat encoder types its 429 by.
  return { ...event, error: limit === "tokens" ? { ...said, data: TOKENS_LIMIT } : said };
}

const TOKENS_LIMIT = { error: { type: "tokens" } } as const;
