// Run by kept-text.test.ts in a Node process of its own (`--expose-gc`): each stage that keeps text
// past a chunk is fed a chunk cut from a 1 MiB text, the text is dropped, and the strings of 1 to
// 2 MiB still alive are measured in a heap snapshot. Prints `{ case: bytes }` as JSON.
import { JsonArrayDecoder } from "../../src/framing/json-array-decoder-stream.ts";
import { NdjsonDecoder } from "../../src/framing/ndjson-decoder-stream.ts";
import { SSEDecoder } from "../../src/framing/sse-decoder-stream.ts";
import { FastChunkReader } from "../../src/providers/openai-chat/openai-chat-fast-chunk.ts";
import { ResponsesFastDelta } from "../../src/providers/openai-responses/responses-fast-delta.ts";
import { DetectingDecoder } from "../../src/providers/provider-detect-stream.ts";
import { heldTexts } from "./held-texts.ts";

const MiB = 2 ** 20;
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const CHAT =
  '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{"content":"Hi"},"logprobs":null,"finish_reason":null}]}';
const RESPONSES =
  '{"type":"response.output_text.delta","sequence_number":4,"item_id":"msg_0123456789abcdef","output_index":0,"content_index":0,"delta":"Hi","logprobs":[]}';

/** Each case returns what a stream would hold on to, having read text cut from a 1 MiB one. */
const cases: Record<string, () => unknown> = {
  // The control: a slice kept as it is holds the whole text (the probe can see it).
  "a plain slice": () => `${"x".repeat(MiB)}the end of a line not ended yet`.slice(MiB),
  sse: () => {
    const decoder = new SSEDecoder(() => {});
    decoder.feed(bytes(`data: ${"x".repeat(MiB)}\n\ndata: {"the start of the next event`));
    return decoder;
  },
  "sse open event": () => {
    const decoder = new SSEDecoder(() => {});
    decoder.feed(
      bytes(
        `data: ${"x".repeat(MiB)}\n\nevent: content_block_delta\nid: evt_0123456789abcdef\ndata: {"type":"content_block_delta","index":0}\n`,
      ),
    );
    return decoder;
  },
  // The open event's fields of an earlier read, the data lines this read adds, and an `event:` and
  // `id:` this read sets to the values they had: each held as a copy, none as a slice of this read.
  "sse event across reads": () => {
    const decoder = new SSEDecoder(() => {});
    const fields = "event: content_block_delta\nid: evt_0123456789abcdef\n";
    decoder.feed(bytes(`${fields}data: {"type":"content_block_delta",\n`));
    decoder.feed(bytes(`data: "index":0}\n\n:${"x".repeat(MiB)}\n${fields}data: {"type":"content_block_delta",\n`));
    // (A comment ended by CR after a data line is no blank line: that line is kept too.)
    decoder.feed(
      bytes(`data: "index":1,"delta_kind":"text",\n:\r:${"x".repeat(MiB)}\ndata: "delta":{"type":"text_delta"}}\n`),
    );
    return decoder;
  },
  ndjson: () => {
    const decoder = new NdjsonDecoder(() => {});
    decoder.feed(bytes(`{"a":"${"x".repeat(MiB)}"}\n{"the start of the next line":`));
    return decoder;
  },
  "json array": () => {
    const decoder = new JsonArrayDecoder(() => {});
    decoder.feed(bytes(`[{"a":"${"x".repeat(MiB)}"},{"the start of the next element":`));
    return decoder;
  },
  "openai chat fast chunk": () => {
    const reader = new FastChunkReader();
    if (reader.read(`${"x".repeat(MiB)}${CHAT}`.slice(MiB)) !== "Hi") throw new Error("the chunk was not read");
    return reader;
  },
  "responses fast delta": () => {
    const reader = new ResponsesFastDelta();
    if (reader.read(`${"x".repeat(MiB)}${RESPONSES}`.slice(MiB)) !== "Hi") throw new Error("the event was not read");
    return reader;
  },
  // An error event before any that tells the protocol waits for its decoder (up to 64 of them).
  "provider detection's held error": () => {
    const decoder = new DetectingDecoder(() => {});
    const data = `${"x".repeat(MiB)}{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`;
    decoder.decode({ event: "error", data: data.slice(MiB) });
    return decoder;
  },
  // As the SSE framing gives it: its `id` (a gateway's event id, 13 characters or more) cut from the read too.
  "provider detection's held error's id": () => {
    const decoder = new DetectingDecoder(() => {});
    const error = '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}';
    new SSEDecoder((message) => decoder.decode(message)).feed(
      bytes(`: ${"x".repeat(MiB)}\nevent: error\nid: evt_0123456789abcdef\ndata: ${error}\n\n`),
    );
    return decoder;
  },
};

const held: unknown[] = [];
const out: Record<string, number> = {};
for (const [name, make] of Object.entries(cases)) {
  const kept = make();
  // The last match of any regular expression keeps its subject (RegExp.input, one per isolate).
  /x/.exec("x");
  out[name] = await heldTexts();
  held.push(kept);
  held.length = 0;
}
console.log(JSON.stringify(out));
