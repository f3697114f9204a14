// /v1/run with a forced `tool_choice` (a named tool, `required`): the force holds for the first
// step alone, as the OpenAI Agents SDK's `reset_tool_choice` (on by default) resets it to auto after
// a tool call. Sent on every step, it would leave a model that holds to it no way to answer the
// results: each step would call again until `max_steps`. And a loop that ended because the model's
// only calls were of tools its `tool_choice` did not allow says so (`calls-left-out`), not
// `no-tool-calls`, which means the model answered.
import { describe, expect, it } from "vitest";
import { createFetchHandler } from "../../worker/app.ts";
import { anthropicSse, textBlock, toolUseBlock } from "./anthropic-blocks.ts";
import { chatChunk, ManualTimers, openAIChunks, readSSE, testEnv } from "./support.ts";

const env = testEnv({
  CLIENT_TOKEN: "t",
  OPENAI_API_KEY: "k",
  OPENAI_BASE_URL: "https://o.test/v1",
  ANTHROPIC_API_KEY: "k",
  ANTHROPIC_BASE_URL: "https://a.test/v1",
});

/** A call of `name` (arguments `json`), or an answer, in each provider's stream. */
const wire = {
  openai: {
    call: (name: string, json: string) =>
      openAIChunks([
        chatChunk({ tool_calls: [{ index: 0, id: "c1", type: "function", function: { name, arguments: json } }] }),
        chatChunk({}, "tool_calls"),
      ]),
    text: (said: string) => openAIChunks([chatChunk({ content: said }), chatChunk({}, "stop")]),
    forced: (body: Record<string, unknown>) =>
      body["tool_choice"] === "required" || typeof body["tool_choice"] === "object",
  },
  anthropic: {
    call: (name: string, json: string) =>
      anthropicSse(
        { type: "message_start", message: { id: "m", content: [], usage: { input_tokens: 1, output_tokens: 1 } } },
        ...toolUseBlock(0, "toolu_1", name, json),
        { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 1 } },
        { type: "message_stop" },
      ),
    text: (said: string) =>
      anthropicSse(
        { type: "message_start", message: { id: "m", content: [], usage: { input_tokens: 1, output_tokens: 1 } } },
        ...textBlock(0, said),
        { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 1 } },
        { type: "message_stop" },
      ),
    forced: (body: Record<string, unknown>) => {
      const type = (body["tool_choice"] as { type?: string } | undefined)?.type;
      return type === "tool" || type === "any";
    },
  },
};
type Provider = keyof typeof wire;

/** Runs `body` against a model that calls `name` whenever its request forces a call, and answers otherwise. */
async function run(provider: Provider, body: Record<string, unknown>, name = "calculate") {
  const requests: Record<string, unknown>[] = [];
  const upstream = async (url: string, init: RequestInit): Promise<Response> => {
    const request = new Request(url, init);
    const sent = (await request.json()) as Record<string, unknown>;
    requests.push(sent);
    const model = wire[provider];
    const chunks = model.forced(sent) ? model.call(name, '{"expression":"2+2"}') : model.text("It is 4.");
    return new Response(chunks.join(""), { headers: { "content-type": "text/event-stream" } });
  };
  const handler = createFetchHandler({ fetch: upstream, timers: new ManualTimers() });
  const response = await handler(
    new Request("http://localhost:8787/v1/run", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer t" },
      body: JSON.stringify({
        provider,
        model: "m-1",
        messages: [{ role: "user", content: "What is 2+2?" }],
        tools: ["calculate", "current_time"],
        max_steps: 5,
        ...body,
      }),
    }),
    env,
  );
  expect(response.status).toBe(200);
  const { events } = await readSSE(response);
  const finish = events.at(-1) as unknown as { type: string; steps: number; reason: string };
  return { requests, events, finish };
}

describe.each(["openai", "anthropic"] as const)("/v1/run (%s) with a forced tool_choice", (provider) => {
  for (const [label, choice] of [
    ["a named tool", { name: "calculate" }],
    ["required", "required"],
  ] as const) {
    it(`${label}: forced on step 1, auto from step 2, so the model answers the result and the loop ends`, async () => {
      const { requests, finish, events } = await run(provider, { tool_choice: choice });
      expect(requests.map((body) => wire[provider].forced(body))).toEqual([true, false]);
      expect(finish).toMatchObject({ type: "loop-finish", steps: 2, reason: "no-tool-calls" });
      expect(events.filter((event) => (event.type as string) === "tool-result")).toHaveLength(1);
    });
  }

  it("auto and none are sent as given", async () => {
    for (const choice of ["auto", "none"]) {
      const { requests, finish } = await run(provider, { tool_choice: choice });
      expect(requests.map((body) => wire[provider].forced(body))).toEqual([false]);
      expect(finish).toMatchObject({ steps: 1, reason: "no-tool-calls" });
    }
  });

  it("a named tool, the model calling only another: the loop ends with calls-left-out, not no-tool-calls", async () => {
    const { requests, finish, events } = await run(provider, { tool_choice: { name: "calculate" } }, "current_time");
    expect(requests).toHaveLength(1);
    expect(events.some((event) => (event.type as string) === "tool-result")).toBe(false);
    expect(finish).toMatchObject({ type: "loop-finish", steps: 1, reason: "calls-left-out" });
  });
});
