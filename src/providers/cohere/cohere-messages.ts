import { asText, idOf, own, type AssistantTurn, type ToolResult } from "../turn.ts";

/**
 * Cohere v2: an assistant message with its text as `content` (given, empty too, when it made no
 * call), `tool_calls` (arguments as a JSON string) and, when it made calls, its `tool_plan` (the
 * reasoning the model streamed as `tool-plan-delta`). A turn with nothing (no text or call: its
 * thinking alone, or nothing at all) is `{ role: "assistant", content: "" }`, its content empty as
 * every provider's builder gives it, which Cohere refuses (an assistant message needs content,
 * tool_calls or a tool_plan): `assistantMessage("cohere", turn)` gives no message (`[]`) for it instead.
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { provider: "cohere" })) {
 *   if (event.type === "finish") messages.push(cohereAssistantMessage(event));
 * }
 * ```
 */
export function cohereAssistantMessage(turn: AssistantTurn): Record<string, unknown> {
  const calls = own(turn.toolCalls).map((call) => ({
    id: idOf(call),
    type: "function",
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
  return {
    role: "assistant",
    ...(turn.text || calls.length === 0 ? { content: turn.text ?? "" } : {}),
    ...(calls.length > 0 ? { ...(turn.reasoning ? { tool_plan: turn.reasoning } : {}), tool_calls: calls } : {}),
  };
}

/**
 * Cohere v2: one `tool` message per result.
 *
 * @example
 * ```ts
 * messages.push(...cohereToolMessages([{ call, output: { temperature: 21 } }]));
 * ```
 */
export function cohereToolMessages(results: readonly ToolResult[]): Record<string, unknown>[] {
  return results.map((result) => ({ role: "tool", tool_call_id: idOf(result.call), content: asText(result.output) }));
}
