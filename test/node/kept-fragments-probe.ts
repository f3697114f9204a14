// Run by kept-fragments.test.ts in a Node process of its own (`--expose-gc`): for each fast reader,
// `streamToolCalls` reads 8 argument fragments (or text deltas) of 27 characters, each in a read of
// its own that a 1 MiB SSE comment fills, and the turn stays open (the call unfinished). The
// strings of 1 to 2 MiB still alive (the reads' texts) are then measured in a heap snapshot, and
// the heap used beside the same stream read to the same point with the comments left out. Prints
// `{ case: { reads, heap } }` as JSON (bytes).
import { streamToolCalls } from "../../src/index.ts";
import { heldTexts } from "./held-texts.ts";

const MiB = 2 ** 20;
const READS = 8;
/** A fragment of 27 characters: a view of its read in V8 (13 and more), as the reviewer's was. */
const PIECE = "abcdefghijklmnopqrstuvwxyz0";
/** One with escapes, which the Responses and Anthropic readers read by hand into a concatenation. */
const ESCAPED = 'abc\\"defghij\\nklmnopqrstuvw';

type Provider = "openai" | "openai-responses" | "anthropic";
const sse = (payload: object, event?: string): string =>
  `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(payload)}\n\n`;
const chat = (delta: object): string =>
  sse({
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    created: 1,
    model: "gpt-4o",
    choices: [{ index: 0, delta, logprobs: null, finish_reason: null }],
  });
const callStart = {
  tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "f", arguments: "" } }],
};
let sequence = 0;
const responses = (type: string, fields: object): string => sse({ type, sequence_number: sequence++, ...fields }, type);
const functionCall = {
  id: "fc_1",
  type: "function_call",
  call_id: "call_1",
  name: "f",
  arguments: "",
  status: "in_progress",
};
const message = { id: "msg_1", type: "message", role: "assistant", status: "in_progress", content: [] };
const anthropic = (type: string, fields: object): string => sse({ type, ...fields }, type);
const anthropicStart =
  anthropic("message_start", {
    message: { id: "msg_1", type: "message", role: "assistant", content: [], model: "claude", usage: {} },
  }) +
  anthropic("content_block_start", {
    index: 0,
    content_block: { type: "tool_use", id: "toolu_1", name: "f", input: {} },
  });
const inputDelta = (piece: string): string =>
  anthropic("content_block_delta", { index: 0, delta: { type: "input_json_delta", partial_json: piece } });

/** Each case: its provider, the events before the fragments, and one fragment's event (`piece` its JSON text). */
const cases: Record<string, { provider: Provider; start: () => string; piece: () => string; delta: string }> = {
  "openai chat fragment": {
    provider: "openai",
    start: () => chat(callStart),
    piece: () => chat({ tool_calls: [{ index: 0, function: { arguments: PIECE } }] }),
    delta: "tool-call-delta",
  },
  "openai chat text": {
    provider: "openai",
    start: () => chat({ role: "assistant", content: "" }),
    piece: () => chat({ content: PIECE }),
    delta: "text-delta",
  },
  "responses fragment": {
    provider: "openai-responses",
    start: () => responses("response.output_item.added", { output_index: 0, item: functionCall }),
    piece: () =>
      responses("response.function_call_arguments.delta", { item_id: "fc_1", output_index: 0, delta: PIECE }),
    delta: "tool-call-delta",
  },
  "responses text": {
    provider: "openai-responses",
    start: () => responses("response.output_item.added", { output_index: 0, item: message }),
    piece: () =>
      responses("response.output_text.delta", { item_id: "msg_1", output_index: 0, content_index: 0, delta: PIECE }),
    delta: "text-delta",
  },
  // (A fragment read so is joined by the arguments' scan, which reads its characters: a text delta is kept as it came.)
  "responses escaped text": {
    provider: "openai-responses",
    start: () => responses("response.output_item.added", { output_index: 0, item: message }),
    piece: () =>
      responses("response.output_text.delta", {
        item_id: "msg_1",
        output_index: 0,
        content_index: 0,
        delta: JSON.parse(`"${ESCAPED}"`) as string,
      }),
    delta: "text-delta",
  },
  "anthropic fragment": {
    provider: "anthropic",
    start: () => anthropicStart,
    piece: () => inputDelta(PIECE),
    delta: "tool-call-delta",
  },
  "anthropic escaped fragment": {
    provider: "anthropic",
    start: () => anthropicStart,
    piece: () => inputDelta(JSON.parse(`"${ESCAPED}"`) as string),
    delta: "tool-call-delta",
  },
};

/** The stream read until `READS` fragments came, each read after `padding`; left open (its reader returned). */
async function readOpen(name: string, padding: string): Promise<unknown> {
  const { provider, start, piece, delta } = cases[name]!;
  sequence = 0;
  const encoder = new TextEncoder();
  const chunks = [start(), ...Array.from({ length: READS }, () => padding + piece())];
  const body = new ReadableStream<Uint8Array>({
    // Past the last read, the body stays open: the turn and its call with it.
    pull: (controller) => (chunks.length ? controller.enqueue(encoder.encode(chunks.shift()!)) : new Promise(() => {})),
  });
  const reader = streamToolCalls(body, { provider }).getReader();
  for (let seen = 0; seen < READS; ) {
    const { done, value } = await reader.read();
    if (done || value.type === "error" || value.type === "abort") throw new Error(`${name}: ${JSON.stringify(value)}`);
    if (value.type === delta) seen++;
  }
  return reader;
}

const gc = (globalThis as { gc?: () => void }).gc!;
/** The memory of the JavaScript heap and of its external strings (Node makes a decoded text of over 1 MiB one). */
function heapUsed(): number {
  gc();
  gc();
  const { heapUsed, external, arrayBuffers } = process.memoryUsage();
  return heapUsed + external - arrayBuffers;
}

/** One case's reads alive and memory cost (in a function: its streams are garbage once it returns). */
async function measure(name: string): Promise<{ reads: number; heap: number }> {
  if (name === CONTROL) return control();
  // The same stream without the comments, then with them: the difference is what the comments cost while both are open.
  const base = heapUsed();
  const plain = await readOpen(name, "");
  const plainHeap = heapUsed() - base;
  const open = await readOpen(name, `:${"x".repeat(MiB)}\n`);
  // The last match of any regular expression keeps its subject (RegExp.input, one per isolate).
  /x/.exec("x");
  const heap = heapUsed() - base - plainHeap;
  const reads = await heldTexts();
  void [plain, open];
  return { reads, heap };
}

/** The control: a 27-character slice of each read's text kept as it is holds the whole read (the probe can see it). */
const CONTROL = "slices kept as they are";
async function control(): Promise<{ reads: number; heap: number }> {
  const base = heapUsed();
  const decoder = new TextDecoder();
  const kept = Array.from({ length: READS }, () =>
    decoder.decode(new TextEncoder().encode(`:${"x".repeat(MiB)}\n${PIECE}`)).slice(-27),
  );
  const heap = heapUsed() - base;
  const reads = await heldTexts();
  void kept;
  return { reads, heap };
}

const out: Record<string, { reads: number; heap: number }> = {};
for (const name of [CONTROL, ...Object.keys(cases)]) out[name] = await measure(name);
console.log(JSON.stringify(out));
