// Failures that real OpenAI-compatible servers send in shapes of their own, through every client
// protocol of the Worker: each must end the answer with the protocol's error, never a success
// that completes the call the failure cut.
import { describe, expect, it } from "vitest";
import { post } from "./client-support.ts";
import { endpoints } from "./endpoint-bodies.ts";
import { chatChunk, FakeUpstream, liveOpenAI, openAIChunks, testEnv, weatherCall, worker } from "./support.ts";

const env = testEnv({ ...liveOpenAI, CLIENT_TOKEN: "t" });

/** Some text and half a call, then what llama.cpp's server sends when a slot fails: an `error:` field, then `[DONE]`. */
const llamaCppFailure = () =>
  new FakeUpstream({
    kind: "sse",
    chunks: [
      ...openAIChunks([chatChunk({ content: "Checking " }), weatherCall(0, "call_1", '{"city":"Pa')]).slice(0, 2),
      'error: {"code":500,"message":"slot 0 failed","type":"server_error"}\n\n',
      "data: [DONE]\n\n",
    ],
  });

/** Some text, then vLLM's `finish_reason: "abort"` (the request was aborted on the server): a finish of reason error. */
const vllmAbort = () =>
  new FakeUpstream({
    kind: "sse",
    chunks: openAIChunks([chatChunk({ content: "Checking " }), chatChunk({}, "abort")]),
  });

async function answer(
  name: string,
  change: (body: Record<string, unknown>) => void = () => {},
  upstream: FakeUpstream = llamaCppFailure(),
) {
  const endpoint = endpoints[name]!;
  const body = endpoint.valid();
  change(body);
  const response = await worker(upstream).call(
    post(endpoint.path, body, { headers: { authorization: "Bearer t" } }),
    env,
  );
  return { response, text: await response.text() };
}

describe("llama.cpp's `error:` field, then `[DONE]`, after half a call", () => {
  for (const name of ["chat", "messages", "responses"]) {
    it(`${endpoints[name]!.path} (not streamed): 502, not a 200 with the half call`, async () => {
      const { response, text } = await answer(name);
      expect(response.status).toBe(502);
      expect(text).toContain("The provider reported an error inside the stream.");
      expect(text).not.toContain("slot 0 failed");
    });
  }

  it("/v1/chat/completions (streamed): the text, then the error chunk, no finish_reason", async () => {
    const { text } = await answer("chat", (body) => (body.stream = true));
    expect(text).toContain('"content":"Checking "');
    expect(text).toContain('"code":"provider-error"');
    expect(text).not.toContain('"finish_reason":"tool_calls"');
  });

  it("/v1/stream: error provider-error and an abort that discards the half call", async () => {
    const { text } = await answer("stream");
    expect(text).toContain('"code":"provider-error"');
    expect(text).toMatch(/"type":"abort","reason":"provider-error","discarded":\[\{"index":0,"id":"call_1"/);
    expect(text).not.toContain("event: finish");
  });

  it("/v1/ui and /v1/ag-ui: the protocol's error, not its finish", async () => {
    const ui = await answer("ui");
    expect(ui.text).toContain('"type":"error"');
    expect(ui.text).not.toContain('"type":"tool-input-available"');
    const agui = await answer("agui");
    expect(agui.text).toContain('"type":"RUN_ERROR"');
    expect(agui.text).not.toContain("RUN_FINISHED");
  });
});

describe("a finish of reason error (vLLM's abort) after some text", () => {
  it("/v1/ui: the text, then an error chunk, not a plain finish", async () => {
    const { text } = await answer("ui", () => {}, vllmAbort());
    expect(text).toContain('"delta":"Checking "');
    expect(text).toContain('{"type":"error","errorText":"The provider ended the response with an error."}');
  });

  it("/v1/ag-ui: the text, then RUN_ERROR, not RUN_FINISHED", async () => {
    const { text } = await answer("agui", () => {}, vllmAbort());
    expect(text).toContain('"delta":"Checking "');
    expect(text).toContain('"type":"RUN_ERROR"');
    expect(text).not.toContain("RUN_FINISHED");
  });
});

describe("a tool loop whose step the provider ends failed after a complete call", () => {
  const failedAfterCall = () =>
    new FakeUpstream({
      kind: "sse",
      chunks: openAIChunks([
        chatChunk({
          tool_calls: [
            {
              index: 0,
              id: "c1",
              type: "function",
              function: { name: "calculate", arguments: '{"expression":"2+2"}' },
            },
          ],
        }),
        chatChunk({}, "abort"),
      ]),
    });
  for (const [name, change] of [
    ["run", () => {}],
    ["ui", (body: Record<string, unknown>) => Object.assign(body, { run: true, tools: ["calculate"] })],
    [
      "agui",
      (body: Record<string, unknown>) =>
        Object.assign(body, {
          tools: [],
          forwardedProps: { model: "openai/gpt-4o-mini", run: true, tools: ["calculate"] },
        }),
    ],
  ] as const) {
    it(`${endpoints[name]!.path}: the loop ends there, no second request to the provider`, async () => {
      const upstream = failedAfterCall();
      const { text } = await answer(name, change, upstream);
      expect(upstream.requests).toHaveLength(1);
      if (name === "run") expect(text).toContain('"type":"loop-finish","steps":1,"reason":"aborted"');
    });
  }
});
