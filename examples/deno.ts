// Deno: replays a recorded Anthropic Messages stream through the chain and prints each
// accumulated event as one JSON line: `deno run --allow-read examples/deno.ts` (without Deno
// installed: `node scripts/on-demand.mjs deno run --allow-read examples/deno.ts`).
// A Deno app imports the package from JSR or npm instead of this repository's sources:
//   import { AnthropicDeltaStream, ... } from "jsr:@tool-call-stream/tool-call-stream/anthropic";
//   import { AnthropicDeltaStream, ... } from "npm:tool-call-stream/anthropic";
// and `body` is `(await fetch(url, init)).body!`.
import { AnthropicDeltaStream, SSEDecoderStream, ToolCallAccumulatorStream } from "../src/anthropic.ts";

const file = await Deno.open(new URL("./recordings/anthropic-text-then-tool-use.sse", import.meta.url));

const events = file.readable
  .pipeThrough(new SSEDecoderStream()) // bytes -> SSE events
  .pipeThrough(new AnthropicDeltaStream()) // SSE events -> normalized deltas
  .pipeThrough(new ToolCallAccumulatorStream()); // deltas -> accumulated events

for await (const event of events) {
  if (event.type === "tool-call")
    console.log(JSON.stringify({ type: event.type, name: event.name, arguments: event.arguments }));
  else if (event.type === "finish")
    console.log(JSON.stringify({ type: event.type, reason: event.reason, calls: event.toolCalls.length }));
  else console.log(JSON.stringify(event));
}
