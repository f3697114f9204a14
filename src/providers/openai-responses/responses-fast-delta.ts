import { jsonLiteralEnd, jsonLiteralText } from "../../shared/json-literal.ts";
import { matchAt, NO_TEXT, ownText, textPattern } from "../../shared/kept-text.ts";

/** A JSON string's content without escapes or control characters (an id). */
const PLAIN = '[^"\\\\\\x00-\\x1f]*';
/** A JSON integer without sign or leading zero, exact as a number. */
const INTEGER = "0|[1-9]\\d{0,8}";

/** The delta events' types. */
const TYPE =
  '\\{"type":"(response\\.(?:function_call_arguments|output_text|reasoning_summary_text|reasoning_text|reasoning)\\.delta)",';

/** A delta event's start through the colon of its `sequence_number`, as OpenAI wrote it before it sorted the keys. */
const HEAD = new RegExp(`^${TYPE}"sequence_number":`);

/**
 * A delta event's start through its delta's opening quote, as OpenAI writes it now (`type`, then
 * the other keys in alphabetical order): a text's `content_index` before the delta.
 */
const SORTED_HEAD = new RegExp(`^${TYPE}(?:"content_index":(?:${INTEGER}),)?"delta":"`);

/** What follows the delta in OpenAI's alphabetical order through the `item_id`'s value, kept per item. */
const SORTED_ITEM = new RegExp(`,"item_id":"(${PLAIN})"`, "y");

/** The rest of the alphabetical order through the output index's colon: an empty `logprobs`, the padding. */
const SORTED_PAD = new RegExp(`(?:,"logprobs":\\[\\])?(?:,"obfuscation":"${PLAIN}")?,"output_index":`, "y");
const SEQUENCE_KEY = ',"sequence_number":';
/** The event's end after its sequence number: a summary's index last. */
const SORTED_END = new RegExp(`(?:,"summary_index":(?:${INTEGER}))?\\}$`, "y");

/**
 * What follows the sequence number through the delta's opening quote: the item's id and output
 * index (in either order), a text's `content_index` or a summary's `summary_index`.
 */
const MIDDLE = new RegExp(
  `,(?:"item_id":"(${PLAIN})","output_index":(${INTEGER})|"output_index":(${INTEGER}),"item_id":"(${PLAIN})")` +
    `(?:,"(?:content|summary)_index":(?:${INTEGER}))?,"delta":"`,
  "y",
);

/** What follows the delta through the event's end: an empty `logprobs`, the `obfuscation` padding. */
const TAIL = new RegExp(`(?:,"logprobs":\\[\\])?(?:,"obfuscation":"${PLAIN}")?\\}$`, "y");

/**
 * Reads the Responses events that come by the thousand (a call's argument fragments, text
 * and reasoning deltas) without building their payload objects when their data is OpenAI's
 * serialization of them, compact, in either of its orders: `type`, `sequence_number`, `item_id` and
 * `output_index` (or these two the other way round), a `content_index` or `summary_index`, `delta`,
 * then an empty `logprobs` and the `obfuscation` padding; or, as OpenAI writes them now, `type`
 * and the rest in alphabetical order (`content_index`, `delta`, `item_id`, `logprobs`,
 * `obfuscation`, `output_index`, `sequence_number`, `summary_index`). A stream's events share their
 * start and, per item, their middle (the sorted order's `item_id`):
 * the last ones matched are compared as strings before the patterns run again, and only the delta's
 * string literal is scanned (and parsed when it has escapes). {@link ResponsesFastDelta.read}
 * returns the delta (the other fields on the reader) or `undefined` for anything else (another key
 * or order, white space, invalid JSON), which the full parse then reads: a payload is never read
 * differently, only with less work. One per stream.
 *
 * @example
 * ```ts
 * const reader = new ResponsesFastDelta();
 * reader.read(
 *   '{"type":"response.output_text.delta","sequence_number":4,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"Hi","logprobs":[]}',
 * );
 * // "Hi" (reader.type: "response.output_text.delta", reader.sequence: 4, reader.itemId: "msg_1", reader.index: 0)
 * ```
 */
export class ResponsesFastDelta {
  // The last start and middle matched, as patterns of their text (`textPattern`). None matches
  // before the first is kept (a middle that matched "-" read an event that is no JSON as a delta).
  #head = NO_TEXT;
  #middle = NO_TEXT;
  /** Whether the start kept is of OpenAI's alphabetical order, and that order's `item_id` kept. */
  #sorted = false;
  #item = NO_TEXT;
  /** The integer `#integerAt` read last. */
  #integer = 0;
  /** The last event's `type`, `sequence_number`, `item_id` and `output_index` (each valid once `read` gave its delta). */
  type!: string;
  sequence!: number;
  itemId!: string;
  index!: number;

  /** The fields read last, as `JSON.parse` gives them, with their `delta`: an event's payload, for one held for its order. */
  payload(delta: string): Record<string, unknown> {
    return { type: this.type, sequence_number: this.sequence, item_id: this.itemId, output_index: this.index, delta };
  }

  /** The delta of `data`, as `JSON.parse` gives it (its other fields on the reader), or `undefined` when `data` is not of that shape. */
  read(data: string): string | undefined {
    let at = matchAt(this.#head, data, 0);
    if (at < 0) {
      const head = HEAD.exec(data) ?? SORTED_HEAD.exec(data);
      if (!head) return undefined;
      this.#head = textPattern(head[0]);
      this.#sorted = head[0].endsWith('"');
      this.type = ownText(head[1]!);
      // Read as a property key, the type becomes the engine's copy (a string of its table), which
      // the decoder's cases are: compared with them for each event, a string cut from the data costs
      // ten times more (V8).
      void ({} as Record<string, unknown>)[this.type];
      at = head[0].length;
    }
    return this.#sorted ? this.#readSorted(data, at) : this.#readOrdered(data, at);
  }

  /** The rest of an event whose sequence number follows its type (OpenAI's order before its keys were sorted). */
  #readOrdered(data: string, at: number): string | undefined {
    at = this.#integerAt(data, at);
    if (at < 0) return undefined;
    const sequence = this.#integer;
    const middle = matchAt(this.#middle, data, at);
    if (middle >= 0) at = middle;
    else {
      MIDDLE.lastIndex = at;
      const match = MIDDLE.exec(data);
      if (!match) return undefined;
      this.#middle = textPattern(match[0]);
      this.#item = NO_TEXT; // the item's id and index are the middle's now
      this.itemId = ownText(match[1] ?? match[4]!);
      this.index = Number(match[2] ?? match[3]);
      at = MIDDLE.lastIndex;
    }
    const start = at - 1;
    const end = jsonLiteralEnd(data, start);
    if (end === 0) return undefined;
    if (matchAt(TAIL, data, Math.abs(end)) < 0) return undefined;
    this.sequence = sequence;
    return jsonLiteralText(data, start, end);
  }

  /** The rest of an event in OpenAI's alphabetical order: the delta, then its item, padding, index and sequence number. */
  #readSorted(data: string, at: number): string | undefined {
    const start = at - 1;
    const end = jsonLiteralEnd(data, start);
    if (end === 0) return undefined;
    at = Math.abs(end);
    const item = matchAt(this.#item, data, at);
    if (item >= 0) at = item;
    else {
      SORTED_ITEM.lastIndex = at;
      const match = SORTED_ITEM.exec(data);
      if (!match) return undefined;
      this.#item = textPattern(match[0]);
      this.#middle = NO_TEXT; // the item's id is this one's now
      this.itemId = ownText(match[1]!);
      at = SORTED_ITEM.lastIndex;
    }
    // The padding's pattern tested, the rest read by hand: no match arrays or strings per event.
    const index = this.#integerAt(data, matchAt(SORTED_PAD, data, at));
    if (index < 0) return undefined;
    const value = this.#integer;
    const sequence = this.#integerAt(data, data.startsWith(SEQUENCE_KEY, index) ? index + SEQUENCE_KEY.length : -1);
    if (sequence < 0) return undefined;
    if (sequence !== data.length - 1 || data.charCodeAt(sequence) !== 0x7d) {
      if (matchAt(SORTED_END, data, sequence) < 0) return undefined;
    }
    this.#middle = NO_TEXT; // so is its index
    this.index = value;
    this.sequence = this.#integer;
    return jsonLiteralText(data, start, end);
  }

  /**
   * The index just past the JSON integer at `at` as `INTEGER` takes it (no sign, no leading zero,
   * at most 9 digits: exact), its value in `#integer`; -1 for none (or `at` -1).
   */
  #integerAt(data: string, at: number): number {
    if (at < 0) return -1;
    let value = 0;
    let end = at;
    for (let code = data.charCodeAt(end); code >= 0x30 && code <= 0x39; code = data.charCodeAt(++end)) {
      if (end - at === 9 || (end > at && value === 0)) return -1;
      value = value * 10 + code - 0x30;
    }
    if (end === at) return -1;
    this.#integer = value;
    return end;
  }
}
