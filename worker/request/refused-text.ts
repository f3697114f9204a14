/**
 * How a client's refusal reaches an upstream that has no place for one.
 *
 * @module
 */

/**
 * A message's text with its refusals after it, a blank line between each: what the Worker sends a
 * server compatible with OpenAI Chat, which may refuse the `refusal` field, and a non-assistant
 * message's refusal parts. (A provider with no refusal at all, Anthropic, Gemini, Bedrock, Cohere or
 * Ollama, is sent an assistant's text without its refusal.) Empty pieces leave no blank line.
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
