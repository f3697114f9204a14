import { checkOptionNames } from "../shared/option-names.ts";
import { AnthropicMessageEvents } from "./anthropic-message-events.ts";
import type { AnthropicMessagesEncoderOptions, AnthropicStreamEvent } from "./anthropic-messages-wire.ts";
import {
  ProtocolEncoderStream,
  type EncodableEvent,
  type ProtocolEncoder,
  encoderStreamOptions,
  type ProtocolEncoderStreamOptions,
} from "./protocol-encoder.ts";

/**
 * The pure core of {@link AnthropicMessagesEncoderStream}: events to an Anthropic Messages stream,
 * as the API streams it and `@anthropic-ai/sdk`'s `MessageStream`, Claude Code and the AI SDK's
 * Anthropic provider read it. Every frame is `event: <type>` and `data:` with the same `type`.
 *
 * - `message_start` first and once (`content: []`, `usage` with zeros: the provider's counts
 *   come at the end), then the content as blocks with indices 0, 1, 2, ... in the order they
 *   began, one open at a time: `content_block_start`, deltas of the block's own type,
 *   `content_block_stop`. Content of a later block that arrives while an earlier one is open
 *   (parallel calls whose fragments interleave) waits for its turn; nothing is lost or reordered
 *   within a block.
 * - Text is a `text` block of `text_delta`s; reasoning a `thinking` block of `thinking_delta`s,
 *   closed with a `signature_delta` when the provider signed it (Anthropic, Claude on Bedrock);
 *   redacted reasoning a `redacted_thinking` block with the provider's data.
 * - Each call is a `tool_use` block `{id, name, input: {}}` whose arguments travel only as
 *   `input_json_delta` fragments, exactly the text the provider streamed (`{}` for a call
 *   without arguments). A call without an id (Gemini), or whose id was already used, gets a
 *   generated `call_...` id. Calls the provider ran itself (`providerExecuted`) are left out: a
 *   Messages client runs every `tool_use` it sees; but Anthropic's own (`server_tool_use`,
 *   `mcp_tool_use`: their block on `providerMetadata.anthropicBlock`) are those blocks, whole at
 *   their end, their results (`web_search_tool_result`, ...) after them, as Anthropic sends them.
 *   A free-text call (Responses
 *   `custom_tool_call`) is `{"input": <text>}`.
 * - The `finish` becomes one `message_delta` with `stop_reason` (`tool_use` whenever a call was
 *   shown, `max_tokens` if a length limit cut one, else `end_turn`, `max_tokens`, `stop_sequence` or
 *   `refusal`; with `stop_sequence`, the finish's `stopSequence` as `stop_sequence`) and `usage`,
 *   then `message_stop`, after which nothing is written.
 * - A provider error, a `finish` of reason `error` (or `other` right after a call it cut: no
 *   `stop_reason` says so), an abort (or an input that ends without a finish) is an in-band `event: error` with `{"type": "error", "error": {"type": "api_error",
 *   "message"}}` (the library's message and code, never the provider's text; a known kind's type,
 *   a timeout's `timeout_error`: `anthropicError`), and the stream
 *   ends there: never a `message_stop` that would pass a failed response for a complete one.
 *   A call the failure cut short is never stopped (a stopped `tool_use` reads as complete), nor
 *   is an invalid call right before it; what waited behind it (text, a complete call) opens
 *   after it, each block at the next index, and is streamed before the error.
 * - Choices other than the first, a tool loop's later steps and events of other types are not
 *   shown; the stream closes right after the response ended, and input after it is cancelled (`ended`): a loop calls the model no more.
 *
 * @example
 * ```ts
 * const encoder = new AnthropicMessagesEncoder({ model: "claude-sonnet-4-6" });
 * const out: string[] = [];
 * for await (const event of streamToolCalls(response, { provider: "gemini" })) encoder.encode(event, out);
 * encoder.end(out);
 * out.join(""); // 'event: message_start\ndata: {"type":"message_start","message":{...}}\n\n...'
 * ```
 */
export class AnthropicMessagesEncoder implements ProtocolEncoder<EncodableEvent> {
  readonly #events: AnthropicMessageEvents;
  #out: string[] = [];

  /** Creates the core; see {@link AnthropicMessagesEncoderOptions}. */
  constructor(options: AnthropicMessagesEncoderOptions) {
    checkOptionNames(options, MESSAGES_OPTIONS);
    this.#events = new AnthropicMessageEvents((event) => this.#out.push(anthropicFrame(event)), options);
  }

  /** True once its one response ended ({@link ProtocolEncoder.ended}): its stream stops the input, a tool loop's later steps with it. */
  get ended(): boolean {
    return this.#events.ended;
  }

  /** Appends the frames of one event to `out`. */
  encode(event: EncodableEvent, out: string[]): void {
    this.#out = out;
    this.#events.add(event);
  }

  /** Appends what an input that ended without a finish or an abort leaves to say: an error. */
  end(out: string[]): void {
    this.#out = out;
    this.#events.end();
  }
}

/** One Messages SSE frame: the `event:` line names the JSON's `type`, as the SDKs dispatch on it. */
export const anthropicFrame = (event: AnthropicStreamEvent): string =>
  `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

/**
 * Events to an Anthropic Messages stream (`text/event-stream`): put it after `streamToolCalls`
 * to answer `@anthropic-ai/sdk`, Claude Code or any Messages client in any provider's place. See
 * {@link AnthropicMessagesEncoder} for what each event becomes. Takes one event or an array of
 * the events that are ready (one output chunk per array).
 *
 * @example
 * ```ts
 * const body = readyBatches(streamToolCalls(upstream, { provider: "openai", signal: request.signal }))
 *   .pipeThrough(new AnthropicMessagesEncoderStream({ model: "claude-sonnet-4-6" }));
 * return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
 * ```
 */
export class AnthropicMessagesEncoderStream extends ProtocolEncoderStream<EncodableEvent> {
  /** Creates the stage ({@link AnthropicMessagesEncoderOptions}, `joinDeltas`); an option it does not know is a `TypeError`. */
  constructor(options: AnthropicMessagesEncoderOptions & ProtocolEncoderStreamOptions) {
    super(new AnthropicMessagesEncoder(encoderStreamOptions(options, MESSAGES_OPTIONS)), options);
  }
}

/** Every option of {@link AnthropicMessagesEncoderOptions}, typed as its keys (`joinDeltas` is the stage's), which its encoder checks. */
export const MESSAGES_OPTIONS: Record<keyof AnthropicMessagesEncoderOptions, 0> = {
  model: 0,
  id: 0,
  generateId: 0,
  signature: 0,
};
