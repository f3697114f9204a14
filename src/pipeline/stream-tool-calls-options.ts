import type { ToolCallAccumulatorOptions } from "../accumulate/accumulator-options.ts";
import type { Repair } from "../accumulate/arguments-buffer.ts";
import type { toolCallTimings } from "../accumulate/tool-call-timings.ts";
import type { validateToolCalls } from "../accumulate/validate-tool-calls.ts";
import type { parallelUnwrapper } from "../accumulate/parallel-wrapper.ts";
import type { IncrementalJsonParser } from "../json/incremental-json-parser.ts";
import type { JsonSchemaPlugin } from "../schema/json-schema-plugin.ts";
import type { ValidationTimeoutOptions } from "../schema/standard-schema.ts";
import type { ToolDefinition } from "../schema/tool-schema.ts";
import type { FramingClass } from "../framing/framing.ts";
import type { SdkChunks } from "./sdk-chunks.ts";
import type { ProviderProtocol } from "../providers/provider-decoder.ts";
import type { Provider } from "../providers/registry.ts";
import type { StreamLimits } from "./stream-limits.ts";

/**
 * Options of {@link streamToolCalls}; `Tools` is the type of its `tools`. A key that is none of
 * them (nor a provider subpath's plug-in) is a `TypeError` at the call naming it: from
 * JavaScript, where no type refuses a typo, a misspelt limit or `signal` is not silently ignored.
 */
export interface StreamToolCallsOptions<Tools extends readonly ToolDefinition[] = readonly ToolDefinition[]>
  extends StreamLimits,
    ValidationTimeoutOptions,
    Omit<
      ToolCallAccumulatorOptions,
      "partialParser" | "repairer" | "validator" | "earlyValidator" | "unwrapper" | "turnBlocks"
    > {
  /**
   * Give each `tool-call-delta` the arguments parsed so far (`partialArguments`), built
   * incrementally in time linear in the arguments by the parser given here,
   * {@link IncrementalJsonParser} (from `tool-call-stream/core`), the accumulator's `partialParser`
   * plug-in, so that a bundle that does not use it holds no parser. `true` takes it from the main
   * entry (`tool-call-stream`), whose `streamToolCalls` bundles it; a provider subpath's
   * `streamToolCalls` then throws a `TypeError`. The value is live: valid until the next event of
   * that call; copy it (`structuredClone`) to keep it. Off, arguments are parsed once at the end.
   * @defaultValue false
   */
  partialArguments?: boolean | typeof IncrementalJsonParser | undefined;
  /**
   * Repair common model mistakes in arguments at completion with the repairer given here,
   * `repairJson` (from `tool-call-stream/core`: trailing commas, single quotes, unquoted keys,
   * Python literals, a code fence; a value cut short only when the provider finished normally),
   * reported in `tool-call.repairs`, and give arguments it cannot repair the `position` of the
   * error. `true` takes it from the main entry (`tool-call-stream`), whose `streamToolCalls`
   * repairs by default (`false` turns it off, the position kept); a provider subpath's
   * `streamToolCalls` repairs only when given `repairJson`, and throws a `TypeError` for `true`,
   * so that a bundle that does not repair holds no repairer. Without repair, arguments that are
   * not valid JSON are an `invalid-tool-call` of code `invalid-json` whose message is what
   * `JSON.parse` said (with a `position` only with `partialArguments`).
   * @defaultValue the main entry's: `true`; a provider subpath's: off
   */
  repair?: boolean | Repair | undefined;
  /**
   * The request's tools (OpenAI, Responses or Anthropic shape, or `{ name, schema }` with the
   * application's own validator: zod 4, valibot, arktype, any Standard Schema v1). A call to a
   * name that is not one of them is an `invalid-tool-call` whose message names it. A tool given
   * by a validator has its final arguments validated by it (the `validateToolCalls` plug-in: `arguments`
   * is then the validator's output, a rejection an `invalid-tool-call` of code `schema-mismatch`,
   * and an asynchronous validator delays that call's event and the events after it, for at most
   * `validationTimeoutMs`). The other tools' JSON Schemas are checked only with the `jsonSchema`
   * plug-in; without it their arguments need only be JSON. Written `as const` or given by
   * validators, the tools also type the events: `tool-call` narrows by `name`.
   */
  tools?: Tools | undefined;
  /**
   * The step that runs the validators of the tools given by one (`{ name, schema }`, any Standard
   * Schema v1): pass `validateToolCalls` (from `tool-call-stream/core`). Each such call's final
   * arguments are then validated by it, `arguments` is its output, a rejection an
   * `invalid-tool-call` of code `schema-mismatch`, and an asynchronous validator delays that call's
   * event and the events after it (for at most `validationTimeoutMs`). The main entry's
   * `streamToolCalls` brings it itself; a provider subpath's throws a `TypeError` for `tools` with
   * a validator and without it, so that a bundle without validators holds no step.
   * @defaultValue none (the main entry's: `validateToolCalls`)
   */
  validateToolCalls?: typeof validateToolCalls | undefined;
  /**
   * With `tools`, run the calls that a call of OpenAI's undeclared wrapper stands for, with the
   * plug-in given here, `parallelUnwrapper` (from `tool-call-stream/core`): models sometimes call
   * `multi_tool_use.parallel` (`parallel` on the Responses API) with `{"tool_uses":
   * [{"recipient_name": "functions.<tool>", "parameters": {...}}]}` instead of making parallel
   * calls. The wrapper is held until it completes, then each call it names (every one a declared
   * tool, or nothing changes) is streamed, checked and completed as if sent alone, with the id
   * `<wrapper id>_<n>`. The main entry's `streamToolCalls` does this by default (`false` turns it
   * off); a provider subpath's only when given the plug-in.
   * @defaultValue the main entry's: `parallelUnwrapper`; a provider subpath's: off
   */
  unwrapParallel?: typeof parallelUnwrapper | false | undefined;
  /**
   * The JSON Schema checker of the tools' schemas: pass `jsonSchema` (from
   * `tool-call-stream/schema`) to have each call's final arguments checked against its tool's
   * JSON Schema, a violation an `invalid-tool-call` of code `schema-mismatch` with its `issues`,
   * and to allow `earlyValidation`. Without it, `tools` checks the calls' names (and the tools
   * given by a validator validate their calls), and no schema checker is bundled.
   * @defaultValue none: names checked, JSON Schemas not
   */
  jsonSchema?: JsonSchemaPlugin | undefined;
  /**
   * The clock that times each call's arguments (milliseconds, e.g. `() => performance.now()`):
   * `startedAt` (the first argument fragment) and `completedAt` on `tool-call`,
   * `invalid-tool-call` and the `finish` lists, by the `toolCallTimings` step. Without it, no
   * times. A provider subpath's `streamToolCalls` takes the step as a plug-in beside it.
   * @defaultValue none
   */
  clock?: (() => number) | undefined;
  /**
   * The step that stamps the `clock`'s times on the calls: pass `toolCallTimings` (from
   * `tool-call-stream/core`) with `clock`. The main entry's `streamToolCalls` brings it itself; a
   * provider subpath's throws a `TypeError` for `clock` without it, so that a bundle without a
   * clock holds no timings step.
   * @defaultValue none (the main entry's: `toolCallTimings`)
   */
  toolCallTimings?: typeof toolCallTimings | undefined;
  /**
   * With `tools` and the `jsonSchema` plug-in: check each call's arguments against its tool's
   * schema while they stream (`earlySchemaValidator`, an incremental check in time linear in the
   * arguments). A `tool-call-violation` event follows the fragment after which they can no longer
   * match, once per call; the call streams on and ends as an `invalid-tool-call`. A valid call
   * never gets one. With `tools` and without the plug-in, `streamToolCalls` throws a `TypeError`.
   * @defaultValue false
   */
  earlyValidation?: boolean | undefined;
  /**
   * With `earlyValidation`: at the first violation, cancel the body (so the provider stops
   * generating, and billing, a call that cannot be used) and end the stream with an `abort` of
   * reason `schema-violation` (its `error` is the violation), after every event before it.
   * @defaultValue false
   */
  abortOnViolation?: boolean | undefined;
  /**
   * The wire protocol of the body: a built-in provider's name (`openai`, `openai-responses`,
   * `anthropic`, `gemini`, `gemini-interactions`, `bedrock`, `cohere`, `ollama`), or a {@link ProviderProtocol} of the
   * application's own (its decoder, and its framing when the body is not SSE). The framing follows
   * from it, its provider's own framings only: the AWS event stream for `bedrock`, NDJSON for
   * `ollama`, SSE or (a first `[` or `{`) a JSON array for `gemini`, SSE for the others (and,
   * in the main entry's, a first `{` the NDJSON of an SDK's `toReadableStream()`). When
   * absent, the framing is told from the content type and the first bytes, then the protocol from
   * the first message's shape ({@link ProviderDetectStream}); a stream it cannot recognize ends
   * with an `unknown-provider` error.
   * @defaultValue detected from the stream
   */
  provider?: Provider | ProviderProtocol | undefined;
  /**
   * The framing of the body in place of the protocol's: `NdjsonDecoder` (from
   * `tool-call-stream/core`, or `tool-call-stream/ollama`) for the NDJSON of chunks an SDK's
   * `toReadableStream()` writes (openai-node's, `@anthropic-ai/sdk`'s), read with a provider
   * subpath's `streamToolCalls`, whose protocols read their provider's own framing alone so that
   * a bundle holds no other. The main entry's reads that NDJSON without it for a named provider
   * whose bodies are SSE (a first `{`).
   * @defaultValue the protocol's
   */
  framing?: FramingClass | undefined;
  /**
   * Most characters (UTF-16 code units) of the turn's text and reasoning together (the first
   * choice's `text-delta`s and `reasoning-delta`s), which the `finish` holds (`text`, `reasoning`)
   * for the next turn's assistant message: past it, an `error` of code `text-too-large` and an
   * `abort` of reason `limit-exceeded` (open calls discarded), the body cancelled, every event
   * before it delivered. The main entry's `streamToolCalls` and `streamToolCallBatches` check it;
   * a provider subpath's, `ToolCallChain` and the bare stages do not (their bundles' budgets), and
   * hold the turn's text unbounded. What the OpenAI decoders hold until its end and no delta carries
   * (a refusal, OpenAI Chat's `delta.refusal` or OpenAI Responses' `response.refusal.delta` with its
   * item's id; OpenAI Chat's reasoning fields, the encrypted `data` of `reasoning_details` with
   * them) is counted apart, against the same limit, with the same error and abort (`ChatCitations`,
   * `ResponsesCitations`).
   * @defaultValue 4194304 (`DEFAULT_MAX_TEXT_LENGTH`, as the encoders' answers)
   */
  maxTextLength?: number | undefined;
  /** Aborting it stops reading, cancels the body (which stops the fetch) and ends with `abort`. */
  signal?: AbortSignal | undefined;
  /**
   * The reader of an SDK's parsed chunks (its `Stream`, an iterable or a `ReadableStream` of
   * objects): `sdkChunks` (from `tool-call-stream/core`). A provider subpath's `streamToolCalls`
   * reads them only with it, so that a bundle that reads bytes alone holds none of it; without
   * it, such an input ends with an `unknown-provider` error naming it.
   * @defaultValue none (the main entry's: `sdkChunks`)
   */
  sdkChunks?: SdkChunks | undefined;
}

/**
 * Options of {@link streamToolCallBatches}: those of {@link streamToolCalls}, and a write window.
 * `Tools` is the type of its `tools`.
 */
export interface StreamToolCallBatchesOptions<Tools extends readonly ToolDefinition[] = readonly ToolDefinition[]>
  extends StreamToolCallsOptions<Tools> {
  /**
   * At most one array per this many milliseconds: events made sooner after the last array wait,
   * while the body is read on, and go together when the window closes (one timer of `timers`
   * per window that holds events; `timers.now` the clock, `Date.now` without it). An array made
   * after a quiet window goes at once, the first always, so nothing waits when the model is slow.
   * For a server writing a client's body: a model streaming token by token then costs one chunk
   * (one encode, one write, one pass through every later stage) per window instead of per token.
   * 0 passes each array as soon as the body has nothing more ready.
   * @defaultValue 0
   */
  batchWindowMs?: number | undefined;
}
