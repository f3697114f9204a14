import { TERMINAL_EVENTS, type OpenAIResponsesEncoderOptions } from "./openai-responses-wire.ts";
import type { OpenAIResponsesStreamEvent } from "./openai-responses-stream-events.ts";
import { OpenAIResponseEvents } from "./openai-response-events.ts";
import { checkOptionNames } from "../shared/option-names.ts";
import {
  ProtocolEncoderStream,
  type EncodableEvent,
  type ProtocolEncoder,
  encoderStreamOptions,
  type ProtocolEncoderStreamOptions,
} from "./protocol-encoder.ts";

/**
 * The pure core of {@link OpenAIResponsesEncoderStream}: events to an OpenAI Responses stream, as
 * the API streams it and openai-node's `ResponseStream`, Codex, the Agents SDK and the AI SDK's
 * Responses model read it. Every frame is `event: <type>` and `data:` with the same `type` and
 * a `sequence_number` that counts from 0.
 *
 * - `response.created`, then `response.in_progress` (the response with `status: "in_progress"`
 *   and no output).
 * - The content as output items appended one at a time (`output_index` 0, 1, 2, ... in the order
 *   they began), each `response.output_item.added`, its events (all with its `item_id` and
 *   `output_index`), `response.output_item.done` with the complete item. Content of a later
 *   item that arrives while an earlier one is open (parallel calls whose fragments interleave)
 *   waits for its turn; nothing is lost or reordered within an item.
 * - Text is a `message` item with one `output_text` part (`content_part.added`,
 *   `output_text.delta`, `output_text.done`, `content_part.done`); reasoning a `reasoning` item
 *   with one summary part (`reasoning_summary_part.added`, `reasoning_summary_text.delta`,
 *   `.done`, `reasoning_summary_part.done`) and `encrypted_content` when the provider gave one
 *   (see `encryptedContent` to carry another provider's state). Raw reasoning (a
 *   `reasoning-delta` with `field: "content"`, gpt-oss's) is written as summary too: OpenAI names
 *   its events `reasoning_text.*`, Open Responses `reasoning.*`, and every client reads a summary.
 * - Each call is a `function_call` item (`call_id`, `name`), its arguments as
 *   `function_call_arguments.delta` then `.done` with the whole text; a free-text call a
 *   `custom_tool_call` (`custom_tool_call_input.delta`, `.done`). A call without an id (Gemini),
 *   or whose id was already used, gets a generated `call_...` id; calls the provider ran itself
 *   (`providerExecuted`) are left out: a Responses client runs every call it sees.
 * - The `finish` becomes `response.completed` (or `response.incomplete` with
 *   `incomplete_details` for a length or content-filter stop, the item it cut `incomplete`, a call
 *   it left invalid too, never `completed`, which says it may be run) with
 *   the whole `output` and integer `usage`. A provider error, a `finish` of reason `error`, an
 *   abort (or an input that ends without a finish) is `response.failed` with
 *   `error: {code, message}` (the library's, never the provider's text), after an `error` event
 *   with the same code (`error: {type, code, message, param}`): an open message or
 *   reasoning item is closed first with `status: "completed"` (Open Responses keeps `incomplete`
 *   for incomplete responses), and a call cut short is discarded: never sent `output_item.done`
 *   (Codex runs every call it is sent done) and not in the failed output; what waited behind it
 *   (text, reasoning, a complete call) is written and done then, and listed. Nothing is written
 *   after the terminal event but `data: [DONE]`.
 * - Choices other than the first, a tool loop's later steps and events of other types are not
 *   shown; the stream closes right after the response ended, and input after it is cancelled (`ended`): a loop calls the model no more.
 *
 * @example
 * ```ts
 * const encoder = new OpenAIResponsesEncoder({ model: "gpt-5" });
 * const out: string[] = [];
 * for await (const event of streamToolCalls(response, { provider: "anthropic" })) encoder.encode(event, out);
 * encoder.end(out);
 * out.join(""); // 'event: response.created\ndata: {"type":"response.created","sequence_number":0,...}\n\n...'
 * ```
 */
export class OpenAIResponsesEncoder implements ProtocolEncoder<EncodableEvent> {
  readonly #events: OpenAIResponseEvents;
  #out: string[] = [];
  /** The JSON of `response.created`'s response, until `response.in_progress` (the same response, unchanged) reuses it. */
  #started: string | undefined;

  /** Creates the core; see {@link OpenAIResponsesEncoderOptions}. */
  constructor(options: OpenAIResponsesEncoderOptions) {
    checkOptionNames(options, RESPONSES_OPTIONS);
    this.#events = new OpenAIResponseEvents((event) => this.#out.push(this.#frame(event)), options);
  }

  /**
   * {@link responsesFrame}, but the response of `response.created` is written to JSON once:
   * `response.in_progress` follows it at once with the same response object, unchanged
   * (`OpenAIResponseEvents`' start), and each is the whole response (its tools and their schemas).
   */
  #frame(event: OpenAIResponsesStreamEvent): string {
    if (event.type === "response.created") {
      const json = JSON.stringify(event.response);
      this.#started = json;
      return startFrame(event.type, event.sequence_number, json);
    }
    const json = this.#started;
    if (json === undefined) return responsesFrame(event);
    this.#started = undefined;
    return event.type === "response.in_progress"
      ? startFrame(event.type, event.sequence_number, json)
      : responsesFrame(event);
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

  /** Appends what an input that ended without a finish or an abort leaves to say: `response.failed`. */
  end(out: string[]): void {
    this.#out = out;
    this.#events.end();
  }
}

/**
 * One Responses SSE frame: the `event:` line names the JSON's `type`. The terminal event is
 * followed by `data: [DONE]`: "The terminal event MUST be the literal string `[DONE]`" (Open
 * Responses), which openai-node, the AI SDK and Codex skip.
 */
const responsesFrame = (event: OpenAIResponsesStreamEvent): string =>
  `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n${TERMINAL_EVENTS.has(event.type) ? "data: [DONE]\n\n" : ""}`;

/** A start frame (`response.created`, `.in_progress`), as {@link responsesFrame} writes it, of its response's JSON. */
const startFrame = (type: string, sequence: number, response: string): string =>
  `event: ${type}\ndata: {"type":"${type}","sequence_number":${sequence},"response":${response}}\n\n`;

/**
 * Events to an OpenAI Responses stream (`text/event-stream`): put it after `streamToolCalls` to
 * answer openai-node's `responses.stream()`, Codex or any Responses client in any provider's
 * place. See {@link OpenAIResponsesEncoder} for what each event becomes. Takes one event or an
 * array of the events that are ready (one output chunk per array).
 *
 * @example
 * ```ts
 * const body = readyBatches(streamToolCalls(upstream, { provider: "anthropic", signal: request.signal }))
 *   .pipeThrough(new OpenAIResponsesEncoderStream({ model: "gpt-5" }));
 * return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
 * ```
 */
export class OpenAIResponsesEncoderStream extends ProtocolEncoderStream<EncodableEvent> {
  /** Creates the stage ({@link OpenAIResponsesEncoderOptions}, `joinDeltas`); an option it does not know is a `TypeError`. */
  constructor(options: OpenAIResponsesEncoderOptions & ProtocolEncoderStreamOptions) {
    super(new OpenAIResponsesEncoder(encoderStreamOptions(options, RESPONSES_OPTIONS)), options);
  }
}

/** Every option of {@link OpenAIResponsesEncoderOptions}, typed as its keys (`joinDeltas` is the stage's), which its encoder checks. */
export const RESPONSES_OPTIONS: Record<keyof OpenAIResponsesEncoderOptions, 0> = {
  model: 0,
  id: 0,
  createdAt: 0,
  generateId: 0,
  encryptedContent: 0,
  settings: 0,
  now: 0,
  builtInTools: 0,
};
