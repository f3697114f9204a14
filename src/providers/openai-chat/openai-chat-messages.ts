import { asText, idOf, own, type AssistantTurn, type ToolResult } from "../turn.ts";

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
  const calls = own(turn.toolCalls).map((call) =>
    chatToolCall(idOf(call), call.name, call.rawArguments || JSON.stringify(call.arguments), call.providerMetadata),
  );
  return {
    role: "assistant",
    content: turn.text ? turn.text : null,
    ...(calls.length > 0 ? { tool_calls: calls } : {}),
  };
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

/** A call of an earlier turn as an assistant message's `tool_calls` entry (arguments as JSON text). */
export function chatToolCall(
  id: string,
  name: string,
  args: string,
  providerMetadata: Readonly<Record<string, unknown>> | undefined,
): Record<string, unknown> {
  const extra = providerMetadata?.["extra_content"];
  return {
    id,
    type: "function",
    function: { name, arguments: args },
    // Gemini's OpenAI endpoint needs its thought signature back on the call.
    ...(extra !== undefined ? { extra_content: extra } : {}),
  };
}
