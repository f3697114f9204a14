import type { ReasoningPart } from "../../shared/deltas.ts";
import type { JsonValue } from "../../shared/json.ts";
import { isRecord } from "../../shared/values.ts";
import { asText, idOf, own, type AssistantTurn, type ToolResult } from "../turn.ts";

/**
 * Cohere v2: an assistant message with its text as `content` (given, empty too, when it made no
 * call), the `citations` of that text ({@link cohereCitations}), `tool_calls` (arguments as a JSON
 * string) and, when it made calls, its `tool_plan` (the
 * reasoning the model streamed as `tool-plan-delta`). A reasoning model's thinking (its `thinking`
 * parts) goes back as `{ type: "thinking", thinking }` items of `content`, before the text, never
 * in the `tool_plan`: the plan is the turn's reasoning without them. A turn with nothing (no text
 * or call: its thinking alone, or nothing at all) is `{ role: "assistant", content: "" }`, its
 * content empty as every provider's builder gives it, which Cohere refuses (an assistant message
 * needs content, tool_calls or a tool_plan): `assistantMessage("cohere", turn)` gives no message
 * (`[]`) for it instead.
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
  const thinking = thinkingTexts(turn.reasoningParts);
  const plan = toolPlan(turn.reasoning, thinking);
  const content = turn.text || calls.length > 0 ? cohereContent(thinking, turn.text ?? "") : "";
  const citations = turn.text ? cohereCitations(turn.reasoningParts, thinking) : [];
  return {
    role: "assistant",
    ...(turn.text || calls.length === 0 || content !== "" ? { content } : {}),
    ...(citations.length > 0 && { citations }),
    ...(calls.length > 0 ? { ...(plan ? { tool_plan: plan } : {}), tool_calls: calls } : {}),
  };
}

/** The texts of the turn's `thinking` parts (Cohere's thinking content items), in order. */
export function thinkingTexts(parts: readonly ReasoningPart[] | undefined): string[] {
  return (parts ?? []).flatMap((part) => (part.type === "thinking" ? [part.text] : []));
}

/**
 * An assistant message's `content`: the text alone when the turn has no thinking, else its
 * thinking items then the text (if any) as a text item.
 *
 * @example
 * ```ts
 * cohereContent(["The user wants 2 + 2."], "4."); // [{ type: "thinking", thinking: "The user wants 2 + 2." }, { type: "text", text: "4." }]
 * ```
 */
export function cohereContent(thinking: readonly string[], text: string): string | Record<string, string>[] {
  if (thinking.length === 0) return text;
  const items = thinking.map((item) => ({ type: "thinking", thinking: item }));
  return text === "" ? items : [...items, { type: "text", text }];
}

/** A source of Cohere's own (`Source`: a document or a tool result); another provider's citation is none. */
const isCohereSource = (source: JsonValue): boolean =>
  isRecord(source) && (source["type"] === "document" || source["type"] === "tool");

/**
 * The citations of a turn's text as Cohere v2 takes them back on its assistant message (cohere-ai
 * 8.1.0's `AssistantMessage.citations`: `{ start, end, text, sources, type, content_index }`): one
 * for each cited text part the decoder kept, its span as Cohere gave it. With thinking, the
 * content is an array whose text item comes after the thinking items, so `content_index` names it;
 * a text sent alone as a string has none. A part cited by another provider's sources (Anthropic's
 * text blocks) is no citation of Cohere's, and is left out.
 *
 * @example
 * ```ts
 * cohereCitations(finish.reasoningParts, []); // [{ start: 25, end: 35, text: "Antarctica", sources, type: "TEXT_CONTENT" }]
 * ```
 */
export function cohereCitations(
  parts: readonly ReasoningPart[] | undefined,
  thinking: readonly string[],
): Record<string, JsonValue>[] {
  return (parts ?? []).flatMap((part) => {
    if (part.type !== "block") return [];
    const { type, text, citations: sources, start, end } = part.block;
    if (type !== "text" || typeof text !== "string" || !Array.isArray(sources) || sources.length === 0) return [];
    if (!sources.every(isCohereSource)) return [];
    return [
      {
        ...(typeof start === "number" && { start }),
        ...(typeof end === "number" && { end }),
        text,
        sources,
        type: "TEXT_CONTENT",
        ...(thinking.length > 0 && { content_index: thinking.length }),
      },
    ];
  });
}

/**
 * The tool plan of a turn whose reasoning text holds its thinking too (both stream as reasoning, in
 * order): the reasoning without each thinking text, each looked for after the one before, so the
 * work is linear in the text however many thinking parts the model streamed.
 *
 * @example
 * ```ts
 * toolPlan("Paris is asked for.I will look it up.", ["Paris is asked for."]); // "I will look it up."
 * ```
 */
export function toolPlan(reasoning: string | undefined, thinking: readonly string[]): string {
  const text = reasoning ?? "";
  const kept: string[] = [];
  let from = 0;
  for (const part of thinking) {
    const at = part === "" ? -1 : text.indexOf(part, from);
    if (at < 0) continue;
    kept.push(text.slice(from, at));
    from = at + part.length;
  }
  kept.push(text.slice(from));
  return kept.join("");
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
