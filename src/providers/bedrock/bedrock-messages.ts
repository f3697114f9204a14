import type { ReasoningPart } from "../../shared/deltas.ts";
import type { JsonValue } from "../../shared/json.ts";
import { isRecord } from "../../shared/values.ts";
import { asText, idOf, piecesInOrder, splitCited, type AssistantTurn, type ToolResult } from "../turn.ts";

/**
 * Amazon Bedrock Converse: an assistant message of the turn's content blocks in the order the
 * stream gave them (`order`; a turn without one: the reasoning, then the text, then the calls):
 * its reasoning blocks (from `reasoningParts`: `reasoningText` with its signature, or
 * `redactedContent`, which Claude's extended thinking with tools requires back unchanged), its
 * text, and `toolUse` blocks (input as an object). A call the provider ran (Amazon Nova's system
 * tools, `nova_code_interpreter`, `nova_grounding`) goes back with its result, as they came: its
 * `toolUse` with `type: "server_tool_use"`, then its `toolResult` block (a `block` reasoning part
 * of the turn), which Bedrock takes back (pydantic-ai's recorded multi-turn code execution sends
 * both and gets a 200), so the model keeps what the tool gave; one whose result did not come in
 * the turn is left out. An image the model made (a `block` part `{image}`) goes back in its place,
 * as Converse's image block. A cited text (kept by `ConverseCitations`) goes back as its
 * `citationsContent` block (its text and citations), in place of that text. Converse refuses a
 * blank text block, so text of white space alone is left out; a
 * turn of none of these (a refusal before any output) gives
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
  const results = serverResults(turn.reasoningParts);
  const content = piecesInOrder(order, {
    part: (part): Record<string, unknown>[] => {
      if (part.type === "signed")
        return [{ reasoningContent: { reasoningText: { text: part.text, signature: part.signature } } }];
      return part.type === "redacted" ? [{ reasoningContent: { redactedContent: part.data } }] : imageBlocks(part);
    },
    text: bedrockTextBlocks,
    call: (call) => {
      const toolUse = { toolUseId: idOf(call), name: call.name, input: call.arguments };
      if (!call.providerExecuted) return [{ toolUse }];
      const result = results.get(call.id);
      return result ? [{ toolUse: { ...toolUse, type: "server_tool_use" } }, result] : [];
    },
  });
  return { role: "assistant", content };
}

/**
 * A run of the turn's text as Converse content blocks: each cited text in it (a `citationsContent`
 * block part, see `ConverseCitations`) as that block, the text around them as `text` blocks, but for
 * white space alone, which Converse refuses.
 *
 * @example
 * ```ts
 * content.push(...bedrockTextBlocks(text, finish.reasoningParts ?? []));
 * ```
 */
export function bedrockTextBlocks(text: string, parts: readonly ReasoningPart[]): Record<string, unknown>[] {
  if (!text.trim()) return [];
  return splitCited(
    text,
    parts,
    citedTextOf,
    (run) => ({ text: run }),
    (part) => (part as { block: Record<string, unknown> }).block,
  );
}

/** The text of a `citationsContent` block part (its `content`'s texts), or undefined for another part. */
function citedTextOf(part: ReasoningPart): string | undefined {
  const cited = part.type === "block" ? part.block["citationsContent"] : undefined;
  const content = isRecord(cited) ? cited["content"] : undefined;
  return Array.isArray(content) ? content.map((piece) => (isRecord(piece) ? piece["text"] : "")).join("") : undefined;
}

/**
 * A turn's kept image (a `block` part `{ image }`, an image the model made) as the Converse content
 * block it came as, for the next turn; any other part gives none.
 *
 * @example
 * ```ts
 * content.push(...imageBlocks(part)); // [{ image: { format: "png", source: { bytes: "iVBORw0KGgo=" } } }]
 * ```
 */
export function imageBlocks(part: ReasoningPart): Record<string, unknown>[] {
  return part.type === "block" && isRecord(part.block["image"]) ? [part.block] : [];
}

/**
 * The server tools' `toolResult` blocks of a turn (its `block` reasoning parts), by the call they answer.
 *
 * @example
 * ```ts
 * const result = serverResults(finish.reasoningParts).get(call.id); // { toolResult: { toolUseId, type, status, content } }
 * ```
 */
export function serverResults(parts: readonly ReasoningPart[] | undefined): Map<unknown, Record<string, unknown>> {
  const results = new Map<unknown, Record<string, unknown>>();
  for (const part of parts ?? []) {
    const result = part.type === "block" ? part.block["toolResult"] : undefined;
    if (isRecord(result)) results.set(result["toolUseId"], (part as { block: Record<string, unknown> }).block);
  }
  return results;
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
