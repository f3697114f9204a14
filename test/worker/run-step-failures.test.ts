// A tool loop at the edge (`run: true` on /v1/ui, `forwardedProps.run` on /v1/ag-ui) whose second
// model call fails before the provider answers (a 429, a refused key, a network error): the tool
// ran, but the model never answered its result, so the run failed. Read by the real clients: the
// AI SDK's readUIMessageStream raises the error part, @ag-ui/client's HttpAgent gets RUN_ERROR,
// never RUN_FINISHED; /v1/run says so with `loop-finish` of reason `call-failed`
// (test/worker/run-cancel.test.ts). Nothing of the provider's refusal reaches the client.
import { HttpAgent } from "@ag-ui/client";
import { DefaultChatTransport, readUIMessageStream } from "ai";
import { describe, expect, it } from "vitest";
import { createFetchHandler } from "../../worker/app.ts";
import { chatChunk, ManualTimers, openAIChunks, testEnv } from "./support.ts";

const SECRET = "sk-live-SECRET0123";
const env = testEnv({ CLIENT_TOKEN: "t", OPENAI_API_KEY: SECRET, OPENAI_BASE_URL: "https://llm.internal/v1" });
const base = "http://localhost:8787";
const auth = { authorization: "Bearer t" };
/** Step 1: a call to the Worker's `calculate`. */
const calculate = openAIChunks([
  chatChunk({
    tool_calls: [
      { index: 0, id: "c1", type: "function", function: { name: "calculate", arguments: '{"expression":"2+2"}' } },
    ],
  }),
  chatChunk({}, "tool_calls"),
]).join("");

const FAILURES: { label: string; answer: () => Response }[] = [
  {
    label: "a 429 with Retry-After",
    answer: () =>
      new Response(`{"error":{"message":"Rate limit ${SECRET}"}}`, { status: 429, headers: { "retry-after": "5" } }),
  },
  { label: "a 401", answer: () => new Response(`{"error":{"message":"Incorrect key ${SECRET}"}}`, { status: 401 }) },
  {
    label: "a network error",
    answer: () => {
      throw new TypeError("Network connection lost to llm.internal.");
    },
  },
];

/** A client `fetch` to the Worker, whose provider answers step 1 with the call and step 2 with `second`. */
function clientFetch(second: () => Response): { fetch: typeof fetch; calls: () => number } {
  let calls = 0;
  const upstream = async (url: string, init: RequestInit): Promise<Response> => {
    const request = new Request(url, init);
    await request.text();
    if (calls++ === 0) return new Response(calculate, { headers: { "content-type": "text/event-stream" } });
    return second();
  };
  const handler = createFetchHandler({ fetch: upstream, timers: new ManualTimers() });
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) =>
    handler(new Request(input, init), env)) as typeof globalThis.fetch;
  return { fetch, calls: () => calls };
}

describe.each(FAILURES)("run mode, step 2's model call failing with $label", ({ answer }) => {
  it("/v1/ui (DefaultChatTransport + readUIMessageStream): the tool's output, then an error", async () => {
    const { fetch, calls } = clientFetch(answer);
    const transport = new DefaultChatTransport({
      api: `${base}/v1/ui`,
      fetch,
      headers: auth,
      body: { model: "openai/gpt-x", run: true, tools: ["calculate"] },
    });
    const chunks = await transport.sendMessages({
      chatId: "chat_1",
      messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "What is 2+2?" }] }],
      abortSignal: undefined,
      trigger: "submit-message",
      messageId: undefined,
    });
    const errors: string[] = [];
    let outputs: unknown[] = [];
    for await (const message of readUIMessageStream({ stream: chunks, onError: (e) => errors.push(String(e)) }))
      outputs = message.parts.flatMap((part) => ("output" in part ? [part.output] : []));
    expect(calls()).toBe(2);
    expect(outputs).toEqual([{ result: 4 }]);
    expect(errors).toEqual([expect.stringContaining("step 2")]);
    expect(errors.join()).not.toMatch(/SECRET|llm\.internal/);
  });

  it("/v1/ag-ui (HttpAgent): the tool's result, then RUN_ERROR, never RUN_FINISHED", async () => {
    const { fetch, calls } = clientFetch(answer);
    const agent = new HttpAgent({ url: `${base}/v1/ag-ui`, threadId: "t1", headers: auth, fetch });
    agent.addMessage({ id: "m1", role: "user", content: "What is 2+2?" });
    const seen: string[] = [];
    await agent.runAgent(
      { runId: "r1", forwardedProps: { model: "openai/gpt-x", run: true, tools: ["calculate"] } },
      {
        onToolCallResultEvent: ({ event }) => void seen.push(`result ${event.content}`),
        onRunErrorEvent: ({ event }) => void seen.push(`error ${event.code}: ${event.message}`),
        onRunFinishedEvent: () => void seen.push("finished"),
      },
    );
    expect(calls()).toBe(2);
    expect(seen).toEqual(['result {"result":4}', expect.stringMatching(/^error stream-failed: .*step 2/)]);
    expect(seen.join()).not.toMatch(/SECRET|llm\.internal/);
  });
});
