// Anthropic's code-execution `container` through the Worker (issue 34): the container an Anthropic
// upstream names reaches a Messages client natively (`message_delta.delta.container`, and the
// message's `container` without `stream`), as the real `@anthropic-ai/sdk` reads it; the client's
// next request's `container` (an id or `{ id, skills }`) reaches Anthropic as the id; `/v1/stream`
// takes it too; `/v1/run` sends each step the container the step before named. The upstream
// streams are built from the SDK's types (Message.container, RawMessageDeltaEvent.Delta.container),
// as test/providers/anthropic/anthropic-container.cases.ts says.
import Anthropic from "@anthropic-ai/sdk";
import { createParser } from "eventsource-parser";
import { describe, expect, it } from "vitest";
import { runRoute } from "../../worker/protocols/tool-call-events/run-route.ts";
import type { RunEvent } from "../../worker/services/tool-loop.ts";
import { demoTools } from "../../worker/demo-tools/index.ts";
import { anthropicSse } from "./anthropic-blocks.ts";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, ManualTimers, testEnv } from "./support.ts";

const KEYS = { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "https://provider.test/v1", CLIENT_TOKEN: "t" };
const env = testEnv({ ...KEYS, OPENAI_API_KEY: "o", OPENAI_BASE_URL: "https://openai.test/v1" });
const sdk = (upstream: FakeUpstream): Anthropic =>
  new Anthropic({
    baseURL: "http://localhost:8787",
    apiKey: "t",
    fetch: workerFetch({ env, upstream }),
    maxRetries: 0,
  });

const CONTAINER = { id: "container_011CVzJpXqCmE5rnuC", expires_at: "2026-12-02T15:12:09.000000Z", skills: null };

/** A code execution turn whose code called `calculate`: the container comes in the message_delta. */
const codeTurn = (name = "rollDie", input = '{"player": "p1"}') =>
  anthropicSse(
    { type: "message_start", message: { id: "m", content: [], container: null, usage: { input_tokens: 9 } } },
    { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_1", name, input: {} } },
    { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: input } },
    { type: "content_block_stop", index: 0 },
    {
      type: "message_delta",
      delta: { stop_reason: "tool_use", stop_sequence: null, container: CONTAINER },
      usage: { output_tokens: 12 },
    },
    { type: "message_stop" },
  );
const TOOLS = [{ name: "rollDie", input_schema: { type: "object" as const, properties: {} } }];

describe("/v1/messages and Anthropic's code-execution container", () => {
  it("the SDK's streamed message has the container the upstream named", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: codeTurn() });
    const message = await sdk(upstream)
      .messages.stream({
        model: "anthropic/claude-x",
        max_tokens: 1024,
        tools: TOOLS,
        messages: [{ role: "user", content: "Roll." }],
      })
      .finalMessage();
    expect(message.stop_reason).toBe("tool_use");
    expect(message.container).toEqual({ id: CONTAINER.id, expires_at: CONTAINER.expires_at });
  });

  it("the non-streaming message has it too", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: codeTurn() });
    const message = await sdk(upstream).messages.create({
      model: "anthropic/claude-x",
      max_tokens: 1024,
      tools: TOOLS,
      messages: [{ role: "user", content: "Roll." }],
    });
    expect(message.container).toEqual({ id: CONTAINER.id, expires_at: CONTAINER.expires_at });
  });

  it("the next request's container, as an id or as { id, skills }, reaches Anthropic as the id", async () => {
    for (const container of [CONTAINER.id, { id: CONTAINER.id, skills: [] }]) {
      const upstream = new FakeUpstream({ kind: "sse", chunks: codeTurn() });
      await sdk(upstream)
        .messages.stream({
          model: "anthropic/claude-x",
          max_tokens: 1024,
          container,
          tools: TOOLS,
          messages: [{ role: "user", content: "Roll again." }],
        })
        .finalMessage();
      expect(upstream.requests[0]!.body).toMatchObject({ container: CONTAINER.id });
    }
  });

  it("no container, or a null one, sends none; another provider is sent none", async () => {
    for (const [model, container] of [
      ["anthropic/claude-x", null],
      ["openai/gpt-x", CONTAINER.id],
    ] as const) {
      const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
      await sdk(upstream)
        .messages.create({ model, max_tokens: 64, container, messages: [{ role: "user", content: "Hi" }] })
        .catch(() => undefined);
      expect(upstream.requests[0]!.body).not.toHaveProperty("container");
    }
  });

  it("a container that is no id is a 400 naming it, in Anthropic's shape", async () => {
    const upstream = new FakeUpstream({ kind: "hang" });
    for (const [container, field] of [
      [42, "container"],
      [{ id: 7 }, "container.id"],
      ["bad id!", "container"],
    ] as const) {
      const error = await sdk(upstream)
        .messages.create({
          model: "anthropic/claude-x",
          max_tokens: 64,
          container: container as unknown as string,
          messages: [{ role: "user", content: "Hi" }],
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      expect((error as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({
        type: "error",
        error: { type: "invalid_request_error" },
      });
      expect(JSON.stringify((error as InstanceType<typeof Anthropic.BadRequestError>).error)).toContain(field);
    }
    expect(upstream.requests).toHaveLength(0);
  });
});

describe("/v1/stream and /v1/run with Anthropic's container", () => {
  it("/v1/stream sends `container` to Anthropic, and its finish event names the container", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: codeTurn() });
    const response = await workerFetch({ env, upstream })("http://localhost:8787/v1/stream", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer t" },
      body: JSON.stringify({
        provider: "anthropic",
        model: "claude-x",
        container: CONTAINER.id,
        messages: [{ role: "user", content: "Roll." }],
        tools: [{ name: "rollDie", parameters: { type: "object" } }],
      }),
    });
    const text = await response.text();
    expect(upstream.requests[0]!.body).toMatchObject({ container: CONTAINER.id });
    const finish = text
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => JSON.parse(line.slice(6)) as { type: string; container?: unknown })
      .find((event) => event.type === "finish");
    expect(finish?.container).toEqual({ id: CONTAINER.id, expiresAt: CONTAINER.expires_at });
  });

  it("/v1/run sends step 2 the container step 1's answer named", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: codeTurn("calculate", '{"expression": "6 * 7"}') });
    const requests: unknown[] = [];
    const done = anthropicSse(
      { type: "message_start", message: { id: "m2", content: [], usage: { input_tokens: 9 } } },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "42." } },
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 2 } },
      { type: "message_stop" },
    );
    const fetch = async (url: string, init: RequestInit): Promise<Response> => {
      const request = new Request(url, init);
      requests.push(await request.clone().json());
      return requests.length === 1
        ? upstream.fetch(url, init)
        : new Response(done.join(""), { headers: { "content-type": "text/event-stream" } });
    };
    const response = await runRoute(
      new Request("http://localhost:8787/v1/run", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer t" },
        body: JSON.stringify({
          provider: "anthropic",
          model: "claude-x",
          messages: [{ role: "user", content: "6 * 7?" }],
          tools: ["calculate"],
        }),
      }),
      testEnv(KEYS),
      { fetch, timers: new ManualTimers() },
      demoTools(),
    );
    const events: RunEvent[] = [];
    createParser({ onEvent: (m) => events.push(JSON.parse(m.data) as RunEvent) }).feed(await response.text());
    expect(events.at(-1)).toEqual({ type: "loop-finish", steps: 2, reason: "no-tool-calls" });
    expect(requests).toHaveLength(2);
    expect(requests[0]).not.toHaveProperty("container");
    expect(requests[1]).toMatchObject({ container: CONTAINER.id });
  });
});
