// Tool names through the client protocols, with their real clients: each takes the names its own
// protocol takes (Chat Completions a leading digit, the AI SDK and AG-UI any string), and a provider
// whose rule refuses one (Cohere a `-`, Gemini a leading digit) is sent a short name, on the first
// turn and on the next (the tool, the earlier call and its result, tool_choice), while the client
// reads its own name back, streamed and not.
import { HttpAgent, type Message } from "@ag-ui/client";
import * as ai from "ai";
import OpenAI, { BadRequestError } from "openai";
import { describe, expect, it } from "vitest";
import { uiAnswer, workerFetch } from "./client-support.ts";
import { CITY, COHERE_REFUSED, GEMINI_REFUSED, type RefusedName, sentNames, shortOf } from "./tool-name-support.ts";

/** What the provider got: every name it was sent, and whether the client's name leaked. */
function providerGot(body: unknown, { name }: RefusedName): { names: string[]; leaked: boolean } {
  return { names: sentNames(body), leaked: JSON.stringify(body).includes(name) };
}

describe.each([COHERE_REFUSED, GEMINI_REFUSED])("a name $provider refuses: $name", (refused) => {
  const { provider, name, env, secondTurnNames } = refused;
  const short = shortOf(provider, name);
  const model = `${provider}/m`;

  it("POST /v1/chat/completions (openai-node): the short name is sent, the client's comes back, on both turns", async () => {
    expect(short).toMatch(refused.short);
    const upstream = refused.upstream();
    const client = new OpenAI({
      baseURL: "http://localhost:8787/v1",
      apiKey: "t",
      fetch: workerFetch({ env, upstream }),
      maxRetries: 0,
    });
    const tools = [{ type: "function" as const, function: { name, parameters: CITY } }];
    const first = [{ role: "user" as const, content: "Weather?" }];
    const streamed: string[] = [];
    for await (const chunk of await client.chat.completions.create({ model, messages: first, tools, stream: true }))
      for (const call of chunk.choices[0]?.delta.tool_calls ?? [])
        if (call.function?.name !== undefined) streamed.push(call.function.name);
    expect(streamed).toEqual([name]);
    const whole = await client.chat.completions.create({ model, messages: first, tools });
    const call = whole.choices[0]!.message.tool_calls![0]!;
    expect(call.type === "function" && call.function.name).toBe(name);
    expect(providerGot(upstream.requests[0]!.body, refused)).toEqual({ names: [short], leaked: false });

    await client.chat.completions.create({
      model,
      tools,
      tool_choice: { type: "function", function: { name } },
      messages: [
        ...first,
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: call.id, type: "function", function: { name, arguments: '{"city":"Paris"}' } }],
        },
        { role: "tool", tool_call_id: call.id, content: '{"celsius":18}' },
      ],
    });
    const next = providerGot(upstream.requests[2]!.body, refused);
    expect(next).toEqual({ names: Array(secondTurnNames).fill(short), leaked: false });
  });

  it("POST /v1/ui (the AI SDK's DefaultChatTransport): the tool part is `tool-<name>` on both turns", async () => {
    const upstream = refused.upstream();
    const send = async (messages: ai.UIMessage[], extra: Record<string, unknown> = {}) =>
      (await uiAnswer(
        ai,
        workerFetch({ env, upstream }),
        { model, tools: [{ name, parameters: CITY }], ...extra },
        messages,
      ))!;
    const user: ai.UIMessage = { id: "u1", role: "user", parts: [{ type: "text", text: "Weather?" }] };
    const answer = await send([user]);
    const part = answer.parts.find((entry) => entry.type.startsWith("tool-")) as { type: string; toolCallId: string };
    expect(part.type).toBe(`tool-${name}`);
    expect(providerGot(upstream.requests[0]!.body, refused)).toEqual({ names: [short], leaked: false });

    const done = { ...part, state: "output-available", input: { city: "Paris" }, output: { celsius: 18 } };
    await send([user, { id: "a1", role: "assistant", parts: [done] } as ai.UIMessage], { tool_choice: { name } });
    const next = providerGot(upstream.requests[1]!.body, refused);
    expect(next).toEqual({ names: Array(secondTurnNames).fill(short), leaked: false });
  });

  it("POST /v1/ag-ui (@ag-ui/client HttpAgent): TOOL_CALL_START names the client's tool on both turns", async () => {
    const upstream = refused.upstream();
    const run = async (messages: Message[], forwardedProps: Record<string, unknown> = {}) => {
      const agent = new HttpAgent({
        url: "http://localhost:8787/v1/ag-ui",
        threadId: "thread_1",
        initialMessages: messages,
        headers: { authorization: "Bearer t" },
        fetch: workerFetch({ env, upstream }),
      });
      const tools = [{ name, description: "The weather.", parameters: CITY }];
      return (await agent.runAgent({ runId: "run_1", tools, forwardedProps: { model, ...forwardedProps } }))
        .newMessages;
    };
    const user: Message = { id: "u1", role: "user", content: "Weather?" };
    const answer = await run([user]);
    const calls = answer.flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []) : []));
    expect(calls.map((call) => call.function.name)).toEqual([name]);
    expect(providerGot(upstream.requests[0]!.body, refused)).toEqual({ names: [short], leaked: false });

    const result: Message = { id: "t1", role: "tool", toolCallId: calls[0]!.id, content: '{"celsius":18}' };
    await run([user, ...answer, result], { tool_choice: { name } });
    const next = providerGot(upstream.requests[1]!.body, refused);
    expect(next).toEqual({ names: Array(secondTurnNames).fill(short), leaked: false });
  });
});

describe("each client protocol's own rule", () => {
  it("Chat Completions takes OpenAI's 64 characters and no more; the AI SDK takes a name with spaces, which Cohere gets with _", async () => {
    const upstream = COHERE_REFUSED.upstream();
    const fetch = workerFetch({ env: COHERE_REFUSED.env, upstream });
    const client = new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch, maxRetries: 0 });
    const tooLong = await client.chat.completions
      .create({
        model: "cohere/m",
        messages: [{ role: "user", content: "hi" }],
        tools: [{ type: "function", function: { name: "x".repeat(65), parameters: CITY } }],
      })
      .catch((error: unknown) => error);
    expect(tooLong).toBeInstanceOf(BadRequestError);
    expect((tooLong as BadRequestError).param).toBe("tools[0].function.name");
    const spaced = await fetch("http://localhost:8787/v1/ui", {
      method: "POST",
      headers: { authorization: "Bearer t", "content-type": "application/json" },
      body: JSON.stringify({
        model: "cohere/m",
        messages: [{ id: "u", role: "user", parts: [{ type: "text", text: "hi" }] }],
        tools: [{ name: "weather in Paris", parameters: CITY }],
      }),
    });
    expect(spaced.status).toBe(200);
    await spaced.text();
    expect(sentNames(upstream.requests.at(-1)!.body)).toEqual([shortOf("cohere", "weather in Paris")]);
    expect(shortOf("cohere", "weather in Paris")).toMatch(/^weather_in_Paris_[0-9a-f]{8}$/);
  });
});
