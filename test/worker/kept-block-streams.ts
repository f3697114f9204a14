// Streams, one per kept block no recording of ../shared holds, each written from the provider's
// documented events and read by the library's own decoder: what `finish.reasoningParts` gives a
// `/v1/stream` client of that provider, for test/worker/kept-blocks.test.ts.
import type { Provider } from "../../src/index.ts";
import { converse } from "../support/event-stream.ts";

/** A Responses stream: each event as `event:` and `data:` lines, numbered in order. */
function responses(events: Record<string, unknown>[]): string {
  return events
    .map((event, i) => `event: ${event["type"]}\ndata: ${JSON.stringify({ ...event, sequence_number: i })}\n\n`)
    .join("");
}

const created = { type: "response.created", response: { id: "resp_1", status: "in_progress", output: [] } };
const completed = (output: unknown[]) => ({
  type: "response.completed",
  response: { id: "resp_1", status: "completed", output },
});
const done = (output_index: number, item: unknown) => ({ type: "response.output_item.done", output_index, item });

/** OpenAI's hosted shell (`container_auto`): the call it ran, its `shell_call_output`, then text. */
const shellCall = {
  type: "shell_call",
  id: "sh_1",
  call_id: "call_sh",
  status: "completed",
  action: { commands: ["ls"], timeout_ms: null, max_output_length: null },
  environment: { type: "container_reference", container_id: "cntr_1" },
};
const shellOutput = {
  type: "shell_call_output",
  id: "sho_1",
  call_id: "call_sh",
  status: "completed",
  output: [{ stdout: "a.txt\n", stderr: "", outcome: { type: "exit", exit_code: 0 } }],
};

/** A web search's answer, its `output_text` with a `url_citation` annotation. */
const annotation = { type: "url_citation", url: "https://yr.no", title: "Yr", start_index: 0, end_index: 6 };
const cited = {
  type: "message",
  id: "msg_1",
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text: "Sunny.", annotations: [annotation] }],
};

/** A refusal, in the `message` item whose id goes back with it. */
const refused = {
  type: "message",
  id: "msg_r",
  role: "assistant",
  status: "completed",
  content: [{ type: "refusal", refusal: "I can't help with that." }],
};

/** Gemini's answer grounded by Google Search, with its sources' `citationMetadata` and the URL context tool's `urlContextMetadata` (@google/genai's `Candidate`). */
const grounded = {
  candidates: [
    {
      content: { role: "model", parts: [{ text: "Sunny in Oslo." }] },
      finishReason: "STOP",
      groundingMetadata: {
        webSearchQueries: ["oslo weather"],
        groundingChunks: [{ web: { uri: "https://yr.no", title: "yr.no" } }],
        groundingSupports: [{ segment: { startIndex: 0, endIndex: 14 }, groundingChunkIndices: [0] }],
      },
      citationMetadata: { citations: [{ startIndex: 0, endIndex: 14, uri: "https://yr.no" }] },
      urlContextMetadata: {
        urlMetadata: [{ retrievedUrl: "https://yr.no", urlRetrievalStatus: "URL_RETRIEVAL_STATUS_SUCCESS" }],
      },
    },
  ],
};

/** Gemini's code execution: the code it ran and its result, parts of the model's turn. */
const executed = {
  candidates: [
    {
      content: {
        role: "model",
        parts: [
          { executableCode: { language: "PYTHON", code: "print(6 * 7)" } },
          { codeExecutionResult: { outcome: "OUTCOME_OK", output: "42\n" } },
          { text: "42." },
        ],
      },
      finishReason: "STOP",
    },
  ],
};

/** OpenAI Chat's search model: its `url_citation` annotations on a delta. */
const chat = (delta: Record<string, unknown>, finish_reason: string | null = null) =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason }] })}\n\n`;

/**
 * Bedrock ConverseStream's image the model made (@aws-sdk/client-bedrock-runtime 3.1178.0's
 * ImageBlockStart `format`, then ImageBlockDelta `source.bytes`, base64 on the JSON wire): a PNG's
 * signature after a text block.
 */
const image = converse([
  ["messageStart", { role: "assistant" }],
  ["contentBlockDelta", { contentBlockIndex: 0, delta: { text: "Here is the logo." } }],
  ["contentBlockStop", { contentBlockIndex: 0 }],
  ["contentBlockStart", { contentBlockIndex: 1, start: { image: { format: "png" } } }],
  ["contentBlockDelta", { contentBlockIndex: 1, delta: { image: { source: { bytes: "iVBORw0KGgo=" } } } }],
  ["contentBlockStop", { contentBlockIndex: 1 }],
  ["messageStop", { stopReason: "end_turn" }],
  ["metadata", { usage: { inputTokens: 9, outputTokens: 40, totalTokens: 49 }, metrics: { latencyMs: 900 } }],
]);

/** A stream whose `finish.reasoningParts` hold a block of one shape. */
export interface KeptBlockStream {
  name: string;
  provider: Provider;
  /** Its body: SSE or JSON text, or the bytes of a binary framing (Bedrock's event stream). */
  body: string | Uint8Array<ArrayBuffer>;
  /**
   * What of it the provider's next request holds, in its messages (`messages`, `input` or
   * `contents`): an entry it must have, or `undefined` where the provider has no field for it
   * (Gemini's sources, OpenAI Chat's annotations: the app shows them, the next turn drops them).
   */
  sent: Record<string, unknown> | undefined;
}

/** The streams, by the block they keep. */
export const KEPT_BLOCK_STREAMS: readonly KeptBlockStream[] = [
  {
    name: "an OpenAI hosted shell's shell_call_output",
    provider: "openai-responses",
    body: responses([
      created,
      { type: "response.output_item.added", output_index: 0, item: shellCall },
      done(0, shellCall),
      { type: "response.output_item.added", output_index: 1, item: { ...shellOutput, output: [] } },
      done(1, shellOutput),
      completed([shellCall, shellOutput]),
    ]),
    sent: shellOutput,
  },
  {
    name: "an OpenAI Responses output_text with annotations",
    provider: "openai-responses",
    body: responses([
      created,
      { type: "response.output_item.added", output_index: 0, item: { ...cited, content: [] } },
      { type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: "Sunny." },
      done(0, cited),
      completed([cited]),
    ]),
    sent: cited,
  },
  {
    name: "an OpenAI Responses refusal with its message's id",
    provider: "openai-responses",
    body: responses([
      created,
      { type: "response.output_item.added", output_index: 0, item: { ...refused, content: [] } },
      {
        type: "response.refusal.done",
        item_id: "msg_r",
        output_index: 0,
        content_index: 0,
        refusal: "I can't help with that.",
      },
      done(0, refused),
      completed([refused]),
    ]),
    sent: refused,
  },
  {
    name: "Gemini's groundingMetadata, citationMetadata and urlContextMetadata",
    provider: "gemini",
    body: `data: ${JSON.stringify(grounded)}\n\n`,
    sent: undefined,
  },
  {
    name: "Gemini's executableCode and codeExecutionResult parts",
    provider: "gemini",
    body: `data: ${JSON.stringify(executed)}\n\n`,
    sent: executed.candidates[0]!.content,
  },
  {
    name: "an OpenAI Chat text with annotations",
    provider: "openai",
    body: `${chat({ role: "assistant", content: "Sunny." })}${chat({ annotations: [{ type: "url_citation", url_citation: { url: "https://yr.no", title: "Yr", start_index: 0, end_index: 6 } }] })}${chat({}, "stop")}data: [DONE]\n\n`,
    sent: undefined,
  },
  {
    name: "a Bedrock Converse image the model made",
    provider: "bedrock",
    body: image,
    // The turn's blocks in the stream's order (the finish's `order`, which the client sends back).
    sent: {
      role: "assistant",
      content: [{ text: "Here is the logo." }, { image: { format: "png", source: { bytes: "iVBORw0KGgo=" } } }],
    },
  },
];
