// The AI SDK against POST /v1/ui, in workerd: `DefaultChatTransport` (its `fetch` option pointed
// at the Worker's handler) and `readUIMessageStream` of ai 5.0.53 (strict schemas), 5, 6 and 7,
// for every recording the Worker replays: tool parts with the inputs `/v1/stream` gives, in state
// input-available; in run mode (offline: the scripted model) output-available with what the
// Worker's tools returned, over two steps. Earlier turns' tool parts reach the provider as its
// own calls and results; errors before the stream are the text `useChat` shows; a client that
// goes away cancels the provider request.
import * as ai5strict from "ai-v5-0";
import * as ai5 from "ai-v5";
import * as ai6 from "ai";
import * as ai7 from "ai-v7";
import { describe, expect, it } from "vitest";
import { uiRoute } from "../../worker/protocols/ui-message/route.ts";
import { callIdOf } from "../../worker/protocols/thought-signatures.ts";
import { demoTools } from "../../worker/demo-tools/index.ts";
import { post, referenceCalls, replays, streamCalls, uiAnswer, uiText, workerFetch } from "./client-support.ts";
import {
  chatChunk,
  eventually,
  FakeUpstream,
  liveOpenAI,
  ManualTimers,
  openAIChunks,
  testEnv,
  weatherCall,
  worker,
} from "./support.ts";

type Sdk = typeof ai6;
const versions: [string, Sdk][] = [
  ["ai 5.0.53 (strict schemas)", ai5strict as unknown as Sdk],
  ["ai 5", ai5 as unknown as Sdk],
  ["ai 6", ai6],
  ["ai 7", ai7 as unknown as Sdk],
];
interface ToolPart {
  type: string;
  toolCallId: string;
  state: string;
  input?: unknown;
  output?: unknown;
}
const PROMPT = "What time is it in Tokyo, what is 17% of 230, and how many km is a marathon (26.2 mi)?";
const NOW = Date.UTC(2026, 10, 22, 23, 30);
const userMessage = (text: string): ai6.UIMessage => ({ id: "user_1", role: "user", parts: [{ type: "text", text }] });

/** Sends messages through the SDK's own transport to the Worker and reads the assistant message. */
async function chat(
  sdk: Sdk,
  body: Record<string, unknown>,
  messages: ai6.UIMessage[],
  fetch: typeof globalThis.fetch = workerFetch(),
) {
  const transport = new sdk.DefaultChatTransport({ api: "http://localhost:8787/v1/ui", fetch, body });
  const chunks = await transport.sendMessages({
    chatId: "chat_1",
    messages,
    abortSignal: undefined,
    trigger: "submit-message",
    messageId: undefined,
  });
  const errors: unknown[] = [];
  let message: ai6.UIMessage | undefined;
  for await (const snapshot of sdk.readUIMessageStream({ stream: chunks, onError: (error) => errors.push(error) }))
    message = snapshot;
  const parts = message?.parts ?? [];
  return {
    message,
    errors,
    tools: parts.filter((part) => part.type.startsWith("tool-")) as unknown as ToolPart[],
    text: parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join(""),
  };
}

for (const [name, sdk] of versions) {
  describe(`${name}: DefaultChatTransport + readUIMessageStream against POST /v1/ui`, () => {
    for (const { provider, recording, prompt, tools: declared } of replays) {
      it(`${provider} (${recording.name}): tool parts with the inputs of /v1/stream, input-available`, async () => {
        const reference = await streamCalls(provider, prompt, declared);
        const expected = referenceCalls(reference.finish, true);
        const { tools, text, errors } = await chat(sdk, { model: `${provider}/test-model`, tools: declared }, [
          userMessage(prompt),
        ]);
        expect(errors).toEqual([]);
        expect(tools.map((part) => [part.type, part.state, part.input])).toEqual(
          expected.map((call) => [`tool-${call.name}`, "input-available", call.arguments]),
        );
        // The provider's own id, before the signature an Interactions call's id carries (thought-signatures.ts).
        tools.forEach((part, i) =>
          expect(callIdOf(part.toolCallId, provider)).toBe(expected[i]!.id ?? part.toolCallId),
        );
        expect(new Set(tools.map((part) => part.toolCallId)).size).toBe(tools.length);
        expect(text).toBe(reference.finish.text);
      });
    }
  });
}

describe("POST /v1/ui in run mode offline: the scripted model, the Worker's tools at the edge", () => {
  const tools = demoTools({ now: () => NOW });
  const routed: typeof fetch = (async (input: RequestInfo | URL, init?: RequestInit) =>
    uiRoute(
      new Request(input, init),
      testEnv(),
      { fetch: () => Promise.reject(new Error("no network")), timers: new ManualTimers() },
      tools,
    )) as typeof fetch;
  for (const provider of ["openai", "openai-responses", "anthropic", "gemini"]) {
    it(`${provider}: three tool parts output-available with what the tools returned, then the answer written from them`, async () => {
      const {
        tools: parts,
        text,
        message,
      } = await chat(
        ai6,
        { model: `${provider}/demo`, run: true, tools: ["current_time", "calculate", "convert_units"] },
        [userMessage(PROMPT)],
        routed,
      );
      expect(parts.map((part) => [part.type, part.state, part.input, part.output])).toEqual([
        [
          "tool-current_time",
          "output-available",
          { time_zone: "Asia/Tokyo" },
          {
            time_zone: "Asia/Tokyo",
            date: "2026-11-23",
            time: "08:30:00",
            weekday: "Monday",
            utc_offset: "+09:00",
            utc: "2026-11-22T23:30:00.000Z",
          },
        ],
        ["tool-calculate", "output-available", { expression: "230 * 17 / 100" }, { result: 39.1 }],
        [
          "tool-convert_units",
          "output-available",
          { value: 26.2, from: "mi", to: "km" },
          { value: 42.1648128, unit: "km", category: "length" },
        ],
      ]);
      expect(text).toBe(
        "In Asia/Tokyo it is 08:30 on Monday, 2026-11-23 (UTC+09:00). 230 * 17 / 100 = 39.1. 26.2 mi is 42.1648128 km.",
      );
      expect(message?.parts.filter((part) => part.type === "step-start")).toHaveLength(2);
    });
  }

  it("ai 5.0.53's strict schemas read a run too", async () => {
    const { tools: parts, errors } = await chat(
      ai5strict as unknown as Sdk,
      { model: "anthropic/demo", run: true, tools: ["calculate"] },
      [userMessage(PROMPT)],
      routed,
    );
    expect(errors).toEqual([]);
    expect(parts.map((part) => [part.type, part.state, part.output])).toEqual([
      ["tool-calculate", "output-available", { result: 39.1 }],
    ]);
  });
});

describe("POST /v1/ui: earlier turns' tool parts become the provider's calls and results", () => {
  const history: ai6.UIMessage[] = [
    userMessage("Weather in Paris and Rome?"),
    {
      id: "assistant_1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        { type: "text", text: "Checking." },
        {
          type: "tool-get_weather",
          toolCallId: "call_1",
          state: "output-available",
          input: { city: "Paris" },
          output: { celsius: 18 },
        },
        {
          type: "tool-get_weather",
          toolCallId: "call_2",
          state: "output-error",
          input: { city: "Rome" },
          errorText: "Weather service down.",
        },
        { type: "tool-get_weather", toolCallId: "call_3", state: "input-available", input: { city: "Oslo" } },
        {
          type: "dynamic-tool",
          toolName: "web_search",
          toolCallId: "call_4",
          state: "output-available",
          input: { q: "rome" },
          output: "sunny",
        },
        { type: "step-start" },
        { type: "reasoning", text: "Both done." },
        { type: "text", text: "Paris 18 °C." },
      ] as ai6.UIMessage["parts"],
    },
    userMessage("And tomorrow?"),
  ];

  it("openai: one assistant message per step with its tool_calls, a tool message per outcome, calls without one left out", async () => {
    const upstream = new FakeUpstream({
      kind: "sse",
      chunks: openAIChunks([chatChunk({ content: "Sunny." }), chatChunk({}, "stop")]),
    });
    const env = testEnv({ ...liveOpenAI, CLIENT_TOKEN: "t" });
    const answer = await uiAnswer(ai6, workerFetch({ env, upstream }), { model: "openai/gpt-4o-mini" }, history);
    expect(uiText(answer)).toBe("Sunny.");
    expect(upstream.requests[0]!.body["messages"]).toEqual([
      { role: "user", content: "Weather in Paris and Rome?" },
      {
        role: "assistant",
        content: "Checking.",
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
          { id: "call_2", type: "function", function: { name: "get_weather", arguments: '{"city":"Rome"}' } },
          { id: "call_4", type: "function", function: { name: "web_search", arguments: '{"q":"rome"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: '{"celsius":18}' },
      { role: "tool", tool_call_id: "call_2", content: "Weather service down." },
      { role: "tool", tool_call_id: "call_4", content: "sunny" },
      { role: "assistant", content: "Paris 18 °C." },
      { role: "user", content: "And tomorrow?" },
    ]);
  });

  it("anthropic: the same turn as tool_use blocks and one user turn of tool_result blocks", async () => {
    // The provider's answer does not matter here, only what it was sent.
    const upstream = new FakeUpstream({ kind: "response", status: 500, body: "" });
    const env = testEnv({ ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "https://provider.test/v1", CLIENT_TOKEN: "t" });
    const response = await worker(upstream).call(
      post(
        "/v1/ui",
        { model: "anthropic/claude-sonnet-4-5", messages: history },
        { headers: { authorization: "Bearer t" } },
      ),
      env,
    );
    expect([response.status, response.headers.get("x-error-code")]).toEqual([502, "upstream_error"]);
    const messages = upstream.requests[0]!.body["messages"] as { role: string; content: { type: string }[] }[];
    expect(messages.map((m) => [m.role, m.content.map((block) => block.type)])).toEqual([
      ["user", ["text"]],
      ["assistant", ["text", "tool_use", "tool_use", "tool_use"]],
      ["user", ["tool_result", "tool_result", "tool_result"]],
      ["assistant", ["text"]],
      ["user", ["text"]],
    ]);
  });

  it("when the last message is the assistant's (a tool output was just added), the answer continues it: start carries its id", async () => {
    const body = { model: "openai/gpt-4o-mini", messages: history.slice(0, 2) };
    const response = await worker().call(post("/v1/ui", body), testEnv());
    expect(response.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    expect((await response.text()).startsWith('data: {"type":"start","messageId":"assistant_1"}\n\n')).toBe(true);
  });
});

describe("POST /v1/ui: errors before the stream are the text useChat shows", () => {
  const send = (body: unknown, init: Parameters<typeof post>[2] = {}, env = testEnv()) =>
    worker().call(post("/v1/ui", body, init), env);
  const valid = { id: "c", trigger: "submit-message", model: "openai/gpt-4o-mini", messages: [userMessage("hi")] };
  const expectText = async (response: Response, status: number, code: string, text: string | RegExp) => {
    expect([response.status, response.headers.get("content-type"), response.headers.get("x-error-code")]).toEqual([
      status,
      "text/plain; charset=utf-8",
      code,
    ]);
    const body = await response.text();
    if (typeof text === "string") expect(body).toBe(text);
    else expect(body).toMatch(text);
  };

  it("bad JSON, an unknown provider, malformed messages and parts, an unknown field: 400 with a message naming the field", async () => {
    await expectText(await send(undefined, { raw: "{" }), 400, "invalid_json", "The request body is not valid JSON.");
    await expectText(
      await send({ ...valid, model: "cohere-ish/command" }),
      400,
      "unknown_provider",
      /^`model` names no provider of this Worker: use <provider>\/<model>, the provider one of: openai, openai-responses, anthropic, gemini/,
    );
    await expectText(await send({ ...valid, model: undefined }), 400, "invalid_request", /^`model` is required/);
    await expectText(
      await send({ ...valid, messages: [{ id: "u", role: "user", content: "hi" }] }),
      400,
      "invalid_request",
      "`messages[0].parts` must be an array.",
    );
    await expectText(
      await send({ ...valid, messages: [{ id: "u", role: "robot", parts: [] }] }),
      400,
      "invalid_request",
      "`role` must be system, user or assistant. (field: messages[0].role)",
    );
    await expectText(
      await send({
        ...valid,
        messages: [
          {
            id: "a",
            role: "assistant",
            parts: [{ type: `tool-${"x".repeat(129)}`, toolCallId: "c", state: "output-available" }],
          },
        ],
      }),
      400,
      "invalid_request",
      /field: messages\[0\]\.parts\[0\]\.type/,
    );
    await expectText(
      await send({
        ...valid,
        messages: [{ id: "a", role: "assistant", parts: [{ type: "tool-f", state: "output-available" }] }],
      }),
      400,
      "invalid_request",
      "`messages[0].parts[0].toolCallId` must be a non-empty string: the id of the call.",
    );
    await expectText(
      await send({ ...valid, messages: [{ id: "u", role: "user", parts: [{ type: "file", url: "data:," }] }] }),
      400,
      "invalid_request",
      /`messages\[0\]\.parts\[0\]\.mediaType` must be a string/,
    );
    await expectText(
      await send({ ...valid, temperatur: 1 }),
      400,
      "unknown_field",
      "The request has a field this API does not know. (field: temperatur)",
    );
    await expectText(await send({ ...valid, run: "yes" }), 400, "invalid_request", /^`run` must be true/);
    await expectText(
      await send({ ...valid, run: true, tools: ["rm_rf"] }),
      400,
      "invalid_request",
      /names a tool this Worker does not have; it has: current_time, calculate, convert_units/,
    );
    await expectText(
      await send({ ...valid, max_steps: 3 }),
      400,
      "invalid_request",
      "`max_steps` applies to run mode only (`run: true`).",
    );
  });

  it("the transport raises the message as its Error, which useChat shows", async () => {
    const transport = new ai6.DefaultChatTransport({
      api: "http://localhost:8787/v1/ui",
      fetch: workerFetch(),
      body: { model: "nope/x" },
    });
    const thrown = await transport
      .sendMessages({
        chatId: "c",
        messages: [userMessage("hi")],
        abortSignal: undefined,
        trigger: "submit-message",
        messageId: undefined,
      })
      .catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).message).toMatch(/^`model` names no provider of this Worker/);
  });

  it("the checks of /v1/stream: 401 without the token, 403 from another origin, 413 past MAX_BODY_BYTES, 405 for GET", async () => {
    await expectText(
      await send(valid, {}, testEnv({ CLIENT_TOKEN: "t" })),
      401,
      "unauthorized",
      "No client token was sent. Send the client token as `Authorization: Bearer <token>`, `x-api-key: <token>` or `api-key: <token>`.",
    );
    await expectText(
      await send(valid, { headers: { origin: "https://evil.example" } }),
      403,
      "origin_not_allowed",
      /CORS allow-list/,
    );
    await expectText(
      await send({ ...valid, messages: [userMessage("x".repeat(400))] }, {}, testEnv({ MAX_BODY_BYTES: "256" })),
      413,
      "body_too_large",
      /exceeds the limit of 256 bytes/,
    );
    const get = await worker().call(new Request("http://localhost:8787/v1/ui"), testEnv());
    expect([get.status, get.headers.get("allow")]).toEqual([405, "POST, OPTIONS"]);
  });

  it("useChat's resume request (GET /v1/ui/<id>/stream) is 204: this Worker keeps no stream to resume", async () => {
    const response = await worker().call(new Request("http://localhost:8787/v1/ui/chat_1/stream"), testEnv());
    expect(response.status).toBe(204);
  });

  it("the resume request's CORS preflight (OPTIONS /v1/ui/<id>/stream) is answered as the other routes' are", async () => {
    const env = testEnv({ CORS_ALLOW_ORIGINS: "https://app.example" });
    const preflight = (origin: string) =>
      worker().call(
        new Request("http://localhost:8787/v1/ui/chat_1/stream", {
          method: "OPTIONS",
          headers: {
            origin,
            "access-control-request-method": "GET",
            "access-control-request-headers": "authorization, x-custom",
          },
        }),
        env,
      );
    const allowed = await preflight("https://app.example");
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(allowed.headers.get("access-control-allow-methods")).toBe("GET, HEAD, OPTIONS");
    expect(allowed.headers.get("access-control-allow-headers")).toBe(
      "authorization, content-type, last-event-id, x-custom",
    );
    const refused = await preflight("https://evil.example");
    expect([
      refused.status,
      refused.headers.get("x-error-code"),
      refused.headers.get("access-control-allow-origin"),
    ]).toEqual([403, "origin_not_allowed", null]);
    const get = await worker().call(
      new Request("http://localhost:8787/v1/ui/chat_1/stream", { headers: { origin: "https://app.example" } }),
      env,
    );
    expect([get.status, get.headers.get("access-control-allow-origin")]).toEqual([204, "https://app.example"]);
    const post = await worker().call(new Request("http://localhost:8787/v1/ui/chat_1/stream", { method: "POST" }), env);
    expect([post.status, post.headers.get("allow")]).toEqual([405, "GET, HEAD, OPTIONS"]);
  });
});

describe("POST /v1/ui: a client that goes away cancels the provider request", () => {
  const env = testEnv({ ...liveOpenAI, CLIENT_TOKEN: "t" });
  for (const run of [false, true]) {
    it(
      run
        ? "in run mode: the loop, and with it the model call in flight"
        : "one model call: its upstream body is cancelled",
      async () => {
        const upstream = new FakeUpstream({
          kind: "sse",
          chunks: openAIChunks([weatherCall(0, "call_1", '{"city":'), weatherCall(0, "call_1", '"Par')]).slice(0, 2),
          then: "stall",
        });
        const body = run
          ? { model: "openai/m", run: true, tools: ["calculate"], messages: [userMessage("hi")] }
          : { model: "openai/m", messages: [userMessage("hi")] };
        const response = await worker(upstream).call(
          post("/v1/ui", body, { headers: { authorization: "Bearer t" } }),
          env,
        );
        const reader = response.body!.getReader();
        expect(new TextDecoder().decode((await reader.read()).value)).toContain('"type":"start"');
        await reader.cancel("client went away");
        expect(await eventually(() => upstream.cancelled !== undefined)).toBe(true);
        expect(upstream.requests[0]?.signal.aborted).toBe(true);
      },
    );
  }
});
