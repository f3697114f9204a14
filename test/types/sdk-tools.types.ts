// Type tests, checked by `tsc -p test/tsconfig.json` (the typecheck step of npm test), never run:
// the tools array a request was sent with, typed by its SDK, is `streamToolCalls`' `tools` as it is
// (it held schemas typed as objects of unknown keys, `null` ones, and tools that declare no
// function, such as `web_search`, which the types refused though the chain leaves them out).
// Their names are strings, so the events are the untyped ones.
import type Anthropic from "@anthropic-ai/sdk";
import type OpenAI from "openai";
import { expectTypeOf } from "vitest";
import { streamToolCalls, type ToolCallEvent } from "../../src/index.ts";
import { jsonSchema } from "../../src/schema.ts";
import { streamToolCalls as responsesStream } from "../../src/openai-responses.ts";

declare const response: Response;
declare const chatTools: OpenAI.ChatCompletionTool[];
declare const responsesTools: OpenAI.Responses.Tool[];
declare const anthropicTools: Anthropic.ToolUnion[];
declare const betaTools: Anthropic.Beta.BetaToolUnion[];

expectTypeOf(streamToolCalls(response, { provider: "openai", tools: chatTools, jsonSchema })).toEqualTypeOf<
  ReadableStream<ToolCallEvent>
>();
expectTypeOf(streamToolCalls(response, { provider: "openai-responses", tools: responsesTools })).toEqualTypeOf<
  ReadableStream<ToolCallEvent>
>();
expectTypeOf(responsesStream(response, { tools: responsesTools })).toEqualTypeOf<ReadableStream<ToolCallEvent>>();
expectTypeOf(streamToolCalls(response, { provider: "anthropic", tools: anthropicTools })).toEqualTypeOf<
  ReadableStream<ToolCallEvent>
>();
expectTypeOf(streamToolCalls(response, { provider: "anthropic", tools: betaTools })).toEqualTypeOf<
  ReadableStream<ToolCallEvent>
>();
