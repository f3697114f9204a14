// The Worker in front of Gemini's Interactions API: a fake upstream answers with the streams built
// from the docs' and the SDK's shapes (test/recordings/gemini-interactions/README.md); the Worker
// must send the request the docs describe (POST {base}/interactions, the Gemini key, stream: true,
// the conversation as input steps) and, in run mode, replay the model's turn (its thought
// signature and each call's signature) and the results by call_id on the next request.
import { createParser } from "eventsource-parser";
import { describe, expect, it } from "vitest";
import { joinDeltas, streamToolCalls } from "../../src/index.ts";
import { runRoute } from "../../worker/protocols/tool-call-events/run-route.ts";
import type { RunEvent } from "../../worker/services/tool-loop.ts";
import { demoTools } from "../../worker/demo-tools/index.ts";
import { allFixtures, summarize } from "../support/fixtures.ts";
import { collect, fromChunks } from "../support/streams.ts";
import { FakeUpstream, ManualTimers, readSSE, streamRequest, testEnv, validBody, worker } from "./support.ts";

const documented = (name: string) => {
  const found = allFixtures.find((f) => f.provider === "gemini-interactions" && f.name === name);
  if (!found) throw new Error(`no documented stream ${name}`);
  return found;
};
const key = "AIza-test-0123456789";

describe("POST /v1/stream with provider gemini-interactions", () => {
  it("sends POST {base}/interactions with the key, stream: true and the prompt as a user_input step, and streams the library's events", async () => {
    const fixture = documented("docs-function-call-with-google-search");
    const upstream = new FakeUpstream({ kind: "sse", chunks: [fixture.text] });
    const response = await worker(upstream).call(
      streamRequest(validBody({ provider: "gemini-interactions", model: "gemini-3-flash-preview" }), {
        headers: { authorization: "Bearer t" },
      }),
      testEnv({ GEMINI_API_KEY: key, CLIENT_TOKEN: "t" }),
    );
    expect(response.status).toBe(200);
    const { events } = await readSSE(response);
    const expected = await collect(streamToolCalls(fromChunks([fixture.body]), { provider: "gemini-interactions" }));
    expect(joinDeltas(events)).toEqual(JSON.parse(JSON.stringify(joinDeltas(expected))));
    expect(summarize(events)).toEqual(fixture.expected);

    const [sent] = upstream.requests;
    expect(sent?.url).toBe("https://generativelanguage.googleapis.com/v1beta/interactions");
    expect(sent?.headers.get("x-goog-api-key")).toBe(key);
    expect(sent?.headers.get("api-revision")).toBe("2026-05-20");
    expect(sent?.body).toMatchObject({
      model: "gemini-3-flash-preview",
      stream: true,
      input: [{ type: "user_input", content: [{ type: "text", text: "What is the weather in Paris?" }] }],
      tools: [{ type: "function", name: "get_weather" }],
    });
    expect(sent?.body).not.toHaveProperty("previous_interaction_id");
  });

  it("GEMINI_BASE_URL moves it, as it moves the Gemini provider", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: [documented("docs-text-with-thought").text] });
    const response = await worker(upstream).call(
      streamRequest(validBody({ provider: "gemini-interactions", model: "gemini-3-flash-preview" }), {
        headers: { authorization: "Bearer t" },
      }),
      testEnv({ GEMINI_API_KEY: key, CLIENT_TOKEN: "t", GEMINI_BASE_URL: "https://gateway.example/v1beta/" }),
    );
    await response.body?.cancel();
    expect(upstream.requests[0]?.url).toBe("https://gateway.example/v1beta/interactions");
  });
});

/** An upstream that answers its n-th request with `answers[n]`, keeping each request's body. */
function scripted(answers: readonly string[]) {
  const bodies: Record<string, unknown>[] = [];
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    const request = new Request(url, init);
    bodies.push((await request.json()) as Record<string, unknown>);
    const body = answers[Math.min(bodies.length - 1, answers.length - 1)]!;
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  };
  return { bodies, fetch };
}

const sse = (events: readonly Record<string, unknown>[]): string =>
  events.map((e) => `event: ${String(e["event_type"])}\ndata: ${JSON.stringify(e)}\n\n`).join("") +
  "event: done\ndata: [DONE]\n\n";

describe("POST /v1/run with provider gemini-interactions", () => {
  it("step 2 replays the thought signature, the call with its signature and the result by call_id", async () => {
    const upstream = scripted([
      sse([
        { event_type: "interaction.created", interaction: { id: "v1_a", status: "in_progress" } },
        { event_type: "step.start", index: 0, step: { type: "thought" } },
        { event_type: "step.delta", index: 0, delta: { type: "thought_signature", signature: "dGhvdWdodA==" } },
        { event_type: "step.stop", index: 0 },
        {
          event_type: "step.start",
          index: 1,
          step: { id: "k1x9q2zz", type: "function_call", name: "calculate", arguments: {}, signature: "Y2FsbA==" },
        },
        { event_type: "step.delta", index: 1, delta: { type: "arguments_delta", arguments: '{"expression":' } },
        { event_type: "step.delta", index: 1, delta: { type: "arguments_delta", arguments: '"0.17 * 230"}' } },
        { event_type: "step.stop", index: 1 },
        { event_type: "interaction.completed", interaction: { id: "v1_a", status: "requires_action" } },
      ]),
      sse([
        { event_type: "interaction.created", interaction: { id: "v1_b", status: "in_progress" } },
        { event_type: "step.start", index: 0, step: { type: "model_output" } },
        { event_type: "step.delta", index: 0, delta: { type: "text", text: "17% of 230 is 39.1." } },
        { event_type: "step.stop", index: 0 },
        { event_type: "interaction.completed", interaction: { id: "v1_b", status: "completed" } },
      ]),
    ]);
    const response = await runRoute(
      new Request("http://localhost:8787/v1/run", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer t" },
        body: JSON.stringify({
          provider: "gemini-interactions",
          model: "gemini-3-flash-preview",
          messages: [{ role: "user", content: "What is 17% of 230?" }],
          tools: ["calculate"],
        }),
      }),
      testEnv({ GEMINI_API_KEY: key, CLIENT_TOKEN: "t" }),
      { fetch: upstream.fetch, timers: new ManualTimers() },
      demoTools(),
    );
    const events: RunEvent[] = [];
    createParser({ onEvent: (m) => events.push(JSON.parse(m.data) as RunEvent) }).feed(await response.text());
    expect(events.find((e) => e.type === "tool-result")).toMatchObject({
      id: "k1x9q2zz",
      name: "calculate",
      result: { result: 39.1 },
    });
    expect(events.at(-1)).toEqual({ type: "loop-finish", steps: 2, reason: "no-tool-calls" });
    expect(upstream.bodies).toHaveLength(2);
    expect(upstream.bodies[1]!["input"]).toEqual([
      { type: "user_input", content: [{ type: "text", text: "What is 17% of 230?" }] },
      { type: "thought", signature: "dGhvdWdodA==" },
      {
        type: "function_call",
        id: "k1x9q2zz",
        name: "calculate",
        arguments: { expression: "0.17 * 230" },
        signature: "Y2FsbA==",
      },
      { type: "function_result", call_id: "k1x9q2zz", name: "calculate", result: { result: 39.1 } },
    ]);
  });
});
