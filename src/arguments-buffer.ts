import type { JsonValue, StreamErrorInfo } from "./types.ts";

/** The outcome of parsing a call's arguments once it has completed. */
export type ArgumentsResult =
  | { ok: true; value: JsonValue }
  | { ok: false; error: StreamErrorInfo };

/**
 * The arguments text of one call, appended fragment by fragment and parsed once at completion.
 *
 * Besides the text it tracks, in O(fragment) per append, whether the text so far is one closed
 * JSON object or array. That is used only to tell apart provider quirks (a whole call resent, a
 * second call with the same index), never to complete a call: a buffer that happens to parse is
 * not a finished call.
 */
export class ArgumentsBuffer {
  #text = "";
  #depth = 0;
  #inString = false;
  #escaped = false;
  #opened = false;
  #closed = false;
  #trailing = false;

  /** The arguments text received so far. */
  get text(): string {
    return this.#text;
  }

  /** True when the text so far is exactly one closed JSON object or array (plus white space). */
  get isClosedValue(): boolean {
    return this.#closed && !this.#trailing;
  }

  /** Appends one fragment. */
  append(fragment: string): void {
    this.#text += fragment;
    for (let i = 0; i < fragment.length; i++) this.#scan(fragment.charCodeAt(i));
  }

  /** Parses the whole text: empty or white space is `{}`, invalid JSON is an `invalid-json` error. */
  parse(): ArgumentsResult {
    return parseArguments(this.#text);
  }

  #scan(code: number): void {
    if (this.#closed) {
      if (!isWhitespace(code)) this.#trailing = true;
      return;
    }
    if (this.#inString) {
      if (this.#escaped) this.#escaped = false;
      else if (code === 0x5c) this.#escaped = true;
      else if (code === 0x22) this.#inString = false;
      return;
    }
    if (code === 0x22) this.#inString = this.#opened;
    else if (code === 0x7b || code === 0x5b) {
      this.#opened = true;
      this.#depth++;
    } else if ((code === 0x7d || code === 0x5d) && this.#opened) {
      if (--this.#depth === 0) this.#closed = true;
    }
  }
}

function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/**
 * Parses complete arguments text: empty or white space is `{}`; anything `JSON.parse` rejects is
 * an `invalid-json` error with the position where parsing failed, when the engine reports it.
 * `JSON.parse` makes `__proto__` an ordinary own property, so hostile keys are safe.
 */
export function parseArguments(text: string): ArgumentsResult {
  if (text.trim() === "") return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) as JsonValue };
  } catch (error) {
    const info: StreamErrorInfo = { code: "invalid-json", message: "The tool arguments are not valid JSON." };
    const position = errorPosition(error, text);
    if (position !== undefined) {
      info.position = position;
      info.message = `The tool arguments are not valid JSON (at offset ${position}).`;
    }
    return { ok: false, error: info };
  }
}

/** Engines word JSON errors differently; V8 says "at position N", SpiderMonkey "line L column C". */
function errorPosition(error: unknown, text: string): number | undefined {
  const message = error instanceof Error ? error.message : "";
  const position = /position (\d+)/.exec(message);
  if (position) return Number(position[1]);
  if (/end of (JSON )?input|Unexpected end/i.test(message)) return text.length;
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (!lineColumn) return undefined;
  const lines = text.split("\n").slice(0, Number(lineColumn[1]) - 1);
  return lines.reduce((sum, line) => sum + line.length + 1, 0) + Number(lineColumn[2]) - 1;
}
