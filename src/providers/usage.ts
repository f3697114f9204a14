import type { Usage } from "../shared/deltas.ts";
import { isRecord } from "../shared/values.ts";

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
  details: UsageDetailKeys = {},
): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const cacheRead = pick(raw, details.cacheRead);
  const cacheWrite = pick(raw, details.cacheWrite);
  // A provider that counts cached input apart from its input has it added: inputTokens is every input token.
  const apart = details.cacheApart ? (cacheRead ?? 0) + (cacheWrite ?? 0) : 0;
  const given = pick(raw, inputKeys);
  const input = given === undefined ? undefined : given + apart;
  const output = pick(raw, outputKeys);
  // Each count only when the provider gave it (the total, else the sum of input and output).
  const counts = {
    inputTokens: input,
    outputTokens: output,
    totalTokens: pick(raw, totalKeys) ?? (input === undefined || output === undefined ? undefined : input + output),
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    reasoningTokens: pick(raw, details.reasoning),
  };
  // JSON leaves out the counts the provider did not give (`undefined`); the others are finite numbers.
  return { raw, ...JSON.parse(JSON.stringify(counts)) };
}

/** Where a provider's usage object holds its cache and reasoning counts (dotted paths), for {@link readUsage}. */
export interface UsageDetailKeys {
  /** Input tokens read from the cache (`prompt_tokens_details.cached_tokens`). */
  cacheRead?: readonly string[];
  /** Input tokens written to the cache. */
  cacheWrite?: readonly string[];
  /** Output tokens spent reasoning. */
  reasoning?: readonly string[];
  /** The provider's input count leaves the cached tokens out (Anthropic, Bedrock). */
  cacheApart?: boolean;
}

/** The first of `paths` (keys, or dotted paths `a.b`) that holds a finite number. */
function pick(source: Record<string, unknown>, paths: readonly string[] = []): number | undefined {
  for (const path of paths) {
    let at: unknown = source;
    for (const key of path.split(".")) at = isRecord(at) && Object.hasOwn(at, key) ? at[key] : undefined;
    // `Number.isFinite` is false for anything that is not a number.
    if (Number.isFinite(at)) return at as number;
  }
  return undefined;
}
