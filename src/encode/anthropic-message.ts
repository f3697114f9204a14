import { DEFAULT_MAX_TEXT_LENGTH } from "../accumulate/accumulator-options.ts";
import { checkOptionNames } from "../shared/option-names.ts";
import { AnthropicMessageEvents } from "./anthropic-message-events.ts";
import { MESSAGES_OPTIONS } from "./anthropic-messages-encoder-stream.ts";
import {
  anthropicError,
  type AnthropicError,
  type AnthropicMessage,
  type AnthropicMessagesEncoderOptions,
  type AnthropicStreamEvent,
} from "./anthropic-messages-wire.ts";
import type { EncodableEvent } from "./protocol-encoder.ts";
import { readToAnswer, TextBudget, type AnswerBuilder, type AnswerEvents } from "./read-to-answer.ts";
import { parseStrictJsonText } from "../shared/long-member-name.ts";
import { wholeOfCutJson } from "../json/cut-json.ts";
import { jsonErrorPosition } from "../json/json-error-position.ts";
import { isRecord } from "../shared/values.ts";

/** What a non-streaming Messages request gets: the message, or the error that kept it from finishing. */
export type AnthropicMessageResult =
  /** The response finished: the `message` object to send as JSON. */
  | { type: "message"; message: AnthropicMessage }
  /** A provider error, a failed response, an abort or a response past the limit: the `error` member of the body to send. */
  | { type: "error"; error: AnthropicError };

/** Options of {@link readAnthropicMessage}. */
export interface AnthropicMessageOptions extends AnthropicMessagesEncoderOptions {
  /**
   * Largest text the message holds: text, reasoning and call arguments together, in characters
   * (UTF-16 code units). Past it the result is an error and the input is cancelled: a response
   * that never ends cannot grow the object without bound.
   * @defaultValue 4194304 (`DEFAULT_MAX_TEXT_LENGTH`)
   */
  maxTextLength?: number | undefined;
}

/** The builder's option names: the encoder's and its text bound (made once, not per answer). */
const MESSAGE_OPTIONS = { ...MESSAGES_OPTIONS, maxTextLength: 0 };

/**
 * The Messages stream events applied to a message, as `@anthropic-ai/sdk`'s `MessageStream`
 * applies them: so the non-streaming object is, by construction, what a streaming client of the
 * same events would have built.
 */
class AnthropicMessageBuilder implements AnswerBuilder<AnthropicMessageResult> {
  readonly #events: AnthropicMessageEvents;
  readonly #budget: TextBudget;
  readonly #json: string[] = [];
  #message: AnthropicMessage | undefined;
  #result: AnthropicMessageResult | undefined;

  constructor(options: AnthropicMessageOptions) {
    checkOptionNames(options, MESSAGE_OPTIONS);
    this.#budget = new TextBudget(options.maxTextLength ?? DEFAULT_MAX_TEXT_LENGTH);
    this.#events = new AnthropicMessageEvents((event) => this.#apply(event), options);
  }

  get settled(): boolean {
    return this.#result !== undefined;
  }

  add(event: EncodableEvent): void {
    if (this.#result) return;
    if (!this.#budget.take(event)) this.#result = { type: "error", error: anthropicError(this.#budget.error) };
    else this.#events.add(event);
  }

  result(): AnthropicMessageResult {
    if (!this.#result) this.#events.end();
    return this.#result!;
  }

  #apply(event: AnthropicStreamEvent): void {
    const message = this.#message;
    if (event.type === "message_start") this.#message = { ...event.message, content: [] };
    else if (event.type === "error") this.#result = { type: "error", error: event.error };
    else if (!message) return;
    else if (event.type === "content_block_start") {
      message.content.push({ ...event.content_block });
      this.#json.length = 0;
    } else if (event.type === "content_block_delta") {
      const block = message.content[event.index]!;
      const delta = event.delta;
      if (block.type === "text" && delta.type === "text_delta") block.text += delta.text;
      else if (block.type === "thinking" && delta.type === "thinking_delta") block.thinking += delta.thinking;
      else if (block.type === "thinking" && delta.type === "signature_delta") block.signature = delta.signature;
      else if (block.type === "tool_use" && delta.type === "input_json_delta") this.#json.push(delta.partial_json);
      else if (block.type === "text" && delta.type === "citations_delta")
        block.citations = [...(block.citations ?? []), delta.citation];
    } else if (event.type === "content_block_stop") {
      const block = message.content[event.index]!;
      if (block.type === "tool_use") block.input = parseInput(this.#json.join(""));
    } else if (event.type === "message_delta") {
      message.stop_reason = event.delta.stop_reason;
      message.stop_sequence = event.delta.stop_sequence;
      if (event.delta.container) message.container = event.delta.container;
      message.stop_details = event.delta.stop_details;
      // As the SDK's MessageStream: the delta's counts replace those of the start, the others stay.
      message.usage = { ...message.usage, ...event.usage };
    } else if (event.type === "message_stop") this.#result = { type: "message", message };
  }
}

/**
 * A call's input: its JSON object; of arguments cut short (a length or filter stop inside them)
 * the part that is whole, an object; arguments that are not JSON (an invalid call) stay as their text.
 */
function parseInput(text: string): unknown {
  try {
    return parseStrictJsonText(text);
  } catch {
    // Cut short, the text is no value, and Messages types `input` as an object: what the SDK's
    // MessageStream reads of the same `partial_json`, `{}` when no member was whole. A string
    // there is a call whose input is a string (the AI SDK's generateText runs it); `stop_reason`
    // (`max_tokens`, `refusal`) says the call was cut.
    if (jsonErrorPosition(text) === text.length) {
      const whole = wholeOfCutJson(text);
      return isRecord(whole) ? whole : {};
    }
    // The model's own text, as the stream sent it: the client sees what the model wrote.
    return text;
  }
}

/**
 * Reads the events (a `ReadableStream`, an async iterable or an iterable of them, or of their
 * batches: {@link AnswerEvents}; anything else, such as an SDK's stream, is a `TypeError`) to
 * their end and builds the non-streaming Messages response from them,
 * with the same rules as {@link AnthropicMessagesEncoder} (the same blocks in the same order, the
 * same ids, `stop_reason` and usage). Cancelling is the caller's: abort the `signal` given to
 * `streamToolCalls`. Once the answer can only be an error (text past `maxTextLength`, a provider
 * error, an abort), it cancels `events` and returns the error without reading the rest.
 *
 * @example
 * ```ts
 * const result = await readAnthropicMessage(streamToolCalls(upstream, { provider: "gemini" }), { model: "claude-sonnet-4-6" });
 * if (result.type === "message") return Response.json(result.message);
 * return Response.json({ type: "error", error: result.error }, { status: 502 });
 * ```
 */
export function readAnthropicMessage(
  events: AnswerEvents,
  options: AnthropicMessageOptions,
): Promise<AnthropicMessageResult> {
  return readToAnswer(events, new AnthropicMessageBuilder(options), "readAnthropicMessage");
}
