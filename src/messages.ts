import type { Provider } from "./providers.ts";
import type { JsonValue, ReasoningPart, ToolCall } from "./types.ts";

/**
 * Pure helpers around the stream: the assistant turn each provider expects back in the next
 * request, built from the accumulated calls, and the matching tool-result message.
 * Calls the provider ran itself (`providerExecuted`, e.g. Anthropic web search) are left out:
 * they are not the application's to answer.
 *
 * @module
 */

/** What an assistant turn produced: a `finish` event fits as it is. */
export interface AssistantTurn {
  /** The visible text, if any. */
  text?: string;
  /** The complete calls, in index order. */
  toolCalls: readonly ToolCall[];
  /** The reasoning parts, in order: Anthropic uses its signed and redacted blocks, OpenAI Responses its reasoning items; the others ignore them. */
  reasoningParts?: readonly ReasoningPart[] | undefined;
}

/** The outcome of running one call. */
export interface ToolResult {
  /** The call this answers. */
  call: Pick<ToolCall, "id" | "name" | "inputFormat">;
  /** What the tool returned: text, or any JSON value. */
  output: JsonValue;
  /** The tool failed; `output` says why. */
  isError?: boolean;
}

const own = (calls: readonly ToolCall[]): ToolCall[] => calls.filter((call) => !call.providerExecuted);
const asText = (output: JsonValue): string => (typeof output === "string" ? output : JSON.stringify(output));
const idOf = (call: Pick<ToolCall, "id" | "name">): string => call.id ?? call.name;

/**
 * OpenAI Chat Completions: one assistant message with `tool_calls` (arguments as a JSON string).
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { provider: "openai" })) {
 *   if (event.type === "finish") messages.push(openAIChatAssistantMessage(event));
 * }
 * ```
 */
export function openAIChatAssistantMessage(turn: AssistantTurn): Record<string, unknown> {
  const calls = own(turn.toolCalls).map((call) => ({
    id: idOf(call),
    type: "function",
    function: { name: call.name, arguments: call.rawArguments || JSON.stringify(call.arguments) },
    // Gemini's OpenAI endpoint needs its thought signature back on the call.
    ...(call.providerMetadata?.["extra_content"] ? { extra_content: call.providerMetadata["extra_content"] } : {}),
  }));
  return { role: "assistant", content: turn.text ? turn.text : null, ...(calls.length > 0 ? { tool_calls: calls } : {}) };
}

/**
 * OpenAI Chat Completions: one `tool` message per result.
 *
 * @example
 * ```ts
 * // after running each call of the finish event:
 * messages.push(...openAIChatToolMessages([{ call, output: { temperature: 21 } }]));
 * ```
 */
export function openAIChatToolMessages(results: readonly ToolResult[]): Record<string, unknown>[] {
  return results.map((result) => ({ role: "tool", tool_call_id: idOf(result.call), content: asText(result.output) }));
}

/**
 * Anthropic Messages: an assistant message of the turn's `thinking` and `redacted_thinking`
 * blocks (from `reasoningParts`, in order, as extended thinking with tools requires), a text
 * block, and `tool_use` blocks (input as an object).
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { provider: "anthropic" })) {
 *   if (event.type === "finish") messages.push(anthropicAssistantMessage(event));
 * }
 * ```
 */
export function anthropicAssistantMessage(turn: AssistantTurn): Record<string, unknown> {
  const content: Record<string, unknown>[] = [];
  for (const part of turn.reasoningParts ?? []) {
    if (part.type === "redacted") content.push({ type: "redacted_thinking", data: part.data });
    else if (part.type === "signed") content.push({ type: "thinking", thinking: part.text, signature: part.signature });
  }
  if (turn.text) content.push({ type: "text", text: turn.text });
  for (const call of own(turn.toolCalls)) content.push({ type: "tool_use", id: idOf(call), name: call.name, input: call.arguments });
  return { role: "assistant", content };
}

/**
 * Anthropic Messages: one user message of `tool_result` blocks.
 *
 * @example
 * ```ts
 * messages.push(anthropicToolResultMessage([{ call, output: "Sunny, 21 °C" }]));
 * ```
 */
export function anthropicToolResultMessage(results: readonly ToolResult[]): Record<string, unknown> {
  return {
    role: "user",
    content: results.map((result) => ({
      type: "tool_result",
      tool_use_id: idOf(result.call),
      content: asText(result.output),
      ...(result.isError ? { is_error: true } : {}),
    })),
  };
}

/**
 * Gemini: a `model` content of a text part and `functionCall` parts, each with its thought signature.
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { provider: "gemini" })) {
 *   if (event.type === "finish") contents.push(geminiModelContent(event));
 * }
 * ```
 */
export function geminiModelContent(turn: AssistantTurn): Record<string, unknown> {
  const parts: Record<string, unknown>[] = turn.text ? [{ text: turn.text }] : [];
  for (const call of own(turn.toolCalls)) {
    const signature = call.providerMetadata?.["thoughtSignature"];
    parts.push({
      functionCall: { name: call.name, args: call.arguments, ...(call.id !== null ? { id: call.id } : {}) },
      ...(typeof signature === "string" ? { thoughtSignature: signature } : {}),
    });
  }
  return { role: "model", parts };
}

/**
 * Gemini: a `user` content of `functionResponse` parts (the response must be an object).
 *
 * @example
 * ```ts
 * contents.push(geminiFunctionResponseContent([{ call, output: { temperature: 21 } }]));
 * ```
 */
export function geminiFunctionResponseContent(results: readonly ToolResult[]): Record<string, unknown> {
  return {
    role: "user",
    parts: results.map((result) => {
      const { output } = result;
      const response = result.isError ? { error: output } : output !== null && typeof output === "object" && !Array.isArray(output) ? output : { result: output };
      return { functionResponse: { name: result.call.name, ...(result.call.id !== null ? { id: result.call.id } : {}), response } };
    }),
  };
}

/**
 * OpenAI Responses: the input items that replay the turn: its `reasoning` items (from
 * `reasoningParts`, in order, with `encrypted_content` when it came, as a reasoning model requires
 * before its calls), then `message`, `function_call` and `custom_tool_call` items.
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { provider: "openai-responses" })) {
 *   if (event.type === "finish") input.push(...responsesInputItems(event));
 * }
 * ```
 */
export function responsesInputItems(turn: AssistantTurn): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  for (const part of turn.reasoningParts ?? []) {
    if (part.type !== "item") continue;
    items.push({ type: "reasoning", id: part.id, summary: part.summary ?? [], ...(part.encryptedContent !== undefined ? { encrypted_content: part.encryptedContent } : {}) });
  }
  if (turn.text) items.push({ type: "message", role: "assistant", content: turn.text });
  for (const call of own(turn.toolCalls)) {
    items.push(
      call.inputFormat === "text"
        ? { type: "custom_tool_call", call_id: idOf(call), name: call.name, input: call.rawArguments }
        : { type: "function_call", call_id: idOf(call), name: call.name, arguments: call.rawArguments || JSON.stringify(call.arguments) },
    );
  }
  return items;
}

/**
 * OpenAI Responses: one `function_call_output` (or `custom_tool_call_output`) item per result.
 *
 * @example
 * ```ts
 * input.push(...responsesToolOutputs([{ call, output: { temperature: 21 } }]));
 * ```
 */
export function responsesToolOutputs(results: readonly ToolResult[]): Record<string, unknown>[] {
  return results.map((result) => ({
    type: result.call.inputFormat === "text" ? "custom_tool_call_output" : "function_call_output",
    call_id: idOf(result.call),
    output: asText(result.output),
  }));
}

/**
 * The assistant turn for a provider's next request (an array of items for the Responses API).
 *
 * @example
 * ```ts
 * const turn = assistantMessage(provider, finish); // finish: the stream's `finish` event
 * messages.push(...(Array.isArray(turn) ? turn : [turn]));
 * ```
 */
export function assistantMessage(provider: Provider, turn: AssistantTurn): Record<string, unknown> | Record<string, unknown>[] {
  if (provider === "anthropic") return anthropicAssistantMessage(turn);
  if (provider === "gemini") return geminiModelContent(turn);
  if (provider === "openai-responses") return responsesInputItems(turn);
  return openAIChatAssistantMessage(turn);
}

/**
 * The tool results for a provider's next request (several messages or items where the provider wants them).
 *
 * @example
 * ```ts
 * const results = await Promise.all(finish.toolCalls.map(async (call) => ({ call, output: await run(call.name, call.arguments) })));
 * messages.push(...toolResultMessages(provider, results));
 * ```
 */
export function toolResultMessages(provider: Provider, results: readonly ToolResult[]): Record<string, unknown>[] {
  if (provider === "anthropic") return [anthropicToolResultMessage(results)];
  if (provider === "gemini") return [geminiFunctionResponseContent(results)];
  if (provider === "openai-responses") return responsesToolOutputs(results);
  return openAIChatToolMessages(results);
}
