import type { ToolCallAccumulatorOptions } from "./accumulator-options.ts";

/**
 * Every option of {@link ToolCallAccumulatorOptions}: typed as its keys, so that one added there
 * and not here does not compile. A module of its own: beside the options' defaults, it would keep
 * esbuild from inlining those in every bundle.
 */
export const ACCUMULATOR_CORE_OPTIONS: Record<keyof ToolCallAccumulatorOptions, 0> = {
  maxArgumentsLength: 0,
  maxToolCalls: 0,
  maxDepth: 0,
  partialParser: 0,
  repairer: 0,
  validator: 0,
  earlyValidator: 0,
  unwrapper: 0,
  turnBlocks: 0,
};
