// The next request after a turn with tool calls (docs/tools.md): the assistant turn from the
// `finish` event, then one result per call, each `{ call, output, isError? }`, in the provider's
// own shape. Run `npm run build` once, then `./node_modules/.bin/node examples/next-turn.ts`.
import { openAsBlob } from "node:fs";
import { assistantMessage, streamToolCalls, type ToolResult, toolResultMessages } from "tool-call-stream";

const recording = new URL("./recordings/openai-chat-parallel-tool-calls.sse", import.meta.url);
const response = new Response(await openAsBlob(recording)); // in an app: await fetch(url, init)

const messages: unknown[] = [{ role: "user", content: "Is there a Tigers game today, and the weather in Detroit?" }];
for await (const event of streamToolCalls(response, { provider: "openai" })) {
  if (event.type !== "finish") continue;
  messages.push(assistantMessage("openai", event));
  const results: ToolResult[] = event.toolCalls.map(
    (call) =>
      call.name === "weather"
        ? { call, output: { city: "Detroit", celsius: 11 } } // any JSON value, or text
        : { call, output: "The search service is down.", isError: true }, // a failure the model reads
  );
  messages.push(...toolResultMessages("openai", results));
}
console.log(JSON.stringify(messages.slice(1), null, 1));
