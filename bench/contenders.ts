// The implementations measured side by side: a floor, tool-call-stream, and peers through their
// public APIs, each given the same bytes by a fetch that returns the recorded body.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import Anthropic from "@anthropic-ai/sdk";
import { parsePartialJson } from "ai";
import OpenAI from "openai";
import {
  createProviderDecoder,
  jsonSchema,
  providerProtocol,
  repairJson,
  SSEDecoder,
  streamToolCallBatches,
  streamToolCalls,
  ToolCallAccumulator,
  ToolCallChain,
  type ToolDefinition,
} from "../src/index.ts";
import type { Body } from "./bodies.ts";
import { streamOf } from "./stream-of.ts";

/** Runs one implementation over network chunks and returns how many complete calls it saw. */
export type Contender = (chunks: Uint8Array[], framing: Body["framing"]) => Promise<number>;

const fetchOf = (chunks: Uint8Array[]) => async (): Promise<Response> =>
  new Response(streamOf(chunks), { headers: { "content-type": "text/event-stream" } });

/**
 * The least work any correct solution does: read the body, decode, split lines, JSON.parse each
 * payload, concatenate each call's arguments, parse them once at the end. Linear in the input:
 * a line that spans many chunks is kept as pieces and joined once, when its end arrives.
 */
class FloorCore {
  readonly #decoder = new TextDecoder();
  readonly #args = new Map<number, string>();
  readonly #framing: Body["framing"];
  /** Pieces of the line not ended yet. */
  #pieces: string[] = [];

  constructor(framing: Body["framing"]) {
    this.#framing = framing;
  }

  feed(chunk: Uint8Array): void {
    const text = this.#decoder.decode(chunk, { stream: true });
    let newline = text.indexOf("\n");
    if (newline === -1) {
      if (text !== "") this.#pieces.push(text);
      return;
    }
    let start = 0;
    if (this.#pieces.length > 0) {
      this.#pieces.push(text.slice(0, newline));
      this.#line(this.#pieces.join(""), 0, undefined);
      this.#pieces = [];
      start = newline + 1;
      newline = text.indexOf("\n", start);
    }
    while (newline !== -1) {
      this.#line(text, start, newline);
      start = newline + 1;
      newline = text.indexOf("\n", start);
    }
    if (start < text.length) this.#pieces.push(text.slice(start));
  }

  #line(text: string, start: number, end: number | undefined): void {
    if (!text.startsWith("data: ", start) || text.startsWith("data: [DONE]", start)) return;
    const payload: Record<string, any> = JSON.parse(text.slice(start + 6, end));
    const args = this.#args;
    if (this.#framing === "openai") {
      for (const call of payload.choices?.[0]?.delta?.tool_calls ?? [])
        args.set(call.index, (args.get(call.index) ?? "") + (call.function?.arguments ?? ""));
    } else if (this.#framing === "anthropic") {
      if (payload.type === "content_block_delta" && payload.delta.type === "input_json_delta")
        args.set(payload.index, (args.get(payload.index) ?? "") + payload.delta.partial_json);
    } else if (payload.type === "response.function_call_arguments.delta")
      args.set(payload.output_index, (args.get(payload.output_index) ?? "") + payload.delta);
  }

  /** Parses each call's arguments once; returns how many calls there were. */
  end(): number {
    let calls = 0;
    for (const text of this.#args.values()) if (JSON.parse(text)) calls++;
    return calls;
  }
}

/** The floor, reading the body stream every contender is given (one `read()` per network chunk). */
export const floor: Contender = async (chunks, framing) => {
  const core = new FloorCore(framing);
  const reader = streamOf(chunks).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return core.end();
    core.feed(value);
  }
};

/** The floor without the body stream: the chunks from an array (shown for reference). */
export const floorOfArray: Contender = async (chunks, framing) => {
  const core = new FloorCore(framing);
  for (const chunk of chunks) core.feed(chunk);
  return core.end();
};

/**
 * The schema of the bodies' `write_file` calls (bench/bodies.ts `argumentsOf`), strict as
 * structured outputs are: every keyword the early checks follow is on the way of each value.
 */
const WRITE_FILE: ToolDefinition[] = [
  {
    name: "write_file",
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", maxLength: 4096 },
        lines: { type: "array", maxItems: 1_000_000, items: { type: "string", maxLength: 1000 } },
        options: {
          type: "object",
          properties: {
            append: { type: "boolean" },
            mode: { type: "integer", minimum: 0, maximum: 511 },
            encoding: { type: "string", enum: ["utf-8", "latin1"] },
          },
          required: ["append", "mode"],
          additionalProperties: false,
        },
      },
      required: ["path", "lines"],
      additionalProperties: false,
    },
  },
];

/** tool-call-stream, with or without partial arguments on every delta, and with or without early validation (with `tools`, so the final check too). */
export const ours =
  (partialArguments: boolean, earlyValidation = false): Contender =>
  async (chunks, framing) => {
    let calls = 0;
    const options = {
      provider: framing,
      partialArguments,
      maxArgumentsLength: 64 * 1024 * 1024,
      ...(earlyValidation ? { tools: WRITE_FILE, jsonSchema, earlyValidation } : {}),
    };
    const reader = streamToolCalls(streamOf(chunks), options).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return calls;
      if (value.type === "tool-call") calls++;
      if (value.type === "tool-call-violation" || value.type === "invalid-tool-call")
        throw new Error(`a valid call was reported: ${value.type}`);
    }
  };

/**
 * tool-call-stream as its users read it: `for await` over `streamToolCalls(body, { provider })`,
 * no other option (the async iterator of the returned stream, not a reader).
 */
export const oursForAwait: Contender = async (chunks, framing) => {
  let calls = 0;
  for await (const event of streamToolCalls(streamOf(chunks), { provider: framing })) {
    if (event.type === "tool-call") calls++;
    else if (event.type === "invalid-tool-call" || event.type === "abort")
      throw new Error(`a valid call was reported: ${event.type}`);
  }
  return calls;
};

/** `streamToolCallBatches`: the same chain, its events read one array per network chunk. */
export const oursBatched: Contender = async (chunks, framing) => {
  let calls = 0;
  const reader = streamToolCallBatches(streamOf(chunks), {
    provider: framing,
    maxArgumentsLength: 64 * 1024 * 1024,
  }).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return calls;
    for (const event of value) if (event.type === "tool-call") calls++;
  }
};

/**
 * The library's pure cores wired with callbacks, no stream between them: SSE framing, the
 * provider's decoder, the accumulator. The path for a caller that needs the floor's cost.
 */
export const oursCores: Contender = async (chunks, framing) => {
  let calls = 0;
  const accumulator = new ToolCallAccumulator((event) => void (event.type === "tool-call" && calls++), {
    maxArgumentsLength: 64 * 1024 * 1024,
  });
  const decoder = createProviderDecoder(framing, (delta) => accumulator.push(delta));
  const sse = new SSEDecoder((message) => decoder.decode(message));
  const reader = streamOf(chunks).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    sse.feed(value);
  }
  sse.end();
  decoder.end();
  accumulator.end();
  return calls;
};

/**
 * The chain's synchronous core (`ToolCallChain`, what `streamToolCalls` wraps: framing, decoder,
 * accumulator, with `repair` as `streamToolCalls` has it) fed from the body stream.
 */
export const oursChain: Contender = async (chunks, framing) => {
  let calls = 0;
  const chain = new ToolCallChain(providerProtocol(framing), (event) => void (event.type === "tool-call" && calls++), {
    maxArgumentsLength: 64 * 1024 * 1024,
    repairer: repairJson,
  });
  const reader = streamOf(chunks).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chain.feed(value);
  }
  chain.end();
  return calls;
};

/** openai-node: ChatCompletionStream / ResponseStream (arguments parsed at the end). */
export const openaiNode: Contender = async (chunks, framing) => {
  const client = new OpenAI({ apiKey: "bench", fetch: fetchOf(chunks), maxRetries: 0 });
  if (framing === "openai-responses") {
    const stream = client.responses.stream({ model: "gpt-4o", input: "x" });
    const response = await stream.finalResponse();
    return response.output.filter((item) => item.type === "function_call").length;
  }
  const stream = client.chat.completions.stream({ model: "gpt-4o", messages: [{ role: "user", content: "x" }] });
  const completion = await stream.finalChatCompletion();
  return (completion.choices[0]?.message.tool_calls ?? []).filter(
    (call) => call.type === "function" && JSON.parse(call.function.arguments),
  ).length;
};

/** @anthropic-ai/sdk MessageStream: it parses the partial input on every input_json_delta. */
export const anthropicSdk: Contender = async (chunks) => {
  const client = new Anthropic({ apiKey: "bench", fetch: fetchOf(chunks), maxRetries: 0 });
  const message = await client.messages
    .stream({ model: "claude-opus-4-5", max_tokens: 1024, messages: [{ role: "user", content: "x" }] })
    .finalMessage();
  return message.content.filter((block) => block.type === "tool_use").length;
};

/** Vercel AI SDK provider `doStream`; with `partial`, parsePartialJson on every tool-input-delta (what a UI showing partial input does). */
export const aiSdk =
  (partial: boolean): Contender =>
  async (chunks, framing) => {
    const fetch = fetchOf(chunks) as unknown as typeof globalThis.fetch;
    const model =
      framing === "anthropic"
        ? createAnthropic({ apiKey: "bench", fetch })("claude-opus-4-5")
        : framing === "openai-responses"
          ? createOpenAI({ apiKey: "bench", fetch }).responses("gpt-4o")
          : createOpenAI({ apiKey: "bench", fetch }).chat("gpt-4o");
    const { stream } = await model.doStream({ prompt: [{ role: "user", content: [{ type: "text", text: "x" }] }] });
    const inputs = new Map<string, string>();
    let calls = 0;
    const reader = stream.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return calls;
      if (value.type === "tool-call") calls++;
      if (partial && value.type === "tool-input-delta") {
        const text = (inputs.get(value.id) ?? "") + value.delta;
        inputs.set(value.id, text);
        await parsePartialJson(text);
      }
    }
  };
