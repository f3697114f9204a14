import { decoderTransformer, isRecord, nonEmptyString, readJsonPayload, withChoice, type Emit } from "./payload.ts";
import type { ProviderDelta, SSEMessage, ToolCallChunkDelta } from "./types.ts";
import { normalizeUsage } from "./usage.ts";

/**
 * OpenAI Chat Completions chunks to normalized deltas, for OpenAI and every compatible vendor
 * (Azure, DeepSeek, Groq, xAI, Mistral, Qwen/DashScope, OpenRouter, Ollama, vLLM, LM Studio, ...).
 *
 * @example
 * ```ts
 * const deltas = response.body!
 *   .pipeThrough(new SSEDecoderStream())
 *   .pipeThrough(new OpenAIChatDeltaStream());
 * ```
 */
export class OpenAIChatDeltaStream extends TransformStream<SSEMessage, ProviderDelta> {
  /** Creates the stage. */
  constructor() {
    super(decoderTransformer(decodeOpenAIChatMessage));
  }
}

/**
 * Decodes one SSE message of a Chat Completions stream.
 *
 * @example
 * ```ts
 * const deltas: ProviderDelta[] = [];
 * decodeOpenAIChatMessage({ data: '{"choices":[{"index":0,"delta":{"content":"Hi"}}]}' }, (delta) => deltas.push(delta));
 * // deltas: [{ type: "text-delta", text: "Hi" }]
 * ```
 */
export function decodeOpenAIChatMessage(message: SSEMessage, emit: Emit): void {
  if (message.data.trim() === "[DONE]") return emit({ type: "done" });
  const chunk = readJsonPayload(message, emit);
  if (chunk === undefined) return;
  if (!isRecord(chunk)) {
    return emit({ type: "error", error: { code: "malformed-payload", message: "A chunk is not a JSON object; it was skipped." } });
  }
  // Groq sends `event: error` with an OpenAI-style body; OpenRouter puts `error` next to choices.
  if (message.event === "error" || chunk["error"] !== undefined) {
    emit({
      type: "error",
      error: {
        code: "provider-error",
        message: "The provider reported an error inside the stream.",
        data: message.event === "error" ? chunk : chunk["error"],
      },
    });
  }
  if (Array.isArray(chunk["choices"])) {
    for (const choice of chunk["choices"]) if (isRecord(choice)) decodeChoice(choice, emit);
  }
  const xGroq = chunk["x_groq"];
  const usage = normalizeUsage(chunk["usage"]) ?? (isRecord(xGroq) ? normalizeUsage(xGroq["usage"]) : undefined);
  if (usage) emit({ type: "usage", usage });
}

function decodeChoice(choice: Record<string, unknown>, emit: Emit): void {
  const index = typeof choice["index"] === "number" ? choice["index"] : 0;
  const delta = choice["delta"];
  if (isRecord(delta)) {
    decodeReasoning(delta, index, emit);
    decodeContent(delta["content"], index, emit);
    if (Array.isArray(delta["tool_calls"])) {
      for (const call of delta["tool_calls"]) if (isRecord(call)) emit(toolCallChunk(call, index));
    }
    // The legacy `function_call` is one call without an index.
    if (isRecord(delta["function_call"])) emit(toolCallChunk({ index: 0, function: delta["function_call"] }, index));
  }
  const reason = choice["finish_reason"];
  if (typeof reason === "string" && reason !== "") emit(withChoice({ type: "finish", rawReason: reason }, index));
}

/** Reasoning arrives as `reasoning_content` (DeepSeek, xAI), `reasoning` (Groq, OpenRouter) or
 * only as `reasoning_details` (OpenRouter sends both with the same text, so details are a fallback). */
function decodeReasoning(delta: Record<string, unknown>, choice: number, emit: Emit): void {
  const text = nonEmptyString(delta["reasoning_content"]) ?? nonEmptyString(delta["reasoning"]);
  if (text !== undefined) return emit(withChoice({ type: "reasoning-delta", text }, choice));
  const details = delta["reasoning_details"];
  if (!Array.isArray(details)) return;
  for (const detail of details) {
    const detailText = isRecord(detail) ? (nonEmptyString(detail["text"]) ?? nonEmptyString(detail["summary"])) : undefined;
    if (detailText !== undefined) emit(withChoice({ type: "reasoning-delta", text: detailText }, choice));
  }
}

/** `content` is a string, or (Mistral Magistral) an array of `text` and `thinking` parts. */
function decodeContent(content: unknown, choice: number, emit: Emit): void {
  if (typeof content === "string") {
    if (content !== "") emit(withChoice({ type: "text-delta", text: content }, choice));
    return;
  }
  if (!Array.isArray(content)) return;
  for (const part of content) {
    if (!isRecord(part)) continue;
    const text = nonEmptyString(part["text"]);
    if (part["type"] === "text" && text !== undefined) emit(withChoice({ type: "text-delta", text }, choice));
    if (part["type"] === "thinking") decodeThinking(part["thinking"], choice, emit);
  }
}

function decodeThinking(thinking: unknown, choice: number, emit: Emit): void {
  const parts = typeof thinking === "string" ? [{ text: thinking }] : Array.isArray(thinking) ? thinking : [];
  for (const part of parts) {
    const text = isRecord(part) ? nonEmptyString(part["text"]) : undefined;
    if (text !== undefined) emit(withChoice({ type: "reasoning-delta", text }, choice));
  }
}

function toolCallChunk(call: Record<string, unknown>, choice: number): ToolCallChunkDelta {
  const fn = isRecord(call["function"]) ? call["function"] : {};
  const chunk: ToolCallChunkDelta = withChoice({ type: "tool-call-chunk" }, choice);
  if (typeof call["index"] === "number") chunk.index = call["index"];
  const id = nonEmptyString(call["id"]);
  if (id !== undefined) chunk.id = id;
  const name = nonEmptyString(fn["name"]);
  if (name !== undefined) chunk.name = name;
  // Some servers send arguments as an object rather than JSON text.
  const args = fn["arguments"];
  const text = typeof args === "string" ? args : isRecord(args) ? JSON.stringify(args) : undefined;
  if (text) chunk.argumentsDelta = text;
  // Gemini's OpenAI endpoint puts the thought signature on the call; it must go back next turn.
  if (isRecord(call["extra_content"])) chunk.providerMetadata = { extra_content: call["extra_content"] };
  return chunk;
}
