import type { Usage } from "../shared/deltas.ts";
import { isRecord } from "../shared/values.ts";

/** Reads the first of `keys` that holds a finite number. */
function pick(source: Record<string, unknown>, keys: readonly string[]): number | undefined {
  for (const key of keys) {
    const value = source[key];
    if (typeof value === "number" && Number.isFinite(value)) return value;
  }
  return undefined;
}

/**
 * Normalizes a provider's usage object (OpenAI `prompt_tokens`, Anthropic `input_tokens`,
 * Gemini `promptTokenCount`, ...) to input, output and total tokens, keeping the original on `raw`.
 * Returns `undefined` for anything that is not an object.
 *
 * @example
 * ```ts
 * normalizeUsage({ prompt_tokens: 12, completion_tokens: 30 });
 * // { raw: {...}, inputTokens: 12, outputTokens: 30, totalTokens: 42 }
 * ```
 */
export function normalizeUsage(raw: unknown): Usage | undefined {
  return readUsage(
    raw,
    ["prompt_tokens", "input_tokens", "promptTokenCount"],
    ["completion_tokens", "output_tokens", "candidatesTokenCount"],
    ["total_tokens", "totalTokenCount"],
  );
}

/**
 * {@link normalizeUsage} with the keys of one provider, so that a single-provider bundle holds
 * only its own (each stage passes its provider's keys).
 */
export function readUsage(
  raw: unknown,
  inputKeys: readonly string[],
  outputKeys: readonly string[],
  totalKeys: readonly string[],
): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const usage: Usage = { raw };
  const input = pick(raw, inputKeys);
  const output = pick(raw, outputKeys);
  const total = pick(raw, totalKeys);
  if (input !== undefined) usage.inputTokens = input;
  if (output !== undefined) usage.outputTokens = output;
  if (total !== undefined) usage.totalTokens = total;
  else if (input !== undefined && output !== undefined) usage.totalTokens = input + output;
  return usage;
}
