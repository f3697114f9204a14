import type { ReasoningPart } from "../../shared/deltas.ts";
import type { JsonValue } from "../../shared/json.ts";
import { asText, idOf, own, type AssistantTurn, type ToolResult } from "../turn.ts";

/**
 * OpenAI Chat Completions: one assistant message with `tool_calls` (arguments as a JSON string),
 * and the reasoning of a thinking model in the field it streamed in (`reasoning_content`,
 * `reasoning`, `reasoning_details`: the turn's `field` reasoning parts), which DeepSeek, Kimi,
 * GLM, Qwen, MiniMax and OpenRouter need back in a tool loop; a turn whose stream had none of
 * these fields is sent none, as a strict server (OpenAI, Groq) requires. A turn with nothing (no
 * text, call, refusal or reasoning) is `{ role: "assistant", content: null }`, which Chat
 * Completions refuses: `assistantMessage("openai", turn)` gives no message (`[]`) for it instead.
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { provider: "openai" })) {
 *   if (event.type === "finish") messages.push(openAIChatAssistantMessage(event));
 * }
 * ```
 */
export function openAIChatAssistantMessage(turn: AssistantTurn): Record<string, unknown> {
  const calls = own(turn.toolCalls).map((call) =>
    chatToolCall(
      idOf(call),
      call,
      call.inputFormat ? call.rawArguments : call.rawArguments || JSON.stringify(call.arguments),
    ),
  );
  return {
    role: "assistant",
    content: turn.text ? turn.text : null,
    ...reasoningFields(turn.reasoningParts),
    ...(calls.length > 0 ? { tool_calls: calls } : {}),
  };
}

/**
 * The assistant message's reasoning fields from a turn's `field` parts: each field as its stream
 * named it, the texts of one field joined, its details listed in order; the other parts are other
 * providers' and left out.
 */
export function reasoningFields(parts: readonly ReasoningPart[] | undefined): Record<string, JsonValue> {
  const fields: Record<string, JsonValue> = {};
  for (const part of parts ?? []) {
    if (part.type !== "field") continue;
    const previous = fields[part.field];
    if (typeof part.value === "string")
      fields[part.field] = typeof previous === "string" ? previous + part.value : part.value;
    else fields[part.field] = Array.isArray(previous) ? [...previous, ...part.value] : [...part.value];
  }
  return fields;
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
 * A call of an earlier turn as an assistant message's `tool_calls` entry: a function's arguments
 * as JSON text, a custom tool's free-text input (`inputFormat: "text"`) as `{ type: "custom",
 * custom: { name, input } }`, as OpenAI's Chat Completions takes it back.
 */
export function chatToolCall(
  id: string,
  call: {
    readonly name: string;
    readonly inputFormat?: "text" | undefined;
    readonly providerMetadata?: Readonly<Record<string, unknown>> | undefined;
  },
  args: string,
): Record<string, unknown> {
  const { name } = call;
  const extra = call.providerMetadata?.["extra_content"];
  return {
    id,
    ...(call.inputFormat
      ? { type: "custom", custom: { name, input: args } }
      : { type: "function", function: { name, arguments: args } }),
    // Gemini's OpenAI endpoint needs its thought signature back on the call.
    ...(extra !== undefined ? { extra_content: extra } : {}),
  };
}
