// How `npm run bench:load` reads an answer back: the tool calls it carries and whether it ended
// the way its protocol ends, for each shape an answer comes in (the Worker's client protocols,
// which for the streamed workloads are also the provider bodies the pass-through and the direct
// request answer), and where its first content is (time to first content).
import type { ExpectedCall } from "./bodies.ts";

/** The shapes of an answer: OpenAI Chat chunks, a `chat.completion`, Anthropic Messages, OpenAI Responses. */
export type AnswerShape = "chat" | "chat-json" | "messages" | "responses";

/** What an answer said: its calls (name, arguments as JSON text) and whether it ended properly. */
export interface ReadAnswer {
  calls: ExpectedCall[];
  complete: boolean;
}

/** The first content of a streamed answer (text or a tool call), per shape; `null`: the first byte. */
export const FIRST_CONTENT: Record<AnswerShape, RegExp | null> = {
  chat: /"content":"[^"]|"tool_calls"/,
  "chat-json": null,
  messages: /"content_block_delta"|"type":"tool_use"/,
  responses: /response\.(output_text|function_call_arguments)\.delta|"type":"function_call"/,
};

type Json = Record<string, unknown>;

/** The `data:` payloads of an SSE text, parsed (`[DONE]` as the string). */
function ssePayloads(text: string): unknown[] {
  const out: unknown[] = [];
  for (const block of text.split("\n\n"))
    for (const line of block.split("\n"))
      if (line.startsWith("data: ")) {
        const data = line.slice(6);
        out.push(data === "[DONE]" ? data : JSON.parse(data));
      }
  return out;
}

/** Reads an answer of `shape`; throws on bytes that are not that shape at all. */
export function readAnswer(shape: AnswerShape, text: string): ReadAnswer {
  if (shape === "chat-json") {
    const choice = ((JSON.parse(text) as Json)["choices"] as Json[] | undefined)?.[0];
    const message = (choice?.["message"] ?? {}) as Json;
    const calls = ((message["tool_calls"] ?? []) as Json[]).map((call) => {
      const fn = call["function"] as Json;
      return { name: String(fn["name"]), arguments: String(fn["arguments"]) };
    });
    return { calls, complete: choice?.["finish_reason"] === "tool_calls" };
  }
  const payloads = ssePayloads(text);
  const calls: ExpectedCall[] = [];
  let complete = false;
  for (const payload of payloads) {
    if (payload === "[DONE]") {
      if (shape === "chat") complete = true;
      continue;
    }
    const event = payload as Json;
    if (shape === "chat") {
      const delta = ((event["choices"] as Json[] | undefined)?.[0]?.["delta"] ?? {}) as Json;
      for (const part of (delta["tool_calls"] ?? []) as Json[]) {
        const fn = (part["function"] ?? {}) as Json;
        const index = Number(part["index"]);
        calls[index] ??= { name: "", arguments: "" };
        if (typeof fn["name"] === "string") calls[index].name = fn["name"];
        if (typeof fn["arguments"] === "string") calls[index].arguments += fn["arguments"];
      }
    } else if (shape === "messages") {
      const index = Number(event["index"]);
      const block = event["content_block"] as Json | undefined;
      const delta = event["delta"] as Json | undefined;
      if (event["type"] === "content_block_start" && block?.["type"] === "tool_use")
        calls[index] = { name: String(block["name"]), arguments: "" };
      if (event["type"] === "content_block_delta" && delta?.["type"] === "input_json_delta")
        calls[index]!.arguments += String(delta["partial_json"]);
      if (event["type"] === "message_stop") complete = true;
    } else {
      const item = event["item"] as Json | undefined;
      if (event["type"] === "response.output_item.done" && item?.["type"] === "function_call")
        calls.push({ name: String(item["name"]), arguments: String(item["arguments"]) });
      if (event["type"] === "response.completed") complete = true;
    }
  }
  return { calls: calls.filter((call) => call !== undefined), complete };
}

/** Whether `answer` is complete and carries exactly the `expected` calls (arguments compared as JSON). */
export function answerMatches(answer: ReadAnswer, expected: readonly ExpectedCall[]): boolean {
  if (!answer.complete || answer.calls.length !== expected.length) return false;
  return expected.every((call, i) => {
    const got = answer.calls[i]!;
    if (got.name !== call.name) return false;
    try {
      return JSON.stringify(JSON.parse(got.arguments)) === call.arguments;
    } catch {
      return false;
    }
  });
}
