import type { JsonValue } from "../../shared/json.ts";
import { isRecord } from "../../shared/values.ts";
import { asText, idOf, own, type AssistantTurn, type ToolResult } from "../turn.ts";

/**
 * Amazon Bedrock Converse: an assistant message of the turn's reasoning blocks (from
 * `reasoningParts`, in order: `reasoningText` with its signature, or `redactedContent`, which
 * Claude's extended thinking with tools requires back), a text block, and `toolUse` blocks (input
 * as an object). Converse refuses a blank text block, so text of white space alone is left out; a
 * turn of none of these (its only call the provider ran, or a refusal before any output) gives
 * empty `content`, which Converse refuses as Anthropic does: `assistantMessage("bedrock", turn)`
 * gives no message then. With InvokeModel (Claude's own request body), use the Anthropic builders instead.
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { provider: "bedrock" })) {
 *   if (event.type === "finish") messages.push(bedrockAssistantMessage(event));
 * }
 * ```
 */
export function bedrockAssistantMessage(turn: AssistantTurn): Record<string, unknown> {
  const content: Record<string, unknown>[] = [];
  for (const part of turn.reasoningParts ?? []) {
    if (part.type === "signed")
      content.push({ reasoningContent: { reasoningText: { text: part.text, signature: part.signature } } });
    else if (part.type === "redacted") content.push({ reasoningContent: { redactedContent: part.data } });
  }
  if (turn.text?.trim()) content.push({ text: turn.text });
  for (const call of own(turn.toolCalls))
    content.push({ toolUse: { toolUseId: idOf(call), name: call.name, input: call.arguments } });
  return { role: "assistant", content };
}

/**
 * Amazon Bedrock Converse: one user message of `toolResult` blocks (an object output as a `json`
 * block, anything else as `text`; a failed call with `status: "error"`).
 *
 * @example
 * ```ts
 * messages.push(bedrockToolResultMessage([{ call, output: { temperature: 21 } }]));
 * ```
 */
export function bedrockToolResultMessage(results: readonly ToolResult[]): Record<string, unknown> {
  return {
    role: "user",
    content: results.map((result) => ({
      toolResult: {
        toolUseId: idOf(result.call),
        content: [isRecord(result.output) ? { json: result.output as JsonValue } : { text: asText(result.output) }],
        ...(result.isError ? { status: "error" } : {}),
      },
    })),
  };
}
