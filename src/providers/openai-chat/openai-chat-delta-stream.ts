import type { SSEMessage } from "../../framing/framing.ts";
import type { ToolCallChunkDelta, Usage } from "../../shared/deltas.ts";
import type { JsonWriter } from "../../shared/json-text.ts";
import { arrayOf, isRecord, nonEmptyString, ownValue, withChoice } from "../../shared/values.ts";
import { ANTHROPIC_FINISH_REASONS } from "../anthropic/anthropic-finish-reasons.ts";
import { checkOptionNames } from "../../shared/option-names.ts";
import { providerError, readJsonObject } from "../payload.ts";
import { ProviderDecoderStream, type Emit, type ProviderDecoder } from "../provider-decoder.ts";
import { readUsage } from "../usage.ts";
import { FastChunkReader } from "./openai-chat-fast-chunk.ts";
import { CHAT_OPTIONS, type OpenAIChatDecoderOptions } from "./openai-chat-options.ts";
import { chatEmit } from "./openai-chat-call-order.ts";
import { OPENAI_CHAT_FINISH_REASONS } from "./openai-chat-finish-reasons.ts";
import { ChatReasoningFields } from "./openai-chat-reasoning.ts";
import { parseJsonText } from "../../shared/long-member-name.ts";

/**
 * OpenAI Chat Completions chunks to normalized deltas, for OpenAI and every compatible vendor
 * (Azure, DeepSeek, Groq, xAI, Mistral, Qwen/DashScope, OpenRouter, Ollama, vLLM, LM Studio, ...).
 * A whole `chat.completion` (a request without `stream: true`, or a server that ignored it) is
 * read as one chunk whose choices' `message` is their delta: its text, reasoning, refusal and
 * calls (by their place) come out as the stream of the same answer gives them.
 *
 * @example
 * ```ts
 * const deltas = response.body!
 *   .pipeThrough(new SSEDecoderStream())
 *   .pipeThrough(new OpenAIChatDeltaStream());
 * ```
 */
export class OpenAIChatDeltaStream extends ProviderDecoderStream {
  /** Creates the stage; an option it does not know is a `TypeError`. */
  constructor(options: OpenAIChatDecoderOptions = {}) {
    checkOptionNames(options, CHAT_OPTIONS);
    super((emit) => new OpenAIChatDecoder(emit, options));
  }
}

/**
 * The pure decoder behind {@link OpenAIChatDeltaStream}: one instance per response. Each chunk is
 * complete; what it holds between them is the first choice's reasoning, by the field it came in,
 * which it reports as `reasoning-part`s where the reasoning ends (see {@link ChatReasoningFields}).
 *
 * @example
 * ```ts
 * const deltas: ProviderDelta[] = [];
 * const decoder = new OpenAIChatDecoder((delta) => deltas.push(delta));
 * decoder.decode({ data: '{"choices":[{"index":0,"delta":{"content":"Hi"}}]}' });
 * decoder.end();
 * // deltas: [{ type: "text-delta", text: "Hi" }]
 * ```
 */
export class OpenAIChatDecoder implements ProviderDecoder {
  readonly #emit: Emit;
  readonly #end: (fault?: unknown) => void;
  readonly #reasoning: ChatReasoningFields;
  readonly #fast = new FastChunkReader();
  readonly #options: OpenAIChatDecoderOptions;

  /** Creates a decoder that reports through `emit`: a finish after calls held, the calls a later index followed marked whole ({@link chatEmit}). */
  constructor(emit: Emit, options: OpenAIChatDecoderOptions = {}) {
    [this.#emit, this.#end] = chatEmit(emit);
    this.#reasoning = new ChatReasoningFields(this.#emit);
    this.#options = options;
  }

  /** Decodes one SSE message of a Chat Completions stream. */
  decode(message: SSEMessage): void {
    const data = message.data;
    if (message.value === undefined && message.event !== "error" && data.charCodeAt(0) === 123) {
      const fast = this.#fast;
      const text = fast.read(data);
      if (text !== undefined) return decodeFastChunk(fast.model, fast.call, text, this.#emit, this.#reasoning);
    }
    decodeMessage(message, this.#emit, this.#reasoning, this.#options);
  }

  /**
   * The input ended (or failed): the reasoning still held goes out as its parts, then a finish
   * still held. A stream cut before its finish keeps the reasoning fields and the refusal it
   * streamed, as it keeps its text and as OpenAI Responses keeps a refusal cut before its `.done`:
   * a refusal streams no delta, so its part is all the consumer gets of it. A held finish is
   * dropped when the input failed (`fault`): nothing proved it final, and it would complete a call
   * half received (a gateway's `stop` after each fragment) instead of its being discarded (but see {@link chatEmit}).
   */
  end(fault?: unknown): void {
    this.#reasoning.flush();
    this.#end(fault);
  }
}

function decodeMessage(
  message: SSEMessage,
  emit: Emit,
  reasoning: ChatReasoningFields,
  options: OpenAIChatDecoderOptions,
): void {
  const data = message.data;
  if (data.trim() === "[DONE]") {
    reasoning.flush();
    return emit({ type: "done" });
  }
  let payload = message.value;
  if (payload === undefined) {
    try {
      payload = parseJsonText(data);
    } catch {
      // Left undefined (`readJsonObject` reports it) unless these are chunks joined by single newlines.
      if (data.includes("\n"))
        return messageLines(message).forEach((line) => decodeMessage(line, emit, reasoning, options));
    }
  }
  const chunk = readJsonObject(message, emit, payload);
  if (!chunk) return;
  options.onChunk?.(chunk);
  // Groq sends `event: error` with an OpenAI-style body; OpenRouter puts `error` next to choices
  // (Foundry Local a null one on every healthy chunk, which is no error); vLLM's servers before
  // `ErrorInfo` send the error object itself (`object: "error"`).
  const failed = message.event === "error" || chunk["object"] === "error" ? chunk : chunk["error"];
  if (failed != null) emit(providerError(failed));
  const before = reasoning.model(chunk["model"]);
  const choices = arrayOf(chunk["choices"]);
  const write = message.jsonText ?? options.jsonText ?? JSON.stringify;
  for (const choice of choices) if (isRecord(choice)) decodeChoice(choice, emit, reasoning, write, before);
  // Groq puts usage in `x_groq`, Moonshot (Kimi) in the choice (`chatUsage` reads an object alone).
  const usage =
    chatUsage(chunk["usage"]) ??
    chatUsage((chunk["x_groq"] as Fields | undefined)?.["usage"]) ??
    chatUsage((choices[0] as Fields | undefined)?.["usage"]);
  if (usage) emit({ type: "usage", usage });
  const moderation = chunk["moderation"]; // OpenAI's moderated completions: the input's and the answer's results
  if (isRecord(moderation)) emit({ type: "moderation", moderation });
  // An error ends the response (vLLM, LiteLLM and llama.cpp send `[DONE]` or close next; OpenRouter
  // its usage in the same chunk): a body held open after it is not waited on.
  if (failed != null) {
    reasoning.flush();
    emit({ type: "done" });
  }
}

/** What {@link decodeChoice} does with a chunk {@link FastChunkReader} read: one text delta or argument fragment of choice 0. */
function decodeFastChunk(
  model: string,
  call: number | undefined,
  text: string,
  emit: Emit,
  reasoning: ChatReasoningFields,
): void {
  reasoning.model(model);
  if (call === undefined && !text) return;
  reasoning.flush();
  emit(
    call === undefined
      ? { type: "text-delta", text }
      : text
        ? { type: "tool-call-chunk", index: call, argumentsDelta: text }
        : { type: "tool-call-chunk", index: call },
  );
}

function decodeChoice(
  choice: Record<string, unknown>,
  emit: Emit,
  reasoning: ChatReasoningFields,
  write: JsonWriter,
  before?: string,
): void {
  const index = typeof choice["index"] === "number" ? choice["index"] : 0;
  // A whole `chat.completion` holds in its choices' `message` what a stream spreads over its
  // deltas, and is read so when it is the body's first (and only) chunk. After the first, `before`
  // (a string, so no delta) stands for it: MiniMax ends its stream with such a completion,
  // repeating the answer the chunks streamed (read, it doubled the text and each call).
  const delta = choice["delta"] ?? before ?? choice["message"];
  const reason = nonEmptyString(choice["finish_reason"]);
  if (isRecord(delta)) {
    decodeReasoning(delta, index, emit);
    // With audio output the answer's words are the audio's `transcript` (`content` is null).
    const content = delta["content"] ?? (delta["audio"] as Fields | undefined)?.["transcript"];
    const calls = delta["tool_calls"];
    if (index === 0) {
      reasoning.add(delta);
      // What follows the reasoning ends it: its parts go out before the text or call.
      if (nonEmptyString(content) || Array.isArray(calls)) reasoning.flush();
    }
    decodeContent(content, index, emit);
    // Kimi sends parallel calls without an index, several in a chunk, their later fragments in the
    // same order and without ids: a call's place in its chunk stands for its index.
    if (Array.isArray(calls))
      calls.forEach((call, at) => isRecord(call) && emit(toolCallChunk(call, index, write, calls[1] && at)));
    // The legacy `function_call` is one call without an index.
    if (isRecord(delta["function_call"])) emit(toolCallChunk({ function: delta["function_call"] }, index, write, 0));
  }
  if (reason === undefined) return;
  if (index === 0) reasoning.flush();
  emit(
    withChoice(
      {
        type: "finish",
        rawReason: reason,
        reason: ownValue(OPENAI_CHAT_FINISH_REASONS, reason) ?? ownValue(ANTHROPIC_FINISH_REASONS, reason) ?? "other",
      },
      index,
    ),
  );
}

/** Reasoning arrives as `reasoning_content` (DeepSeek, xAI), `reasoning` (Groq, OpenRouter) or
 * only as `reasoning_details` (OpenRouter sends both with the same text, so details are a fallback). */
function decodeReasoning(delta: Record<string, unknown>, choice: number, emit: Emit): void {
  const text = nonEmptyString(delta["reasoning_content"]) ?? nonEmptyString(delta["reasoning"]);
  if (text) return emitText("reasoning-delta", text, choice, emit);
  const details = delta["reasoning_details"];
  if (!Array.isArray(details)) return;
  for (const detail of details) {
    if (isRecord(detail))
      emitText("reasoning-delta", nonEmptyString(detail["text"]) ?? detail["summary"], choice, emit);
  }
}

/** `content` is a string, or (Mistral Magistral) an array of `text` and `thinking` parts. */
function decodeContent(content: unknown, choice: number, emit: Emit): void {
  if (!Array.isArray(content)) return emitText("text-delta", content, choice, emit);
  for (const part of content) {
    if (!isRecord(part)) continue;
    if (part["type"] === "text") emitText("text-delta", part["text"], choice, emit);
    if (part["type"] === "thinking") decodeThinking(part["thinking"], choice, emit);
  }
}

function decodeThinking(thinking: unknown, choice: number, emit: Emit): void {
  const parts = Array.isArray(thinking) ? thinking : [{ text: thinking }];
  for (const part of parts) if (isRecord(part)) emitText("reasoning-delta", part["text"], choice, emit);
}

/** Emits a text or reasoning delta when `text` is a non-empty string. */
function emitText(type: "text-delta" | "reasoning-delta", text: unknown, choice: number, emit: Emit): void {
  if (typeof text === "string" && text) emit(withChoice({ type, text }, choice));
}

function toolCallChunk(
  call: Record<string, unknown>,
  choice: number,
  write: JsonWriter,
  at: unknown,
): ToolCallChunkDelta {
  // A custom tool's call (`type: "custom"`) streams its free-text `input` under `custom`.
  const custom = isRecord(call["custom"]) ? call["custom"] : undefined;
  const fn = custom ?? (isRecord(call["function"]) ? call["function"] : {});
  // The call's own index, else its place (`at`, given only where that stands for it).
  const index = call["index"] !== undefined ? call["index"] : at;
  const id = nonEmptyString(call["id"]);
  const name = nonEmptyString(fn["name"]);
  // Some servers send arguments as an object rather than JSON text.
  const args = custom ? custom["input"] : fn["arguments"];
  const text = typeof args === "string" ? args : isRecord(args) ? write(args) : undefined;
  // A call's first delta from one literal (the keys are set again below, in the same order): V8
  // keeps a literal's shape, while one grown key by key can die at a full collection and take the
  // optimized code that reads it (the accumulator's, the Worker's) with it.
  const chunk: ToolCallChunkDelta =
    id && name && typeof index === "number" && !choice && !custom
      ? { type: "tool-call-chunk", index, id, name }
      : withChoice({ type: "tool-call-chunk" }, choice);
  if (custom) chunk.inputFormat = "text";
  if (typeof index === "number") chunk.index = index;
  if (id) chunk.id = id;
  if (name) chunk.name = name;
  if (text) chunk.argumentsDelta = text;
  // Gemini's OpenAI endpoint puts the thought signature on the call; it must go back next turn.
  if (isRecord(call["extra_content"])) chunk.providerMetadata = { extra_content: call["extra_content"] };
  return chunk;
}

/** A field of a chunk read as an object (`undefined` when it is none: reading `?.` of it gives `undefined`). */
type Fields = Record<string, unknown>;

const INPUT_KEYS = ["prompt_tokens", "input_tokens"];
const OUTPUT_KEYS = ["completion_tokens", "output_tokens"];
const TOTAL_KEYS = ["total_tokens"];
const DETAIL_KEYS = {
  cacheRead: ["prompt_tokens_details.cached_tokens", "input_tokens_details.cached_tokens"],
  cacheWrite: ["prompt_tokens_details.cache_write_tokens", "input_tokens_details.cache_write_tokens"],
  reasoning: ["completion_tokens_details.reasoning_tokens", "output_tokens_details.reasoning_tokens"],
};

/** Chat Completions usage (Groq's `x_groq.usage` has the same shape; some compatible servers name the counts the Responses/Anthropic way). */
const chatUsage = (raw: unknown): Usage | undefined => readUsage(raw, INPUT_KEYS, OUTPUT_KEYS, TOTAL_KEYS, DETAIL_KEYS);

/**
 * Some servers (GLM behind Baseten, Kimi) end a chunk's `data:` line with one newline instead of
 * two, so the SSE rules join several chunks into one event whose lines are each a chunk. Such an
 * event (several lines that do not parse as one JSON value) is split back into one message per
 * line (by `decodeMessage`, and provider detection reads the first); a value spread over lines
 * that parses whole stays one message.
 */
export function messageLines(message: SSEMessage): SSEMessage[] {
  const lines = message.data.split("\n").filter((data) => data.trim() !== "");
  return lines.map((data) => ({ ...message, data }));
}
