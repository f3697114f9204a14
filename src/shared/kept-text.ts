/**
 * A copy of `text` that is a string of its own, never a view of a larger string it was cut from,
 * for what a stage keeps past the chunk it came in: the end of a line or an element that the next
 * chunk completes, the envelope a reader matched in a stream's first chunk. Engines make a long
 * slice a view of the string it was cut from (V8's sliced strings, from 13 characters), which
 * keeps all of that string alive while the slice is: a framing that kept the last line of a 64 KiB
 * read as a slice would hold the whole read's text until the next read, a reader that kept its
 * envelope so would hold its first read's for the whole stream. The concatenation is flattened into
 * a new string by the slice, which is then all the result holds; the copy costs what the kept text
 * is long, once.
 */
export const ownText = (text: string): string => ` ${text}`.slice(1);
