// Type tests, checked by `tsc -p test/tsconfig.json` under `exactOptionalPropertyTypes` (the
// project's setting, and a strict user's), never run: every optional option of every options type
// the package exports accepts an explicit `undefined` (`{ signal: opts.signal }` with a possibly
// undefined signal), as `x?: T | undefined` declares it (issue 24).
import { expectTypeOf } from "vitest";
import type { ProtocolStreamOptions } from "../../src/anthropic.ts";
import type {
  AGUIEncoderOptions,
  OpenAIChatEncoderOptions,
  ReadyBatchesOptions,
  UIMessageEncoderOptions,
} from "../../src/encode.ts";
import type {
  AnthropicMessageOptions,
  AnthropicMessagesEncoderOptions,
  ArgumentsBufferOptions,
  FramingOptions,
  IncrementalJsonParserOptions,
  OpenAIChatCompletionOptions,
  OpenAIResponseOptions,
  OpenAIResponsesDeltaStreamOptions,
  OpenAIResponsesEncoderOptions,
  ParseOptions,
  SSEDecoderStreamOptions,
  StreamLimits,
  StreamToolCallsOptions,
  ToolCallAccumulatorOptions,
  ToolCallAccumulatorStreamOptions,
  ToolCallChainOptions,
  ToolCallEventEncoderStreamOptions,
  ToolLoopOptions,
  ToolRunnerOptions,
  ToolSchemaCheckOptions,
  ValidationTimeoutOptions,
} from "../../src/index.ts";

/** The optional keys of `T`. */
// biome-ignore lint/complexity/noBannedTypes: `{}` is the type every optional key accepts, which is the test
type OptionalKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? K : never }[keyof T];
/** True when `undefined` may be given for every optional key of `T`. */
type AcceptsUndefined<T> = { [K in OptionalKeys<T>]: undefined } extends Pick<T, OptionalKeys<T>> ? true : false;

expectTypeOf<AcceptsUndefined<StreamToolCallsOptions>>().toEqualTypeOf<true>();
expectTypeOf<AcceptsUndefined<ProtocolStreamOptions>>().toEqualTypeOf<true>();
expectTypeOf<AcceptsUndefined<StreamLimits>>().toEqualTypeOf<true>();
expectTypeOf<AcceptsUndefined<ToolCallChainOptions>>().toEqualTypeOf<true>();
expectTypeOf<AcceptsUndefined<ToolCallAccumulatorOptions>>().toEqualTypeOf<true>();
expectTypeOf<AcceptsUndefined<ToolCallAccumulatorStreamOptions>>().toEqualTypeOf<true>();
expectTypeOf<AcceptsUndefined<ArgumentsBufferOptions>>().toEqualTypeOf<true>();
expectTypeOf<AcceptsUndefined<ParseOptions>>().toEqualTypeOf<true>();
expectTypeOf<AcceptsUndefined<IncrementalJsonParserOptions>>().toEqualTypeOf<true>();
expectTypeOf<AcceptsUndefined<FramingOptions>>().toEqualTypeOf<true>();
expectTypeOf<AcceptsUndefined<SSEDecoderStreamOptions>>().toEqualTypeOf<true>();
expectTypeOf<AcceptsUndefined<OpenAIResponsesDeltaStreamOptions>>().toEqualTypeOf<true>();
expectTypeOf<AcceptsUndefined<ValidationTimeoutOptions>>().toEqualTypeOf<true>();
expectTypeOf<AcceptsUndefined<ToolSchemaCheckOptions>>().toEqualTypeOf<true>();
expectTypeOf<AcceptsUndefined<ToolRunnerOptions>>().toEqualTypeOf<true>();
expectTypeOf<AcceptsUndefined<ToolLoopOptions>>().toEqualTypeOf<true>();
expectTypeOf<AcceptsUndefined<ToolCallEventEncoderStreamOptions>>().toEqualTypeOf<true>();
expectTypeOf<AcceptsUndefined<ReadyBatchesOptions>>().toEqualTypeOf<true>();
expectTypeOf<AcceptsUndefined<OpenAIChatEncoderOptions>>().toEqualTypeOf<true>();
expectTypeOf<AcceptsUndefined<OpenAIChatCompletionOptions>>().toEqualTypeOf<true>();
expectTypeOf<AcceptsUndefined<UIMessageEncoderOptions>>().toEqualTypeOf<true>();
expectTypeOf<AcceptsUndefined<AGUIEncoderOptions>>().toEqualTypeOf<true>();
expectTypeOf<AcceptsUndefined<AnthropicMessageOptions>>().toEqualTypeOf<true>();
expectTypeOf<AcceptsUndefined<AnthropicMessagesEncoderOptions>>().toEqualTypeOf<true>();
expectTypeOf<AcceptsUndefined<OpenAIResponseOptions>>().toEqualTypeOf<true>();
expectTypeOf<AcceptsUndefined<OpenAIResponsesEncoderOptions>>().toEqualTypeOf<true>();

// The case of issue 24: options passed on from a caller's own optional fields.
declare const maybe: { provider?: "openai" | undefined; signal?: AbortSignal | undefined; maxToolCalls?: number };
const passedOn: StreamToolCallsOptions = {
  provider: maybe.provider,
  signal: maybe.signal,
  maxToolCalls: maybe.maxToolCalls,
};
void passedOn;

// The check itself can fail: a type without `| undefined` is told apart.
expectTypeOf<AcceptsUndefined<{ strict?: number }>>().toEqualTypeOf<false>();
