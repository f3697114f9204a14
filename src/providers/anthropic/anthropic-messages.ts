import { asText, idOf, own, type AssistantTurn, type ToolResult } from "../turn.ts";

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
  for (const call of own(turn.toolCalls))
    content.push({ type: "tool_use", id: idOf(call), name: call.name, input: call.arguments });
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
