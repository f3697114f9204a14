// Type tests, checked by `tsc -p test/tsconfig.json`, never run: `OpenAIResponsesStreamEvent` (the
// JSON of each frame `OpenAIResponsesEncoderStream` writes) is a union discriminated on `type`, so
// a reader narrows on `event.type` to that event's fields, and each event has every field
// openai-node 7's `ResponseStreamEvent` of the same `type` has (the `error` event aside: Open
// Responses nests its fields in `error`, openai-node's type lists them flat).
import type OpenAI from "openai-v7";
import { expectTypeOf } from "vitest";
import type { OpenAIResponse, OpenAIResponsesOutputItem, OpenAIResponsesStreamEvent } from "../../src/encode.ts";

declare const event: OpenAIResponsesStreamEvent;

if (event.type === "response.output_text.delta") {
  expectTypeOf(event.delta).toEqualTypeOf<string>();
  expectTypeOf(event.content_index).toEqualTypeOf<number>();
}
if (event.type === "response.function_call_arguments.done") expectTypeOf(event.arguments).toEqualTypeOf<string>();
if (event.type === "response.output_item.done") expectTypeOf(event.item).toEqualTypeOf<OpenAIResponsesOutputItem>();
if (event.type === "response.completed" || event.type === "response.failed")
  expectTypeOf(event.response).toEqualTypeOf<OpenAIResponse>();
if (event.type === "error") expectTypeOf(event.error.message).toEqualTypeOf<string>();
// @ts-expect-error: a field of another event type is not there before narrowing
event.delta;

type Sdk = OpenAI.Responses.ResponseStreamEvent;
type Ours = OpenAIResponsesStreamEvent;
type RequiredKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? never : K }[keyof T];
/** The SDK's required fields an event of ours lacks, by type. */
type Missing = {
  [T in Exclude<Ours["type"], "error">]: Exclude<
    RequiredKeys<Extract<Sdk, { type: T }>>,
    keyof Extract<Ours, { type: T }>
  >;
}[Exclude<Ours["type"], "error">];

// Every type written is one openai-node 7 reads, with the fields it reads.
expectTypeOf<Ours["type"]>().toExtend<Sdk["type"]>();
expectTypeOf<Missing>().toEqualTypeOf<never>();
