// The two reference Workers of `npm run bench:worker` (scripts/bench-worker.ts), in one script:
//   GET /chain/<path>  fetches the local upstream's <path>, runs `streamToolCalls` on its body
//                      and answers the number of events (the chain alone, in a Worker);
//   GET /batches/<path> the same with `streamToolCallBatches`, events counted by the array (one
//                      read per network chunk instead of one per event);
//   GET /pass/<path>   answers the upstream's body unchanged (a pass-through of the same bytes);
//   GET /sse/<path>    answers `streamToolCallBatches` encoded by `ToolCallEventEncoderStream`: the
//                      chain and the Worker's SSE encoding with nothing else of the Worker's route;
//   GET /idle/<path>   the same behind the Worker's idle timeout and deadline (the body and the
//                      events read through worker/upstream/response-watch.ts), to tell their share;
//   GET /strip/<path>  the same with the Worker's provider-data stripping between the chain and
//                      the encoder (worker/services/without-provider-data.ts): the plain route's
//                      stages without its request handling before the write window;
//   GET /window/<path> the same with the chain's write window (`batchWindowMs`, 25 ms)
//                      between the chain and the stripping, as the plain route has them.
//   GET /read/<path>   reads the upstream body in JavaScript (the chain's own large BYOB reads)
//                      and answers its byte count: the least a Worker that looks at the bytes pays;
//   GET /parse/<path>  the same, decoding the text, cutting SSE events and JSON.parse-ing each
//                      payload, and answers their number: a floor under the chain, in workerd.
// UPSTREAM (a var set by the script) is the local upstream's origin, http://127.0.0.1:<port>.
// Never deployed: wrangler.toml here has no routes and the script only runs it with `wrangler dev`.
import { ResponseWatch } from "../../worker/upstream/response-watch.ts";
import { platformRuntime } from "../../worker/runtime.ts";
import { withoutProviderDataInBatches } from "../../worker/services/without-provider-data.ts";
import { chunkReader } from "../../src/core.ts";
import { streamToolCallBatches, streamToolCalls, ToolCallEventEncoderStream, type Provider } from "../../src/index.ts";

interface BenchEnv {
  UPSTREAM: string;
}

const PROVIDERS: Record<string, Provider> = {
  "chat/completions": "openai",
  messages: "anthropic",
  responses: "openai-responses",
};

export default {
  async fetch(request: Request, env: BenchEnv): Promise<Response> {
    const url = new URL(request.url);
    const [, mode, ...rest] = url.pathname.split("/");
    const path = rest.join("/");
    const provider = PROVIDERS[path.replace(/^v1\//, "")];
    if (
      provider === undefined ||
      !["chain", "batches", "pass", "sse", "idle", "strip", "window", "read", "parse"].includes(mode ?? "")
    )
      return new Response("not found", { status: 404 });
    const upstream = await fetch(`${env.UPSTREAM}/${path}`, { method: "POST", body: "{}" });
    if (mode === "pass") return new Response(upstream.body, { headers: { "content-type": "text/event-stream" } });
    if (mode === "idle" || mode === "strip" || mode === "window") {
      const { timers } = platformRuntime;
      const watch = new ResponseWatch({ timers, idleTimeoutMs: 120_000, maxResponseMs: 600_000 });
      const body = watch.body(upstream.body!, () => {});
      const batchWindowMs = mode === "window" ? 25 : 0;
      const batches = watch.events(streamToolCallBatches(body, { provider, batchWindowMs, timers }), () => []);
      const events = mode === "idle" ? batches : withoutProviderDataInBatches(batches);
      // The window's fragments joined, as the Worker's encoder joins them.
      return new Response(events.pipeThrough(new ToolCallEventEncoderStream({ joinDeltas: mode === "window" })), {
        headers: { "content-type": "text/event-stream" },
      });
    }
    if (mode === "sse")
      return new Response(streamToolCallBatches(upstream, { provider }).pipeThrough(new ToolCallEventEncoderStream()), {
        headers: { "content-type": "text/event-stream" },
      });
    if (mode === "read" || mode === "parse") return new Response(String(await readFloor(upstream.body!, mode)));
    let events = 0;
    if (mode === "batches") {
      const batches = streamToolCallBatches(upstream, { provider }).getReader();
      for (let read = await batches.read(); !read.done; read = await batches.read()) events += read.value.length;
      return new Response(String(events));
    }
    const reader = streamToolCalls(upstream, { provider }).getReader();
    while (!(await reader.read()).done) events++;
    return new Response(String(events));
  },
};

/**
 * The floors under the chain in workerd: `read` reads `body` with the chain's own reader and
 * counts its bytes; `parse` also decodes it, cuts it at blank lines and JSON.parse-s each `data:`
 * payload (what any reader of the stream must do), and counts them.
 */
async function readFloor(body: ReadableStream<Uint8Array>, mode: "read" | "parse"): Promise<number> {
  const reader = chunkReader(body);
  const decoder = new TextDecoder();
  let count = 0;
  let rest = "";
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    if (mode === "read") {
      count += read.value.length;
      continue;
    }
    const text = rest + decoder.decode(read.value, { stream: true });
    let start = 0;
    for (let end = text.indexOf("\n\n"); end >= 0; end = text.indexOf("\n\n", start)) {
      for (const line of text.slice(start, end).split("\n"))
        if (line.startsWith("data: ") && line !== "data: [DONE]") {
          JSON.parse(line.slice(6));
          count++;
        }
      start = end + 2;
    }
    rest = text.slice(start);
  }
  return count;
}
