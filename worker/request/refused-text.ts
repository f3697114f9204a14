/**
 * How a client's refusal reaches an upstream that has no place for one.
 *
 * @module
 */

/**
 * An assistant message's text with its refusals after it, a blank line between each: what the
 * Worker sends an upstream that takes no refusal back (Anthropic, Gemini, Bedrock, Cohere, Ollama,
 * a server compatible with OpenAI Chat). Folded, not dropped: the model sees what it answered, and
 * a message of a refusal alone keeps content. Empty pieces leave no blank line.
 *
 * @example
 * ```ts
 * textThenRefusals("Here is what I can say.", ["I can't help with that."]);
 * // "Here is what I can say.\n\nI can't help with that."
 * ```
 */
export function textThenRefusals(text: string, refusals: readonly string[]): string {
  return [text, ...refusals].filter((piece) => piece !== "").join("\n\n");
}
