/**
 * A provider's refusal of a conversation too long for the model's context window, told apart in
 * the first bytes of its 4xx body: an agent answers it by compacting the conversation (Claude
 * Code, Codex), which it can do only when the refusal reaches it as its protocol's own overflow
 * error, not as a provider failure it retries. Only the two numbers are taken from the body.
 *
 * @module
 */
import { HttpError } from "../response/json-error.ts";

/** What a provider said of an overflow: the prompt's tokens and the window, where it said them. */
export interface ContextOverflow {
  /** The tokens the request came to. */
  tokens?: number;
  /** The model's context window, in tokens. */
  maximum?: number;
}

/**
 * The overflows with their numbers, as the providers word them, each with the group of the
 * tokens and of the maximum: Anthropic ("prompt is too long: 210000 tokens > 200000 maximum"),
 * OpenAI and the servers compatible with it, DeepSeek, Groq and vLLM ("This model's maximum
 * context length is 8192 tokens. However, your messages resulted in 9000 tokens" / "you
 * requested 9000 tokens"), Gemini ("The input token count (1200000) exceeds the maximum number
 * of tokens allowed (1048576)"), Mistral ("Prompt contains 40000 tokens ... too large for model
 * with 32768 maximum context length"), Cohere ("too many tokens: ... cannot exceed 4081 -
 * received 5000").
 */
const COUNTED: readonly { pattern: RegExp; tokens: number; maximum: number }[] = [
  { pattern: /prompt is too long:\s*(\d+)\s*tokens\s*>\s*(\d+)\s*maximum/i, tokens: 1, maximum: 2 },
  {
    pattern: /maximum context length is (\d+) tokens[^\d]{0,80}?(?:resulted in|requested|has) (\d+) tokens/i,
    tokens: 2,
    maximum: 1,
  },
  {
    pattern: /input token count \(?(\d+)\)? exceeds the maximum number of tokens allowed \(?(\d+)\)?/i,
    tokens: 1,
    maximum: 2,
  },
  {
    pattern: /prompt contains (\d+) tokens.{0,80}?too large for model with (\d+) maximum context/i,
    tokens: 1,
    maximum: 2,
  },
  { pattern: /too many tokens[^\d]{0,80}?cannot exceed (\d+)\s*-\s*received (\d+)/i, tokens: 2, maximum: 1 },
];

/**
 * The overflows whose wording carries no numbers the Worker reads: OpenAI's `code`
 * (`context_length_exceeded`, its Responses API's too), Anthropic's stop reason
 * `model_context_window_exceeded`, Bedrock's `ValidationException` ("Input is too long for
 * requested model", "too many input tokens"), Cohere's "too many tokens", Ollama's "the input
 * length exceeds the context length", "exceeds the context window" of others.
 */
const WORDED: readonly RegExp[] = [
  /context_length_exceeded/i,
  /model_context_window_exceeded/i,
  /input is too long for requested model/i,
  /too many input tokens/i,
  /too many tokens:/i,
  /input length exceeds the (?:maximum )?context length/i,
  /exceeds the (?:model's )?context (?:window|length)/i,
  /maximum context length is \d+ tokens/i,
  /prompt is too long/i,
];

/** The overflow `text` (a provider's error body, or the start of one) reports, if it reports one. */
export function contextOverflowIn(text: string): ContextOverflow | undefined {
  for (const { pattern, tokens, maximum } of COUNTED) {
    const match = pattern.exec(text);
    if (match) return counted(Number(match[tokens]), Number(match[maximum]));
  }
  return WORDED.some((pattern) => pattern.test(text)) ? {} : undefined;
}

/** Numbers that are no token counts (beyond 2^31, or a "maximum" not below the count) are not carried. */
function counted(tokens: number, maximum: number): ContextOverflow {
  const plausible = (n: number) => Number.isSafeInteger(n) && n > 0 && n < 2 ** 31;
  return plausible(tokens) && plausible(maximum) && tokens > maximum ? { tokens, maximum } : {};
}

/**
 * The 400 `context_length_exceeded` of an overflow, in the Worker's words, with the numbers the
 * provider gave (`promptTokens`, `contextWindow`): each protocol's error shape words it as its
 * clients read an overflow (worker/protocols/openai-error.ts, anthropic-messages/error.ts).
 */
export function contextOverflowError(overflow: ContextOverflow, upstreamStatus?: number): HttpError {
  const { tokens, maximum } = overflow;
  return new HttpError(400, {
    code: "context_length_exceeded",
    message: contextOverflowMessage(overflow),
    ...(tokens !== undefined && maximum !== undefined ? { promptTokens: tokens, contextWindow: maximum } : {}),
    ...(upstreamStatus === undefined ? {} : { upstreamStatus }),
  });
}

/**
 * An overflow in the Worker's words, with the numbers where the provider gave them as "N tokens >
 * M maximum" (Claude Code reads them after "prompt is too long", in the Messages encoder's words).
 */
export function contextOverflowMessage({ tokens, maximum }: ContextOverflow): string {
  return tokens !== undefined && maximum !== undefined
    ? `The conversation is too long for the model's context window: ${tokens} tokens > ${maximum} maximum. Shorten or compact it.`
    : "The conversation is too long for the model's context window. Shorten or compact it.";
}
