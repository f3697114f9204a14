import { isRefusal } from "./refusal.ts";
import { callKey } from "../shared/call-key.ts";
import { checkOptionNames } from "../shared/option-names.ts";
import type { ProviderErrorKind } from "../shared/errors.ts";
import type { Usage } from "../shared/deltas.ts";
import type {
  AbortEvent,
  FinishEvent,
  InvalidToolCallEvent,
  CompletedToolCallEvent,
  ToolCallDeltaEvent,
  ToolCallStartEvent,
} from "../shared/events.ts";
import { chatAnnotations, citedSpans, cites, type Citing } from "./citations.ts";
import { CallIds } from "./call-ids.ts";
import { cutCallError, finalArguments, holding } from "./cut-calls.ts";
import {
  FAILED_RESPONSE,
  openAIError,
  openAIFinishReason,
  openAIUsage,
  resolveOptions,
  type OpenAIChatEncoderOptions,
} from "./openai-chat-wire.ts";
import {
  abortError,
  endsAnswer,
  failedFinish,
  ProtocolEncoderStream,
  SSE_DONE,
  sseData,
  type EncodableEvent,
  type ProtocolEncoder,
  encoderStreamOptions,
  type ProtocolEncoderStreamOptions,
} from "./protocol-encoder.ts";
import { pushSent } from "./sent-fragments.ts";
import { chatModeration } from "./moderation.ts";

interface ChoiceState {
  /** `delta.role` went out: it rides on the first delta of the choice. */
  role: boolean;
  /** Calls started so far: the next dense `tool_calls[].index`. */
  calls: number;
}

interface CallState {
  /** The dense index the client sees. */
  index: number;
  /** The argument fragments sent, joined once at completion to check they are the whole. */
  sent: string[];
  /** A free-text call: a custom tool's, its fragments `custom.input`. */
  custom: boolean;
}

/**
 * The pure core of {@link OpenAIChatEncoderStream}: events to `chat.completion.chunk` SSE frames,
 * as OpenAI streams them and every OpenAI SDK reads them.
 *
 * - The first delta of each choice carries `role: "assistant"`; text is `delta.content`,
 *   reasoning `delta.reasoning_content` (DeepSeek's name, which most compatible servers use).
 * - Each call is `delta.tool_calls[{index, id, type: "function", function: {name, arguments}}]`:
 *   indexes are dense from 0 in the order calls start (never the provider's own, which may have
 *   gaps, as Anthropic's block indexes do), the id and name only in the call's first delta, the
 *   argument fragments after it. A call without an id (Gemini), or whose id was already used,
 *   gets a generated `call_...` id. Calls the provider ran itself (`providerExecuted`) are left
 *   out: a Chat Completions client runs every call it sees. A free-text call (`inputFormat:
 *   "text"`: a custom tool's, a Responses `custom_tool_call`) is a custom tool's, as OpenAI streams
 *   one: `{index, id, type: "custom", custom: {name, input: ""}}`, then `custom.input` fragments.
 * - `finish` gives each choice its `finish_reason` (`tool_calls`, `stop`, `length`,
 *   `content_filter`), then its `moderation` results (`chatModeration`) as a chunk with `choices: []`
 *   and `moderation`, then, with `includeUsage` and usage known, a chunk with `choices: []` and
 *   `usage`, then `data: [DONE]`. Nothing is written after it: the encoder shows one model
 *   response (tool results, and a tool loop's later steps, are for the other protocols): its stream
 *   closes right after it, and input after it is cancelled (`ended`): a loop calls the model no more.
 * - A provider error, a `finish` of reason `error` (or `other` right after a call it cut: no
 *   `finish_reason` says so), an `abort` (or an input that ends without a finish) is a last chunk `{"error": {message, type, param, code}}` (see {@link OpenAIChatError})
 *   with no `[DONE]` after it: openai-node throws it as an `APIError`, and a client that waits for
 *   `[DONE]` never takes a failed response for a complete one. Other in-band errors (a payload
 *   that could not be read) are not shown: what they cost shows as an invalid call or an abort.
 * - Events of other types (tool results, loop events, types added later) are skipped.
 *
 * Each `encode` appends frames to `out`, so a batch of ready events costs one `join`.
 *
 * @example
 * ```ts
 * const encoder = new OpenAIChatEncoder({ model: "gpt-4o-mini", includeUsage: true });
 * const out: string[] = [];
 * for await (const event of streamToolCalls(response)) encoder.encode(event, out);
 * encoder.end(out);
 * const body = out.join(""); // data: {"id":"chatcmpl-...","object":"chat.completion.chunk",...}
 * ```
 */
export class OpenAIChatEncoder implements ProtocolEncoder<EncodableEvent> {
  readonly #head: string;
  readonly #includeUsage: boolean;
  readonly #ids: CallIds;
  readonly #choices = new Map<number, ChoiceState>();
  readonly #calls = new Map<string, CallState>();
  readonly #skipped = new Set<string>();
  /**
   * The first choice's text (`pushSent`) and its length: the parts that cite it are placed at the
   * finish, over it. Kept whole: Gemini's grounding counts its bytes from its start, and a cited
   * text may be anywhere before its part. Not the finish's `text`: a server may add to what it shows.
   */
  readonly #said: string[] = [];
  #saidLength = 0;
  readonly #citing: Citing[] = [];
  #ended = false;
  /** An invalid call came with nothing after it but what may come between the calls a finish cut and that finish ({@link holding}). */
  #cutting = false;

  /** Creates the core; see {@link OpenAIChatEncoderOptions}. */
  constructor(options: OpenAIChatEncoderOptions) {
    checkOptionNames(options, CHAT_OPTIONS);
    const { id, created, generate } = resolveOptions(options);
    // Every chunk starts the same way: the prefix is serialized once.
    this.#head = `{"id":${JSON.stringify(id)},"object":"chat.completion.chunk","created":${created},"model":${JSON.stringify(options.model)}`;
    this.#includeUsage = options.includeUsage ?? false;
    this.#ids = new CallIds(generate);
  }

  /** Appends the frames of one event to `out`. */
  encode(event: EncodableEvent, out: string[]): void {
    if (this.#ended) return;
    this.#cutting = event.type === "invalid-tool-call" || (this.#cutting && holding(event));
    switch (event.type) {
      case "text-delta":
        if (event.text === "") return;
        if ((event.choice ?? 0) === 0) {
          pushSent(this.#said, event.text);
          this.#saidLength += event.text.length;
        }
        return this.#delta(event.choice ?? 0, `{"content":${JSON.stringify(event.text)}}`, out);
      case "reasoning-part": {
        // OpenAI's own refusal: in a delta of its own, as OpenAI streams it.
        if (isRefusal(event.part)) return this.#delta(0, `{"refusal":${JSON.stringify(event.part.value)}}`, out);
        // The pages a provider's cited text (Anthropic's citations) or Gemini's grounding cites, over the text sent:
        // all in one delta before the finish, as OpenAI's search models send them (openai-node's
        // stream keeps a delta's `annotations` in place of the last one's, it does not add them).
        this.#choice(0);
        if (cites(event.part)) this.#citing.push({ part: event.part, at: this.#saidLength });
        return;
      }
      case "reasoning-delta":
        if (event.text !== "")
          this.#delta(event.choice ?? 0, `{"reasoning_content":${JSON.stringify(event.text)}}`, out);
        return;
      case "tool-call-start":
        return this.#start(event, "", out);
      case "tool-call-delta":
        return this.#argumentsDelta(event, out);
      case "tool-call":
      case "invalid-tool-call":
        return this.#complete(event, out);
      case "finish":
        return this.#finish(event, out);
      case "error":
        if (endsAnswer(event.error)) this.#fail(event.error, out);
        return;
      case "abort":
        return this.#fail(abortError(event as AbortEvent), out);
    }
  }

  /** True once its one response ended ({@link ProtocolEncoder.ended}): its stream stops the input, a tool loop's later steps with it. */
  get ended(): boolean {
    return this.#ended;
  }

  /** Appends what an input that ended without a finish or an abort leaves to say: an error. */
  end(out: string[]): void {
    if (!this.#ended) this.#fail({ code: "input-ended", message: "The response ended before it finished." }, out);
  }

  #choice(index: number): ChoiceState {
    let state = this.#choices.get(index);
    if (!state) this.#choices.set(index, (state = { role: false, calls: 0 }));
    return state;
  }

  /**
   * One chunk of one choice. `delta` is the delta's JSON, built as a string by the callers: the
   * per-event work is one `JSON.stringify` of the new text, not of a fresh object.
   */
  #delta(choice: number, delta: string, out: string[], finishReason: string | null = null): void {
    const state = this.#choice(choice);
    const body = state.role ? delta : `{"role":"assistant"${delta === "{}" ? "" : ","}${delta.slice(1)}`;
    state.role = true;
    out.push(
      `data: ${this.#head},"choices":[{"index":${choice},"delta":${body},"logprobs":null,"finish_reason":${finishReason === null ? "null" : `"${finishReason}"`}}]}\n\n`,
    );
  }

  #arguments(choice: number, call: CallState, fragment: string, out: string[]): void {
    const field = call.custom ? `"custom":{"input"` : `"function":{"arguments"`;
    this.#delta(choice, `{"tool_calls":[{"index":${call.index},${field}:${JSON.stringify(fragment)}}}]}`, out);
  }

  #start(event: ToolCallStartEvent | CompletedToolCallEvent | InvalidToolCallEvent, args: string, out: string[]): void {
    const key = callKey(event);
    if (event.type !== "invalid-tool-call" && event.providerExecuted) {
      this.#skipped.add(key);
      return;
    }
    const choice = event.choice ?? 0;
    const custom = event.type !== "invalid-tool-call" && event.inputFormat === "text";
    const call: CallState = { index: this.#choice(choice).calls++, sent: args === "" ? [] : [args], custom };
    this.#calls.set(key, call);
    const [index, id, name] = [call.index, this.#ids.assign(key, event.id), event.name];
    const first = custom
      ? { index, id, type: "custom", custom: { name, input: args } }
      : { index, id, type: "function", function: { name, arguments: args } };
    this.#delta(choice, JSON.stringify({ tool_calls: [first] }), out);
  }

  #argumentsDelta(event: ToolCallDeltaEvent, out: string[]): void {
    const call = this.#calls.get(callKey(event));
    if (!call || event.argumentsDelta === "") return;
    pushSent(call.sent, event.argumentsDelta);
    this.#arguments(event.choice ?? 0, call, event.argumentsDelta, out);
  }

  #complete(event: CompletedToolCallEvent | InvalidToolCallEvent, out: string[]): void {
    const key = callKey(event);
    if (this.#skipped.has(key)) return;
    const call = this.#calls.get(key);
    const final = finalArguments(event);
    if (!call) return this.#start(event, final, out);
    const sent = call.sent.join("");
    call.sent = [];
    // A provider whose final arguments extend what streamed (a `.done` value after no deltas) gets
    // the rest sent; one that replaced them cannot be told in this protocol, which only appends.
    if (sent !== final && final.startsWith(sent)) {
      this.#arguments(event.choice ?? 0, call, final.slice(sent.length), out);
    }
  }

  #finish(event: FinishEvent, out: string[]): void {
    if (event.reason === "error") return this.#fail(failedFinish(event, FAILED_RESPONSE), out);
    // An `other` finish right after a call it cut: no finish_reason says so (`stop` would pass it for whole).
    if (event.reason === "other" && this.#cutting) return this.#fail(cutCallError("other"), out);
    this.#choice(0);
    const annotations = this.#citing.length > 0 ? chatAnnotations(citedSpans(this.#citing, this.#said.join(""))) : [];
    if (annotations.length > 0) this.#delta(0, JSON.stringify({ annotations }), out);
    // Why the provider's classifiers declined (Anthropic's `stop_details`): the refusal a Chat client shows.
    const refusal = event.refusal?.explanation;
    if (refusal) this.#delta(0, JSON.stringify({ refusal }), out);
    for (const choice of [...this.#choices.keys()].sort((a, b) => a - b)) {
      const state = this.#choice(choice);
      const reason = openAIFinishReason(event.reason, state.calls > 0);
      this.#delta(choice, state.role ? "{}" : `{"content":""}`, out, reason);
    }
    // OpenAI's moderated completions: the results in a chunk of their own, as OpenAI sends them.
    const moderation = chatModeration(event.moderation);
    if (moderation) out.push(`data: ${this.#head},"choices":[],"moderation":${JSON.stringify(moderation)}}\n\n`);
    if (this.#includeUsage && event.usage) out.push(this.#usage(event.usage));
    out.push(SSE_DONE);
    this.#ended = true;
  }

  #usage(usage: Usage): string {
    return `data: ${this.#head},"choices":[],"usage":${JSON.stringify(openAIUsage(usage))}}\n\n`;
  }

  #fail(error: { code: string; message: string; kind?: ProviderErrorKind }, out: string[]): void {
    out.push(sseData({ error: openAIError(error) }));
    this.#ended = true;
  }
}

/**
 * Events to an OpenAI Chat Completions stream (`text/event-stream` of `chat.completion.chunk`
 * frames, then `data: [DONE]`): put it after `streamToolCalls` to answer any OpenAI client, in
 * any provider's place. See {@link OpenAIChatEncoder} for what each event becomes. Takes one
 * event or an array of the events that are ready (one output chunk per array).
 *
 * @example
 * ```ts
 * const body = streamToolCalls(upstream, { provider: "anthropic", signal: request.signal })
 *   .pipeThrough(new OpenAIChatEncoderStream({ model: "claude-sonnet-4-6", includeUsage: true }));
 * return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
 * ```
 */
export class OpenAIChatEncoderStream extends ProtocolEncoderStream<EncodableEvent> {
  /** Creates the stage ({@link OpenAIChatEncoderOptions}, `joinDeltas`); an option it does not know is a `TypeError`. */
  constructor(options: OpenAIChatEncoderOptions & ProtocolEncoderStreamOptions) {
    super(new OpenAIChatEncoder(encoderStreamOptions(options, CHAT_OPTIONS)), options);
  }
}

/** Every option of {@link OpenAIChatEncoderOptions}, typed as its keys (`joinDeltas` is the stage's), which its encoder checks. */
export const CHAT_OPTIONS: Record<keyof OpenAIChatEncoderOptions, 0> = {
  model: 0,
  id: 0,
  created: 0,
  includeUsage: 0,
  generateId: 0,
};
