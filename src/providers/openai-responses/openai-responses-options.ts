import { ToolCallStreamError } from "../../shared/errors.ts";
import { checkOptionNames } from "../../shared/option-names.ts";
import type { DecoderLimits } from "../provider-decoder.ts";
import type { ResponsesBuiltInCalls } from "./openai-responses-built-in-calls.ts";

/** Options of `OpenAIResponsesDeltaStream` and `OpenAIResponsesDecoder`; `maxToolCalls` and `maxArgumentsLength` bound its approval requests. */
export interface OpenAIResponsesDeltaStreamOptions extends DecoderLimits {
  /**
   * Most events held while waiting for a missing `sequence_number`; past it the gap is reported
   * as an `error` (code `sequence-gap`) and the stream goes on.
   * @defaultValue 64
   */
  reorderWindow?: number | undefined;
  /**
   * The reader of the built-in tools' items as calls (`apply_patch_call`, `shell_call`,
   * `local_shell_call`, `mcp_call`, `tool_search_call`): `ResponsesBuiltInCalls` (from
   * `tool-call-stream/openai-responses`), which `OpenAIResponsesDecoder` takes only when given, so
   * that a bundle that reads no such call holds none of it. Without it, such an item ends the
   * stream with an `unknown-provider` error naming it. `ResponsesCitations` reads them too, and
   * keeps the text's annotations.
   * @defaultValue `ResponsesBuiltInCalls` in `OpenAIResponsesDeltaStream`, none in `OpenAIResponsesDecoder`
   */
  builtInCalls?: typeof ResponsesBuiltInCalls | undefined;
}

/** Every option of {@link OpenAIResponsesDeltaStreamOptions}: typed as its keys, so that one added there and not here does not compile. */
const RESPONSES_OPTIONS: Record<keyof OpenAIResponsesDeltaStreamOptions, 0> = {
  maxToolCalls: 0,
  maxArgumentsLength: 0,
  maxTextLength: 0,
  reorderWindow: 0,
  builtInCalls: 0,
};

/**
 * Throws a `TypeError` for an option name `OpenAIResponsesDeltaStream` (or its decoder) does not
 * know, naming it and its options (a typo left the default in force); returns the options.
 *
 * @example
 * ```ts
 * responsesOptions({ reorderWindow: 8 }); // passes; { reorderWindo: 8 } throws
 * ```
 */
export function responsesOptions(options: OpenAIResponsesDeltaStreamOptions): OpenAIResponsesDeltaStreamOptions {
  checkOptionNames(options, RESPONSES_OPTIONS);
  return options;
}

/**
 * A built-in tool's call read without the `builtInCalls` plug-in: the stream ends, saying what to pass.
 *
 * @example
 * ```ts
 * if (BUILT_IN_ITEMS.test(type) && !options.builtInCalls) builtInCallsMissing(type); // throws
 * ```
 */
export function builtInCallsMissing(type: string): never {
  throw new ToolCallStreamError({
    code: "unknown-provider",
    message: `A ${type} item, a built-in tool's call, needs \`builtInCalls: ResponsesBuiltInCalls\` (from tool-call-stream/openai-responses).`,
  });
}
