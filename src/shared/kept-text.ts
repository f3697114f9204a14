/**
 * A copy of `text` that is a string of its own, never a view of a larger string it was cut from,
 * for what a stage keeps past the chunk it came in: the end of a line or an element that the next
 * chunk completes, the envelope a reader matched in a stream's first chunk. Engines make a long
 * slice a view of the string it was cut from (V8's sliced strings, from 13 characters), which
 * keeps all of that string alive while the slice is: a framing that kept the last line of a 64 KiB
 * read as a slice would hold the whole read's text until the next read, a reader that kept its
 * envelope so would hold its first read's for the whole stream. The concatenation is flattened into
 * a new string by the slice, which is then all the result holds; the copy costs what the kept text
 * is long, once. A text of under 13 characters is its own already (V8 copies a slice that short and
 * joins a concatenation): it comes back as it is, for a comparison.
 *
 * The fast readers hand on their fragments and text deltas so too (a slice of an event's data is a
 * view of the whole read it came in): an open call keeps up to 64 fragments before joining them,
 * the finish's text every delta, and a read padded to 1 MiB behind each would cost 1 MiB apiece.
 */
export const ownText = (text: string): string => (text.length < 13 ? text : ` ${text}`.slice(1));

/**
 * A sticky pattern of `text` itself, for a reader that compares each event's start with the one
 * it matched last: V8 runs it in a third of the time `===` takes on the event's slice (the slice
 * is a view of the event's two-byte text, compared in the runtime), and its source is a string of
 * its own (`ownText`), which keeps nothing of the event's.
 *
 * @example
 * ```ts
 * matchAt(textPattern('{"a":'), '{"a":1}', 0); // 5
 * ```
 */
export const textPattern = (text: string): RegExp =>
  // A text without a character to escape comes back from `replace` as it is: copied first.
  new RegExp(ownText(text).replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&"), "y");

/** The index just past `pattern` matched at `at` in `data`, or -1. */
export function matchAt(pattern: RegExp, data: string, at: number): number {
  pattern.lastIndex = at;
  return pattern.test(data) ? pattern.lastIndex : -1;
}

/** A pattern that matches nothing: what a reader compares with before it has matched anything. */
export const NO_TEXT: RegExp = /(?!)/y;
