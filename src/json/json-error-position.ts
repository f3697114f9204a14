import { IncrementalJsonParser } from "./incremental-json-parser.ts";

/**
 * The offset where `text` stops being JSON: the first character the parser rejects, or the
 * text's length when it is valid or merely cut short. Nesting depth is not limited here.
 *
 * @example
 * ```ts
 * jsonErrorPosition('{"a": 1,]'); // 8
 * jsonErrorPosition('{"a": [1'); // 8
 * ```
 */
export function jsonErrorPosition(text: string): number {
  const parser = new IncrementalJsonParser({ maxDepth: Infinity });
  parser.feed(text);
  return parser.failure?.offset ?? text.length;
}
