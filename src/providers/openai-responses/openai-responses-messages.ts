import { asText, idOf, own, type AssistantTurn, type ToolResult } from "../turn.ts";

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
    items.push({
      type: "reasoning",
      id: part.id,
      summary: part.summary ?? [],
      ...(part.encryptedContent !== undefined ? { encrypted_content: part.encryptedContent } : {}),
    });
  }
  if (turn.text) items.push({ type: "message", role: "assistant", content: turn.text });
  for (const call of own(turn.toolCalls)) {
    items.push(
      call.inputFormat === "text"
        ? { type: "custom_tool_call", call_id: idOf(call), name: call.name, input: call.rawArguments }
        : {
            type: "function_call",
            call_id: idOf(call),
            name: call.name,
            arguments: call.rawArguments || JSON.stringify(call.arguments),
          },
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
