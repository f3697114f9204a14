import { DEFAULT_MAX_TEXT_LENGTH } from "../accumulate/accumulator-options.ts";
import { checkOptionNames } from "../shared/option-names.ts";
import { OpenAIResponseEvents } from "./openai-response-events.ts";
import { RESPONSES_OPTIONS } from "./openai-responses-encoder-stream.ts";
import { TERMINAL_EVENTS, type OpenAIResponse, type OpenAIResponsesEncoderOptions } from "./openai-responses-wire.ts";
import type { EncodableEvent } from "./protocol-encoder.ts";
import { readToAnswer, TextBudget, type AnswerBuilder, type AnswerEvents } from "./read-to-answer.ts";

/**
 * What a non-streaming Responses request gets: the response object, whose `status` says how it
 * ended (`completed`, `incomplete`, or `failed` with its `error`: the library's code and message).
 */
export type OpenAIResponseResult = { type: "response"; response: OpenAIResponse };

/** Options of {@link readOpenAIResponse}. */
export interface OpenAIResponseOptions extends OpenAIResponsesEncoderOptions {
  /**
   * Largest text the response holds: text, reasoning and call arguments together, in characters
   * (UTF-16 code units). Past it the response is `failed` (code `text-too-large`) and the input
   * is cancelled: a response that never ends cannot grow the object without bound.
   * @defaultValue 4194304 (`DEFAULT_MAX_TEXT_LENGTH`)
   */
  maxTextLength?: number | undefined;
}

/** The builder's option names: the encoder's and its text bound (made once, not per answer). */
const RESPONSE_OPTIONS = { ...RESPONSES_OPTIONS, maxTextLength: 0 };

/** Keeps the terminal event's response: the whole output, by construction what a streaming client would have built. */
class OpenAIResponseBuilder implements AnswerBuilder<OpenAIResponseResult> {
  readonly #events: OpenAIResponseEvents;
  readonly #budget: TextBudget;
  #response: OpenAIResponse | undefined;

  constructor(options: OpenAIResponseOptions) {
    checkOptionNames(options, RESPONSE_OPTIONS);
    this.#budget = new TextBudget(options.maxTextLength ?? DEFAULT_MAX_TEXT_LENGTH);
    this.#events = new OpenAIResponseEvents((event) => {
      if (TERMINAL_EVENTS.has(event.type) && "response" in event) this.#response = event.response;
    }, options);
  }

  get settled(): boolean {
    return this.#response !== undefined;
  }

  add(event: EncodableEvent): void {
    if (this.#response) return;
    if (this.#budget.take(event)) this.#events.add(event);
    else this.#events.fail(this.#budget.error);
  }

  result(): OpenAIResponseResult {
    if (!this.#response) this.#events.end();
    return { type: "response", response: this.#response! };
  }
}

/**
 * Reads the events (a `ReadableStream`, an async iterable or an iterable of them, or of their
 * batches: {@link AnswerEvents}; anything else, such as an SDK's stream, is a `TypeError`) to
 * their end and builds the non-streaming Responses answer from them,
 * with the same rules as {@link OpenAIResponsesEncoder} (the same items in the same order, the
 * same ids and usage). Cancelling is the caller's: abort the `signal` given to
 * `streamToolCalls`. Once the response failed (text past `maxTextLength`, a provider error, an
 * abort), it cancels `events` and returns it without reading the rest.
 *
 * @example
 * ```ts
 * const { response } = await readOpenAIResponse(streamToolCalls(upstream, { provider: "anthropic" }), { model: "gpt-5" });
 * return Response.json(response, { status: response.status === "failed" ? 502 : 200 });
 * ```
 */
export function readOpenAIResponse(
  events: AnswerEvents,
  options: OpenAIResponseOptions,
): Promise<OpenAIResponseResult> {
  return readToAnswer(events, new OpenAIResponseBuilder(options), "readOpenAIResponse");
}
