// An event type a provider adds later never breaks a stream: each provider's real recording with
// one such event (or a new kind inside a known event) spliced into its middle gives the same text,
// calls, finish reason and usage through streamToolCalls as the recording alone. The added events
// follow each provider's own envelope (its SSE `event:` name, `type` field, event-stream headers);
// their names are made up on purpose, as a later one would be.
import type { Provider } from "../../src/index.ts";
import { eventMessage } from "./event-stream.ts";
import { type Fixture, recording } from "./fixtures.ts";

/** The recording's SSE messages (or NDJSON lines) with `added` inserted after the first `at` of them. */
function splice(text: string, separator: string, added: string | string[], at: (count: number) => number): Uint8Array {
  // A recording written with CRLF (Gemini's) separates its messages by a blank CRLF line.
  const between = separator === "\n\n" && text.includes("\r\n\r\n") ? "\r\n\r\n" : separator;
  const parts = text.split(between).filter((part) => part.trim() !== "");
  const index = at(parts.length);
  if (index <= 0 || index >= parts.length) throw new Error(`splice at ${index} is not inside ${parts.length} messages`);
  parts.splice(index, 0, ...[added].flat());
  return new TextEncoder().encode(`${parts.join(between)}${between}`);
}

/** `at` from the middle: the middle message. */
const middle = (count: number) => Math.floor(count / 2);

/** A recording's Responses events with `events` inserted after the first `at` of them, the sequence numbers after them renumbered. */
function spliceResponses(fixture: Fixture, events: Record<string, unknown>[], at = middle): Uint8Array {
  const messages = fixture.text.split("\n\n").filter((m) => m.trim() !== "");
  const cut = at(messages.length);
  const numbered = (message: string, shift: number) =>
    message.replace(/"sequence_number":(\d+)/, (_, n: string) => `"sequence_number":${Number(n) + shift}`);
  const before = messages.slice(0, cut);
  const last = Number(/"sequence_number":(\d+)/.exec(before.at(-1)!)![1]);
  const added = events.map(
    (event, i) => `event: ${event["type"]}\ndata: ${JSON.stringify({ ...event, sequence_number: last + 1 + i })}`,
  );
  const after = messages.slice(cut).map((message) => numbered(message, events.length));
  return new TextEncoder().encode(`${[...before, ...added, ...after].join("\n\n")}\n\n`);
}

/** The AWS event-stream messages of a binary recording (each one's total length is its first 4 bytes). */
function frames(body: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < body.length; ) {
    const length = new DataView(body.buffer, body.byteOffset + at).getUint32(0);
    out.push(body.subarray(at, at + length));
    at += length;
  }
  return out;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) out.set(part, (at += part.length) - part.length);
  return out;
}

/** One case: a recording and the same body with events of no release spliced in. */
export type UnknownEventCase = [
  name: string,
  provider: Provider,
  fixture: Fixture,
  spliced: (fixture: Fixture) => Uint8Array,
];

/** An event type of no release (or a new member of a known chunk) in the middle of each provider's recording. */
export const unknownEventCases: UnknownEventCase[] = [
  [
    "OpenAI Chat: a chunk with a delta member and a top-level member no release documents",
    "openai",
    recording("openai", "chat-text-then-tool-call-usage"),
    (f) =>
      splice(
        f.text,
        "\n\n",
        `data: ${JSON.stringify({
          id: "chatcmpl-E6yvi7cuDcHZEHTMxcLDyf3CMKIO2",
          object: "chat.completion.chunk",
          created: 1785332890,
          model: "gpt-4o-2024-08-06",
          choices: [{ index: 0, delta: { future_kind: { note: "x" } }, logprobs: null, finish_reason: null }],
          future_member: { a: 1 },
        })}`,
        () => 4, // between the call's first fragment and its arguments
      ),
  ],
  [
    "OpenAI Responses: a response.* event type of no release",
    "openai-responses",
    recording("openai-responses", "text-then-function-call"),
    (f) => spliceResponses(f, [{ type: "response.future_event.delta", item_id: "fut_1", output_index: 0, delta: "x" }]),
  ],
  [
    "Anthropic Messages: an event type of no release (its versioning policy: ignore unknown events)",
    "anthropic",
    recording("anthropic", "parallel-tool-use"),
    (f) => splice(f.text, "\n\n", `event: future_event\ndata: {"type":"future_event","index":1,"delta":{}}`, middle),
  ],
  [
    "Gemini generateContent: a chunk whose part is of a kind no release documents",
    "gemini",
    recording("gemini", "thinking-then-function-call"),
    (f) =>
      splice(
        f.text,
        "\n\n",
        `data: ${JSON.stringify({
          candidates: [{ content: { parts: [{ futurePart: { note: "x" } }], role: "model" }, index: 0 }],
          modelVersion: "gemini-2.5-flash",
        })}`,
        middle,
      ),
  ],
  [
    "Gemini Interactions: an event_type of no release",
    "gemini-interactions",
    recording("gemini-interactions", "sdk-parallel-calls-chunked-arguments"),
    (f) =>
      splice(
        f.text,
        "\n\n",
        `event: interaction.future_event\ndata: {"event_type":"interaction.future_event","event_id":"evt_future"}`,
        middle,
      ),
  ],
  [
    "Bedrock ConverseStream: an :event-type of no release",
    "bedrock",
    recording("bedrock", "converse-nova-text-then-tool-use"),
    (f) => {
      const messages = frames(f.body);
      messages.splice(middle(messages.length), 0, eventMessage("futureEvent", { note: "x" }));
      return concat(messages);
    },
  ],
  [
    "Cohere v2: an event type of no release",
    "cohere",
    recording("cohere", "tool-plan-then-parallel-tool-calls"),
    (f) => splice(f.text, "\n\n", `event: future-event\ndata: {"type":"future-event","index":0,"delta":{}}`, middle),
  ],
  [
    "Ollama /api/chat: a line with a message member no release documents",
    "ollama",
    recording("ollama", "native-tool-call"),
    (f) =>
      splice(
        f.text,
        "\n",
        JSON.stringify({
          model: "llama3.2",
          created_at: "2025-07-07T20:22:19.19Z",
          message: { role: "assistant", content: "", future_member: { a: 1 } },
          done: false,
        }),
        () => 1,
      ),
  ],
];

/** Before the last message (its terminal event). */
const beforeLast = (count: number) => count - 1;
/** Before the last two messages (the stop reason's event and the usage's, or the message's delta and stop). */
const beforeLastTwo = (count: number) => count - 2;
const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}`;

/** A content block, output item, step or part of a type no release documents, with its deltas, inside each provider's recording that has such kinds. */
export const unknownKindCases: UnknownEventCase[] = [
  [
    "Anthropic Messages: a content block of an unknown type with a delta of an unknown type",
    "anthropic",
    recording("anthropic", "parallel-tool-use"),
    (f) =>
      splice(
        f.text,
        "\n\n",
        [
          sse("content_block_start", {
            type: "content_block_start",
            index: 3,
            content_block: { type: "future_block" },
          }),
          sse("content_block_delta", {
            type: "content_block_delta",
            index: 3,
            delta: { type: "future_delta", future: "x" },
          }),
          sse("content_block_stop", { type: "content_block_stop", index: 3 }),
        ],
        beforeLastTwo,
      ),
  ],
  [
    // A server tool's block of a later release streams its input as `server_tool_use` does (input_json_delta).
    "Anthropic Messages: a content block of an unknown type whose input streams as input_json_delta",
    "anthropic",
    recording("anthropic", "parallel-tool-use"),
    (f) =>
      splice(
        f.text,
        "\n\n",
        [
          sse("content_block_start", {
            type: "content_block_start",
            index: 3,
            content_block: { type: "future_tool_use", id: "futu_1", input: {} },
          }),
          sse("content_block_delta", {
            type: "content_block_delta",
            index: 3,
            delta: { type: "input_json_delta", partial_json: '{"query":"weather"}' },
          }),
          sse("content_block_stop", { type: "content_block_stop", index: 3 }),
        ],
        beforeLastTwo,
      ),
  ],
  [
    "OpenAI Responses: an output item of an unknown type, its own delta event and its done",
    "openai-responses",
    recording("openai-responses", "text-then-function-call"),
    (f) =>
      spliceResponses(
        f,
        [
          { type: "response.output_item.added", output_index: 3, item: { id: "fut_1", type: "future_item" } },
          { type: "response.future_item.delta", output_index: 3, item_id: "fut_1", delta: "x" },
          {
            type: "response.output_item.done",
            output_index: 3,
            item: { id: "fut_1", type: "future_item", status: "completed" },
          },
        ],
        beforeLast,
      ),
  ],
  [
    "Gemini Interactions: a step of an unknown type with a delta of an unknown type",
    "gemini-interactions",
    recording("gemini-interactions", "sdk-parallel-calls-chunked-arguments"),
    (f) =>
      splice(
        f.text,
        "\n\n",
        [
          sse("step.start", {
            event_type: "step.start",
            index: 4,
            step: { type: "future_step" },
            event_id: "evt_f1",
          }),
          sse("step.delta", {
            event_type: "step.delta",
            index: 4,
            delta: { type: "future_delta", future: "x" },
            event_id: "evt_f2",
          }),
          sse("step.stop", { event_type: "step.stop", index: 4, event_id: "evt_f3" }),
        ],
        beforeLast,
      ),
  ],
  [
    "Bedrock ConverseStream: a content block whose start and delta are of unknown members",
    "bedrock",
    recording("bedrock", "converse-nova-text-then-tool-use"),
    (f) => {
      const messages = frames(f.body);
      messages.splice(
        messages.length - 2,
        0,
        eventMessage("contentBlockStart", { contentBlockIndex: 2, start: { futureBlock: { note: "x" } } }),
        eventMessage("contentBlockDelta", { contentBlockIndex: 2, delta: { futureDelta: { note: "y" } } }),
        eventMessage("contentBlockStop", { contentBlockIndex: 2 }),
      );
      return concat(messages);
    },
  ],
  [
    "Cohere v2: a content part of an unknown type and its delta",
    "cohere",
    recording("cohere", "text"),
    (f) =>
      splice(
        f.text,
        "\n\n",
        [
          sse("content-start", {
            type: "content-start",
            index: 1,
            delta: { message: { content: { type: "future", future: "" } } },
          }),
          sse("content-delta", { type: "content-delta", index: 1, delta: { message: { content: { future: "x" } } } }),
          sse("content-end", { type: "content-end", index: 1 }),
        ],
        beforeLast,
      ),
  ],
];
