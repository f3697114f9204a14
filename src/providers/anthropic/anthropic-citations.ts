import type { ReasoningPart } from "../../shared/deltas.ts";
import { keptCounter } from "../../shared/errors.ts";
import type { JsonValue } from "../../shared/json.ts";
import { isRecord, ownValue } from "../../shared/values.ts";
import type { DecoderLimits, Emit } from "../provider-decoder.ts";
import { splitCited } from "../turn.ts";

/**
 * The citations of Anthropic's text blocks (documents, search results, web search): a text block
 * that got any, in its `content_block_start` or as `citations_delta`s (each adds one, as the SDK's
 * MessageStream appends it to the block), becomes a `reasoning-part` at its stop, the block
 * `{ type: "text", text, citations }` as it came, so that the next turn sends it back as its own
 * block. Only a cited block's text is kept here (from its start when the start carries a
 * `citations` array, as Anthropic starts one, else from its first citation on: the text before that
 * stays plain text); the text of the others is the accumulator's alone. The citations of a response count against `maxToolCalls` (as OpenAI Responses' approval
 * requests do): past it, a `ToolCallStreamError` of code `too-many-tool-calls` ends the stream.
 *
 * @example
 * ```ts
 * const cited = new AnthropicCitations({ maxToolCalls: 64 });
 * cited.start(0, { type: "text", text: "" });
 * cited.delta(0, { type: "citations_delta", citation: { type: "char_location", cited_text: "The grass is green." } });
 * cited.delta(0, { type: "text_delta", text: "the grass is green" });
 * cited.stop(0, emit); // a reasoning-part: the text block with its one citation
 * ```
 */
export class AnthropicCitations {
  /**
   * The open text block: its index, its citations, and its text from where it became cited (its
   * fragments, joined at its stop); `undefined` text while it is not: the text of a block without
   * citations is the accumulator's alone, never copied here.
   */
  #open: { index: number; text: string[] | undefined; citations: JsonValue[] } | undefined;
  readonly #counted: (added: number) => void;

  /** Creates the reader of one response, bounded by the accumulator's `maxToolCalls` (1024 by default). */
  constructor(limits: DecoderLimits = {}) {
    this.#counted = keptCounter("citations", limits.maxToolCalls);
  }

  /**
   * A block started: a text block is followed until its stop, its text kept from its start when the
   * start says it is cited (a `citations` array, even empty, as Anthropic starts a cited block).
   */
  start(index: number, block: Record<string, unknown>): void {
    if (block["type"] !== "text") return;
    const cited = Array.isArray(block["citations"]);
    const text = cited && typeof block["text"] === "string" && block["text"] !== "" ? [block["text"]] : [];
    this.#open = { index, text: cited ? text : undefined, citations: [] };
    if (cited) for (const citation of block["citations"] as unknown[]) this.#add(citation);
  }

  /**
   * A delta: true for a `citations_delta` (nothing else to do with it), which makes the block cited
   * from there on (Anthropic sends a block's citations before its text); a `text_delta` of a cited
   * block adds to its text.
   */
  delta(index: number, delta: Record<string, unknown>): boolean {
    const open = this.#open?.index === index ? this.#open : undefined;
    if (delta["type"] === "citations_delta") {
      if (open) {
        open.text ??= [];
        this.#add(delta["citation"]);
      }
      return true;
    }
    if (open?.text && delta["type"] === "text_delta" && typeof delta["text"] === "string")
      open.text.push(delta["text"]);
    return false;
  }

  /** A block stopped: the text block, when it has citations, becomes its `reasoning-part`. */
  stop(index: number, emit: Emit): void {
    const open = this.#open;
    if (open?.index !== index) return;
    this.#open = undefined;
    if (open.citations.length > 0)
      emit({
        type: "reasoning-part",
        part: { type: "block", block: { type: "text", text: open.text!.join(""), citations: open.citations } },
      });
  }

  #add(citation: unknown): void {
    if (!isRecord(citation)) return;
    this.#counted(1);
    this.#open!.citations.push(citation as JsonValue);
  }
}

/** The fields of each citation's `TextCitationParam` besides `type` and `cited_text` (a response's `file_id` is not one). */
const PARAM_FIELDS: Record<string, string> = {
  char_location: "document_index document_title start_char_index end_char_index",
  page_location: "document_index document_title start_page_number end_page_number",
  content_block_location: "document_index document_title start_block_index end_block_index",
  web_search_result_location: "url title encrypted_index",
  search_result_location: "search_result_index source title start_block_index end_block_index",
};

/**
 * The turn's text as Anthropic text blocks: each cited block (a `text` block part of
 * `reasoningParts`, see {@link AnthropicCitations}) as its own block with its `citations` (each
 * with the fields its `TextCitationParam` takes; a type Anthropic added later as it came), found
 * in order in the text; the text around them as uncited blocks, but for white space alone, which
 * Anthropic refuses as a block. A turn without citations gives one block of its whole text, as before.
 *
 * @example
 * ```ts
 * content.push(...anthropicTextBlocks(turn.text, turn.reasoningParts));
 * ```
 */
export function anthropicTextBlocks(text: string, parts: readonly ReasoningPart[] = []): Record<string, unknown>[] {
  return splitCited(
    text,
    parts,
    (part) => citedBlock(part)?.text,
    (run) => ({ type: "text", text: run }),
    (part) => {
      const { text, citations } = citedBlock(part)!;
      return { type: "text", text, citations: citations.map(citationParam) };
    },
  );
}

/** A cited text block part (`{ type: "text", text, citations }`, as {@link AnthropicCitations} keeps it), or undefined. */
function citedBlock(part: ReasoningPart): { text: string; citations: JsonValue[] } | undefined {
  const block = part.type === "block" && part.block["type"] === "text" ? part.block : undefined;
  const text = block?.["text"];
  return typeof text === "string" && text && Array.isArray(block!["citations"])
    ? { text, citations: block!["citations"] }
    : undefined;
}

/** A response's citation in the shape of its `TextCitationParam`. */
function citationParam(citation: JsonValue): JsonValue {
  const fields = isRecord(citation) ? ownValue(PARAM_FIELDS, String(citation["type"])) : undefined;
  if (fields === undefined) return citation;
  const record = citation as { [key: string]: JsonValue };
  return Object.fromEntries(
    `type cited_text ${fields}`
      .split(" ")
      .filter((key) => Object.hasOwn(record, key))
      .map((key) => [key, record[key]!]),
  );
}
