// Node: replays a recorded OpenAI Chat Completions stream through the chain and prints each
// accumulated event as one JSON line. Run `npm run build` once, then `node examples/node.mjs`.
// In an app, `body` is `(await fetch(url, init)).body`.
import { openAsBlob } from "node:fs";
import { OpenAIChatDeltaStream, SSEDecoderStream, ToolCallAccumulatorStream } from "tool-call-stream/openai";

const recording = new URL("./recordings/openai-chat-parallel-tool-calls.sse", import.meta.url);
const body = (await openAsBlob(recording)).stream();

const events = body
  .pipeThrough(new SSEDecoderStream()) // bytes -> SSE events
  .pipeThrough(new OpenAIChatDeltaStream()) // SSE events -> normalized deltas
  .pipeThrough(new ToolCallAccumulatorStream()); // deltas -> accumulated events

for await (const event of events) {
  if (event.type === "tool-call")
    console.log(JSON.stringify({ type: event.type, name: event.name, arguments: event.arguments }));
  else if (event.type === "finish")
    console.log(JSON.stringify({ type: event.type, reason: event.reason, calls: event.toolCalls.length }));
  else console.log(JSON.stringify(event));
}
