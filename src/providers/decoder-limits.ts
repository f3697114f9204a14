import { checkOptionNames } from "../shared/option-names.ts";
import type { DecoderLimits } from "./provider-decoder.ts";

/** Every option of {@link DecoderLimits}: typed as its keys, so that one added there and not here does not compile. */
export const DECODER_LIMITS: Record<keyof DecoderLimits, 0> = {
  maxToolCalls: 0,
  maxArgumentsLength: 0,
  maxTextLength: 0,
};

/**
 * Throws a `TypeError` for a name of `limits` that is not one of `known` (the stage's options:
 * {@link DecoderLimits} by default), naming it and them: what a provider stage's constructor
 * checks, as a typo (`maxArgumentLength`) or another stage's option (`maxEventLength`) left the
 * default in force.
 *
 * @example
 * ```ts
 * decoderLimits(limits, { ...DECODER_LIMITS, converseCitations: 0 }); // in BedrockDeltaStream's constructor
 * ```
 */
export function decoderLimits(limits: DecoderLimits, known: object = DECODER_LIMITS): void {
  checkOptionNames(limits, known);
}
