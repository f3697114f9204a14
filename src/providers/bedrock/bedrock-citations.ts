import { keptCounter } from "../../shared/errors.ts";
import type { JsonValue } from "../../shared/json.ts";
import { isRecord } from "../../shared/values.ts";
import type { DecoderLimits, Emit } from "../provider-decoder.ts";

/**
 * The citations of Bedrock ConverseStream's text blocks (a model that cites the request's documents,
 * or a web search's pages): a block that got any `citation` delta (`CitationsDelta`: `title`,
 * `source`, `sourceContent`, `location`) becomes, at its `contentBlockStop`, a `block` reasoning
 * part holding Converse's `citationsContent` block (`CitationsContentBlock`): the block's whole
 * text as its `content` (`[{ text }]`) and its citations, each as it came, which is what Bedrock
 * takes back in an assistant message (AWS's Strands Agents keeps a cited block so). Its text is
 * kept from the block's first delta, as a citation may follow the text it cites; an uncited
 * block's copy is dropped at its stop. The citations of a response count against the
 * accumulator's `maxToolCalls` (as Anthropic's do): past it, a `ToolCallStreamError` of code
 * `too-many-tool-calls` ends the stream.
 *
 * A plug-in of the Converse decoder (`converseCitations`, given to `BedrockDecoder` and the bedrock
 * protocol): the main entry's `bedrock` reads with it, `tool-call-stream/bedrock`'s
 * `streamToolCalls` with `converseCitations: ConverseCitations`, so that a bundle that keeps no
 * citation holds none of this.
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { converseCitations: ConverseCitations })) console.log(event.type); // tool-call-stream/bedrock
 * ```
 */
export class ConverseCitations {
  /** Each open text block's fragments and citations, by its index. */
  readonly #open = new Map<number, { said: string[]; citations: JsonValue[] }>();
  readonly #counted: (added: number) => void;

  /** Reads one response's blocks, bounded by the accumulator's `maxToolCalls` (1024 by default). */
  constructor(limits: DecoderLimits = {}) {
    this.#counted = keptCounter("citations", limits.maxToolCalls);
  }

  /** A block's delta: its text, or a citation, is kept for its stop. */
  delta(index: number, delta: Record<string, unknown>): void {
    const { text, citation } = delta;
    if (typeof text !== "string" && !isRecord(citation)) return;
    let open = this.#open.get(index);
    if (!open) this.#open.set(index, (open = { said: [], citations: [] }));
    if (typeof text === "string") open.said.push(text);
    if (!isRecord(citation)) return;
    this.#counted(1);
    open.citations.push(citation as JsonValue);
  }

  /** A block stopped: a cited one becomes its `citationsContent` block part. */
  stop(index: number, emit: Emit): void {
    const open = this.#open.get(index);
    this.#open.delete(index);
    if (open?.citations.length)
      emit({
        type: "reasoning-part",
        part: {
          type: "block",
          block: { citationsContent: { citations: open.citations, content: [{ text: open.said.join("") }] } },
        },
      });
  }
}
