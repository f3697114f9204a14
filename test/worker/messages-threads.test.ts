// Anthropic's message threads through /v1/messages: @anthropic-ai/sdk's tool runner and threads send
// `thread` and then only each turn's new messages. The Worker keeps no thread, and answers a
// continued one as Anthropic answers a lost one (404 `thread_not_found`), on which the SDK sends the
// whole conversation again: the runner and the thread go on.
import Anthropic from "@anthropic-ai/sdk";
import { betaTool } from "@anthropic-ai/sdk/helpers/beta/json-schema";
import { ThreadNotFoundError } from "@anthropic-ai/sdk/resources/messages";
import { describe, expect, it } from "vitest";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, liveOpenAI, testEnv, worker } from "./support.ts";

/** The SDK against the Worker offline, each request body kept in `sent`. */
function client(sent: { thread?: { type: string } }[]): Anthropic {
  const send = workerFetch();
  return new Anthropic({
    baseURL: "http://localhost:8787",
    apiKey: "offline",
    maxRetries: 0,
    fetch: ((input: RequestInfo | URL, init?: RequestInit) => {
      sent.push(JSON.parse(String(init?.body)));
      return send(input, init);
    }) as typeof fetch,
  });
}

const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] } as const;
const user = { role: "user" as const, content: "Weather in Paris?" };

describe("/v1/messages: message threads, which the Worker does not keep", () => {
  it("the SDK's tool runner runs the tool and ends on the answer written from its result", async () => {
    const sent: { thread?: { type: string } }[] = [];
    const runs: unknown[] = [];
    const weather = betaTool({
      name: "get_weather",
      description: "The weather in a city.",
      inputSchema: schema,
      run: (input) => {
        runs.push(input);
        return '{"temp":21}';
      },
    });
    const final = await client(sent).beta.messages.toolRunner({
      model: "claude-sonnet-4-6",
      max_tokens: 256,
      messages: [user],
      tools: [weather],
    });
    expect(runs).toEqual([{ city: "Paris" }]);
    expect(final.stop_reason).toBe("end_turn");
    expect(final.content).toEqual([{ type: "text", text: 'get_weather returned {"temp":21}.' }]);
    // The continuation is refused as a lost thread, then the whole conversation comes under `create`.
    expect(sent.map((body) => body.thread?.type)).toEqual(["create", "continue", "create"]);
  });

  it("a continued thread is Anthropic's 404 thread_not_found, before any provider is asked; create is a whole request", async () => {
    const upstream = new FakeUpstream({ kind: "hang" });
    const env = testEnv({ ...liveOpenAI, CLIENT_TOKEN: "t" });
    const sdk = new Anthropic({
      apiKey: "t",
      baseURL: "http://localhost:8787",
      maxRetries: 0,
      fetch: workerFetch({ env, upstream }),
    });
    const request = { model: "openai/gpt-4o-mini", max_tokens: 64, messages: [user] };
    const thread = { type: "continue", previous_message_id: "msg_1" };
    const lost = await sdk.messages.create({ ...request, thread } as never).catch((error: unknown) => error);
    expect(lost).toBeInstanceOf(ThreadNotFoundError);
    expect((lost as ThreadNotFoundError).status).toBe(404);
    expect((lost as ThreadNotFoundError).message).toContain("keeps no message threads");
    expect(upstream.requests).toHaveLength(0);
    // A `thread` that is neither: a 400 naming the field, as any other field's.
    const call = (body: object) =>
      worker(upstream).call(
        new Request("http://localhost:8787/v1/messages", {
          method: "POST",
          headers: { "x-api-key": "t", "content-type": "application/json" },
          body: JSON.stringify({ ...request, ...body }),
        }),
        env,
      );
    for (const [bad, field] of [
      [{ type: "fork" }, "thread.type"],
      [{ type: "continue" }, "thread.previous_message_id"],
    ] as const) {
      const response = await call({ thread: bad });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain(field);
    }
    expect(upstream.requests).toHaveLength(0);
  });

  it("the SDK's own thread sends two turns, the second replayed whole", async () => {
    const sent: { thread?: { type: string }; messages?: unknown[] }[] = [];
    const thread = client(sent).beta.messages.thread({ model: "claude-sonnet-4-6", max_tokens: 64 });
    await thread.send({ role: "user", content: "hi" });
    const second = await thread.send({ role: "user", content: "and again" });
    expect(second.role).toBe("assistant");
    expect(sent.map((body) => [body.thread?.type, body.messages?.length])).toEqual([
      ["create", 1],
      ["continue", 1],
      ["create", 3],
    ]);
  });
});
