import { HttpError } from "../response/json-error.ts";
import type { ProviderHttpRequest } from "./providers/upstream-provider.ts";
import type { Timers } from "../runtime.ts";
import type { ResponseWatch, WatchedBody } from "./response-watch.ts";

/** Options of {@link openUpstream}. */
export interface OpenUpstreamOptions {
  /** Sends the request: the platform's `fetch`, or the replay upstream. */
  send: (request: Request) => Promise<Response>;
  timers: Timers;
  /** Longest wait for the headers, in milliseconds (`IDLE_TIMEOUT_MS`; the body's clocks are `watch`'s). */
  idleTimeoutMs: number;
  /**
   * The client's cancel: aborting it aborts the provider request. A timeout aborts the request
   * without aborting this, so the events end with an `error` rather than a `cancelled` abort.
   */
  controller: AbortController;
  /** The response's idle timeout and deadline, which the body is read under. */
  watch: ResponseWatch;
}

/**
 * Sends the provider request and returns its body once the provider accepted it, or throws an
 * {@link HttpError} that says what failed, before any byte of the stream is sent:
 *
 * | provider                      | client                          |
 * | ----------------------------- | ------------------------------- |
 * | 401, 403                      | 502 `upstream_auth_failed`      |
 * | 429                           | 429 `upstream_rate_limited`, with its `Retry-After` |
 * | 5xx, or a 200 not of the request's `responseType` (or of none) | 502 `upstream_error` |
 * | other 4xx                     | 502 `upstream_rejected`         |
 * | network error                 | 502 `upstream_unreachable`      |
 * | no headers within the timeout or the response's deadline | 504 `upstream_timeout` |
 *
 * The provider's body is never read into the answer: error bodies can echo the key.
 */
export async function openUpstream(http: ProviderHttpRequest, options: OpenUpstreamOptions): Promise<WatchedBody> {
  const { controller, timers, idleTimeoutMs, watch } = options;
  const body = JSON.stringify(http.body);
  // Signed before the clock starts: the signature covers the body exactly as it is sent.
  const headers = http.sign ? { ...http.headers, ...(await http.sign(http.url, http.headers, body)) } : http.headers;
  // The provider request's own controller: the client's cancel aborts it, and so do the clocks.
  const request = new AbortController();
  const cancel = (): void => request.abort(controller.signal.reason);
  if (controller.signal.aborted) cancel();
  else controller.signal.addEventListener("abort", cancel, { once: true });
  let timedOut: string | undefined;
  const timer = timers.setTimeout(() => {
    timedOut = `The provider did not answer within ${idleTimeoutMs} ms.`;
    request.abort(new Error("upstream timeout"));
  }, idleTimeoutMs);
  const unwatch = watch.onTimeout((error) => {
    timedOut = error.message;
    request.abort(error);
  });
  let response: Response;
  try {
    // Redirects are not followed: key headers such as `x-api-key` would go along to the new host.
    response = await options.send(
      new Request(http.url, { method: "POST", headers, body, signal: request.signal, redirect: "manual" }),
    );
  } catch {
    request.abort();
    throw timedOut !== undefined
      ? upstream(504, "upstream_timeout", timedOut)
      : upstream(502, "upstream_unreachable", "The provider could not be reached.");
  } finally {
    timers.clearTimeout(timer);
    unwatch();
  }
  const failure = statusError(response, http.responseType ?? "text/event-stream");
  if (failure || !response.body) {
    await response.body?.cancel();
    request.abort();
    throw failure ?? upstream(502, "upstream_error", "The provider answered without a body.", response.status);
  }
  return watch.body(response.body, () => request.abort());
}

function statusError(response: Response, mediaType: string): HttpError | undefined {
  const { status } = response;
  if (status === 401 || status === 403) {
    return upstream(
      502,
      "upstream_auth_failed",
      "The provider refused the Worker's API key; check the provider key secret.",
      status,
    );
  }
  if (status === 429) {
    const retryAfter = response.headers.get("retry-after");
    const headers: Record<string, string> =
      retryAfter !== null && isRetryAfter(retryAfter) ? { "retry-after": retryAfter.trim() } : {};
    return new HttpError(
      429,
      {
        code: "upstream_rate_limited",
        message: "The provider is rate limiting requests; retry later.",
        upstreamStatus: status,
      },
      headers,
    );
  }
  if (status >= 500) return upstream(502, "upstream_error", "The provider failed to answer.", status);
  if (!response.ok) {
    return upstream(
      502,
      "upstream_rejected",
      "The provider rejected the request (check the model and the request fields).",
      status,
    );
  }
  // A 200 without a content type is no more the stream than one of another type (an HTML error
  // page of a proxy, a JSON error of a gateway that forgot the header).
  const type = response.headers.get("content-type");
  if (type === null || !type.toLowerCase().includes(mediaType)) {
    return upstream(502, "upstream_error", "The provider did not answer with a stream.", status);
  }
  return undefined;
}

/** `Retry-After` is delay-seconds or an HTTP date; anything else is not passed on. */
function isRetryAfter(value: string): boolean {
  const trimmed = value.trim();
  return (
    /^\d{1,9}$/.test(trimmed) ||
    (trimmed.length <= 64 && /^[A-Za-z0-9 ,:]+$/.test(trimmed) && !Number.isNaN(Date.parse(trimmed)))
  );
}

function upstream(
  status: number,
  code: "upstream_auth_failed" | "upstream_error" | "upstream_rejected" | "upstream_unreachable" | "upstream_timeout",
  message: string,
  upstreamStatus?: number,
): HttpError {
  return new HttpError(status, upstreamStatus === undefined ? { code, message } : { code, message, upstreamStatus });
}
