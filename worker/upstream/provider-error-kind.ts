/**
 * What a provider's failure inside its stream is, told from the payload its decoder kept on the
 * `provider-error`'s `data`, before the Worker strips that payload: an overload, a rate limit (with
 * the wait the provider named), a quota or billing refusal, a conversation too long for the model's
 * context window, a request the provider refused as it is (a 4xx, an invalid argument or prompt),
 * or another failure. Each client protocol's
 * encoder writes the kind as its clients act on it (a Messages `overloaded_error`, a Responses
 * `context_length_exceeded`, ...), whatever the provider's own protocol; nothing else of the
 * payload reaches the client. The overflow wording is context-overflow.ts's, the tables of the 4xx
 * bodies.
 *
 * @module
 */
import type { ProviderErrorKind } from "../../src/index.ts";
import { contextOverflowIn, contextOverflowMessage } from "./context-overflow.ts";
import { longerWait, retryInfoWait, waitInText, waitWords } from "./provider-wait.ts";

/** A provider's failure as the Worker tells it: its kind and, for a known kind, the Worker's sentence. */
export interface ClassifiedProviderError {
  /** What the failure is. */
  kind: ProviderErrorKind;
  /** The Worker's sentence for it (an overflow's with the provider's numbers); none for `other`. */
  message?: string;
  /** A rate limit's limit, where the provider said it was one of tokens (else `requests`): OpenAI types its 429 so. */
  limit?: RateLimitType;
}

/** What a rate limit counts, as OpenAI types its 429 (`{"type": "tokens", "code": "rate_limit_exceeded"}`). */
export type RateLimitType = "tokens" | "requests";

/**
 * The codes, types, statuses and exception names the providers document for a rate limit, lower
 * case: Anthropic's `rate_limit_error`, OpenAI's `rate_limit_exceeded` (Chat Completions, Responses
 * and the servers compatible with them), Open Responses' `too_many_requests`, Gemini's
 * `RESOURCE_EXHAUSTED`, Bedrock's `throttlingException`.
 */
const RATE_LIMITED: ReadonlySet<string> = new Set([
  "rate_limit_error",
  "rate_limit_exceeded",
  "too_many_requests",
  "resource_exhausted",
  "throttlingexception",
]);

/**
 * The same for an overload: Anthropic's `overloaded_error`, OpenAI's `server_is_overloaded` and
 * `slow_down` (the codes Codex retries) and `service_unavailable_error`, Gemini's `UNAVAILABLE`,
 * Bedrock's `serviceUnavailableException` and `modelNotReadyException` (a model not ready to serve
 * yet, which the AWS SDKs retry).
 */
const OVERLOADED: ReadonlySet<string> = new Set([
  "overloaded_error",
  "server_is_overloaded",
  "slow_down",
  "service_unavailable_error",
  "unavailable",
  "serviceunavailableexception",
  "modelnotreadyexception",
]);

/**
 * Where a payload says neither, its wording: "overloaded" (Gemini, OpenAI and the servers
 * compatible with it), Ollama's "server busy" (its queue is full), "at capacity"; "rate limit"
 * (Groq, Cohere's trial keys), Cohere's "per minute request limit", "too many requests".
 */
const OVERLOADED_WORDING = /overloaded|server busy|at capacity/i;
const RATE_LIMITED_WORDING = /\brate.?limit|too many requests|request limit/i;

/** Of a message, only its start is read, as context-overflow.ts reads a body's. */
const TEXT_READ = 2048;

const SENTENCES: Readonly<Record<"overloaded" | "rate-limited" | "invalid-request", string>> = {
  overloaded: "The provider is overloaded; retry after a pause.",
  "rate-limited": "The provider's rate limit was reached; retry after a pause.",
  "invalid-request": "The provider refused the request as it is; sent again unchanged, it fails again.",
};

/** The Worker's sentence for a quota or billing refusal, before the stream or inside it. */
export const QUOTA_MESSAGE =
  "The provider refused the request for its account's quota or billing, which waiting does not restore: " +
  "check the plan and billing of the Worker's provider account.";

/**
 * The codes of a quota or billing refusal, lower case: OpenAI's `insufficient_quota`, Anthropic's
 * `billing_error` and the spend limits its 429 `rate_limit_error` names in `details.error_code` (an
 * organization's own limit, a contract's: they last until the limit is raised or the month turns),
 * Bedrock's `ServiceQuotaExceededException`.
 */
const QUOTA: ReadonlySet<string> = new Set([
  "insufficient_quota",
  "billing_error",
  "servicequotaexceededexception",
  "enforced_spend_limit_reached",
  "contract_spend_limit_reached",
  "linked_organization_spend_limit_reached",
]);

/**
 * The same told by words: Anthropic's 400 "credit balance is too low", its spend limits in a body
 * cut before it parses, Gemini's RESOURCE_EXHAUSTED "Quota exceeded for metric: ..., limit: 0" (a
 * model the project's tier has no quota of, such as a Pro model on the free tier), which says
 * "Please retry in 20s" all the same.
 */
const QUOTA_WORDING =
  /credit balance is too low|"error_code"\s*:\s*"(?:enforced|contract|linked_organization)_spend_limit_reached"|\blimit: 0(?![\d.])/i;

/** Whether a refusal (`read`, and `text`: a body's start, else its messages) is one of quota or billing, which waiting does not cure. */
export function quotaRefusal(read: PayloadRead, text = read.text): boolean {
  return read.codes.some((code) => QUOTA.has(code)) || QUOTA_WORDING.test(text);
}

/** The kind of the failure `data` (a `provider-error`'s payload, as its decoder kept it) reports. */
export function classifyProviderError(data: unknown): ClassifiedProviderError {
  const read = readPayload(data);
  if (quotaRefusal(read)) return { kind: "quota-exceeded", message: QUOTA_MESSAGE };
  const coded = read.codes.find((code) => RATE_LIMITED.has(code) || OVERLOADED.has(code));
  if (coded !== undefined) return RATE_LIMITED.has(coded) ? rateLimited(read) : known("overloaded");
  const overflow = contextOverflowIn(`${read.codes.join(" ")} ${read.text}`);
  if (overflow) return { kind: "context-overflow", message: contextOverflowMessage(overflow) };
  if (read.statuses.includes(429)) return rateLimited(read);
  if (read.statuses.some((status) => status === 503 || status === 529)) return known("overloaded");
  // A request at fault (a 4xx, an invalid request) is no overload whatever its message quotes of it;
  // Groq's `tool_use_failed` (a 400 for the model's own malformed call) is the model's, which a retry may cure.
  // So is Bedrock's `modelStreamErrorException` whatever its `originalStatusCode`: AWS documents it as
  // "An error occurred while streaming the response. Retry your request." (HTTP 424 in ConverseStream's
  // reference), Nova's "Model produced invalid sequence as part of ToolUse" is one with a 400 that a
  // retry cures, and peers (LiteLLM's modeled status, the Bedrock providers of agent CLIs) retry it.
  if (read.codes.includes("tool_use_failed") || read.codes.includes("modelstreamerrorexception"))
    return { kind: "other" };
  if (read.statuses.some(clientFault) || read.codes.some((code) => REQUEST_FAULT.has(code)))
    return known("invalid-request");
  if (OVERLOADED_WORDING.test(read.text)) return known("overloaded");
  return RATE_LIMITED_WORDING.test(read.text) ? rateLimited(read) : { kind: "other" };
}

/**
 * What a rate limit counts, where the provider says: OpenAI's (and Groq's) `tokens` type and "on
 * tokens per min (TPM)", Anthropic's "input tokens per minute", Bedrock's "Too many tokens", Gemini's
 * `..._input_token_count` metric; else `requests`, OpenAI's type of every other rate limit.
 */
export function rateLimitType(read: PayloadRead): RateLimitType {
  return read.codes.includes("tokens") || TOKENS_WORDING.test(read.text) ? "tokens" : "requests";
}

const TOKENS_WORDING =
  /\btokens? (?:per|a) (?:min|minute|hour|day)\b|\btokens? (?:has|have) exceeded|\b(?:I|O)?TP[MD]\b|too many tokens|token_count\b/i;

/** A rate limit, with the wait the provider named where it did, in the words Codex reads it in. */
function rateLimited(read: PayloadRead): ClassifiedProviderError {
  const wait = longerWait(read.wait, waitInText(read.text));
  const message =
    wait === undefined ? SENTENCES["rate-limited"] : `The provider's rate limit was reached; ${waitWords(wait)}.`;
  return { kind: "rate-limited", message, limit: rateLimitType(read) };
}

/**
 * A status that puts the fault on the request: 4xx but a rate limit's 429 and those a retry may
 * cure: a timeout's 408 and a conflict's 409 (openai-node and @anthropic-ai/sdk retry both), Google's
 * 499 CANCELLED.
 */
const clientFault = (status: number): boolean => status >= 400 && status < 500 && !RETRYABLE_4XX.has(status);

const RETRYABLE_4XX: ReadonlySet<number> = new Set([408, 409, 429, 499]);

/**
 * The codes of a request at fault: Anthropic's and OpenAI's `invalid_request_error`, OpenAI's
 * `invalid_prompt` (Codex shows it and stops), Gemini's `INVALID_ARGUMENT`, Bedrock's `validationException`.
 */
const REQUEST_FAULT: ReadonlySet<string> = new Set([
  "invalid_request_error",
  "invalid_prompt",
  "invalid_argument",
  "validationexception",
]);

const known = (kind: keyof typeof SENTENCES): ClassifiedProviderError => ({ kind, message: SENTENCES[kind] });

/** What {@link readPayload} takes of a provider's error payload. */
export interface PayloadRead {
  /** The codes, types and exception names, lower case. */
  codes: string[];
  /** The HTTP statuses it names. */
  statuses: number[];
  /** The start of its messages. */
  text: string;
  /** The wait, in milliseconds, its Google RetryInfo names (in an `error.details` array). */
  wait?: number;
}

/**
 * The codes, statuses and messages of a provider's error payload (a `provider-error`'s data, or
 * the JSON body of a refusal before the stream), bounded as {@link classifyProviderError} reads them.
 */
export function readPayload(data: unknown): PayloadRead {
  const read: PayloadRead = { codes: [], statuses: [], text: "" };
  collect(data, read, 0);
  return read;
}

/**
 * The codes, statuses and messages of a payload, in the shapes the providers send: a code or type
 * (`type`, `code`, `status`, Anthropic's `details.error_code`), an HTTP status as a number (Gemini's
 * and OpenRouter's `code`, vLLM's, Bedrock's `originalStatusCode`), a message (`message`, Bedrock's
 * `originalMessage`, Ollama's and Cohere's `error` text), Bedrock's exception name as the key of
 * its detail, and the wait of a Google RetryInfo in a `details` array; nested only in `error`
 * members, `details` objects and exceptions, three levels at most.
 */
function collect(value: unknown, read: PayloadRead, depth: number): void {
  if (depth > 3 || typeof value !== "object" || value === null || Array.isArray(value)) return;
  for (const [key, field] of Object.entries(value)) {
    if (typeof field === "string") {
      if (key === "message" || key === "originalMessage" || key === "error")
        read.text = `${read.text} ${field.slice(0, TEXT_READ)}`.slice(0, 2 * TEXT_READ);
      else if (key === "type" || key === "code" || key === "status" || key === "error_code")
        read.codes.push(field.toLowerCase());
    } else if (typeof field === "number") {
      if (key === "code" || key === "status" || key === "originalStatusCode") read.statuses.push(field);
    } else if (key === "details" && Array.isArray(field)) {
      const wait = read.wait ?? retryInfoWait(field);
      if (wait !== undefined) read.wait = wait;
    } else {
      const exception = /exception$/i.test(key);
      if (exception) read.codes.push(key.toLowerCase());
      if (exception || key === "error" || key === "details") collect(field, read, depth + 1);
    }
  }
}
