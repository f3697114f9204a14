/**
 * The tool schemas an isolate has found valid, by their JSON text: an agent sends the same tools
 * every turn, and `checkToolSchema` (a walk of the schema and its compilation) was the Worker's
 * largest single step of a small request.
 *
 * @module
 */

import { MAX_MEMBER_NAME_LENGTH } from "../../src/core.ts";

/** Most schemas kept. */
export const MAX_VALID_SCHEMAS = 256;
/**
 * Longest JSON text kept (UTF-16 code units): a larger schema is checked every time. The longest
 * string V8 hashes by its content: a longer key is hashed by its length alone, and keys of one
 * length would each be compared with all the others at a look-up.
 */
export const MAX_VALID_SCHEMA_LENGTH: number = MAX_MEMBER_NAME_LENGTH;
/** Most JSON text kept in all (UTF-16 code units), at most 1 MB. */
export const MAX_VALID_SCHEMA_CHARS = 1 << 19;

/**
 * Schemas found valid, by their exact JSON text (`JSON.stringify` of the parsed value: two values
 * that differ write different text, so a schema never passes for another), the least recently
 * seen dropped first past {@link MAX_VALID_SCHEMAS} or {@link MAX_VALID_SCHEMA_CHARS}. A client
 * can only fill it with schemas that pass, which costs the others their skipped checks, nothing
 * more.
 *
 * @example
 * ```ts
 * const valid = new ValidSchemas();
 * valid.add('{"type":"object"}');
 * valid.has('{"type":"object"}'); // true
 * ```
 */
export class ValidSchemas {
  /** In the order last seen, oldest first. */
  readonly #texts = new Set<string>();
  #chars = 0;
  /** Most texts kept. */
  readonly maxEntries: number;
  /** Most UTF-16 code units kept in all. */
  readonly maxChars: number;
  /** Longest text kept. */
  readonly maxLength: number;

  /** A store of at most `maxEntries` texts of at most `maxLength` each, `maxChars` in all. */
  constructor(
    maxEntries: number = MAX_VALID_SCHEMAS,
    maxChars: number = MAX_VALID_SCHEMA_CHARS,
    maxLength: number = MAX_VALID_SCHEMA_LENGTH,
  ) {
    this.maxEntries = maxEntries;
    this.maxChars = maxChars;
    this.maxLength = maxLength;
  }

  /** How many texts are kept. */
  get size(): number {
    return this.#texts.size;
  }

  /** How many UTF-16 code units the kept texts hold in all. */
  get chars(): number {
    return this.#chars;
  }

  /** Whether `text` was found valid (it is then the most recently seen). */
  has(text: string): boolean {
    if (!this.#texts.delete(text)) return false;
    this.#texts.add(text);
    return true;
  }

  /** Keeps `text` as valid, unless it is longer than `maxLength`; drops the oldest past the bounds. */
  add(text: string): void {
    if (text.length > this.maxLength || this.has(text)) return;
    this.#texts.add(text);
    this.#chars += text.length;
    for (const oldest of this.#texts) {
      if (this.#texts.size <= this.maxEntries && this.#chars <= this.maxChars) break;
      this.#texts.delete(oldest);
      this.#chars -= oldest.length;
    }
  }
}

/**
 * The JSON text a schema is kept by, or `undefined` when its check must run every time: a schema
 * with a `pattern` or `patternProperties` (anywhere, even as a property's name or in a
 * description) counts its patterns into the request's budget, which a skipped check would not.
 * Text that never says `pattern` leaves the budget as it was, so skipping its check changes
 * nothing else. (`-0` is written `0`: the checks compare numbers, never tell the two apart.)
 *
 * @example
 * ```ts
 * schemaKey({ type: "object" }); // '{"type":"object"}'
 * schemaKey({ type: "string", pattern: "^a" }); // undefined
 * ```
 */
export function schemaKey(schema: unknown): string | undefined {
  let text: string | undefined;
  try {
    text = JSON.stringify(schema);
  } catch {
    return undefined; // not JSON (the request parsers never pass such a value)
  }
  return typeof text === "string" && !text.includes("pattern") ? text : undefined;
}
