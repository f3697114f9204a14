/**
 * A provider's refusal for a limit, before its stream: a rate limit that passes (429, retried after
 * the provider's delay), or a quota or billing refusal that waiting does not cure (OpenAI's 429
 * `insufficient_quota`, any 402, Bedrock's `ServiceQuotaExceededException`), which clients must not
 * retry: openai-node and @anthropic-ai/sdk retry every 429 (and 5xx) unless `x-should-retry: false`
 * says no. Read from the status, the headers and the first
 * bytes of the body (its codes, never its text, reach the answer: it can name the account).
 *
 * @module
 */
import { longMemberName } from "../../src/core.ts";
import { HttpError } from "../response/json-error.ts";
import { QUOTA_MESSAGE, quotaRefusal, type RateLimitType, rateLimitType, readPayload } from "./provider-error-kind.ts";
import { boundedWait, longerWait, MAX_RETRY_AFTER_MS, waitInText } from "./provider-wait.ts";

/** The codes of a model that is not ready yet (Bedrock's, a 429 the AWS SDKs retry), which is no rate limit. */
const NOT_READY: ReadonlySet<string> = new Set(["modelnotreadyexception"]);

/**
 * The Worker's answer to a 402, a 429, a 503 or 529 (an overload), or a 400 that `text` (the body's
 * start) shows is a limit; none for a 400 of another fault:
 *
 * | provider | client |
 * | --- | --- |
 * | 503, 529 | 503 `upstream_overloaded` (`/v1/messages`: a 529 stays 529 `overloaded_error`), with the wait |
 * | 402; a quota or billing refusal (provider-error-kind.ts's `quotaRefusal`) | 402 `upstream_quota_exceeded`, `x-should-retry: false` |
 * | 429 `ModelNotReadyException` | 503 `upstream_overloaded`, with the wait |
 * | other 429 | 429 `upstream_rate_limited`, its `limit` (`tokens` where the provider says), with the wait |
 *
 * The wait ({@link retryDelayMs}: the provider's headers, else its body's RetryInfo or words; a
 * 429's, else the reset of the limit it hit, {@link resetWait}) goes
 * as `retry-after` (seconds) and `retry-after-ms`; one past a minute as `retry-after` with
 * `x-should-retry: false` ({@link waitHeaders}); a day at most.
 */
export function limitRefusal(response: Response, text: string): HttpError | undefined {
  const { status } = response;
  // A body that is no JSON (a proxy's, a plain-text server's) is read as a message.
  const read = readPayload(parsed(text) ?? { message: text });
  const header = response.headers.get("x-amzn-errortype")?.split(":")[0]?.toLowerCase();
  if (header !== undefined) read.codes.push(header);
  const upstreamStatus = status;
  if (status === 503 || status === 529) {
    // Overloaded for now: retried, after the provider's wait where it gave one (its headers, else its body).
    const message = "The provider is overloaded or unavailable for now; retry later.";
    const headers = waitHeaders(retryDelayMs(response, text, read.wait));
    return new HttpError(503, { code: "upstream_overloaded", message, upstreamStatus }, headers);
  }
  if (status === 402 || quotaRefusal(read, text)) {
    const message = QUOTA_MESSAGE;
    return new HttpError(
      402,
      { code: "upstream_quota_exceeded", message, upstreamStatus },
      { "x-should-retry": "false" },
    );
  }
  if (status !== 429) return undefined;
  const wait = retryDelayMs(response, text, read.wait);
  if (read.codes.some((code) => NOT_READY.has(code))) {
    const message = "The provider's model is not ready to serve yet; retry later.";
    return new HttpError(503, { code: "upstream_overloaded", message, upstreamStatus }, waitHeaders(wait));
  }
  const message = "The provider is rate limiting requests; retry later.";
  const limit = rateLimitType(read);
  const headers = waitHeaders(wait ?? resetWait(response.headers, limit));
  return new HttpError(429, { code: "upstream_rate_limited", message, upstreamStatus, limit }, headers);
}

/**
 * The wait as the headers the SDKs read: `retry-after-ms` first, `retry-after` (whole seconds, as
 * Claude Code reads it) for the rest; past {@link MAX_RETRY_AFTER_MS}, `retry-after` and no retry.
 */
export function waitHeaders(wait: number | undefined): Record<string, string> {
  const bounded = boundedWait(wait);
  if (bounded === undefined) return {};
  // Whole milliseconds rounded up, as the seconds are: a positive wait is never said as 0 (the AI
  // SDK retries at once on 0). Rounded to the microsecond first: "2.007s" read is 2007.0000000000002.
  const ms = Math.ceil(Math.round(bounded * 1000) / 1000);
  const seconds = String(Math.ceil(ms / 1000));
  if (ms > MAX_RETRY_AFTER_MS) return { "retry-after": seconds, "x-should-retry": "false" };
  return { "retry-after": seconds, "retry-after-ms": String(ms) };
}

/**
 * The provider's wait in milliseconds: its `retry-after-ms` (OpenAI's, Azure's), its `Retry-After`
 * in seconds (fractional ones too), or as an HTTP date counted from its own `Date` (without one, a date cannot be
 * bounded); else the longer of `retryInfo` (the wait of Gemini's RetryInfo in the parsed body) and
 * the wait `text` names: Gemini's `retryDelay` ("14s"), its message's or OpenAI's and Groq's ("6.4s",
 * "7m12.5s"). At most nine digits of each unit are read.
 */
export function retryDelayMs(response: Response, text = "", retryInfo?: number): number | undefined {
  return boundedWait(headerMs(response.headers) ?? longerWait(retryInfo, waitInText(text)));
}

/**
 * Where a 429 names no wait of its own, the reset of the limit it hit, from OpenAI's rate-limit
 * headers (`x-ratelimit-reset-requests: 1s`, `x-ratelimit-reset-tokens: 6m0s`, Go durations, which
 * OpenAI-compatible servers send too, some without `Retry-After`): the limit whose
 * `x-ratelimit-remaining-*` is 0 (the longer reset if both are), else the one the body typed it by.
 * openai-node and @anthropic-ai/sdk read only `retry-after-ms` and `retry-after`, and without them
 * retry after 0.5 to 8 s, before a limit that resets later lets them through. The reset is when the
 * limit is whole again, no sooner than a retry could pass: one past {@link MAX_RETRY_AFTER_MS}, or
 * of 0, is not passed on (a token limit refills as it goes), and the SDKs keep their own backoff.
 */
function resetWait(headers: Headers, limit: RateLimitType): number | undefined {
  const reset = (kind: RateLimitType) => goDurationMs(headers.get(`x-ratelimit-reset-${kind}`));
  const spent = KINDS.filter((kind) => headers.get(`x-ratelimit-remaining-${kind}`)?.trim() === "0");
  const waits = (spent.length > 0 ? spent : [limit]).map(reset).filter((ms) => ms !== undefined);
  const wait = waits.length === 0 ? undefined : Math.max(...waits);
  // A reset of 0 says nothing (Azure's Responses API answers `x-ratelimit-reset-tokens: 0` beside
  // remaining counts of -1): said as a wait, the SDKs would retry at once rather than back off.
  return wait !== undefined && wait > 0 && wait <= MAX_RETRY_AFTER_MS ? wait : undefined;
}

const KINDS: readonly RateLimitType[] = ["requests", "tokens"];

/** A Go duration ("20ms", "1.5s", "6m0s", "1h2m3s"), or plain seconds, in milliseconds; at most nine digits a unit. */
const GO_DURATION = /^(?:(\d{1,9})h)?(?:(\d{1,9})m(?!s))?(?:(\d{1,9}(?:\.\d{1,9})?)(ms|s)?)?$/;

function goDurationMs(value: string | null): number | undefined {
  const match = value === null ? null : GO_DURATION.exec(value.trim());
  if (!match || match[0] === "") return undefined;
  const [, hours, minutes, amount, unit] = match;
  // A bare number is seconds (Retry-After's unit); a unit-less amount after h or m is no Go duration.
  if (amount !== undefined && unit === undefined && (hours !== undefined || minutes !== undefined)) return undefined;
  const last = amount === undefined ? 0 : Number(amount) * (unit === "ms" ? 1 : 1000);
  return (Number(hours ?? 0) * 60 + Number(minutes ?? 0)) * 60_000 + last;
}

function headerMs(headers: Headers): number | undefined {
  const millis = headers.get("retry-after-ms")?.trim();
  if (millis !== undefined && /^\d{1,9}(?:\.\d{1,6})?$/.test(millis)) return Number(millis);
  const value = headers.get("retry-after")?.trim();
  if (value === undefined) return undefined;
  // Seconds, fractional ones too ("1.898"), as openai-node, @anthropic-ai/sdk and the AI SDK read it.
  if (/^\d{1,9}(?:\.\d{1,9})?$/.test(value)) return Number(value) * 1000;
  if (value.length > 64 || !/^[A-Za-z0-9 ,:]+$/.test(value)) return undefined;
  const at = Date.parse(value);
  const now = Date.parse(headers.get("date") ?? "");
  return Number.isNaN(at) || Number.isNaN(now) ? undefined : Math.max(0, at - now);
}

/**
 * The body as JSON, or nothing where it is not (cut at the read's bound, or text), nor where it has
 * a member name V8 parses in quadratic time (src/shared/long-member-name.ts): then read as text.
 */
function parsed(text: string): unknown {
  if (longMemberName(text) !== undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
