// The agent loop of docs/tools.md: the model calls to_celsius, the loop runs it and sends the
// result back, and the model answers. Offline, against the Worker's Chat Completions endpoint
// (`npm start` in another terminal; its scripted model calls the request's own tools): run
// `npm run build` once, then `./node_modules/.bin/node examples/tool-loop.ts`. Against OpenAI: set
// OPENAI_BASE_URL to https://api.openai.com/v1 and OPENAI_API_KEY.
import { type RunnableTool, runToolLoop, toolDefinitions } from "tool-call-stream/tools";

const baseURL = process.env.OPENAI_BASE_URL ?? "http://localhost:8787/v1";
const key = process.env.OPENAI_API_KEY;
const headers = { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) };

const tools: Record<string, RunnableTool> = {
  to_celsius: {
    description: "Converts a temperature in degrees Fahrenheit to degrees Celsius.",
    parameters: { type: "object", properties: { fahrenheit: { type: "number" } }, required: ["fahrenheit"] },
    run: (args) => Math.round((((args as { fahrenheit: number }).fahrenheit - 32) * 50) / 9) / 10,
  },
};
const events = runToolLoop({
  provider: "openai",
  messages: [{ role: "user", content: "What is 98.6 °F in Celsius?" }],
  tools,
  call: ({ messages, signal }) =>
    fetch(`${baseURL}/chat/completions`, {
      method: "POST",
      signal,
      headers,
      body: JSON.stringify({ model: "gpt-4o-mini", stream: true, messages, tools: toolDefinitions("openai", tools) }),
    }),
});
for await (const event of events) {
  if (event.type === "tool-call") console.log(event.step, "call", event.name, JSON.stringify(event.arguments));
  if (event.type === "tool-result") console.log(event.step, "result", event.name, event.result);
  if (event.type === "text-delta") process.stdout.write(event.text);
  if (event.type === "error") console.error(event.step, "error", event.error.code, event.error.message); // no Worker: stream-failed
  if (event.type === "loop-finish") console.log(`\n${event.reason} after ${event.steps} steps`);
}
