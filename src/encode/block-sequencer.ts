import { callKey } from "../shared/call-key.ts";
import type { ReasoningPart } from "../shared/deltas.ts";
import type { CompletedToolCallEvent, InvalidToolCallEvent, ToolCallStartEvent } from "../shared/events.ts";
import type { JsonValue } from "../shared/json.ts";
import { citedSpans, citedText, isGrounding, type Citing } from "./citations.ts";
import { pushSent } from "./sent-fragments.ts";
import { Work } from "./text-search.ts";

/** One block of a response as a one-block-at-a-time protocol shows it. */
export type SequencedBlock =
  | (BlockBase & {
      kind: "text";
      /** Its text's length so far (sent and waiting), in UTF-16 code units. */
      length: number;
      /** The parts that cite its text, not placed yet: they are, at its close. */
      citing: Citing[];
      /** The spans of its text that the provider's citations cite (Anthropic's cited text blocks, Gemini's grounding), in order, at its close. */
      cited: CitedSpan[];
    })
  | (BlockBase & {
      kind: "reasoning";
      /** The provider's part for this block (a signature, a Responses item), once it came. */
      part?: ReasoningPart;
    })
  | (BlockBase & { kind: "redacted"; part: Extract<ReasoningPart, { type: "redacted" }> })
  /** A provider's block that goes back as it came (Anthropic's `compaction`, `fallback`). */
  | (BlockBase & { kind: "kept"; part: Extract<ReasoningPart, { type: "block" }> })
  | (BlockBase & {
      kind: "call";
      start: ToolCallStartEvent | CompletedToolCallEvent | InvalidToolCallEvent;
      /** The call's input is free text (Responses `custom_tool_call`), not JSON. */
      textInput: boolean;
      /** The call's end, once it came. */
      completion?: CompletedToolCallEvent | InvalidToolCallEvent;
      /** A fault cut it short: never closed (nor opened, if it was waiting). */
      dropped?: boolean;
    });

type TextBlock = Extract<SequencedBlock, { kind: "text" }>;

/** A cited text block (Anthropic's citations) and where its text sits in the text block shown, in UTF-16 code units. */
export interface CitedSpan {
  /** The citations as the provider sent them. */
  citations: readonly JsonValue[];
  /** The first code unit of the cited text. */
  start: number;
  /** The code unit after it. */
  end: number;
}

interface BlockBase {
  /** The block's position among the blocks shown, from 0, assigned when it opens. */
  index: number;
  /** Fragments that came while an earlier block was open, sent when this one opens. */
  pending: string[];
  /** Every fragment sent (`pushSent`), joined at the close (a call's arguments, a block's text). */
  sent: string[];
  /** Nothing more will come for it. */
  done: boolean;
  /** Its opening went out. */
  opened: boolean;
}

/** What a protocol writes for the blocks, in order: each opened, its fragments, closed. */
export interface BlockSink {
  /** The block becomes the open one (its `index` is set). */
  open(block: SequencedBlock): void;
  /** A fragment of the open block's text or arguments (already recorded in `sent`). */
  delta(block: SequencedBlock, fragment: string): void;
  /** The open block is complete. */
  close(block: SequencedBlock): void;
  /**
   * A cited text ends the text block it ended, so the text after it opens another (Anthropic
   * Messages: the citations cover their block's text, as Anthropic sends each cited text as a
   * block of its own); otherwise the text block goes on and its cited spans are ranges within it
   * (OpenAI Responses' annotations).
   */
  readonly citedTextEndsBlock?: boolean;
}

/**
 * Puts a response's content in the order of protocols that show one block at a time (Anthropic
 * Messages content blocks, OpenAI Responses output items as Codex reads them): text, reasoning
 * and calls each become a block, blocks open in the order their content began, and only the
 * first unfinished one streams. Content of a later block (a second call whose fragments
 * interleave with the first's, text after a call that is still streaming) waits in that block
 * until the blocks before it close, then goes out at once; nothing is reordered within a block
 * and nothing is lost. A text or reasoning block ends when other content begins (or a reasoning
 * part closes it), a call at its `tool-call` or `invalid-tool-call`.
 */
export class BlockSequencer {
  readonly #sink: BlockSink;
  readonly #blocks: SequencedBlock[] = [];
  readonly #calls = new Map<string, Extract<SequencedBlock, { kind: "call" }>>();
  #head = 0;
  #opened = 0;
  /** What placing citations may still take: a few units a unit of text shown. */
  readonly #work = new Work();

  /** Writes through `sink`. */
  constructor(sink: BlockSink) {
    this.#sink = sink;
  }

  /** The blocks shown so far and those waiting, in order. */
  get blocks(): readonly SequencedBlock[] {
    return this.#blocks;
  }

  /** True when no block is waiting or open. */
  get idle(): boolean {
    return this.#head === this.#blocks.length;
  }

  /** A fragment of visible text or reasoning. */
  text(kind: "text" | "reasoning", text: string): void {
    if (text === "") return;
    const tail = this.#blocks.at(-1);
    const block =
      tail?.kind === kind && !tail.done
        ? tail
        : this.#push(kind === "text" ? { ...base(), kind, length: 0, citing: [], cited: [] } : { ...base(), kind });
    if (block.kind === "text") {
      block.length += text.length;
      this.#work.earn(WORK_PER_UNIT * text.length);
    }
    this.#fragment(block, text);
  }

  /**
   * A reasoning part: it closes the reasoning block it belongs to, or is a block of its own. A cited
   * text block is a span of the text block its text just ended, Gemini's grounding spans of the open
   * text block (the response's text counted from its first block); a span in a block already closed
   * is left out (its text is shown, its close went out). Spans are placed at the block's close, when
   * its text is whole, or at once when a cited text ends its block (`citedTextEndsBlock`).
   */
  reasoningPart(part: ReasoningPart): void {
    const tail = this.#blocks.at(-1);
    if (citedText(part) || isGrounding(part)) {
      if (tail?.kind !== "text" || tail.done) return;
      const citing = { part, at: tail.length };
      if (!this.#sink.citedTextEndsBlock) return void tail.citing.push(citing);
      const spans = this.#place(tail, this.#blocks.length - 1, [citing]);
      tail.cited.push(...spans);
      if (spans.length > 0) this.#end(tail);
      return;
    }
    if (part.type === "redacted") {
      this.#push({ ...base(), kind: "redacted", part });
    } else if (part.type === "block") {
      this.#push({ ...base(), kind: "kept", part });
    } else if (tail?.kind === "reasoning" && !tail.done && tail.part === undefined) {
      tail.part = part;
    } else {
      this.#push({ ...base(), kind: "reasoning", part });
    }
    this.#end(this.#blocks.at(-1)!);
  }

  /** A call began (or completed without a start). */
  startCall(event: ToolCallStartEvent | CompletedToolCallEvent | InvalidToolCallEvent): void {
    const key = callKey(event);
    if (this.#calls.has(key)) return;
    const textInput = event.type !== "invalid-tool-call" && event.inputFormat === "text";
    const block = { ...base(), kind: "call" as const, start: event, textInput };
    this.#calls.set(key, block);
    this.#push(block);
  }

  /** A fragment of a call's arguments. */
  callDelta(key: string, fragment: string): void {
    const block = this.#calls.get(key);
    if (block && !block.done && fragment !== "") this.#fragment(block, fragment);
  }

  /** A call completed. */
  endCall(event: CompletedToolCallEvent | InvalidToolCallEvent): void {
    this.startCall(event);
    const block = this.#calls.get(callKey(event))!;
    if (block.done) return;
    block.completion = event;
    this.#end(block);
  }

  /** A call is known by its key: started and not forgotten. */
  hasCall(key: string): boolean {
    return this.#calls.has(key);
  }

  /** The text block taking text ends: text after it begins another (OpenAI Responses' next message item). */
  endText(): void {
    const tail = this.#blocks.at(-1);
    if (tail?.kind === "text" && !tail.done) this.#end(tail);
  }

  /** The end of the content: open text and reasoning close; calls close only at their own end. */
  finish(): void {
    const tail = this.#blocks.at(-1);
    if (tail && tail.kind !== "call" && !tail.done) this.#end(tail);
  }

  /**
   * A fault ends the content: the calls not complete are dropped (one open is never closed, one
   * waiting never opened) and the blocks waiting behind them (text, reasoning, complete calls) go
   * out: what the model produced before the fault is delivered. The last block stays open if it
   * was (a Messages error leaves it so, as Anthropic's does); {@link finish} first closes it.
   */
  fault(): void {
    for (const block of this.#blocks.slice(this.#head))
      if (block.kind === "call" && !block.done) Object.assign(block, { done: true, dropped: true });
    this.#advance();
  }

  #push<B extends SequencedBlock>(block: B): B {
    const tail = this.#blocks.at(-1);
    this.#blocks.push(block);
    if (tail && tail.kind !== "call" && !tail.done) this.#end(tail);
    else this.#advance();
    return block;
  }

  #fragment(block: SequencedBlock, fragment: string): void {
    if (block.opened && this.#blocks[this.#head] === block) {
      pushSent(block.sent, fragment);
      this.#sink.delta(block, fragment);
    } else block.pending.push(fragment);
  }

  #end(block: SequencedBlock): void {
    block.done = true;
    this.#advance();
  }

  /** Opens the first unfinished block with what it holds, closing each finished one on the way. */
  #advance(): void {
    for (let block = this.#blocks[this.#head]; block; block = this.#blocks[this.#head]) {
      if (block.kind === "call" && block.dropped) {
        this.#head++;
        continue;
      }
      if (!block.opened) {
        block.opened = true;
        block.index = this.#opened++;
        this.#sink.open(block);
        for (const fragment of block.pending) {
          pushSent(block.sent, fragment);
          this.#sink.delta(block, fragment);
        }
        block.pending = [];
      }
      if (!block.done) return;
      if (block.kind === "text" && block.citing.length > 0) {
        block.cited.push(...this.#place(block, this.#head, block.citing));
        block.citing = [];
      }
      this.#sink.close(block);
      this.#head++;
    }
  }

  /**
   * The spans of the text block at `index` that `citing` cite: a cited text's within the block's
   * text, Gemini's grounding's within the response's (its text blocks from the first), a span
   * before the block left out. The joins are `#work`'s too: one it does not allow places nothing.
   */
  #place(block: TextBlock, index: number, citing: readonly Citing[]): CitedSpan[] {
    // Each text joined once for all the parts, if the work allows: null when it did not.
    let own: string | null | undefined;
    let all: { text: string; before: number } | null | undefined;
    return citing.flatMap((entry): CitedSpan[] => {
      if (!isGrounding(entry.part)) {
        own ??= this.#work.spend(block.length) ? textOf(block) : null;
        return own === null ? [] : citedSpans([entry], own, this.#work);
      }
      // The scan of the blocks is `#work`'s too: a model's output may make thousands of them.
      if (all === undefined && !this.#work.spend(index + 1)) all = null;
      if (all === undefined) {
        const texts = this.#blocks.slice(0, index + 1).filter((b): b is TextBlock => b.kind === "text");
        const size = texts.reduce((sum, b) => sum + b.length, 0);
        all = this.#work.spend(size) ? { text: texts.map(textOf).join(""), before: size - block.length } : null;
      }
      if (all === null) return [];
      const { text, before } = all;
      return citedSpans([{ part: entry.part, at: before + entry.at }], text, this.#work).flatMap(
        ({ citations, start, end }) =>
          start >= before ? [{ citations, start: start - before, end: end - before }] : [],
      );
    });
  }
}

/** A block's text (or arguments) so far: what went out, then what waits. */
const textOf = (block: SequencedBlock): string => block.sent.join("") + block.pending.join("");

/** Work placing citations may take beyond their one pass, per code unit of text shown. */
const WORK_PER_UNIT = 8;

const base = (): BlockBase => ({ index: -1, pending: [], sent: [], done: false, opened: false });
