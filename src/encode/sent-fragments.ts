/** Fragments kept one by one before they are joined into the first (see {@link pushSent}). */
const JOIN_AT = 64;

/**
 * Appends `fragment` to `sent`, what an encoder sent of one call's arguments or one block's text,
 * which it joins at the end to compare with the final value (or, in `OpenAIChatCompletionBuilder`,
 * a choice's text, reasoning or call arguments, joined into the completion). Each time `sent` holds
 * {@link JOIN_AT} fragments they are joined onto the first before the new one goes in, so a call
 * streamed in thousands of small fragments holds about its own length, not a string and an array
 * slot per fragment (some 30 bytes each in V8, for fragments of a few characters), and `sent` never
 * has a single entry after a push but the first. The first entry grows by appending
 * (`+=`), never by copying what it holds.
 *
 * @example
 * ```ts
 * const sent: string[] = [];
 * for (const fragment of fragments) pushSent(sent, fragment);
 * sent.join(""); // the fragments in order; sent.length <= 64
 * ```
 */
export function pushSent(sent: string[], fragment: string): void {
  if (sent.length >= JOIN_AT) sent[0] += sent.splice(1).join("");
  sent.push(fragment);
}
