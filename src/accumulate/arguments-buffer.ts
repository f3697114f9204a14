import type { IncrementalJsonParser, JsonParseFailure } from "../json/incremental-json-parser.ts";
import type { RepairResult } from "../json/json-repair.ts";
import type { StreamErrorInfo } from "../shared/errors.ts";
import type { JsonRepair, JsonValue } from "../shared/json.ts";
import { isSpace } from "../shared/json-literal.ts";
import { longMemberName, MAX_MEMBER_NAME_LENGTH } from "../shared/long-member-name.ts";

/** The outcome of parsing a call's arguments once it has completed; `text`, the JSON text a repair made of them. */
export type ArgumentsResult =
  | { ok: true; value: JsonValue; repairs?: JsonRepair[]; text?: string }
  | { ok: false; error: StreamErrorInfo };

/** Options of {@link ArgumentsBuffer}. */
export interface ArgumentsBufferOptions {
  /**
   * Keep a live partial value (`partialValue`) with this parser (pass {@link IncrementalJsonParser}).
   * Without it, the buffer only scans for structure and parses once at completion with the
   * platform's `JSON.parse`.
   */
  parser?: typeof IncrementalJsonParser | undefined;
  /**
   * Deepest nesting of objects and arrays.
   * @defaultValue 64
   */
  maxDepth?: number | undefined;
}

/** How to treat arguments that are not valid JSON at completion. */
export interface ParseOptions {
  /**
   * Repairs invalid JSON, and says where it failed when it cannot (pass `repairJson`);
   * without it, invalid JSON is an `invalid-json` error without a position, whose message is
   * what `JSON.parse` said.
   */
  repair?: Repair | false | undefined;
  /** A value cut short may be closed: only when the provider finished normally. */
  closeTruncated: boolean;
  /**
   * The response finished abnormally (`length`, a filter, an error) before the call's own end:
   * empty arguments are then not `{}` but invalid.
   */
  cut?: boolean | undefined;
  /**
   * Free-text input (Responses' `custom_tool_call`): nothing to parse, the call's input is the text
   * as it is, unless `cut`: then it may end anywhere, and is `truncated-input`.
   */
  text?: boolean | undefined;
}

/**
 * The arguments text of one call, appended fragment by fragment and parsed once at completion.
 *
 * Work per fragment is proportional to the fragment. Without `partial` it only tracks, in one
 * scan, whether the text so far is one closed JSON object or array, its depth, and anything after
 * it; with `partial` an {@link IncrementalJsonParser} also keeps the value parsed so far. That
 * knowledge is given to callers (`isClosedValue`) and used to tell provider quirks apart, never to
 * complete a call: a buffer that happens to parse is not a finished call.
 *
 * @example
 * ```ts
 * const buffer = new ArgumentsBuffer({ parser: IncrementalJsonParser });
 * buffer.append('{"city": "Par');
 * buffer.partialValue; // { city: "Par" }
 * buffer.append('is"}');
 * buffer.isClosedValue; // true
 * buffer.parse({ repair: repairJson, closeTruncated: false }); // { ok: true, value: { city: "Paris" } }
 * ```
 */
export class ArgumentsBuffer {
  readonly #parser: IncrementalJsonParser | undefined;
  readonly #maxDepth: number;
  /** The text, less its last fragments (`#recent`), joined once there are {@link JOIN_EVERY} of them. */
  #text = "";
  #recent: string[] = [];
  #length = 0;
  #depth = 0;
  #inString = false;
  #escaped = false;
  #opened = false;
  #closed = false;
  /** The scan's first failure: nesting past the limit, else anything but white space after the value. */
  #failed: JsonParseFailure | undefined;

  /** Creates an empty buffer. */
  constructor(options: ArgumentsBufferOptions = {}) {
    this.#maxDepth = options.maxDepth ?? 64;
    this.#parser = options.parser && new options.parser({ maxDepth: this.#maxDepth });
  }

  /** The arguments text received so far. */
  get text(): string {
    // Read without keeping the join: a read while the call streams (its start) leaves the text of
    // a call of under {@link JOIN_EVERY} fragments one join of them all, a flat string, not one
    // appended to, which sends the event that carries it down V8's slower `JSON.stringify`.
    return this.#text + this.#recent.join("");
  }

  /** The length of the text so far, without joining it. */
  get length(): number {
    return this.#length;
  }

  /** True when the text so far is exactly one closed JSON value (plus white space). */
  get isClosedValue(): boolean {
    if (this.#parser) return this.#parser.isComplete;
    return this.#closed && !this.#failed;
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
    const start = this.#length;
    this.#length += fragment.length;
    // Fragments are joined a batch at a time, while they are fresh: a string made by appending
    // thousands of small ones is a chain of as many nodes, scattered in memory once the garbage
    // collector has moved them, which the first read of the whole text walks (a 45 KB call in
    // 4-character fragments: a few milliseconds, more than parsing it).
    if (this.#recent.push(fragment) === JOIN_EVERY) {
      this.#text += this.#recent.join("");
      this.#recent = [];
    }
    if (this.#parser) return this.#parser.feed(fragment);
    let i = this.#closed ? 0 : this.#scan(fragment, start);
    // After the value closed, only the first character that is not white space matters.
    for (; !this.#failed && i < fragment.length; i++) {
      if (!isSpace(fragment.charCodeAt(i))) this.#failed = { reason: "trailing-data", offset: start + i };
    }
  }

  /**
   * Parses the whole text once the call has completed: empty or white space is `{}` (unless `cut`);
   * a member name longer than 16,383 characters is `long-member-name`, never parsed; otherwise invalid JSON is repaired when allowed (never past `maxDepth`), else it fails where the
   * parser stops: nesting past the limit is `too-deep`, bytes after a closed value `trailing-data`,
   * anything else `invalid-json`, with the offset where it failed when known.
   */
  parse(options: ParseOptions): ArgumentsResult {
    const text = this.text;
    if (options.text) return options.cut ? failure("truncated-input", "were cut short") : { ok: true, value: text };
    // Empty is not JSON either: `{}` is granted only to a call that was not cut short.
    if (!text.trim() && !options.cut) return { ok: true, value: {} };
    // Never parsed, nor repaired: V8 would keep such names interned (../shared/long-member-name.ts).
    // A payload's object arguments (Gemini's, Ollama's, a whole response's) read with such a name
    // hold the name that replaced it (parseJsonText), as long: their text has it, never the name.
    const long = longMemberName(text);
    if (long !== undefined)
      return failure("long-member-name", `have a member name longer than ${MAX_MEMBER_NAME_LENGTH} characters`, long);
    const parser = this.#parser;
    if (parser?.end()) return { ok: true, value: parser.value! };
    let reason = "";
    if (!parser && this.#failed?.reason !== "too-deep") {
      try {
        return { ok: true, value: JSON.parse(text) as JsonValue };
      } catch (error) {
        // Not valid JSON: repaired, or reported with what the platform's parser said.
        reason = `: ${(error as Error).message}`;
      }
    }
    // Bytes after a closed value are repaired too: the scan knows only `"` strings, so a code fence
    // around the value, or a `}` in a single-quoted string, looks like a value closed early.
    const repaired = options.repair ? options.repair(text, { ...options, maxDepth: this.#maxDepth }) : undefined;
    if (repaired?.ok) return repaired;
    // One verdict on both paths: the repair's (the parser's own, of the text or the repaired text), else the parser's or the scan's.
    const { reason: code = "invalid-json", offset = parser ? text.length : repaired?.position } = repaired?.code
      ? { reason: repaired.code, offset: repaired.position }
      : ((parser ? parser.failure : this.#confirmed(text)) ?? {});
    return failure(
      code,
      code === "too-deep"
        ? `nest deeper than ${this.#maxDepth} levels`
        : code === "trailing-data"
          ? "continue after a complete JSON value"
          : // With a position, the message says where; without one, what `JSON.parse` said.
            `are not valid JSON${offset === undefined ? reason : ""}`,
      offset,
    );
  }

  /**
   * The scan's failure when the parser would say it too: bytes after the value only when the text
   * before them is one JSON value (else it stopped being JSON earlier: a fence, a `}` in a
   * single-quoted string, a bad token, where the scan, which knows only brackets and `"` strings,
   * cannot say).
   */
  #confirmed(text: string): JsonParseFailure | undefined {
    const failed = this.#failed;
    try {
      if (failed?.reason === "trailing-data") JSON.parse(text.slice(0, failed.offset));
      return failed;
    } catch {}
  }

  /**
   * Scans a fragment for structure (state in locals: this runs for every character) up to the
   * character that closes the value; returns the index after it, or the fragment's length.
   */
  #scan(fragment: string, start: number): number {
    let depth = this.#depth;
    let inString = this.#inString;
    let escaped = this.#escaped;
    let opened = this.#opened;
    let i = 0;
    for (; i < fragment.length; i++) {
      const code = fragment.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (code === 0x5c) escaped = true;
        else if (code === 0x22) inString = false;
      } else if (code === 0x22) {
        inString = opened;
      } else if (code === 0x7b || code === 0x5b) {
        opened = true;
        if (++depth > this.#maxDepth) this.#failed ??= { reason: "too-deep", offset: start + i };
      } else if ((code === 0x7d || code === 0x5d) && opened && --depth === 0) {
        this.#closed = true;
        i++;
        break;
      }
    }
    this.#depth = depth;
    this.#inString = inString;
    this.#escaped = escaped;
    this.#opened = opened;
    return i;
  }
}

/** How many fragments are joined at once (see `ArgumentsBuffer.append`). */
const JOIN_EVERY = 64;

/**
 * Repairs invalid JSON at completion: the signature of `repairJson`, which is the one to pass. It
 * is given the accumulator's `maxDepth`, and its verdict on what it cannot repair (`code` and
 * `position`) is the call's error.
 */
export type Repair = (
  text: string,
  options: { closeTruncated: boolean; maxDepth?: number | undefined },
) => RepairResult;

/** An error about the arguments; the message says where when the position is known. */
function failure(
  code: "invalid-json" | "trailing-data" | "too-deep" | "truncated-input" | "long-member-name",
  what: string,
  position?: number,
): ArgumentsResult {
  const at = position === undefined || code === "too-deep" ? "" : ` (at offset ${position})`;
  return {
    ok: false,
    error: { code, message: `The tool arguments ${what}${at}.`, ...(position !== undefined && { position }) },
  };
}
