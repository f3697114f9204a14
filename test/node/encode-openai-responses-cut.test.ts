// A call a length or content-filter stop cut, through OpenAIResponsesEncoderStream: its item ends
// `incomplete` in `response.incomplete` (Open Responses: an item cut off by a token limit), never
// `completed`, which Codex and openai-node's readers take for a call to run. The events come from
// OpenAI Chat chunks through the whole chain, as the Worker's /v1/responses gets them.
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import {
  OpenAIResponsesEncoder,
  OpenAIResponsesEncoderStream,
  streamToolCalls,
  type ToolCallEvent,
} from "../../src/index.ts";
import { AGENT_OPTIONS } from "../support/encoders.ts";
import { readConformingStream } from "../support/open-responses.ts";
import { bytes, chatChunk, collect, fromChunks, openAISSE } from "../support/streams.ts";

const call = (index: number, fields: Record<string, unknown>) => chatChunk({ tool_calls: [{ index, ...fields }] });

/** Two calls: `read`'s arguments complete, `write`'s cut by the stop (`reason`). */
const chunks = (reason: string) =>
  openAISSE([
    call(0, { id: "call_1", type: "function", function: { name: "read", arguments: '{"path":"a.txt"}' } }),
    call(1, { id: "call_2", type: "function", function: { name: "write", arguments: '{"path":"b.txt","text":"Hel' } }),
    chatChunk({}, reason),
  ]);

const events = (reason: string): Promise<ToolCallEvent[]> =>
  collect(streamToolCalls(fromChunks([bytes(chunks(reason))]), { provider: "openai" }));

const answer = (list: readonly ToolCallEvent[]): Response =>
  new Response(fromChunks(list).pipeThrough(new OpenAIResponsesEncoderStream(AGENT_OPTIONS.responses())), {
    headers: { "content-type": "text/event-stream" },
  });

const client = (list: readonly ToolCallEvent[]): OpenAI =>
  new OpenAI({ apiKey: "test", baseURL: "http://127.0.0.1:9/v1", maxRetries: 0, fetch: async () => answer(list) });

describe("OpenAIResponsesEncoderStream: a call cut by a length or content-filter stop", () => {
  for (const [reason, incomplete] of [
    ["length", "max_output_tokens"],
    ["content_filter", "content_filter"],
  ] as const) {
    it(`${reason}: the cut call's item is done incomplete, the complete one completed, in response.incomplete`, async () => {
      const list = await events(reason);
      expect(list.filter((e) => e.type === "invalid-tool-call").map((e) => e.name)).toEqual(["write"]);
      const { issues, events: sent, response } = await readConformingStream(answer(list));
      expect(issues).toEqual([]);
      const done = sent.filter((e) => e["type"] === "response.output_item.done").map((e) => e["item"]);
      expect(done).toMatchObject([
        { type: "function_call", name: "read", status: "completed" },
        { type: "function_call", name: "write", status: "incomplete", arguments: '{"path":"b.txt","text":"Hel' },
      ]);
      expect(response).toMatchObject({ status: "incomplete", incomplete_details: { reason: incomplete } });
      // openai-node's reader: the call it may run is the complete one.
      const final = await client(list).responses.stream({ model: "m", input: "hi" }).finalResponse();
      expect(final.output).toMatchObject([
        { type: "function_call", name: "read", status: "completed" },
        { type: "function_call", name: "write", status: "incomplete" },
      ]);
    });
  }

  it("a normal stop: an invalid call (the model's bad JSON, which goes back to it) is done completed", async () => {
    const list = (await events("tool_calls")).map((e) => (e.type === "finish" ? { ...e, reason: "stop" as const } : e));
    const { issues, events: sent, response } = await readConformingStream(answer(list));
    expect(issues).toEqual([]);
    const done = sent.filter((e) => e["type"] === "response.output_item.done").map((e) => e["item"]);
    expect(done).toMatchObject([
      { name: "read", status: "completed" },
      { name: "write", status: "completed" },
    ]);
    expect(response).toMatchObject({ status: "completed" });
  });

  it("text after an invalid call: the call is done completed before the text's message, in order", async () => {
    const invalid: ToolCallEvent = {
      type: "invalid-tool-call",
      index: 0,
      id: "call_1",
      name: "read",
      rawArguments: "{",
      error: { code: "invalid-json", message: "The arguments of call_1 are not valid JSON." },
    };
    const finish: ToolCallEvent = {
      type: "finish",
      reason: "length",
      rawReason: "length",
      toolCalls: [],
      invalidToolCalls: [invalid],
      text: "Sorry",
      reasoning: "",
    };
    const start: ToolCallEvent = { type: "tool-call-start", index: 0, id: "call_1", name: "read" };
    const delta: ToolCallEvent = {
      type: "tool-call-delta",
      index: 0,
      id: "call_1",
      argumentsDelta: "{",
      closed: false,
    };
    const list: ToolCallEvent[] = [start, delta, invalid, { type: "text-delta", text: "Sorry" }, finish];
    const { issues, events: sent } = await readConformingStream(answer(list));
    expect(issues).toEqual([]);
    const done = sent.filter((e) => e["type"] === "response.output_item.done").map((e) => e["item"]);
    expect(done).toMatchObject([
      { type: "function_call", status: "completed" },
      { type: "message", status: "incomplete" },
    ]);
  });
});

describe("OpenAIResponsesEncoder: each frame is its event's JSON", () => {
  it("response.created and response.in_progress (the response's JSON written once) as every other frame", async () => {
    const out: string[] = [];
    const encoder = new OpenAIResponsesEncoder(AGENT_OPTIONS.responses());
    for (const event of await events("tool_calls")) encoder.encode(event, out);
    const frames = out
      .join("")
      .split("\n\n")
      .filter((frame) => frame.startsWith("event: "));
    const data = frames.map(
      (frame) => JSON.parse(frame.slice(frame.indexOf("\ndata: ") + 7)) as Record<string, unknown>,
    );
    expect(frames).toEqual(data.map((event) => `event: ${event["type"]}\ndata: ${JSON.stringify(event)}`));
    expect(data.slice(0, 2).map((event) => [event["type"], event["sequence_number"]])).toEqual([
      ["response.created", 0],
      ["response.in_progress", 1],
    ]);
    expect(data[1]!["response"]).toEqual(data[0]!["response"]);
    expect(data[0]!["response"]).toMatchObject({ status: "in_progress", output: [] });
  });
});
