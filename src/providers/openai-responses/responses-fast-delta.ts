import { jsonLiteralEnd } from "../../shared/json-literal.ts";
import { ownText } from "../../shared/kept-text.ts";

/** A JSON string's content without escapes or control characters (an id). */
const PLAIN = '[^"\\\\\\x00-\\x1f]*';
/** A JSON integer without sign or leading zero, exact as a number. */
const INTEGER = "0|[1-9]\\d{0,8}";

/** A delta event's start through the colon of its `sequence_number`, as OpenAI writes it. */
const HEAD =
  /^\{"type":"(response\.(?:function_call_arguments|output_text|reasoning_summary_text|reasoning_text)\.delta)","sequence_number":/;

/**
 * What follows the sequence number through the delta's opening quote: the item's id and output
 * index (in either order), a text's `content_index` or a summary's `summary_index`.
 */
const MIDDLE = new RegExp(
  `,(?:"item_id":"(${PLAIN})","output_index":(${INTEGER})|"output_index":(${INTEGER}),"item_id":"(${PLAIN})")` +
    `(?:,"(?:content|summary)_index":(?:${INTEGER}))?,"delta":"`,
  "y",
);

const LOGPROBS = ',"logprobs":[]';
const OBFUSCATION = ',"obfuscation":"';

/**
 * Reads the Responses events that come by the thousand (a call's argument fragments, text
 * and reasoning deltas) without building their payload objects when their data is OpenAI's
 * serialization of them: `type`, `sequence_number`, `item_id` and `output_index` (or these two the
 * other way round), a `content_index` or `summary_index`, `delta`, then an empty `logprobs` and the
 * `obfuscation` padding, compact. A stream's events share their start and, per item, their middle:
 * the last ones matched are compared as strings before the patterns run again, and only the delta's
 * string literal is scanned (and parsed when it has escapes). {@link ResponsesFastDelta.read}
 * returns `undefined` for anything else (another key or order, white space, invalid JSON), which the
 * full parse then reads: a payload is never read differently, only with less work. One per stream.
 *
 * @example
 * ```ts
 * new ResponsesFastDelta().read(
 *   '{"type":"response.output_text.delta","sequence_number":4,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"Hi","logprobs":[]}',
 * );
 * // { type: "response.output_text.delta", sequence_number: 4, item_id: "msg_1", output_index: 0, delta: "Hi" }
 * ```
 */
export class ResponsesFastDelta {
  // Kept for the events after this one as strings of their own (`ownText`): a match is a slice of
  // the event's data, which would keep the whole text of the read it came in.
  // None matches before the first is kept: a middle begins with a comma, every head with a brace.
  #head = "-";
  #type!: string;
  #middle = "-";
  #itemId!: string;
  #index!: number;

  /** The fields of `data` the decoder reads, as `JSON.parse` gives them, or `undefined` when it is not of that shape. */
  read(data: string): Record<string, unknown> | undefined {
    // `slice` and `===`: V8 compares two strings faster than it runs `startsWith` or a pattern.
    let at = this.#head.length;
    if (data.slice(0, at) !== this.#head) {
      const head = HEAD.exec(data);
      if (!head) return undefined;
      this.#head = ownText(head[0]);
      this.#type = ownText(head[1]!);
      // Read as a property key, the type becomes the engine's copy (a string of its table), which
      // the decoder's cases are: compared with them for each event, a string cut from the data costs
      // ten times more (V8).
      void ({} as Record<string, unknown>)[this.#type];
      at = this.#head.length;
    }
    const first = at;
    let sequence = 0;
    for (let code = data.charCodeAt(at); code >= 0x30 && code <= 0x39 && at - first < 15; code = data.charCodeAt(++at))
      sequence = sequence * 10 + code - 0x30;
    if (at === first || (at > first + 1 && data.charCodeAt(first) === 0x30)) return undefined;
    const middle = this.#middle;
    if (data.slice(at, at + middle.length) === middle) at += middle.length;
    else {
      MIDDLE.lastIndex = at;
      const match = MIDDLE.exec(data);
      if (!match) return undefined;
      this.#middle = ownText(match[0]);
      this.#itemId = ownText(match[1] ?? match[4]!);
      this.#index = Number(match[2] ?? match[3]);
      at = MIDDLE.lastIndex;
    }
    const start = at - 1;
    const end = jsonLiteralEnd(data, start);
    if (end === 0) return undefined;
    at = Math.abs(end);
    if (data.slice(at, at + LOGPROBS.length) === LOGPROBS) at += LOGPROBS.length;
    if (data.slice(at, at + OBFUSCATION.length) === OBFUSCATION) {
      at = jsonLiteralEnd(data, at + OBFUSCATION.length - 1);
      if (at <= 0) return undefined;
    }
    if (at !== data.length - 1 || data.charCodeAt(at) !== 0x7d) return undefined;
    let delta: unknown;
    if (end > 0) delta = data.slice(start + 1, end - 1);
    else {
      try {
        delta = JSON.parse(data.slice(start, -end));
      } catch {
        return undefined;
      }
    }
    return {
      type: this.#type,
      sequence_number: sequence,
      item_id: this.#itemId,
      output_index: this.#index,
      delta,
    };
  }
}
