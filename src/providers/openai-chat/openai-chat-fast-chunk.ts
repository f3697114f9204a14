import { jsonLiteralEnd } from "../../shared/json-literal.ts";
import { ownText } from "../../shared/kept-text.ts";

/** A JSON string without escapes or control characters, quotes included. */
const PLAIN = '"[^"\\\\\\x00-\\x1f]*"';

/**
 * One field of a chunk's envelope that the decoder does not read (anything but `choices`, `error`,
 * `usage` and Groq's `x_groq`; `model` is read from the envelope once it matched): a string without
 * escapes, an integer without sign or leading zero, or `null`.
 */
const FIELD = `"(?!(?:choices|error|usage|x_groq)")[a-z_]{1,32}":(?:${PLAIN}|0|[1-9]\\d{0,15}|null)`;

/**
 * A chunk's envelope, from its start to its first choice's delta: a few such fields, in any order,
 * then `choices` (OpenAI's `id`, `object`, `created`, `model`, `service_tier`,
 * `system_fingerprint`, and what compatible servers send instead). Every chunk of a stream has the
 * same one, so the last one matched is compared before this is run again.
 */
const ENVELOPE = new RegExp(`^\\{(?:${FIELD},){0,12}"choices":\\[\\{"index":0,"delta":\\{`);
const CHOICES = '"choices":[{"index":0,"delta":{';

/** The delta's only field up to its string literal's opening quote: a text delta, or one call's argument fragment. */
const CONTENT = '"content":"';
const CALL = '"tool_calls":[{"index":';
const ARGUMENTS = ',"function":{"arguments":"';
/** What follows the literal, before the envelope's optional last fields and its closing brace: the delta's end, `logprobs` (OpenAI's, optional), `finish_reason`. */
const TEXT_END = "}";
const CALL_END = "}}]}";
const LOGPROBS = ',"logprobs":null';
const CHOICE_END = ',"finish_reason":null}]';
const USAGE = ',"usage":null';
const OBFUSCATION = ',"obfuscation":"';

/**
 * Chunks in a row that repeat the head and the tail kept after which both are kept as flat strings
 * (V8's sequential strings): `ownText`'s copy is a view, which V8 compares with each chunk's slice
 * (a view too) in its runtime, reading both through their views; a flat one it reads directly,
 * some 60 instructions less a comparison (2 a chunk; BENCHMARKS.md, 2026-12-06 22:02). The copy
 * costs about 20 comparisons: made once a stream shows its chunks repeat, never for a stream whose
 * calls interleave (each chunk's head the other call's).
 */
const FLAT_AFTER = 32;

/** A flat copy of `text`: `JSON.parse` makes one (a concatenation, a `join`, a slice give a view again). */
const flat = (text: string): string => JSON.parse(JSON.stringify(text)) as string;

/**
 * Chunks in a row whose envelope is not OpenAI's after which a stream's is taken for another
 * server's (another key order, fields OpenAI does not send) and left to the full parse: the pattern
 * would only fail on each of them.
 */
const MAX_MISSES = 8;

/**
 * Reads Chat Completions chunks without building their payload objects when their data is
 * exactly OpenAI's serialization of a text delta or of an argument fragment of the first choice
 * (nearly every chunk of a streamed answer): the envelope is matched whole, only the one string
 * literal is parsed. {@link FastChunkReader.read} returns `undefined` for any other data (another
 * shape, key order, whitespace, an escape in the envelope, invalid JSON), which the full parse then
 * reads. One per stream: it keeps what it matched last. Every chunk of a stream has the same
 * envelope and, around its literal, the same text before it (through the literal's opening quote)
 * and nearly the same after it (through `"obfuscation":"`, whose value changes), so a chunk that
 * repeats the last one's is read with two comparisons and the scan of its literals.
 *
 * @example
 * ```ts
 * const reader = new FastChunkReader();
 * reader.read(
 *   '{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,' +
 *     '"delta":{"content":"Hi"},"logprobs":null,"finish_reason":null}]}',
 * );
 * // "Hi" (reader.call: undefined, a text delta; reader.model: "m")
 * ```
 */
export class FastChunkReader {
  // What is kept from a chunk for the chunks after it is a string of its own (`ownText`): a slice
  // of the chunk's data would keep the whole text of the read it came in, for the whole stream.
  /** The last envelope matched, through `"delta":{` (its model in {@link FastChunkReader.model}). */
  #envelope: string | undefined;
  /** Chunks in a row whose envelope is not OpenAI's: past {@link MAX_MISSES}, the stream's is another's and is not matched again. */
  #misses = 0;
  /** The last chunk read through its literal's opening quote, and its call (`undefined`: a text delta). */
  #head: string | undefined;
  #headCall: number | undefined;
  /** What followed the last chunk's literal (to the end, or through an open `"obfuscation":"`), and whether that was a text delta. */
  #tail: string | undefined;
  #tailOfText = false;
  /** Chunks in a row that kept the head and the tail: at {@link FLAT_AFTER}, both are copied flat. */
  #repeats = 0;
  /**
   * The call index of the last chunk {@link FastChunkReader.read} read: an argument fragment of
   * that call, or `undefined` for a text delta.
   */
  call: number | undefined;
  /** The model of the chunks read (`""` when empty), set by {@link FastChunkReader.read}. */
  model = "";

  /**
   * The text or argument fragment of a chunk of the common shape, decoded (its call in
   * {@link FastChunkReader.call}), or `undefined` when `data` is not of that shape.
   */
  read(data: string): string | undefined {
    // `slice` and `===` rather than `startsWith`, which V8 runs several times slower here, or a
    // sticky pattern (`textPattern`), which costs more in workerd on this one-byte text: 8.2 M
    // instructions a 10 KB call (2,962 chunks) against 5.6 M (BENCHMARKS.md, 2026-12-06 19:22).
    const head = this.#head;
    let start: number;
    if (head !== undefined && data.slice(0, head.length) === head) {
      start = head.length - 1;
      this.call = this.#headCall;
    } else {
      start = this.#literalStart(data);
      if (start < 0) return undefined;
      this.#head = ownText(data.slice(0, start + 1));
      this.#headCall = this.call;
      this.#repeats = 0;
    }
    const end = jsonLiteralEnd(data, start);
    if (end === 0) return undefined;
    const after = Math.abs(end);
    const text = this.call === undefined;
    let tail = this.#tail;
    if (tail === undefined || text !== this.#tailOfText || data.slice(after, after + tail.length) !== tail) {
      const through = tailEnd(data, after, text ? TEXT_END : CALL_END);
      if (through < 0) return undefined;
      tail = this.#tail = ownText(data.slice(after, through));
      this.#tailOfText = text;
      this.#repeats = 0;
    } else if (++this.#repeats === FLAT_AFTER) {
      this.#head = flat(this.#head!);
      this.#tail = flat(tail);
    }
    if (!lastField(data, after + tail.length, tail)) return undefined;
    // The fragment or text delta is kept downstream: a string of its own, not a view of the read.
    if (end > 0) return ownText(data.slice(start + 1, end - 1));
    try {
      return JSON.parse(data.slice(start, -end)) as string;
    } catch {
      return undefined;
    }
  }

  /**
   * The index of the opening quote of the chunk's literal, its call in {@link FastChunkReader.call};
   * -1 when the chunk's envelope or delta is not of the common shape.
   */
  #literalStart(data: string): number {
    let known = this.#envelope;
    if (known === undefined || data.slice(0, known.length) !== known) {
      if (this.#misses > MAX_MISSES) return -1;
      const envelope = ENVELOPE.exec(data);
      if (!envelope) {
        this.#misses++;
        return -1;
      }
      this.#misses = 0;
      known = this.#envelope = ownText(envelope[0]);
      // The head kept began with the envelope before: it is never compared again.
      this.#head = undefined;
      // The fields before `choices`, as an object of their own: a repeated `model` is its last value, as in the full parse.
      // (Each field is followed by its comma: a last key of no name, which no field has, closes them.)
      const model = (JSON.parse(`{${known.slice(1, -CHOICES.length)}"":0}`) as { model?: unknown }).model;
      this.model = typeof model === "string" ? model : "";
    }
    // Plain comparisons and one scan: V8's regular expressions cost more than a parse here.
    let at = known.length;
    if (data.slice(at, at + CONTENT.length) === CONTENT) {
      this.call = undefined;
      return at + CONTENT.length - 1;
    }
    if (data.slice(at, at + CALL.length) !== CALL) return -1;
    at += CALL.length;
    let call = 0;
    const first = at;
    for (let code = data.charCodeAt(at); code >= 48 && code <= 57 && at - first < 9; code = data.charCodeAt(++at))
      call = call * 10 + code - 48;
    if (at === first || (data.charCodeAt(first) === 48 && at > first + 1)) return -1;
    if (data.slice(at, at + ARGUMENTS.length) !== ARGUMENTS) return -1;
    this.call = call;
    return at + ARGUMENTS.length - 1;
  }
}

/**
 * What follows a literal that ends at `at`, before the envelope's last field: the delta's `close`,
 * `logprobs`, `finish_reason`, `usage`, then `"obfuscation":"` (the index returned is that
 * literal's opening quote, plus one) or the chunk's closing brace (the index returned is the end).
 * -1 when it is anything else.
 */
function tailEnd(data: string, at: number, close: string): number {
  if (data.slice(at, at + close.length) !== close) return -1;
  at += close.length;
  if (data.slice(at, at + LOGPROBS.length) === LOGPROBS) at += LOGPROBS.length;
  if (data.slice(at, at + CHOICE_END.length) !== CHOICE_END) return -1;
  at += CHOICE_END.length;
  if (data.slice(at, at + USAGE.length) === USAGE) at += USAGE.length;
  if (data.slice(at, at + OBFUSCATION.length) === OBFUSCATION) return at + OBFUSCATION.length;
  return at === data.length - 1 && data.charCodeAt(at) === 125 ? data.length : -1;
}

/**
 * The chunk ends well after `tail` (what {@link tailEnd} found), which ends at `at`: with its
 * closing brace (the chunk ends there), or with `"obfuscation":"` (that literal, then the brace).
 */
function lastField(data: string, at: number, tail: string): boolean {
  if (tail.charCodeAt(tail.length - 1) !== 0x22) return at === data.length;
  // 0 (the literal does not end) and a negative end (it has escapes) are never the last index.
  const end = jsonLiteralEnd(data, at - 1);
  return end === data.length - 1 && data.charCodeAt(end) === 125;
}
