import type { EventStep } from "../accumulate/event-step.ts";
import { isStandardSchema } from "../schema/standard-schema.ts";
import { declaredToolsValidator } from "../schema/tool-definition.ts";
import { checkOptionNames } from "../shared/option-names.ts";
import type { BedrockOptions, OpenAIChatOptions, OpenAIResponsesOptions } from "./provider-stream-options.ts";
import type { StreamToolCallBatchesOptions, StreamToolCallsOptions } from "./stream-tool-calls-options.ts";
import type { ToolCallChainOptions } from "./tool-call-chain.ts";

/**
 * The chain's options for `streamToolCalls`' options: each stage given its own, the switches made
 * plug-ins (`partialArguments`, `repair`, the tools' checks: their names, or with the `jsonSchema`
 * plug-in their schemas too; `unwrapParallel`) and the steps after the accumulator (timings taken as each event is
 * made, then the validators, which may hold events back). Throws a `TypeError` for `tools` with
 * `earlyValidation` and no `jsonSchema` plug-in, which the early check needs, for a tool given by
 * a validator without the `validateToolCalls` plug-in, which runs it, and for
 * `partialArguments: true`, `repair: true` and a `clock` without the `toolCallTimings` step:
 * only the main entry's `streamToolCalls` bundles the parser, the validators' step, the repair
 * and the timings (its own defaults), so that a provider's bundle holds none of them unless the
 * app imports it. Throws a `TypeError` for an option it does not know (below).
 */
export function chainOptions(
  options: StreamToolCallsOptions,
): Omit<ToolCallChainOptions, "onStop" | "contentType"> & Pick<StreamToolCallsOptions, "sdkChunks"> {
  checkOptionNames(options, OPTIONS);
  const { tools, clock, maxDepth, jsonSchema } = options;
  if (tools && options.earlyValidation && !jsonSchema) throw needs("earlyValidation", "jsonSchema", "schema");
  const partial = options.partialArguments;
  if (partial === true) throw needs("partialArguments: true", "partialArguments: IncrementalJsonParser");
  const repair = options.repair;
  if (repair === true) throw needs("repair: true", "repair: repairJson");
  const steps: EventStep[] = [];
  if (clock) {
    const timings = options.toolCallTimings;
    if (!timings) throw needs("clock", "toolCallTimings");
    steps.push(timings(clock));
  }
  // The step runs only the tools given by a validator: without one it would pass every event on
  // as it is, at a closure per event and a step per stream, so it is left out.
  const validate = options.validateToolCalls;
  const given = tools?.find((tool) => "schema" in tool && isStandardSchema(tool.schema));
  if (given) {
    if (!validate)
      throw needs(`The tool ${(given as { name: string }).name}, given by a validator,`, "validateToolCalls");
    steps.push(validate(tools!, { validationTimeoutMs: options.validationTimeoutMs, timers: options.timers }));
  }
  // The limits (`maxEventLength`, `maxArgumentsLength`, `maxToolCalls`, `maxDepth`) pass as they
  // are; the stages read their own options and no other.
  return {
    ...options,
    partialParser: partial || undefined,
    repairer: repair || undefined,
    validator: tools && (jsonSchema ? jsonSchema.validator(tools) : declaredToolsValidator(tools)),
    unwrapper: tools && options.unwrapParallel ? options.unwrapParallel(tools) : undefined,
    earlyValidator:
      tools && options.earlyValidation
        ? jsonSchema?.earlyValidator(tools, { abortOnViolation: options.abortOnViolation, maxDepth })
        : undefined,
    steps,
  };
}

/**
 * Every option of `streamToolCalls` and `streamToolCallBatches`, a provider subpath's plug-ins
 * included (the main entry brings them itself: passing one is no mistake), for
 * `checkOptionNames`. Typed as the options' keys, so that an option added to them and not here
 * does not compile.
 */
const OPTIONS: Record<
  keyof (StreamToolCallBatchesOptions & BedrockOptions & OpenAIChatOptions & OpenAIResponsesOptions),
  0
> = {
  provider: 0,
  signal: 0,
  framing: 0,
  tools: 0,
  jsonSchema: 0,
  earlyValidation: 0,
  abortOnViolation: 0,
  partialArguments: 0,
  repair: 0,
  unwrapParallel: 0,
  clock: 0,
  maxEventLength: 0,
  maxArgumentsLength: 0,
  maxToolCalls: 0,
  maxDepth: 0,
  maxTextLength: 0,
  validationTimeoutMs: 0,
  timers: 0,
  batchWindowMs: 0,
  validateToolCalls: 0,
  toolCallTimings: 0,
  sdkChunks: 0,
  jsonText: 0,
  builtInCalls: 0,
  invokeModel: 0,
  converseCitations: 0,
};

/** The `TypeError` of an option that needs a plug-in the app passes (the main entry brings its own). */
function needs(what: string, pass: string, from = "core"): TypeError {
  return new TypeError(`${what} needs \`${pass}\` (from tool-call-stream/${from}).`);
}
