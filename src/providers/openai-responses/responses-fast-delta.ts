import { jsonLiteralEnd, jsonLiteralText } from "../../shared/json-literal.ts";
import { matchAt, NO_TEXT, ownText, textPattern } from "../../shared/kept-text.ts";

/** A JSON string's content without escapes or control characters (an id). */
const PLAIN = '[^"\\\\\\x00-\\x1f]*';
/** A JSON integer without sign or leading zero, exact as a number. */
const INTEGER = "0|[1-9]\\d{0,8}";

/** A delta event's start through the colon of its `sequence_number`, as OpenAI writes it. */
const HEAD =
  /^\{"type":"(response\.(?:function_call_arguments|output_text|reasoning_summary_text|reasoning_text|reasoning)\.delta)","sequence_number":/;

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
 * serialization of them: `type`, `sequence_number`, `item_id` and `output_index` (or these two the
 * other way round), a `content_index` or `summary_index`, `delta`, then an empty `logprobs` and the
 * `obfuscation` padding, compact. A stream's events share their start and, per item, their middle:
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
      const head = HEAD.exec(data);
      if (!head) return undefined;
      this.#head = textPattern(head[0]);
      this.type = ownText(head[1]!);
      // Read as a property key, the type becomes the engine's copy (a string of its table), which
      // the decoder's cases are: compared with them for each event, a string cut from the data costs
      // ten times more (V8).
      void ({} as Record<string, unknown>)[this.type];
      at = head[0].length;
    }
    const first = at;
    let sequence = 0;
    for (let code = data.charCodeAt(at); code >= 0x30 && code <= 0x39 && at - first < 15; code = data.charCodeAt(++at))
      sequence = sequence * 10 + code - 0x30;
    if (at === first || (at > first + 1 && data.charCodeAt(first) === 0x30)) return undefined;
    const middle = matchAt(this.#middle, data, at);
    if (middle >= 0) at = middle;
    else {
      MIDDLE.lastIndex = at;
      const match = MIDDLE.exec(data);
      if (!match) return undefined;
      this.#middle = textPattern(match[0]);
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
}
