import { describe, expect, it } from "vitest";
import { joinDeltas, streamToolCalls } from "../../src/index.ts";
import { recording, recordingsAvailable, summarize } from "../support/fixtures.ts";
import { collect, fromChunks } from "../support/streams.ts";
import { FakeUpstream, fixtureTools, readSSE, streamRequest, testEnv, validBody, worker } from "./support.ts";

const fixture = recording("openai", "chat-parallel-tool-calls-two-functions");
const key = "sk-test-0123456789abcdef";

describe.skipIf(!recordingsAvailable)("POST /v1/stream with a provider key", () => {
  it("sends the Chat Completions request with the key and streams the library's events, each call's fragments from one network chunk in one frame", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: [fixture.text] });
    const response = await worker(upstream).call(
      streamRequest(validBody({ tools: fixtureTools(fixture) }), {
        headers: { authorization: "Bearer client-secret" },
      }),
      testEnv({ OPENAI_API_KEY: key, CLIENT_TOKEN: "client-secret" }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    const { messages, events } = await readSSE(response);
    const expected = await collect(streamToolCalls(fromChunks([fixture.body])));
    expect(joinDeltas(events)).toEqual(JSON.parse(JSON.stringify(joinDeltas(expected))));
    // The recording came in one chunk: its first message alone, then the rest with each call's fragments in one frame.
    expect(events.length).toBeLessThan(expected.length);
    expect(messages.map((m) => m.event)).toEqual(events.map((e) => e.type));
    expect(messages.map((m) => m.id)).toEqual(events.map((_, i) => String(i)));
    expect(summarize(events)).toEqual(fixture.expected);

    const [sent] = upstream.requests;
    expect(sent?.url).toBe("https://api.openai.com/v1/chat/completions");
    expect(sent?.headers.get("authorization")).toBe(`Bearer ${key}`);
    expect(sent?.body).toMatchObject({
      model: "gpt-4o-mini",
      stream: true,
      messages: [{ role: "user", content: "What is the weather in Paris?" }],
    });
  });

  it("OPENAI_BASE_URL sends the same request to any OpenAI-compatible server", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: [fixture.text] });
    const env = testEnv({ OPENAI_API_KEY: key, CLIENT_TOKEN: "t", OPENAI_BASE_URL: "http://localhost:11434/v1/" });
    const response = await worker(upstream).call(
      streamRequest(validBody({ model: "qwen2.5-coder:7b" }), { headers: { authorization: "Bearer t" } }),
      env,
    );
    expect(response.status).toBe(200);
    await response.body?.cancel();
    expect(upstream.requests[0]?.url).toBe("http://localhost:11434/v1/chat/completions");
    expect(upstream.requests[0]?.body["model"]).toBe("qwen2.5-coder:7b");
  });
});
