import { jsonLiteralEnd } from "../../shared/json-literal.ts";

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
 * Chunks in a row whose envelope is not OpenAI's after which a stream's is taken for another
 * server's (another key order, fields OpenAI does not send) and left to the full parse: the pattern
 * would only fail on each of them.
 */
const MAX_MISSES = 8;

/** The one field an OpenAI chunk of the common shape carries (see {@link FastChunkReader}). */
export interface FastChunk {
  /** The chunk's `model` (`""` when empty). */
  model: string;
  /** The call's index for an argument fragment; `undefined` for a text delta. */
  call: number | undefined;
  /** The text or the argument fragment, decoded. */
  text: string;
}

/**
 * Reads Chat Completions chunks without building their payload objects when their data is
 * exactly OpenAI's serialization of a text delta or of an argument fragment of the first choice
 * (nearly every chunk of a streamed answer): the envelope is matched whole, only the one string
 * literal is parsed. {@link FastChunkReader.read} returns `undefined` for any other data (another
 * shape, key order, whitespace, an escape in the envelope, invalid JSON), which the full parse then
 * reads. One per stream: it keeps the last envelope it matched.
 *
 * @example
 * ```ts
 * new FastChunkReader().read(
 *   '{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,' +
 *     '"delta":{"content":"Hi"},"logprobs":null,"finish_reason":null}]}',
 * );
 * // { model: "m", call: undefined, text: "Hi" }
 * ```
 */
export class FastChunkReader {
  /** The last envelope matched, through `"delta":{`, and its model. */
  #envelope: string | undefined;
  #model = "";
  /** Chunks in a row whose envelope is not OpenAI's: past {@link MAX_MISSES}, the stream's is another's and is not matched again. */
  #misses = 0;

  /** The chunk's one field, or `undefined` when `data` is not of that shape. */
  read(data: string): FastChunk | undefined {
    // `slice` and `===` rather than `startsWith`, which V8 runs about 20 times slower here.
    let known = this.#envelope;
    if (known === undefined || data.slice(0, known.length) !== known) {
      if (this.#misses > MAX_MISSES) return undefined;
      const envelope = ENVELOPE.exec(data);
      if (!envelope) {
        this.#misses++;
        return undefined;
      }
      this.#misses = 0;
      known = this.#envelope = envelope[0];
      // The fields before `choices`, as an object of their own: a repeated `model` is its last value, as in the full parse.
      const fields = known.slice(0, -CHOICES.length);
      const model = (JSON.parse(fields.length > 1 ? `${fields.slice(0, -1)}}` : "{}") as { model?: unknown }).model;
      this.#model = typeof model === "string" ? model : "";
    }
    // Plain comparisons and one scan: V8's regular expressions cost more than a parse here.
    let at = known.length;
    let call: number | undefined;
    if (data.slice(at, at + CONTENT.length) === CONTENT) at += CONTENT.length - 1;
    else if (data.slice(at, at + CALL.length) === CALL) {
      at += CALL.length;
      call = 0;
      const first = at;
      for (let code = data.charCodeAt(at); code >= 48 && code <= 57 && at - first < 9; code = data.charCodeAt(++at))
        call = call * 10 + code - 48;
      if (at === first || (data.charCodeAt(first) === 48 && at > first + 1)) return undefined;
      if (data.slice(at, at + ARGUMENTS.length) !== ARGUMENTS) return undefined;
      at += ARGUMENTS.length - 1;
    } else return undefined;
    const start = at;
    const end = jsonLiteralEnd(data, start);
    if (end === 0) return undefined;
    const close = call === undefined ? TEXT_END : CALL_END;
    at = Math.abs(end);
    if (data.slice(at, at + close.length) !== close) return undefined;
    at += close.length;
    if (data.slice(at, at + LOGPROBS.length) === LOGPROBS) at += LOGPROBS.length;
    if (data.slice(at, at + CHOICE_END.length) !== CHOICE_END) return undefined;
    at += CHOICE_END.length;
    if (data.slice(at, at + USAGE.length) === USAGE) at += USAGE.length;
    if (data.slice(at, at + OBFUSCATION.length) === OBFUSCATION) {
      at = jsonLiteralEnd(data, at + OBFUSCATION.length - 1);
      if (at <= 0) return undefined;
    }
    if (at !== data.length - 1 || data.charCodeAt(at) !== 125) return undefined;
    if (end > 0) return { model: this.#model, call, text: data.slice(start + 1, end - 1) };
    let text: unknown;
    try {
      text = JSON.parse(data.slice(start, -end));
    } catch {
      return undefined;
    }
    return { model: this.#model, call, text: text as string };
  }
}
