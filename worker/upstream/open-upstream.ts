import { HttpError } from "../response/json-error.ts";
import type { SendRequest } from "../runtime.ts";
import type { ProviderHttpRequest } from "./providers/upstream-provider.ts";
import type { ResponseWatch } from "./response-watch.ts";
import type { WatchedBody } from "./watched-body.ts";
import { geminiInteractionsResumingBody } from "../../src/gemini-interactions.ts";
import { contextOverflowError, contextOverflowIn } from "./context-overflow.ts";
import { limitRefusal } from "./limit-refusal.ts";
import { bodyPrefix } from "./body-prefix.ts";
import { labelledPage, proxyRefusal } from "./proxy-refusal.ts";
import { awsErrorType } from "./providers/aws-refusal.ts";

/** Options of {@link openUpstream}. */
export interface OpenUpstreamOptions {
  /** Sends the request: the platform's `fetch`, or the replay upstream. */
  send: SendRequest;
  /** `IDLE_TIMEOUT_MS`, named by the 504 of a provider that sent no headers within it (the clocks are `watch`'s). */
  idleTimeoutMs: number;
  /**
   * The client's cancel (the client's request's own signal where nothing else cancels: no
   * controller of its own per request): its abort aborts the provider request. A timeout aborts
   * the request without aborting this, so the events end with an `error` rather than a
   * `cancelled` abort.
   */
  signal?: AbortSignal | undefined;
  /** The response's idle timeout and deadline, which the headers are waited for and the body read under. */
  watch: ResponseWatch;
  /**
   * The reader decodes each chunk before it asks for the next (the chain itself): the body is read
   * into one reused buffer (`reusingReader`). Not for a body that is resumed upstream.
   */
  reuse?: boolean;
  /**
   * Called with the content type when the provider answered whole (a `200` of its request's
   * `wholeType`, a server that ignored `stream: true`): the chain must be given that type, whose
   * framing reads the body as one message (the main entry then reads it as the stream it stands for).
   */
  onWhole?: ((contentType: string) => void) | undefined;
  /**
   * The provider's variables, which the 502s name for the operator to check: its key's
   * (`OPENAI_API_KEY`, ...) when it refused the key, its base URL's (`OPENAI_BASE_URL`, ...) when
   * it could not be reached. Never their values (a URL can hold a password or a key in its query).
   */
  variables?:
    | { keyVar: string; baseUrlVar: string; authRefusal?: ((errorType: string | undefined) => string) | undefined }
    | undefined;
}

/**
 * Sends the provider request and returns its body once the provider accepted it, or throws an
 * {@link HttpError} that says what failed, before any byte of the stream is sent:
 *
 * | provider                      | client                          |
 * | ----------------------------- | ------------------------------- |
 * | 401, 403                      | 502 `upstream_auth_failed`, not retried (Bedrock's says which refusal: ./providers/aws-refusal.ts; an HTML page's is a proxy's, `upstream_rejected`: ./proxy-refusal.ts) |
 * | 402, 429, a 400 of a quota    | ./limit-refusal.ts: 429 `upstream_rate_limited`, 402 `upstream_quota_exceeded` (not retried), ... |
 * | 503, 529 (overloaded)         | 503 `upstream_overloaded`, with its wait, from its headers or its body (`/v1/messages`: a 529 stays 529 `overloaded_error`) |
 * | other 5xx, or a 200 not of the request's `responseType` or `wholeType` (or of none) | 502 `upstream_error` |
 * | 4xx refusing a request for a tool turn's reasoning it did not get back | 400 `reasoning_required` |
 * | 4xx refusing a conversation too long for the model's context window | 400 `context_length_exceeded` |
 * | other 400, 422                | 400 `upstream_rejected` (not retried: the same request fails again) |
 * | 404                           | 404 `upstream_rejected` (no such model, or a wrong base URL) |
 * | 413                           | 413 `upstream_rejected`         |
 * | 408                           | 504 `upstream_timeout`          |
 * | 409                           | 502 `upstream_error`            |
 * | other 3xx, 4xx                | 502 `upstream_rejected`, not retried (`x-should-retry: false`) |
 * | network error                 | 502 `upstream_unreachable`      |
 * | an `HttpError` thrown by `send` (the offline scripted model's own failure) | that error |
 * | no headers within the timeout or the response's deadline | 504 `upstream_timeout` |
 *
 * The provider's body is never read into the answer: error bodies can echo the key. A 4xx body's
 * first {@link REFUSAL_BYTES} bytes are read only to tell {@link REASONING_REFUSALS} and context
 * overflows (./context-overflow.ts, whose two numbers alone are carried) apart, which are the
 * client's to fix (a 400 of the Worker's own words, not retried as a 502 is), and a quota from a
 * rate limit (./limit-refusal.ts: codes, the limit counted and the wait alone are carried); a 503's
 * or 529's, for the wait it names.
 */
export async function openUpstream(http: ProviderHttpRequest, options: OpenUpstreamOptions): Promise<WatchedBody> {
  const { signal, idleTimeoutMs, watch } = options;
  const body = JSON.stringify(http.body);
  // Signed before the clock starts: the signature covers the body exactly as it is sent.
  const headers = http.sign ? { ...http.headers, ...(await http.sign(http.url, http.headers, body)) } : http.headers;
  // The provider request's own controller: the client's cancel aborts it, and so do the clocks.
  const request = new AbortController();
  if (signal?.aborted) request.abort(signal.reason);
  else signal?.addEventListener("abort", () => request.abort(signal.reason), { once: true });
  let timedOut: string | undefined;
  // The wait for the headers is a wait on the provider, as a read of its body is: under the
  // watch's idle clock and deadline, its one timer, not a timer of its own.
  const waited = watch.wait();
  const unwatch = watch.onTimeout((error) => {
    timedOut =
      error.code === "idle-timeout" ? `The provider did not answer within ${idleTimeoutMs} ms.` : error.message;
    request.abort(error);
  });
  let response: Response;
  let refusal: HttpError | undefined;
  try {
    // Redirects are not followed: key headers such as `x-api-key` would go along to the new host.
    response = await options.send(
      http.url,
      http.method === "GET"
        ? { method: "GET", headers, signal: request.signal, redirect: "manual" }
        : { method: "POST", headers, body, signal: request.signal, redirect: "manual" },
    );
    // Under the same clocks: a provider that stalls in its error body is cut off as in its headers.
    refusal = await refusalOf(response, request.signal, options.variables?.authRefusal);
  } catch (error) {
    request.abort();
    // A stand-in for the provider (the offline scripted model) that failed itself says so.
    if (error instanceof HttpError && timedOut === undefined && !signal?.aborted) throw error;
    throw timedOut !== undefined
      ? upstream(504, "upstream_timeout", timedOut)
      : upstream(502, "upstream_unreachable", unreachable(options.variables?.baseUrlVar));
  } finally {
    waited();
    unwatch();
  }
  const types = [http.responseType ?? "text/event-stream", http.wholeType];
  const failure = refusal ?? statusError(response, types, options.variables);
  if (failure || !response.body) {
    await response.body?.cancel();
    request.abort();
    throw failure ?? upstream(502, "upstream_error", "The provider answered without a body.", response.status);
  }
  const type = response.headers.get("content-type");
  if (http.wholeType !== undefined && type?.toLowerCase().includes(http.wholeType)) options.onWhole?.(type);
  // Resumed upstream (Gemini Interactions) from its last event when the connection drops: never reused, its chunks keep a cut event's bytes.
  const { resume } = http;
  const watched = watch.body(response.body, RELEASE, options.reuse === true && !resume);
  // The library's resuming body: never after the watch's clocks ran out (a ToolCallStreamError) or the reader stopped.
  return resume
    ? geminiInteractionsResumingBody(watched, { reopen: (point) => openUpstream(resume(point), options) })
    : watched;
}

/**
 * What is done to the provider request once its body is no longer read (the chain let go at the
 * provider's end, the client left, a clock ran out mid-read): nothing but the watch's cancel of the
 * body, which in workerd closes the provider's connection before the answer reaches the client, as
 * an abort of the fetch does (bench/load/provider-release.ts); the abort cost 25,600 instructions a
 * request more (`runAbortSteps`). The client's own signal still aborts the request.
 */
const RELEASE = (): void => {};

function statusError(
  response: Response,
  mediaTypes: readonly (string | undefined)[],
  { keyVar, baseUrlVar }: Partial<NonNullable<OpenUpstreamOptions["variables"]>> = {},
): HttpError | undefined {
  const { status } = response;
  if (status === 401 || status === 403) {
    const secret = keyVar === undefined ? "the provider key secret" : `the \`${keyVar}\` secret`;
    return upstream(502, "upstream_auth_failed", `The provider refused the Worker's API key; check ${secret}.`, status);
  }
  // A limit or an overload (its body, where it had one, was read by refusalOf).
  if (status === 429 || status === 402 || status === 503 || status === 529) return limitRefusal(response, "");
  if (status >= 500) return upstream(502, "upstream_error", "The provider failed to answer.", status);
  // The request's own fault: answered with a 4xx, which SDKs do not retry, as the provider's would not pass.
  if (status === 400 || status === 422)
    return upstream(400, "upstream_rejected", "The provider rejected the request (check the request fields).", status);
  if (status === 404) return upstream(404, "upstream_rejected", noSuchModel(baseUrlVar), status);
  if (status === 413)
    return upstream(413, "upstream_rejected", "The provider refused the request as too large.", status);
  // A provider's 408 (it gave up waiting) and 409 (a conflict of the moment) pass: retried, as the SDKs retry them.
  if (status === 408) return upstream(504, "upstream_timeout", "The provider timed out the request.", status);
  if (status === 409) return upstream(502, "upstream_error", "The provider refused the request for now.", status);
  if (!response.ok) {
    return upstream(
      502,
      "upstream_rejected",
      "The provider rejected the request (check the model and the request fields).",
      status,
    );
  }
  // A 200 without a content type is no more the stream than one of another type (an HTML error
  // page of a proxy, a JSON error of a gateway that forgot the header); a whole answer, where the
  // provider's request names its type, is read as the stream it stands for.
  const type = response.headers.get("content-type")?.toLowerCase();
  if (type === undefined || !mediaTypes.some((mediaType) => mediaType !== undefined && type.includes(mediaType))) {
    return upstream(502, "upstream_error", "The provider did not answer with a stream.", status);
  }
  return undefined;
}

/** How much of a 4xx body is read to recognize a refusal: the providers' error objects are far smaller. */
const REFUSAL_BYTES = 16 * 1024;

/**
 * The refusals of a thinking model whose earlier tool turn came back without its reasoning, as
 * the providers word them: DeepSeek ("The \`reasoning_content\` in the thinking mode must be passed
 * back to the API.", earlier "Missing \`reasoning_content\` field in the assistant message at
 * message index 2", and on its Anthropic endpoint "The \`content[].thinking\` in the thinking mode
 * must be passed back"), Kimi ("thinking is enabled but reasoning_content is missing in assistant
 * tool call message"), Anthropic ("a final \`assistant\` message must start with a thinking block").
 */
const REASONING_REFUSALS: readonly RegExp[] = [
  /`?(reasoning_content|content\[\]\.thinking)`? in the thinking mode must be passed back/i,
  /missing `?reasoning_content`? field/i,
  /reasoning_content is missing/i,
  /must start with a thinking block/i,
];

/**
 * A 400 `reasoning_required` when the provider's 4xx refuses a conversation for a tool turn's
 * missing reasoning: the client dropped it (a Chat Completions client that does not send
 * `reasoning_content` back, thinking blocks or reasoning items left out), and the Worker cannot
 * make it up; a 400 `context_length_exceeded` when it refuses one too long for the model. Else
 * what {@link statusError} gives.
 */
async function refusalOf(
  response: Response,
  signal: AbortSignal,
  authRefusal?: (errorType: string | undefined) => string,
): Promise<HttpError | undefined> {
  const { status } = response;
  if (status === 401 || status === 403) {
    // The refusal's exception type (AWS): the header's, else the body's `__type`; never its message.
    const header = authRefusal ? response.headers.get("x-amzn-errortype") : null;
    const read = labelledPage(response) || (authRefusal !== undefined && header === null);
    const text = read && response.body ? await bodyPrefix(response.body, REFUSAL_BYTES, signal) : "";
    const page = proxyRefusal(response, text); // else the provider's own: Bedrock's says which
    return page || !authRefusal
      ? page
      : upstream(502, "upstream_auth_failed", authRefusal(awsErrorType(header, text)), status);
  }
  // An overload's body is read for the wait it names (Gemini's RetryInfo, a message's "try again in").
  const overload = status === 503 || status === 529;
  if (status < 400 || (status >= 500 && !overload) || status === 401 || status === 403 || !response.body)
    return undefined;
  const text = await bodyPrefix(response.body, REFUSAL_BYTES, signal);
  const limit = limitRefusal(response, text);
  if (limit || overload) return limit;
  if (!REASONING_REFUSALS.some((refusal) => refusal.test(text))) {
    const overflow = contextOverflowIn(text);
    return overflow && contextOverflowError(overflow, status);
  }
  return new HttpError(400, {
    code: "reasoning_required",
    message:
      "The provider requires the reasoning of each earlier assistant turn that made tool calls to come back as it " +
      "streamed, and this request's history lacks it: send the assistant turns back whole (Chat Completions: the " +
      "message's reasoning_content; Messages: its thinking blocks with their signatures; Responses: its reasoning " +
      "items with their encrypted_content; AG-UI: its reasoning messages with their encryptedValue; useChat: its reasoning parts with their providerMetadata). The Worker " +
      "cannot make it up.",
    upstreamStatus: status,
  });
}

/** A 404: no such model, or a base URL without its path (`/v1`), which is a 404 for every model. */
function noSuchModel(baseUrlVar: string | undefined): string {
  const url = baseUrlVar === undefined ? "" : `, and \`${baseUrlVar}\` (unset: the provider's own)`;
  return `The provider knows no such model (or endpoint): check the model${url}.`;
}

function unreachable(baseUrlVar: string | undefined): string {
  return baseUrlVar === undefined
    ? "The provider could not be reached."
    : `The provider could not be reached at the Worker's base URL for it: check \`${baseUrlVar}\` (unset: the provider's own) and that its server is up.`;
}

/**
 * A refusal that no retry cures (the provider refused the Worker's key, or the request as it is) is
 * a 502, the provider's fault as the client sees it, with `x-should-retry: false`: openai-node and
 * @anthropic-ai/sdk obey it before their rule that retries every 5xx (Claude Code's up to 10 times).
 */
function upstream(
  status: number,
  code: "upstream_auth_failed" | "upstream_error" | "upstream_rejected" | "upstream_unreachable" | "upstream_timeout",
  message: string,
  upstreamStatus?: number,
): HttpError {
  const body = upstreamStatus === undefined ? { code, message } : { code, message, upstreamStatus };
  const final = status >= 500 && (code === "upstream_auth_failed" || code === "upstream_rejected");
  return new HttpError(status, body, final ? { "x-should-retry": "false" } : {});
}
