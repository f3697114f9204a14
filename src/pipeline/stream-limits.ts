import type { ToolCallAccumulatorOptions } from "../accumulate/accumulator-options.ts";
import type { FramingOptions } from "../framing/framing.ts";

/**
 * Limits that bound memory, each declared once by the stage that enforces it: the framing's
 * `maxEventLength`, the accumulator's `maxArgumentsLength` and `maxToolCalls`. Every one has a
 * clear error when exceeded.
 */
export interface StreamLimits
  extends Pick<FramingOptions, "maxEventLength">,
    Pick<ToolCallAccumulatorOptions, "maxArgumentsLength" | "maxToolCalls"> {}
