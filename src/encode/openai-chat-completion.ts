import { isRefusal } from "./refusal.ts";
import { DEFAULT_MAX_TEXT_LENGTH } from "../accumulate/accumulator-options.ts";
import type {
  CompletedToolCallEvent,
  FinishEvent,
  InvalidToolCallEvent,
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
  type OpenAIChatCompletion,
  type OpenAIChatEncoderOptions,
  type OpenAIChatError,
  type OpenAIChatCustomToolCall,
  type OpenAIChatToolCall,
} from "./openai-chat-wire.ts";
import { callKey } from "../shared/call-key.ts";
import { checkOptionNames } from "../shared/option-names.ts";
import { CHAT_OPTIONS } from "./openai-chat-encoder-stream.ts";
import { abortError, type EncodableEvent, endsAnswer, failedFinish } from "./protocol-encoder.ts";
import { readToAnswer, type AnswerBuilder, type AnswerEvents } from "./read-to-answer.ts";
import { pushSent } from "./sent-fragments.ts";
import { chatModeration } from "./moderation.ts";

/** What a non-streaming request gets: the completion, or the error that kept it from finishing. */
export type OpenAIChatCompletionResult =
  /** The response finished: the `chat.completion` object to send as JSON. */
  | { type: "completion"; completion: OpenAIChatCompletion }
  /** A provider error, a failed response or an abort: the `error` member of the body to send. */
  | { type: "error"; error: OpenAIChatError };

/** Options of {@link OpenAIChatCompletionBuilder} and {@link readOpenAIChatCompletion}. */
export interface OpenAIChatCompletionOptions extends OpenAIChatEncoderOptions {
  /**
   * Largest text the completion holds: the text and reasoning of every choice together, in
   * characters (UTF-16 code units, as the accumulator's `maxArgumentsLength` counts them). Past
   * it the result is an error of code `text-too-large`, and `readOpenAIChatCompletion` cancels
   * its input: a response that never ends cannot grow the object without bound.
   * @defaultValue 4194304 (`DEFAULT_MAX_TEXT_LENGTH`)
   */
  maxTextLength?: number | undefined;
}

interface ChoiceParts {
  text: string[];
  /** The text's length so far, in UTF-16 code units, and the parts that cite it (placed once it is whole). */
  length: number;
  citing: Citing[];
  reasoning: string[];
  /** OpenAI's refusal, when one came. */
  refusal?: string | undefined;
  /** Each call, `custom` for a free-text one (a custom tool's, its text in `args`). */
  calls: { id: string; name: string; args: string[]; custom: boolean }[];
}

/** The builder's option names: the encoder's and its text bound (made once, not per answer). */
const COMPLETION_OPTIONS = { ...CHAT_OPTIONS, maxTextLength: 0 };

/**
 * Builds the non-streaming `chat.completion` object from the same events the streaming encoder
 * reads, with the same rules: calls in the order they started, generated ids where the provider
 * gave none, `finish_reason` mapped back, calls the provider ran itself left out, reasoning as
 * `message.reasoning_content`, a free-text call as a custom tool's (`{type: "custom", custom: {name,
 * input}}`), `content: null` for a turn of calls only. Feed it every event,
 * one at a time or in batches, then take the {@link OpenAIChatCompletionResult}.
 *
 * @example
 * ```ts
 * const builder = new OpenAIChatCompletionBuilder({ model: "gemini-2.5-flash" });
 * for await (const event of streamToolCalls(response, { provider: "gemini" })) builder.add(event);
 * const result = builder.result();
 * if (result.type === "completion") return Response.json(result.completion);
 * return Response.json({ error: result.error }, { status: 502 });
 * ```
 */
export class OpenAIChatCompletionBuilder {
  readonly #base: { id: string; created: number; model: string };
  readonly #ids: CallIds;
  readonly #choices = new Map<number, ChoiceParts>();
  readonly #calls = new Map<string, ChoiceParts["calls"][number]>();
  readonly #skipped = new Set<string>();
  readonly #maxText: number;
  #textSize = 0;
  #finish: FinishEvent | undefined;
  #error: OpenAIChatError | undefined;
  /** An invalid call came with nothing after it but what may come between the calls a finish cut and that finish. */
  #cutting = false;

  /** Creates the builder; `includeUsage` does not apply (usage is in the object whenever known). */
  constructor(options: OpenAIChatCompletionOptions) {
    checkOptionNames(options, COMPLETION_OPTIONS);
    this.#maxText = options.maxTextLength ?? DEFAULT_MAX_TEXT_LENGTH;
    const { id, created, generate } = resolveOptions(options);
    this.#base = { id, created, model: options.model };
    this.#ids = new CallIds(generate);
  }

  /** Takes one event, or a batch of them; events after the finish or a failure change nothing. */
  add(events: EncodableEvent | readonly EncodableEvent[]): void {
    if (Array.isArray(events)) for (const event of events as readonly EncodableEvent[]) this.#add(event);
    else this.#add(events as EncodableEvent);
  }

  /** True once the result can only be an error: more events change nothing. */
  get failed(): boolean {
    return this.#error !== undefined;
  }

  /** The completion, once a `finish` came; otherwise the error that ended the response. */
  result(): OpenAIChatCompletionResult {
    if (this.#error) return { type: "error", error: this.#error };
    if (!this.#finish)
      return {
        type: "error",
        error: openAIError({ code: "input-ended", message: "The response ended before it finished." }),
      };
    const { reason, usage } = this.#finish;
    const moderation = chatModeration(this.#finish.moderation);
    this.#parts(0);
    const choices = [...this.#choices.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, parts]) => {
        const calls = parts.calls.map((call): OpenAIChatToolCall | OpenAIChatCustomToolCall =>
          call.custom
            ? { id: call.id, type: "custom", custom: { name: call.name, input: call.args.join("") } }
            : { id: call.id, type: "function", function: { name: call.name, arguments: call.args.join("") } },
        );
        const text = parts.text.join("");
        const reasoning = parts.reasoning.join("");
        const annotations = chatAnnotations(citedSpans(parts.citing, text));
        return {
          index,
          message: {
            role: "assistant" as const,
            content: text === "" && calls.length > 0 ? null : text,
            refusal: parts.refusal ?? null,
            ...(calls.length > 0 ? { tool_calls: calls } : {}),
            ...(reasoning !== "" ? { reasoning_content: reasoning } : {}),
            ...(annotations.length > 0 ? { annotations } : {}),
          },
          logprobs: null,
          finish_reason: openAIFinishReason(reason, calls.length > 0),
        };
      });
    return {
      type: "completion",
      completion: {
        ...this.#base,
        object: "chat.completion",
        choices,
        ...(usage ? { usage: openAIUsage(usage) } : {}),
        ...(moderation && { moderation }),
      },
    };
  }

  #add(event: EncodableEvent): void {
    if (this.#finish || this.#error) return;
    this.#cutting = event.type === "invalid-tool-call" || (this.#cutting && holding(event));
    switch (event.type) {
      case "text-delta":
      case "reasoning-delta":
        this.#textSize += event.text.length;
        if (this.#textSize > this.#maxText)
          this.#error = openAIError({
            code: "text-too-large",
            message: `The response's text exceeded the limit of ${this.#maxText} characters.`,
          });
        else {
          const parts = this.#parts(event.choice ?? 0);
          pushSent(parts[event.type === "text-delta" ? "text" : "reasoning"], event.text);
          if (event.type === "text-delta") parts.length += event.text.length;
        }
        return;
      case "reasoning-part": {
        const parts = this.#parts(0);
        if (isRefusal(event.part)) parts.refusal = event.part.value;
        if (cites(event.part)) parts.citing.push({ part: event.part, at: parts.length });
        return;
      }
      case "tool-call-start":
        return void this.#start(event);
      case "tool-call-delta":
        return this.#argumentsDelta(event);
      case "tool-call":
      case "invalid-tool-call":
        return this.#complete(event);
      case "finish":
        if (event.reason === "error") this.#error = openAIError(failedFinish(event, FAILED_RESPONSE));
        // An `other` finish right after a call it cut: no finish_reason says so.
        else if (event.reason === "other" && this.#cutting) this.#error = openAIError(cutCallError("other"));
        else {
          this.#finish = event;
          // Why the provider's classifiers declined (Anthropic's `stop_details`), as the message's `refusal`.
          if (event.refusal?.explanation) this.#parts(0).refusal ??= event.refusal.explanation;
        }
        return;
      case "error":
        if (endsAnswer(event.error)) this.#error = openAIError(event.error);
        return;
      case "abort":
        this.#error = openAIError(abortError(event));
        return;
    }
  }

  #parts(choice: number): ChoiceParts {
    let parts = this.#choices.get(choice);
    if (!parts) this.#choices.set(choice, (parts = { text: [], length: 0, citing: [], reasoning: [], calls: [] }));
    return parts;
  }

  #start(
    event: ToolCallStartEvent | CompletedToolCallEvent | InvalidToolCallEvent,
  ): ChoiceParts["calls"][number] | undefined {
    const key = callKey(event);
    if (event.type !== "invalid-tool-call" && event.providerExecuted) {
      this.#skipped.add(key);
      return undefined;
    }
    const call = {
      id: this.#ids.assign(key, event.id),
      name: event.name,
      args: [] as string[],
      custom: event.type !== "invalid-tool-call" && event.inputFormat === "text",
    };
    this.#parts(event.choice ?? 0).calls.push(call);
    this.#calls.set(key, call);
    return call;
  }

  #argumentsDelta(event: ToolCallDeltaEvent): void {
    const call = this.#calls.get(callKey(event));
    if (call) pushSent(call.args, event.argumentsDelta);
  }

  #complete(event: CompletedToolCallEvent | InvalidToolCallEvent): void {
    const key = callKey(event);
    if (this.#skipped.has(key)) return;
    const call = this.#calls.get(key) ?? this.#start(event);
    if (!call) return;
    // The completed text is the call's arguments, whatever streamed before it (repaired, when they were).
    call.args = [finalArguments(event, true)];
  }
}

/**
 * Reads the events (a `ReadableStream`, an async iterable or an iterable of them, or of their
 * batches: {@link AnswerEvents}; anything else, such as an SDK's stream, is a `TypeError`) to
 * their end and builds the non-streaming answer with
 * {@link OpenAIChatCompletionBuilder}. Cancelling is the caller's: abort the `signal` given to
 * `streamToolCalls`. Once the answer can only be an error (text past `maxTextLength`, a provider
 * error, an abort), it cancels `events` and returns it without reading the rest.
 *
 * @example
 * ```ts
 * const result = await readOpenAIChatCompletion(streamToolCalls(upstream, { provider: "gemini" }), { model: "gemini-2.5-flash" });
 * return result.type === "completion" ? Response.json(result.completion) : Response.json({ error: result.error }, { status: 502 });
 * ```
 */
export async function readOpenAIChatCompletion(
  events: AnswerEvents,
  options: OpenAIChatCompletionOptions,
): Promise<OpenAIChatCompletionResult> {
  const builder = new OpenAIChatCompletionBuilder(options);
  // Settled once it can only be an error: the completion itself needs every event to the end.
  const answer: AnswerBuilder<OpenAIChatCompletionResult> = {
    add: (event) => builder.add(event),
    get settled() {
      return builder.failed;
    },
    result: () => builder.result(),
  };
  return readToAnswer(events, answer, "readOpenAIChatCompletion");
}
