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
import { HttpError } from "../response/json-error.ts";
import { rateLimitType, readPayload } from "./provider-error-kind.ts";

/**
 * The longest wait a client is asked to sleep inside the call, in milliseconds. openai-node (6) and
 * @anthropic-ai/sdk sleep whatever `retry-after` / `retry-after-ms` says (openai-node 4 ignored a
 * wait of a minute or more). A longer one, a daily limit's, is no wait to hold a call open for, nor
 * one the SDKs' own backoff (0.5 s, 1 s, ...) outlasts: it goes as `retry-after` alone with
 * `x-should-retry: false`, so the SDKs raise the 429 at once with the wait on it, as Claude Code
 * does itself past 60 s.
 */
const MAX_RETRY_AFTER_MS = 60_000;

/** The codes and exception names of a quota or billing refusal, lower case. */
const QUOTA: ReadonlySet<string> = new Set(["insufficient_quota", "billing_error", "servicequotaexceededexception"]);

/**
 * Anthropic's billing refusals: a 400 `invalid_request_error` told by its words alone, and the
 * spend limits its 429 `rate_limit_error` names in `details.error_code` (an organization's own
 * limit, a contract's), which last until the limit is raised or the month turns. Gemini's 429
 * RESOURCE_EXHAUSTED "Quota exceeded for metric: ..., limit: 0" (a model the project's tier has
 * no quota of, such as a Pro model on the free tier), which says "Please retry in 20s" all the same.
 */
const QUOTA_WORDING =
  /credit balance is too low|"error_code"\s*:\s*"(?:enforced|contract|linked_organization)_spend_limit_reached"|\blimit: 0(?![\d.])/i;

/** The codes of a model that is not ready yet (Bedrock's, a 429 the AWS SDKs retry), which is no rate limit. */
const NOT_READY: ReadonlySet<string> = new Set(["modelnotreadyexception"]);

/**
 * The Worker's answer to a 402, a 429 or a 400 that `text` (the body's start) shows is a limit; none
 * for a 400 of another fault:
 *
 * | provider | client |
 * | --- | --- |
 * | 402; 429 `insufficient_quota`, `billing_error` or a spend limit; `ServiceQuotaExceededException` | 402 `upstream_quota_exceeded`, `x-should-retry: false` |
 * | 429 `ModelNotReadyException` | 503 `upstream_overloaded`, with the wait |
 * | other 429 | 429 `upstream_rate_limited`, its `limit` (`tokens` where the provider says), with the wait |
 *
 * The wait ({@link retryDelayMs}) goes as `retry-after` (seconds) and `retry-after-ms`; one past a
 * minute as `retry-after` with `x-should-retry: false` ({@link waitHeaders}).
 */
export function limitRefusal(response: Response, text: string): HttpError | undefined {
  const { status } = response;
  // A body that is no JSON (a proxy's, a plain-text server's) is read as a message.
  const read = readPayload(parsed(text) ?? { message: text });
  const header = response.headers.get("x-amzn-errortype")?.split(":")[0]?.toLowerCase();
  if (header !== undefined) read.codes.push(header);
  const upstreamStatus = status;
  if (status === 402 || read.codes.some((code) => QUOTA.has(code)) || QUOTA_WORDING.test(text)) {
    const message =
      "The provider refused the request for its account's quota or billing, which waiting does not restore: " +
      "check the plan and billing of the Worker's provider account.";
    return new HttpError(
      402,
      { code: "upstream_quota_exceeded", message, upstreamStatus },
      { "x-should-retry": "false" },
    );
  }
  if (status !== 429) return undefined;
  const headers = waitHeaders(retryDelayMs(response, text));
  if (read.codes.some((code) => NOT_READY.has(code))) {
    const message = "The provider's model is not ready to serve yet; retry later.";
    return new HttpError(503, { code: "upstream_overloaded", message, upstreamStatus }, headers);
  }
  const message = "The provider is rate limiting requests; retry later.";
  const limit = rateLimitType(read);
  return new HttpError(429, { code: "upstream_rate_limited", message, upstreamStatus, limit }, headers);
}

/**
 * The wait as the headers the SDKs read: `retry-after-ms` first, `retry-after` (whole seconds, as
 * Claude Code reads it) for the rest; past {@link MAX_RETRY_AFTER_MS}, `retry-after` and no retry.
 */
export function waitHeaders(ms: number | undefined): Record<string, string> {
  if (ms === undefined) return {};
  const seconds = String(Math.ceil(ms / 1000));
  if (ms > MAX_RETRY_AFTER_MS) return { "retry-after": seconds, "x-should-retry": "false" };
  return { "retry-after": seconds, "retry-after-ms": String(Math.round(ms)) };
}

/**
 * The provider's wait in milliseconds: its `retry-after-ms` (OpenAI's, Azure's), its `Retry-After`
 * in seconds, or as an HTTP date counted from its own `Date` (without one, a date cannot be
 * bounded); else, from `text`, Gemini's `RetryInfo` `retryDelay` ("14s") or the wait its message or
 * OpenAI's and Groq's names ("6.4s", "7m12.5s"). At most nine digits of each unit are read.
 */
export function retryDelayMs(response: Response, text = ""): number | undefined {
  const ms = headerMs(response.headers) ?? bodyMs(text);
  return ms !== undefined && Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

function headerMs(headers: Headers): number | undefined {
  const millis = headers.get("retry-after-ms")?.trim();
  if (millis !== undefined && /^\d{1,9}(?:\.\d{1,6})?$/.test(millis)) return Number(millis);
  const value = headers.get("retry-after")?.trim();
  if (value === undefined) return undefined;
  if (/^\d{1,9}$/.test(value)) return Number(value) * 1000;
  if (value.length > 64 || !/^[A-Za-z0-9 ,:]+$/.test(value)) return undefined;
  const at = Date.parse(value);
  const now = Date.parse(headers.get("date") ?? "");
  return Number.isNaN(at) || Number.isNaN(now) ? undefined : Math.max(0, at - now);
}

/**
 * Gemini's `"retryDelay": "14s"` (a protobuf Duration), or a message's wait as a Go duration:
 * OpenAI's and Groq's "try again in 20ms" / "in 6.4s" (for a daily limit "7m12.864s", "1h2m"),
 * Gemini's "Please retry in 20.04466179s".
 */
const BODY_DELAY =
  /"retryDelay"\s*:\s*"(\d{1,9}(?:\.\d{1,9})?)s"|(?:try again|retry) in (?=\d)(?:(\d{1,9})h)?(?:(\d{1,9})m(?!s))?(?:(\d{1,9}(?:\.\d{1,9})?) ?(ms|s)\b)?/i;

function bodyMs(text: string): number | undefined {
  const match = BODY_DELAY.exec(text);
  if (!match) return undefined;
  if (match[1] !== undefined) return Number(match[1]) * 1000;
  const [, , hours, minutes, amount, unit] = match;
  if (hours === undefined && minutes === undefined && amount === undefined) return undefined;
  const last = amount === undefined ? 0 : Number(amount) * (unit?.toLowerCase() === "ms" ? 1 : 1000);
  return (Number(hours ?? 0) * 60 + Number(minutes ?? 0)) * 60_000 + last;
}

/** The body as JSON, or nothing where it is not (cut at the read's bound, or text). */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
