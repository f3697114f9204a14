import type { ReasoningPart } from "../shared/deltas.ts";
import { isRefusal } from "../shared/values.ts";
import type { BlockSequencer, SequencedBlock } from "./block-sequencer.ts";
import type { SendResponsesEvent } from "./openai-responses-stream-events.ts";
import { outputText, type OpenAIResponsesOutputItem, type OpenAIResponsesOutputText } from "./openai-responses-wire.ts";

// The encoders tell a refusal part by the predicate the tool loop and the request kit use.
export { isRefusal };

/** A message item's `refusal` content part (openai's `ResponseOutputRefusal`). */
type OpenAIResponsesOutputRefusal = { type: "refusal"; refusal: string };

/** The kept blocks the Responses encoder made of refusals ({@link refusalBlock}), with their text. */
const REFUSALS = new WeakMap<ReasoningPart, string>();

/**
 * A refusal as a kept block of its own, which the Responses encoder's block sequencer puts in
 * order and {@link refusalOf} tells apart from a provider's kept block of any type.
 *
 * @example
 * ```ts
 * blocks.reasoningPart(refusalBlock("I can't help with that."));
 * ```
 */
export function refusalBlock(refusal: string): ReasoningPart {
  const part: ReasoningPart = { type: "block", block: { type: "refusal", refusal } };
  REFUSALS.set(part, refusal);
  return part;
}

/** The refusals that stopped a message's open text, by its block: a part after its text ({@link placeRefusal}). */
const TRAILING = new WeakMap<SequencedBlock, string>();

/**
 * Places a stop's refusal (Anthropic's `stop_details` explanation) as OpenAI shapes one: a `refusal`
 * part of the message whose text it stopped (one item, last and incomplete), else a message of its own.
 *
 * @example
 * ```ts
 * placeRefusal(blocks, "Declined: cyber."); // before blocks.finish()
 * ```
 */
export function placeRefusal(blocks: BlockSequencer, refusal: string): void {
  const tail = blocks.blocks.at(-1);
  if (tail?.kind === "text" && !tail.done) TRAILING.set(tail, refusal);
  else blocks.reasoningPart(refusalBlock(refusal));
}

/**
 * The refusal a sequenced block is ({@link refusalBlock}), or undefined.
 *
 * @example
 * ```ts
 * const refusal = refusalOf(block); // "I can't help with that." for a refusal's block
 * ```
 */
export const refusalOf = (block: SequencedBlock): string | undefined =>
  block.kind === "kept" ? REFUSALS.get(block.part) : undefined;

/**
 * The content part a message item opens with: an empty `refusal` for a refusal's block
 * ({@link refusalBlock}), else an empty `output_text`.
 *
 * @example
 * ```ts
 * openingPart(block); // { type: "output_text", text: "", annotations: [], logprobs: [] } for text
 * ```
 */
export const openingPart = (block: SequencedBlock): OpenAIResponsesOutputText | OpenAIResponsesOutputRefusal =>
  refusalOf(block) === undefined ? outputText("") : refusalPart("");

/**
 * A refusal's content part (openai's `ResponseOutputRefusal`).
 *
 * @example
 * ```ts
 * refusalPart(""); // { type: "refusal", refusal: "" }
 * ```
 */
const refusalPart = (refusal: string): OpenAIResponsesOutputRefusal => ({ type: "refusal", refusal });

/**
 * Writes a block's refusal ({@link refusalOf}, or one {@link placeRefusal} put after its text), if it
 * has one, as a content part, as the API streams one (openai's `ResponseRefusalDeltaEvent` and
 * `ResponseRefusalDoneEvent`): its text in one `response.refusal.delta`, `response.refusal.done` with
 * the whole, then `response.content_part.done`. A refusal's own message (`response.content_part.added`
 * opened it) is then complete with that part; after a message's text, the part is added after it
 * (`content_index` 1) and the message keeps its status.
 *
 * @example
 * ```ts
 * writeRefusal(item, block, { item_id: item.id, output_index: 0 }, send);
 * ```
 */
export function writeRefusal(
  item: OpenAIResponsesOutputItem,
  block: SequencedBlock,
  where: { item_id: string; output_index: number },
  send: SendResponsesEvent,
): void {
  const refusal = refusalOf(block) ?? TRAILING.get(block);
  if (refusal === undefined) return;
  const content = item.type === "message" ? item.content : [];
  const at = { ...where, content_index: content.length };
  if (content.length > 0) send("response.content_part.added", { ...at, part: refusalPart("") });
  send("response.refusal.delta", { ...at, delta: refusal });
  send("response.refusal.done", { ...at, refusal });
  send("response.content_part.done", { ...at, part: refusalPart(refusal) });
  // A refusal's own message is complete; a message's text keeps its status (incomplete: the refusal stopped it).
  Object.assign(item, content.length > 0 ? {} : { status: "completed" }, {
    content: [...content, refusalPart(refusal)],
  });
}
