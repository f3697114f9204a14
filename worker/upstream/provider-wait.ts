/**
 * The wait a provider names in the text of its error (its message, or the body's JSON), and the
 * Worker's words for it in a message a client reads: a rate limit's "Please try again in 6.4s"
 * (OpenAI, Groq), "Please retry in 20.04s" and `"retryDelay": "14s"` (Gemini). Codex reads the wait
 * of a `rate_limit_exceeded` failure inside a stream from its message alone, so the Worker's sentence
 * says it in the form Codex parses (`try again in <seconds>s`).
 *
 * @module
 */

/**
 * Gemini's `"retryDelay": "14s"` (a protobuf Duration), or a message's wait as a Go duration:
 * OpenAI's and Groq's "try again in 20ms" / "in 6.4s" (for a daily limit "7m12.864s", "1h2m"),
 * Gemini's "Please retry in 20.04466179s".
 */
const BODY_DELAY =
  /"retryDelay"\s*:\s*"(\d{1,9}(?:\.\d{1,9})?)s"|(?:try again|retry) in (?=\d)(?:(\d{1,9})h)?(?:(\d{1,9})m(?!s))?(?:(\d{1,9}(?:\.\d{1,9})?) ?(ms|s)\b)?/i;

/** The wait `text` names, in milliseconds; at most nine digits of each unit are read. */
export function waitInText(text: string): number | undefined {
  const match = BODY_DELAY.exec(text);
  if (!match) return undefined;
  if (match[1] !== undefined) return Number(match[1]) * 1000;
  const [, , hours, minutes, amount, unit] = match;
  if (hours === undefined && minutes === undefined && amount === undefined) return undefined;
  const last = amount === undefined ? 0 : Number(amount) * (unit?.toLowerCase() === "ms" ? 1 : 1000);
  return (Number(hours ?? 0) * 60 + Number(minutes ?? 0)) * 60_000 + last;
}

/** The `@type` of google.rpc.RetryInfo, in a Google error's `details` (Gemini's, before its stream and inside it). */
const RETRY_INFO = "type.googleapis.com/google.rpc.RetryInfo";

/** A protobuf Duration in JSON: seconds, up to nine fractional digits, then `s` ("38s", "58.934310785s"). */
const DURATION = /^(\d{1,9}(?:\.\d{1,9})?)s$/;

/** How many of a Google error's `details` are looked through: Gemini sends two or three. */
const DETAILS_READ = 8;

/**
 * The wait, in milliseconds, the RetryInfo among a Google error's `details` names (its
 * `retryDelay`): google.rpc says a client should wait that long before it retries.
 */
export function retryInfoWait(details: readonly unknown[]): number | undefined {
  for (const detail of details.slice(0, DETAILS_READ)) {
    if (typeof detail !== "object" || detail === null) continue;
    const { "@type": type, retryDelay } = detail as Record<string, unknown>;
    const duration = type === RETRY_INFO && typeof retryDelay === "string" ? DURATION.exec(retryDelay) : null;
    if (duration) return Number(duration[1]) * 1000;
  }
  return undefined;
}

/**
 * The longer of two waits a provider named for one refusal: Gemini's RetryInfo says "58s" where its
 * message says "Please retry in 58.934310785s", and a retry before the longer one is refused again.
 */
export function longerWait(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.max(a, b);
}

/** The longest wait a client is asked to sleep inside the call, in milliseconds (see limit-refusal.ts). */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * The longest wait passed on, in milliseconds: a day, a daily limit's (OpenAI's TPD, Gemini's per-day
 * quotas), the longest the providers document; a provider's "999999999" is said as that.
 */
const MAX_WAIT_MS = 86_400_000;

/** `ms` as a wait to pass on: none where it is no number or negative, at most {@link MAX_WAIT_MS}. */
export function boundedWait(ms: number | undefined): number | undefined {
  return ms === undefined || !(ms >= 0) ? undefined : Math.min(ms, MAX_WAIT_MS);
}

/**
 * A wait as the end of a sentence: up to {@link MAX_RETRY_AFTER_MS}, "please try again in 1.898s"
 * (Codex sleeps that long, then retries); a longer one, a daily limit's, in minutes, which Codex does
 * not read as a wait to sleep inside the turn. Bounded by {@link boundedWait}; {@link waitInWords} reads it back.
 */
export function waitWords(wait: number): string {
  const ms = boundedWait(wait) ?? 0;
  if (ms > MAX_RETRY_AFTER_MS) return `it lifts in about ${Math.ceil(ms / 60_000)} minutes`;
  return `please try again in ${Number((ms / 1000).toFixed(3))}s`;
}

const LIFTS_IN = /\bit lifts in about (\d{1,4}) minutes\b/;

/**
 * The wait a sentence of {@link waitWords} says, in milliseconds (the minutes of a long one, rounded
 * up as said): what an answer that was not streamed sends as its headers.
 */
export function waitInWords(sentence: string): number | undefined {
  const minutes = LIFTS_IN.exec(sentence)?.[1];
  return minutes === undefined ? waitInText(sentence) : Number(minutes) * 60_000;
}
