// classifyProviderError on its own: what it reads of a payload and what it does not (the
// providers' shapes through the Worker are in in-stream-error-kinds.test.ts).
import { describe, expect, it } from "vitest";
import { classifyProviderError } from "../../worker/upstream/provider-error-kind.ts";

describe("classifyProviderError", () => {
  it("a payload that is no object, or says nothing it knows, is other, without a sentence", () => {
    for (const data of [undefined, null, "overloaded", 429, ["rate limit"], {}, { error: { type: "api_error" } }])
      expect(classifyProviderError(data)).toEqual({ kind: "other" });
  });

  it("a documented code outweighs the wording: a rate limit worded as an overload is a rate limit", () => {
    expect(classifyProviderError({ error: { type: "rate_limit_error", message: "Overloaded" } }).kind).toBe(
      "rate-limited",
    );
    expect(classifyProviderError({ ThrottlingException: { message: "The server is overloaded" } }).kind).toBe(
      "rate-limited",
    );
  });

  it("a quota or billing refusal (waiting does not cure it) is no rate limit, whatever its code", () => {
    const quotas = [
      {
        error: { type: "insufficient_quota", code: "insufficient_quota", message: "You exceeded your current quota." },
      },
      { type: "error", error: { type: "billing_error", message: "Your credit balance is too low." } },
      // Anthropic's spend limit is a 429 rate_limit_error that names itself in its details.
      { type: "error", error: { type: "rate_limit_error", details: { error_code: "enforced_spend_limit_reached" } } },
      // Gemini's RESOURCE_EXHAUSTED of a model the tier has no quota of, which names a wait all the same.
      {
        error: {
          code: 429,
          status: "RESOURCE_EXHAUSTED",
          message: "Quota exceeded for metric: x, limit: 0, model: gemini-x. Please retry in 20s.",
        },
      },
    ];
    for (const data of quotas) expect(classifyProviderError(data).kind).toBe("quota-exceeded");
    expect(classifyProviderError(quotas[0]).message).toMatch(/quota or billing/);
    expect(classifyProviderError(quotas[0]).message).not.toMatch(/current quota/);
  });

  it("a rate limit says the wait the provider named, as Codex reads it (try again in <s>s); past a minute, not as one to sleep", () => {
    const said = (message: string) =>
      classifyProviderError({ error: { code: "rate_limit_exceeded", message } }).message;
    expect(said("Rate limit reached. Please try again in 1.898s. Visit org-SECRET")).toBe(
      "The provider's rate limit was reached; please try again in 1.898s.",
    );
    expect(said("Please try again in 20ms.")).toBe("The provider's rate limit was reached; please try again in 0.02s.");
    expect(said("Please try again in 7m12.864s.")).toBe(
      "The provider's rate limit was reached; it lifts in about 8 minutes.",
    );
    expect(said("Slow down.")).toBe("The provider's rate limit was reached; retry after a pause.");
  });

  it("Gemini's RetryInfo in error.details names the wait; the longer of it and the message's is said", () => {
    const said = (message: string, retryDelay: unknown) =>
      classifyProviderError({
        error: {
          code: 429,
          status: "RESOURCE_EXHAUSTED",
          message,
          details: [
            { "@type": "type.googleapis.com/google.rpc.Help", links: [] },
            { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay },
          ],
        },
      }).message;
    expect(said("Quota exceeded.", "38s")).toBe("The provider's rate limit was reached; please try again in 38s.");
    expect(said("Please retry in 58.934310785s.", "58s")).toBe(
      "The provider's rate limit was reached; please try again in 58.934s.",
    );
    expect(said("Please retry in 2s.", "9.5s")).toBe(
      "The provider's rate limit was reached; please try again in 9.5s.",
    );
    // No Duration: a negative, a number, an exponent or another unit is no wait.
    for (const delay of ["-5s", 5, "1e3s", "5m", ""])
      expect(said("Quota exceeded.", delay)).toBe("The provider's rate limit was reached; retry after a pause.");
  });

  it("an overflow carries the provider's numbers in the Worker's sentence, and nothing else of its message", () => {
    const { kind, message } = classifyProviderError({
      error: {
        type: "invalid_request_error",
        message: "prompt is too long: 210000 tokens > 200000 maximum (req_SECRET)",
      },
    });
    expect(kind).toBe("context-overflow");
    expect(message).toContain("210000 tokens > 200000 maximum");
    expect(message).not.toContain("SECRET");
  });

  it("a request at fault is no overload nor rate limit, whatever its message quotes of the request: an invalid request", () => {
    const faults = [
      { error: { code: 400, status: "INVALID_ARGUMENT", message: "Invalid function name 'rate_limit_lookup'." } },
      { type: "error", error: { type: "invalid_request_error", message: "tools.0: 'server busy' is no name." } },
      { error: { code: 404, message: "No model 'overloaded-test' found." } },
    ];
    // Sent again unchanged, it fails again: Codex stops on its `invalid_prompt`, the SDKs on a 400.
    for (const data of faults)
      expect(classifyProviderError(data)).toEqual({
        kind: "invalid-request",
        message: "The provider refused the request as it is; sent again unchanged, it fails again.",
      });
    // Groq's 400 for the model's own malformed call is the model's fault, which a retry may cure.
    const groq = { error: { type: "invalid_request_error", code: "tool_use_failed", status_code: 400 } };
    expect(classifyProviderError(groq)).toEqual({ kind: "other" });
    // An overflow is a 400 too, and stays one; a 429 is still a rate limit.
    const overflow = { error: { type: "invalid_request_error", message: "prompt is too long: 9 tokens > 8 maximum" } };
    expect(classifyProviderError(overflow).kind).toBe("context-overflow");
    expect(classifyProviderError({ error: { code: 429, message: "Overloaded" } }).kind).toBe("rate-limited");
  });

  it("a 4xx a retry may cure (408, 409, Google's 499 CANCELLED) is no invalid request: the SDKs retry 408 and 409", () => {
    const retryable = [
      { error: { code: 408, message: "Request timed out." } },
      { error: { code: 409, status: "ABORTED", message: "The operation was aborted." } },
      { error: { code: 499, status: "CANCELLED", message: "The operation was cancelled." } },
    ];
    for (const data of retryable) expect(classifyProviderError(data)).toEqual({ kind: "other" });
  });

  it("words are whole: a 'moderate limit' is no rate limit", () => {
    expect(classifyProviderError({ error: "The moderate limit of the filter was reached." }).kind).toBe("other");
  });

  it("reads only the start of a message and three levels of nesting", () => {
    expect(classifyProviderError({ error: `${"x".repeat(5000)} rate limit` }).kind).toBe("other");
    const deep = { error: { error: { error: { error: { error: { type: "overloaded_error" } } } } } };
    expect(classifyProviderError(deep).kind).toBe("other");
    expect(classifyProviderError({ error: { error: { type: "overloaded_error" } } }).kind).toBe("overloaded");
  });
});
