import { asText, own, type AssistantTurn, type ToolResult } from "../turn.ts";

/**
 * Ollama `/api/chat`: an assistant message with its text, its `thinking` and `tool_calls` whose
 * `function.arguments` is an object (with the call's `id` when the server gave one).
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { provider: "ollama" })) {
 *   if (event.type === "finish") messages.push(ollamaAssistantMessage(event));
 * }
 * ```
 */
export function ollamaAssistantMessage(turn: AssistantTurn): Record<string, unknown> {
  const calls = own(turn.toolCalls).map((call) => ({
    ...(call.id !== null ? { id: call.id } : {}),
    function: { name: call.name, arguments: call.arguments },
  }));
  return {
    role: "assistant",
    content: turn.text ?? "",
    ...(turn.reasoning ? { thinking: turn.reasoning } : {}),
    ...(calls.length > 0 ? { tool_calls: calls } : {}),
  };
}

/**
 * Ollama `/api/chat`: one `tool` message per result, naming the tool (`tool_name`), and the call
 * it answers when the call had an id.
 *
 * @example
 * ```ts
 * messages.push(...ollamaToolMessages([{ call, output: "Sunny, 21 °C" }]));
 * ```
 */
export function ollamaToolMessages(results: readonly ToolResult[]): Record<string, unknown>[] {
  return results.map((result) => ({
    role: "tool",
    content: asText(result.output),
    tool_name: result.call.name,
    ...(result.call.id !== null ? { tool_call_id: result.call.id } : {}),
  }));
}
