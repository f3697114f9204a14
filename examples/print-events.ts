// Prints the accumulated events of a recorded OpenAI stream: `./node_modules/.bin/node
// examples/print-events.ts` (the Node 24 of the dev dependencies, which runs TypeScript).
import { OpenAIChatDeltaStream, SSEDecoderStream, ToolCallAccumulatorStream } from "../src/index.ts";

const recording = `${[
  `data: {"choices":[{"index":0,"delta":{"content":"Checking."}}]}`,
  `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":""}}]}}]}`,
  `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\\"city\\": \\"杭"}}]}}]}`,
  `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"州\\"}"}}]}}]}`,
  `data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`,
  `data: [DONE]`,
].join("\n\n")}\n\n`;
const body = new Response(recording).body!; // in an app: (await fetch(url, init)).body!

const events = body
  .pipeThrough(new SSEDecoderStream()) // bytes -> SSE events
  .pipeThrough(new OpenAIChatDeltaStream()) // SSE events -> normalized deltas
  .pipeThrough(new ToolCallAccumulatorStream()); // deltas -> accumulated events

for await (const event of events) {
  if (event.type === "finish") console.log("finish", event.reason, event.toolCalls.length, "call(s)");
  else console.log(JSON.stringify(event));
}
