// The probe Worker of bench/load/stages.ts: it fetches the 10 KB call's body (OpenAI Chat, 2,962
// events, 1 MB) from the scripted providers and reads it through the Worker's stages up to the one
// its path names, so that the workerd CPU of each stage shows as the difference from the one
// before it, in the runtime the Worker runs in:
//   /pass     the upstream's body as the answer (what bench/load/pass-through.ts does)
//   /read     the body read into one reused buffer (worker/upstream/reusing-reader.ts), dropped
//             (it answers the number of reads)
//   /decode   and each read decoded (`TextDecoder`, as the SSE framing does)
//   /frame    and framed (`SSEDecoder`: lines and events)
//   /decoder  and each event decoded (`OpenAIChatDecoder`, its fast path)
//   /runs     through the framing and decoder the Worker reads with (`fragmentRuns("openai")`)
//   /accumulated  and their deltas through a `ToolCallAccumulator`, in the read's turn (the chain
//             without its pump: no stream, no pull, no window)
//   /chain    the whole chain the Worker runs (`streamToolCallBatches` with those, windowed)
// Each answers with a count, never the events. Never deployed: stages.ts builds it with esbuild.
import {
  type FramedMessage,
  OpenAIChatDecoder,
  SSEDecoder,
  streamToolCallBatches,
  ToolCallAccumulator,
} from "../../src/index.ts";
import { fragmentRuns } from "../../worker/services/fragment-runs.ts";
import { reusingReader } from "../../worker/upstream/reusing-reader.ts";

const STAGES = ["read", "decode", "frame", "decoder", "runs", "accumulated"] as const;

/** What reading the body up to `stage` does with each chunk (none for `read`). */
function feeder(stage: (typeof STAGES)[number], count: () => void): ((chunk: Uint8Array) => void) | undefined {
  if (stage === "decode") {
    const decoder = new TextDecoder();
    return (chunk) => void (decoder.decode(chunk, { stream: true }).length > 0 && count());
  }
  if (stage === "frame") {
    const framing = new SSEDecoder(count);
    return (chunk) => framing.feed(chunk);
  }
  if (stage === "decoder") {
    const decoder = new OpenAIChatDecoder(count);
    const framing = new SSEDecoder((message) => decoder.decode(message));
    return (chunk) => framing.feed(chunk);
  }
  if (stage === "runs" || stage === "accumulated") {
    const protocol = fragmentRuns("openai");
    const accumulator = stage === "accumulated" ? new ToolCallAccumulator(count) : undefined;
    const decoder = protocol.createDecoder(accumulator ? (delta) => accumulator.push(delta) : count);
    const framing = new protocol.framing!((message: FramedMessage) => decoder.decode(message));
    return (chunk) => framing.feed(chunk);
  }
  return undefined;
}

export default {
  async fetch(request: Request, env: { UPSTREAM: string }): Promise<Response> {
    const stage = new URL(request.url).pathname.slice(1);
    const upstream = await fetch(`${env.UPSTREAM}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "big", stream: true, messages: [] }),
    });
    if (stage === "pass") return new Response(upstream.body, { headers: { "content-type": "text/event-stream" } });
    const reader = reusingReader(upstream.body!);
    let counted = 0;
    const count = (): void => void counted++;
    if (stage === "chain") {
      const body = {
        next: async (): Promise<IteratorResult<Uint8Array>> => {
          const read = await reader.read();
          return read.done ? { done: true, value: undefined } : { done: false, value: read.value };
        },
        return: async (): Promise<IteratorResult<Uint8Array>> => ({ done: true, value: undefined }),
        [Symbol.asyncIterator]() {
          return this;
        },
      };
      const batches = streamToolCallBatches(body, { provider: fragmentRuns("openai"), batchWindowMs: 25 });
      for await (const batch of batches) counted += batch.length;
      return new Response(String(counted));
    }
    if (!(STAGES as readonly string[]).includes(stage)) return new Response("no such stage", { status: 404 });
    const feed = feeder(stage as (typeof STAGES)[number], count);
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      if (feed) feed(read.value);
      else count();
    }
    return new Response(String(counted));
  },
};
