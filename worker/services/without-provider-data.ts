/**
 * The Worker never echoes a provider's internals: the library puts a provider's own error
 * payload on `error.data` of `error` (and `abort`, `invalid-tool-call`) events, verbatim, and
 * that payload can quote request ids, internal hosts, account details or part of a key. Every
 * event the Worker sends, on every endpoint, goes through {@link withoutProviderData}; the typed
 * `code` stays, and so does the library's `message` of a `provider-error` when it is one of its
 * fixed sentences (naming at most an exception type such as Bedrock's `throttlingException`);
 * any other is replaced by a sentence of the Worker's. Of `data`, only a kind the encoders answer
 * in the client's terms is rebuilt ({@link kindOf}).
 *
 * @module
 */
import { mapChunks } from "../http/batch-map.ts";

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
  const unsafe =
    rest["code"] === "provider-error" &&
    !(typeof rest["message"] === "string" && LIBRARY_MESSAGE.test(rest["message"]));
  if (!Object.hasOwn(error, "data") && !unsafe) return event;
  const kind = kindOf(provider);
  const clean = unsafe ? { ...rest, message: PROVIDER_ERROR } : rest;
  return { ...event, error: kind ? { ...clean, data: kind } : clean };
}

/**
 * What the encoders read of a provider's payload, rebuilt by the Worker with nothing else of it:
 * Anthropic's `overloaded_error` (a Messages client backs off on it) and OpenAI's
 * `context_length_exceeded` (a Responses client compacts on it).
 */
function kindOf(data: unknown): Record<string, unknown> | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const { code, error } = data as { code?: unknown; error?: { type?: unknown } | null };
  if (code === "context_length_exceeded") return { code };
  return typeof error === "object" && error?.type === "overloaded_error"
    ? { type: "error", error: { type: "overloaded_error" } }
    : undefined;
}
