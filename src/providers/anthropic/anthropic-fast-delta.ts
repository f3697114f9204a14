import { jsonLiteralEnd, jsonLiteralText } from "../../shared/json-literal.ts";
import { matchAt } from "../../shared/kept-text.ts";

/**
 * Anthropic's serialization of an `input_json_delta` or a `text_delta` up to its literal's quote
 * (the index a JSON integer, exact): `{"type":"content_block_delta","index":N,"delta":{"type":"input_json_delta","partial_json":"`
 * or `..."delta":{"type":"text_delta","text":"`. Its first group is the index, its second the kind.
 */
export const FAST_DELTA: RegExp =
  /^\{"type":"content_block_delta","index":(0|[1-9]\d{0,8}),"delta":\{"type":"(input_json_delta","partial_json|text_delta","text)":"/;

/** The braces that close a delta and its event, with JSON's white space around them (Anthropic pads its events so), to the data's end. */
const DELTA_END = /[ \t\n\r]*\}[ \t\n\r]*\}[ \t\n\r]*$/y;

/**
 * The text of the string literal whose quote is at `at` when nothing but the delta's and the
 * event's closing braces follow it (as `JSON.parse` would read it); otherwise undefined: the data
 * is not of the shape (`"partial_json":1a"}}` is none) and is parsed whole.
 */
export function fastDeltaText(data: string, at: number): string | undefined {
  const end = jsonLiteralEnd(data, at);
  return end !== 0 && matchAt(DELTA_END, data, Math.abs(end)) > 0 ? jsonLiteralText(data, at, end) : undefined;
}
