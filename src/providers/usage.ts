import type { Usage } from "../shared/deltas.ts";
import { isRecord, ownValue } from "../shared/values.ts";

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
  const reasoning = pick(raw, details.reasoning);
  // A count the provider did not give is undefined, and a sum with one NaN: both are left out below.
  // A provider that counts cached input apart from its input has it added: inputTokens is every input token.
  const input = pick(raw, inputKeys)! + (details.cacheApart ? (cacheRead ?? 0) + (cacheWrite ?? 0) : 0);
  // Gemini counts the thoughts apart from the output; they are output too (billed so, and in its total).
  const output = details.reasoningApart ? (pick(raw, outputKeys) ?? 0) + (reasoning ?? 0) : pick(raw, outputKeys);
  const counts = {
    inputTokens: input,
    outputTokens: output,
    // The provider's total, else the sum of input and output.
    totalTokens: pick(raw, totalKeys) ?? input + output!,
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    reasoningTokens: reasoning,
  };
  // Only finite numbers stay (-0 as 0, as JSON wrote it): not JSON's round trip with a reviver,
  // which cost tens of microseconds in V8, more than a small answer's usage is worth.
  const usage: Usage = { raw };
  for (const [key, value] of Object.entries(counts))
    if (Number.isFinite(value)) usage[key as "inputTokens"] = value! + 0;
  return usage;
}

/**
 * Adds to `usage` (a usage `readUsage` just made of `raw`) the input tokens its provider counts
 * apart from its input (`raw[apart]`: Gemini's server tools' prompt): to its input, and to its
 * total unless the provider gave that (`raw[total]`), which counts them already. Nothing without
 * such a count or an input; as {@link readUsage}, only a finite number is a count. For a usage
 * whose output is a number whenever its input is (`reasoningApart`'s), so that its total is one too.
 *
 * @example
 * ```ts
 * addInputApart(usage, "toolUsePromptTokenCount", "totalTokenCount"); // inputTokens: prompt + tool use
 * ```
 */
export function addInputApart(usage: Usage, apart: string, total: string): void {
  const raw = usage.raw as Record<string, unknown>;
  const tokens = pick(raw, [apart]);
  if (!tokens || usage.inputTokens === undefined) return;
  usage.inputTokens += tokens;
  // A total that is no count was made by readUsage from input and output: it had none of these.
  if (pick(raw, [total]) === undefined) usage.totalTokens! += tokens;
}

/** Where a provider's usage object holds its cache and reasoning counts (dotted paths), for {@link readUsage}. */
export interface UsageDetailKeys {
  /** Input tokens read from the cache (`prompt_tokens_details.cached_tokens`). */
  cacheRead?: readonly string[];
  /** Input tokens written to the cache. */
  cacheWrite?: readonly string[];
  /** Output tokens spent reasoning. */
  reasoning?: readonly string[];
  /** The provider's output count leaves the reasoning tokens out (Gemini): they are added to it. */
  reasoningApart?: boolean;
  /** The provider's input count leaves the cached tokens out (Anthropic, Bedrock). */
  cacheApart?: boolean;
}

/** The first of `paths` (keys, or dotted paths `a.b`) that holds a finite number. */
function pick(source: Record<string, unknown>, paths: readonly string[] = []): number | undefined {
  for (const path of paths) {
    let at: unknown = source;
    for (const key of path.split(".")) at = isRecord(at) ? ownValue(at, key) : undefined;
    // `Number.isFinite` is false for anything that is not a number.
    if (Number.isFinite(at)) return at as number;
  }
  return undefined;
}
