// The implementations measured side by side: a floor, tool-call-stream, and peers through their
// public APIs, each given the same bytes by a fetch that returns the recorded body.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import Anthropic from "@anthropic-ai/sdk";
import { parsePartialJson } from "ai";
import OpenAI from "openai";
import { streamToolCalls } from "../src/index.ts";
import type { Body } from "./bodies.ts";

/** Runs one implementation over network chunks and returns how many complete calls it saw. */
export type Contender = (chunks: Uint8Array[], framing: Body["framing"]) => Promise<number>;

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else controller.close();
    },
  });
}

const fetchOf = (chunks: Uint8Array[]) => async (): Promise<Response> =>
  new Response(streamOf(chunks), { headers: { "content-type": "text/event-stream" } });

/**
 * The least work any correct solution does: decode, split lines, JSON.parse each payload,
 * concatenate each call's arguments, parse them once at the end.
 */
export const floor: Contender = async (chunks, framing) => {
  const decoder = new TextDecoder();
  const args = new Map<number, string>();
  let pending = "";
  const onPayload = (payload: Record<string, any>): void => {
    if (framing === "openai") {
      for (const call of payload.choices?.[0]?.delta?.tool_calls ?? []) args.set(call.index, (args.get(call.index) ?? "") + (call.function?.arguments ?? ""));
    } else if (framing === "anthropic") {
      if (payload.type === "content_block_delta" && payload.delta.type === "input_json_delta") args.set(payload.index, (args.get(payload.index) ?? "") + payload.delta.partial_json);
    } else if (payload.type === "response.function_call_arguments.delta") args.set(payload.output_index, (args.get(payload.output_index) ?? "") + payload.delta);
  };
  for (const chunk of chunks) {
    // Search only the new text for a line end: a long line over many chunks stays linear.
    const searchFrom = pending.length;
    pending += decoder.decode(chunk, { stream: true });
    let newline = pending.indexOf("\n", searchFrom);
    let start = 0;
    while (newline !== -1) {
      const line = pending.slice(start, newline);
      if (line.startsWith("data: ") && line !== "data: [DONE]") onPayload(JSON.parse(line.slice(6)));
      start = newline + 1;
      newline = pending.indexOf("\n", start);
    }
    pending = pending.slice(start);
  }
  let calls = 0;
  for (const text of args.values()) if (JSON.parse(text)) calls++;
  return calls;
};

/** tool-call-stream, with or without partial arguments on every delta. */
export const ours = (partialArguments: boolean): Contender => async (chunks, framing) => {
  let calls = 0;
  const reader = streamToolCalls(streamOf(chunks), { provider: framing, partialArguments, maxArgumentsBytes: 64 * 1024 * 1024 }).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return calls;
    if (value.type === "tool-call") calls++;
  }
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
  return (completion.choices[0]?.message.tool_calls ?? []).filter((call) => call.type === "function" && JSON.parse(call.function.arguments)).length;
};

/** @anthropic-ai/sdk MessageStream: it parses the partial input on every input_json_delta. */
export const anthropicSdk: Contender = async (chunks) => {
  const client = new Anthropic({ apiKey: "bench", fetch: fetchOf(chunks), maxRetries: 0 });
  const message = await client.messages.stream({ model: "claude-sonnet-4-5", max_tokens: 1024, messages: [{ role: "user", content: "x" }] }).finalMessage();
  return message.content.filter((block) => block.type === "tool_use").length;
};

/** Vercel AI SDK provider `doStream`; with `partial`, parsePartialJson on every tool-input-delta (what a UI showing partial input does). */
export const aiSdk = (partial: boolean): Contender => async (chunks, framing) => {
  const fetch = fetchOf(chunks) as unknown as typeof globalThis.fetch;
  const model =
    framing === "anthropic"
      ? createAnthropic({ apiKey: "bench", fetch })("claude-sonnet-4-5")
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
