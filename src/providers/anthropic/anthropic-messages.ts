import { asText, idOf, own, type AssistantTurn, type ToolResult } from "../turn.ts";

/**
 * One of Anthropic's blocks that go back whole (`compaction`, `fallback`); another provider's
 * kept block (a Gemini Interactions built-in tool's step) is not Anthropic's to take.
 *
 * @example
 * ```ts
 * isAnthropicBlock({ type: "fallback" }); // true
 * isAnthropicBlock({ type: "google_search_call" }); // false
 * ```
 */
export const isAnthropicBlock = (block: { readonly [key: string]: unknown }): boolean =>
  block["type"] === "compaction" || block["type"] === "fallback";

/**
 * The `caller` a `tool_use` came with (programmatic tool calling: the model, or a code execution
 * tool by id), kept on the call's `providerMetadata`, to echo on the next turn.
 *
 * @example
 * ```ts
 * const block = { type: "tool_use", id: call.id, name: call.name, input: call.arguments, ...callerOf(call) };
 * ```
 */
export function callerOf(call: { readonly providerMetadata?: Readonly<Record<string, unknown>> | undefined }): {
  caller?: unknown;
} {
  const caller = call.providerMetadata?.["caller"];
  return caller !== null && typeof caller === "object" ? { caller } : {};
}

/**
 * Anthropic Messages: an assistant message of the turn's `thinking`, `redacted_thinking`,
 * `compaction` and `fallback` blocks (from `reasoningParts`, in order, as extended thinking with
 * tools requires and as the refusals-and-fallback guide asks: a `fallback` block between the two
 * models' thinking), a text block, and `tool_use` blocks (input as an object, with the `caller`
 * the call came with). A call the provider withdrew (`finish.withdrawnToolCalls`: the `tool_use`
 * a fallback may have cut off) is not in `toolCalls`, so it is left out, and no `tool_result`
 * answers it.
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
    else if (part.type === "block" && isAnthropicBlock(part.block)) content.push(part.block);
  }
  if (turn.text) content.push({ type: "text", text: turn.text });
  for (const call of own(turn.toolCalls))
    content.push({ type: "tool_use", id: idOf(call), name: call.name, input: call.arguments, ...callerOf(call) });
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
