// An OpenAI-compatible server's error chunk mid-stream, then a connection held open: no `[DONE]`,
// no close (a proxy that keeps it, a server whose worker hung after it reported). Every route and
// client protocol answers at the error, at once, in its own error shape, with what came before it
// and the half call never given as a call, and the provider request is cancelled; the fake's clock
// is never moved, so a wait for the idle timeout is a hang here. The shapes are the servers' own:
// vLLM's `{"error": ErrorInfo}` (and, before `ErrorInfo`, the error object alone, `object: "error"`),
// LiteLLM's proxy's `{"error": {...}}`, OpenRouter's mid-stream error (`error` beside `choices`, a
// `finish_reason: "error"`) and Groq's `event: error`.
import { describe, expect, it } from "vitest";
import { post } from "./client-support.ts";
import { endpoints } from "./endpoint-bodies.ts";
import { chatChunk, eventually, FakeUpstream, liveOpenAI, testEnv, weatherCall, worker } from "./support.ts";

const env = testEnv({ ...liveOpenAI, CLIENT_TOKEN: "t" });

const ERRORS: Record<string, string> = {
  "vLLM (ErrorInfo)":
    'data: {"error": {"message": "The engine died.", "type": "InternalServerError", "param": null, "code": 500}}\n\n',
  "vLLM (the error object alone)":
    'data: {"object": "error", "message": "The engine died.", "type": "InternalServerError", "param": null, "code": 500}\n\n',
  "LiteLLM's proxy":
    'data: {"error": {"message": "litellm.APIConnectionError: The engine died.", "type": null, "param": null, "code": "500"}}\n\n',
  OpenRouter:
    'data: {"id":"cmpl-abc123","object":"chat.completion.chunk","created":1234567890,"model":"gpt-4o-mini","provider":"openai","error":{"code":"server_error","message":"The engine died."},"choices":[{"index":0,"delta":{"content":""},"finish_reason":"error"}]}\n\n',
  "Groq (event: error)":
    'event: error\ndata: {"error":{"message":"The engine died.","type":"internal_server_error"}}\n\n',
};

/** Some text and half a call, then `error`, then nothing: the connection stays open. */
const failing = (error: string) =>
  new FakeUpstream({
    kind: "sse",
    chunks: [
      `data: ${JSON.stringify(chatChunk({ content: "Checking " }))}\n\n`,
      `data: ${JSON.stringify(weatherCall(0, "call_1", '{"city":"Pa'))}\n\n`,
      error,
    ],
    then: "stall",
  });

/** The answer of `name` (streamed where the route streams on request), read to its end if it ends. */
async function answer(name: string, upstream: FakeUpstream) {
  const endpoint = endpoints[name]!;
  const body = endpoint.valid();
  if (["chat", "messages", "responses"].includes(name)) body.stream = true;
  const response = await worker(upstream).call(
    post(endpoint.path, body, { headers: { authorization: "Bearer t" } }),
    env,
  );
  let text: string | undefined;
  void response.text().then((read) => (text = read));
  const ended = await eventually(() => text !== undefined, 20_000);
  return { ended, text: text ?? "", cancelled: await eventually(() => upstream.cancelled !== undefined, 20_000) };
}

/** Each route's own error, as its clients read it. */
const ERROR_SHAPES: Record<string, string> = {
  stream: '"code":"provider-error"',
  run: '"code":"provider-error"',
  chat: '"code":"provider-error"',
  messages: "event: error",
  responses: '"type":"response.failed"',
  ui: '"type":"error"',
  agui: '"type":"RUN_ERROR"',
};

for (const [server, error] of Object.entries(ERRORS)) {
  describe(`${server}'s error chunk, then a connection held open`, () => {
    for (const [name, shape] of Object.entries(ERROR_SHAPES)) {
      it(`${endpoints[name]!.path}: ends at the error, in its own shape, the provider request cancelled`, async () => {
        const { ended, text, cancelled } = await answer(name, failing(error));
        expect(ended).toBe(true);
        expect(cancelled).toBe(true);
        expect(text).toContain("Checking ");
        expect(text).toContain(shape);
        // Nothing of the server's own words, and the half call never given as a call.
        expect(text).not.toContain("The engine died.");
        expect(text).not.toMatch(/"type":"tool-call"|tool-input-available|TOOL_CALL_END|"finish_reason":"tool_calls"/);
      });
    }
  });
}
