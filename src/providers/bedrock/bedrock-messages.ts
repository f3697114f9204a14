import type { JsonValue } from "../../shared/json.ts";
import { isRecord } from "../../shared/values.ts";
import { asText, idOf, piecesInOrder, type AssistantTurn, type ToolResult } from "../turn.ts";

/**
 * Amazon Bedrock Converse: an assistant message of the turn's content blocks in the order the
 * stream gave them (`order`; a turn without one: the reasoning, then the text, then the calls):
 * its reasoning blocks (from `reasoningParts`: `reasoningText` with its signature, or
 * `redactedContent`, which Claude's extended thinking with tools requires back unchanged), its
 * text, and `toolUse` blocks (input as an object). Converse refuses a blank text block, so text of white space alone is left out; a
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
  const order = { text: turn.text ?? "", calls: turn.toolCalls, parts: turn.reasoningParts, order: turn.order };
  const content = piecesInOrder(order, {
    part: (part): Record<string, unknown>[] => {
      if (part.type === "signed")
        return [{ reasoningContent: { reasoningText: { text: part.text, signature: part.signature } } }];
      return part.type === "redacted" ? [{ reasoningContent: { redactedContent: part.data } }] : [];
    },
    text: (text) => (text.trim() ? [{ text }] : []),
    call: (call) =>
      call.providerExecuted ? [] : [{ toolUse: { toolUseId: idOf(call), name: call.name, input: call.arguments } }],
  });
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
