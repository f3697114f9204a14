import type { EarlyValidation } from "../schema/early-validation.ts";
import type { IncrementalJsonParser } from "../json/incremental-json-parser.ts";
import type { ToolArgumentsValidator } from "../schema/tool-schema.ts";
import type { Repair } from "./arguments-buffer.ts";
import type { CallUnwrapper } from "./parallel-wrapper.ts";
import type { TurnBlocks } from "../shared/turn-blocks.ts";

/** Options of the accumulator. */
export interface ToolCallAccumulatorOptions {
  /**
   * Largest arguments text of one call, in characters (UTF-16 code units, as `String.length`
   * counts them, and as `maxEventLength` and eventsource-parser's `maxBufferSize` do): a bound on
   * memory, one per byte for ASCII JSON.
   * @defaultValue 4194304
   */
  maxArgumentsLength?: number | undefined;
  /**
   * Most tool calls in one response, and apart from them most reasoning parts (each kept whole for
   * the `finish`), and the providers' citations and annotations (their decoders count them, each
   * count of its own): past it, an `error` of code `too-many-tool-calls` and an `abort`.
   * @defaultValue 1024
   */
  maxToolCalls?: number | undefined;
  /**
   * Plug-in: pass {@link IncrementalJsonParser} to give each `tool-call-delta` the arguments
   * parsed so far (`partialArguments`), built incrementally in time linear in the arguments. The
   * value is live: valid until the next event of that call; copy it (`structuredClone`) to keep
   * it. Without it, arguments are parsed once at the end with `JSON.parse`.
   * (`streamToolCalls` takes `partialArguments: true` instead.)
   * @defaultValue none
   */
  partialParser?: typeof IncrementalJsonParser | undefined;
  /**
   * Plug-in: pass `repairJson` to repair common model mistakes in arguments at completion
   * (trailing commas, single quotes, unquoted keys, Python literals, a code fence; a value cut
   * short only when the provider finished normally), reported in `tool-call.repairs`, and to give
   * arguments it cannot repair the `position` of the error. Without it, invalid JSON is an
   * `invalid-tool-call` of code `invalid-json` (with a position only with `partialParser`).
   * (`streamToolCalls` repairs by default.)
   * @defaultValue none
   */
  repairer?: Repair | undefined;
  /**
   * Plug-in: checks the final arguments of each call, e.g. `toolSchemaValidator(tools)` for the
   * request's tools; a rejected call is an `invalid-tool-call` of code `schema-mismatch` with the
   * reasons in `issues`. Calls the provider executed itself are not checked; a free-text input (a
   * custom tool's, `inputFormat: "text"`) is given as its text, so that its name is checked.
   * (`streamToolCalls` takes `tools` instead.)
   * @defaultValue none
   */
  validator?: ToolArgumentsValidator | undefined;
  /**
   * Plug-in: pass `earlySchemaValidator(tools)` to check each call's arguments against its tool's
   * schema while they stream: a `tool-call-violation` follows the fragment after which they can
   * no longer match, and with `abortOnViolation` the stream ends there with an `abort` of reason
   * `schema-violation` and the input is cancelled. (`streamToolCalls` takes `earlyValidation: true`
   * and `abortOnViolation` instead.)
   * @defaultValue none
   */
  earlyValidator?: EarlyValidation | undefined;
  /**
   * Plug-in: a call that wraps others (OpenAI's `multi_tool_use.parallel`) is held until it
   * completes, then replaced by the calls it stands for, each streamed and completed as if sent
   * alone. (`streamToolCalls` does this for its `tools`.)
   * @defaultValue none
   */
  unwrapper?: CallUnwrapper | undefined;
  /**
   * Plug-in: `turnBlocks` keeps what a turn of blocks, items, parts or steps holds beyond its text
   * and calls: where the first choice's text runs, calls and reasoning parts came (the `finish`
   * event's `order`, given when they did not come as reasoning, text, calls, which
   * `assistantMessage` and the request kit send the next turn in), the approval requests (the
   * finish's `approvalRequests` and reason `approval`) and the calls the provider withdrew
   * (`invalid-tool-call`s of code `withdrawn`, the finish's `withdrawnToolCalls`). Without it those
   * deltas are dropped (a withdrawn call is closed, never completed). `ToolCallAccumulator` and
   * `ToolCallAccumulatorStream` take it by default (pass `undefined` for none); `streamToolCalls`
   * takes it from the protocol (Anthropic's, OpenAI Responses', Gemini's, Bedrock's, Gemini
   * Interactions' and detection's name it), and so does `ToolCallChain`, which gives it to a
   * protocol that names none, as the main entry's `streamToolCalls` does to a protocol object.
   * @defaultValue `turnBlocks`
   */
  turnBlocks?: TurnBlocks | undefined;
  /**
   * Deepest nesting of objects and arrays in arguments (deeper: an `invalid-tool-call` of code
   * `too-deep`). The main entry's `streamToolCalls` bounds by it what is kept whole for the next
   * turn too: a reasoning part (its block, field value or item the first level), a call's
   * `providerMetadata`, an approval request, and the provider's objects an event carries: an
   * error's `data` (an HTTP error's body too), the usage's `raw`, the finish's `container` and `moderation` (deeper:
   * dropped, with an `error` of code `too-deep` naming it; the stream goes on).
   * @defaultValue 64
   */
  maxDepth?: number | undefined;
}

/**
 * Default for {@link ToolCallAccumulatorOptions.maxArgumentsLength}.
 *
 * @example
 * ```ts
 * new ToolCallAccumulatorStream({ maxArgumentsLength: DEFAULT_MAX_ARGUMENTS_LENGTH / 4 });
 * ```
 */
export const DEFAULT_MAX_ARGUMENTS_LENGTH: number = 4 * 1024 * 1024;
/**
 * Default for {@link ToolCallAccumulatorOptions.maxToolCalls}.
 *
 * @example
 * ```ts
 * new ToolCallAccumulatorStream({ maxToolCalls: DEFAULT_MAX_TOOL_CALLS / 8 });
 * ```
 */
export const DEFAULT_MAX_TOOL_CALLS: number = 1024;
/**
 * Default of `maxTextLength` of `readOpenAIChatCompletion` (and `OpenAIChatCompletionBuilder`), and
 * of the main entry's `streamToolCalls`, which bounds by it the turn's text and reasoning.
 *
 * @example
 * ```ts
 * await readOpenAIChatCompletion(events, { model: "m", maxTextLength: DEFAULT_MAX_TEXT_LENGTH / 4 });
 * ```
 */
export const DEFAULT_MAX_TEXT_LENGTH: number = 4 * 1024 * 1024;
