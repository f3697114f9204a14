import { IncrementalJsonParser } from "./incremental-json-parser.ts";
import { repairJson, type JsonRepair } from "./json-repair.ts";
import type { JsonValue, StreamErrorInfo } from "./types.ts";

/** The outcome of parsing a call's arguments once it has completed. */
export type ArgumentsResult =
  | { ok: true; value: JsonValue; repairs?: JsonRepair[] }
  | { ok: false; error: StreamErrorInfo };

/** Options of {@link ArgumentsBuffer}. */
export interface ArgumentsBufferOptions {
  /**
   * Keep a live partial value (`partialValue`) with the incremental parser. Off, the buffer only
   * scans for structure and parses once at completion with the platform's `JSON.parse`.
   * @defaultValue false
   */
  partial?: boolean;
  /**
   * Deepest nesting of objects and arrays.
   * @defaultValue 64
   */
  maxDepth?: number;
}

/** How to treat arguments that are not valid JSON at completion. */
export interface ParseOptions {
  /** Try the repairs of {@link repairJson}. */
  repair: boolean;
  /** A value cut short may be closed: only when the provider finished normally. */
  closeTruncated: boolean;
}

/**
 * The arguments text of one call, appended fragment by fragment and parsed once at completion.
 *
 * Work per fragment is proportional to the fragment. Without `partial` it only tracks, in one
 * scan, whether the text so far is one closed JSON object or array, its depth, and anything after
 * it; with `partial` an {@link IncrementalJsonParser} also keeps the value parsed so far. That
 * knowledge is given to callers (`isClosedValue`) and used to tell provider quirks apart, never to
 * complete a call: a buffer that happens to parse is not a finished call.
 */
export class ArgumentsBuffer {
  readonly #parser: IncrementalJsonParser | undefined;
  readonly #maxDepth: number;
  #text = "";
  #depth = 0;
  #inString = false;
  #escaped = false;
  #opened = false;
  #closed = false;
  #trailingAt = -1;
  #tooDeepAt = -1;

  /** Creates an empty buffer. */
  constructor(options: ArgumentsBufferOptions = {}) {
    this.#maxDepth = options.maxDepth ?? 64;
    this.#parser = options.partial ? new IncrementalJsonParser({ maxDepth: this.#maxDepth }) : undefined;
  }

  /** The arguments text received so far. */
  get text(): string {
    return this.#text;
  }

  /** True when the text so far is exactly one closed JSON value (plus white space). */
  get isClosedValue(): boolean {
    if (this.#parser) return this.#parser.isComplete;
    return this.#closed && this.#trailingAt < 0 && this.#tooDeepAt < 0;
  }

  /**
   * The value parsed so far (only with `partial`): a live view, valid until the next `append`.
   * Copy it (`structuredClone`) to keep it.
   */
  get partialValue(): JsonValue | undefined {
    return this.#parser?.value;
  }

  /** Appends one fragment. */
  append(fragment: string): void {
    const start = this.#text.length;
    this.#text += fragment;
    if (this.#parser) return this.#parser.feed(fragment);
    for (let i = 0; i < fragment.length; i++) this.#scan(fragment.charCodeAt(i), start + i);
  }

  /**
   * Parses the whole text once the call has completed: empty or white space is `{}`; bytes after
   * a closed value are `trailing-data`; nesting past the limit is `too-deep`; otherwise invalid
   * JSON is repaired when allowed, else an `invalid-json` error with the offset where it failed.
   */
  parse(options: ParseOptions): ArgumentsResult {
    const text = this.#text;
    if (text.trim() === "") return { ok: true, value: {} };
    const parser = this.#parser;
    if (parser?.end()) return { ok: true, value: parser.value! };
    const trailingAt = parser ? (parser.failure?.reason === "trailing-data" ? parser.failure.offset : -1) : this.#trailingAt;
    if (trailingAt >= 0) return failure("trailing-data", `The tool arguments continue after a complete JSON value (at offset ${trailingAt}).`, trailingAt);
    const tooDeepAt = parser ? (parser.failure?.reason === "too-deep" ? parser.failure.offset : -1) : this.#tooDeepAt;
    if (tooDeepAt >= 0) return failure("too-deep", `The tool arguments nest deeper than ${this.#maxDepth} levels.`, tooDeepAt);
    if (!parser) {
      try {
        return { ok: true, value: JSON.parse(text) as JsonValue };
      } catch {
        // not valid JSON: repaired below, or reported with the position the incremental parser finds
      }
    }
    if (options.repair) {
      const repaired = repairJson(text, { closeTruncated: options.closeTruncated });
      if (repaired.ok) return { ok: true, value: repaired.value, repairs: repaired.repairs };
    }
    const position = errorPosition(text, parser);
    return failure("invalid-json", `The tool arguments are not valid JSON (at offset ${position}).`, position);
  }

  #scan(code: number, at: number): void {
    if (this.#closed) {
      if (this.#trailingAt < 0 && !isWhitespace(code)) this.#trailingAt = at;
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
      if (++this.#depth > this.#maxDepth && this.#tooDeepAt < 0) this.#tooDeepAt = at;
    } else if ((code === 0x7d || code === 0x5d) && this.#opened) {
      if (--this.#depth === 0) this.#closed = true;
    }
  }
}

function failure(code: "invalid-json" | "trailing-data" | "too-deep", message: string, position: number): ArgumentsResult {
  return { ok: false, error: { code, message, position } };
}

function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/** Where the text stops being JSON: the incremental parser's first rejected offset, or the end. */
function errorPosition(text: string, parser: IncrementalJsonParser | undefined): number {
  const checker = parser ?? new IncrementalJsonParser({ maxDepth: Number.MAX_SAFE_INTEGER });
  if (!parser) checker.feed(text);
  return checker.failure?.offset ?? text.length;
}

/**
 * Parses complete arguments text as the accumulator does: empty is `{}`, and invalid JSON is
 * repaired (without closing a truncated value) or reported with its position.
 */
export function parseArguments(text: string): ArgumentsResult {
  const buffer = new ArgumentsBuffer();
  buffer.append(text);
  return buffer.parse({ repair: true, closeTruncated: false });
}
