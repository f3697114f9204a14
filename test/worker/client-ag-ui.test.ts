// @ag-ui/client against POST /v1/ag-ui, in workerd: `HttpAgent.runAgent` (its `fetch` option
// pointed at the Worker's handler, its event verifier on) for every recording the Worker replays:
// the new assistant message's toolCalls are the calls of `/v1/stream`. In run mode (offline: the
// scripted model) each result is a tool message. Earlier turns reach the provider in its own
// shape, the context as a system message; errors before the stream are RUN_ERROR bodies the
// agent raises; a client that goes away cancels the provider request.
import { HttpAgent, type Message } from "@ag-ui/client";
import { describe, expect, it } from "vitest";
import { agUIRoute } from "../../worker/protocols/ag-ui/route.ts";
import { callIdOf } from "../../worker/protocols/thought-signatures.ts";
import { demoTools } from "../../worker/demo-tools/index.ts";
import { post, referenceCalls, replays, streamCalls, TOOL, workerFetch } from "./client-support.ts";
import {
  eventually,
  FakeUpstream,
  liveOpenAI,
  ManualTimers,
  openAIChunks,
  testEnv,
  weatherCall,
  worker,
} from "./support.ts";

const URL = "http://localhost:8787/v1/ag-ui";
const PROMPT = "What time is it in Tokyo, what is 17% of 230, and how many km is a marathon (26.2 mi)?";
const NOW = Date.UTC(2026, 10, 22, 23, 30);
const user = (content: string): Message => ({ id: "user_1", role: "user", content });

/** Runs an agent against the Worker; its outcome, or the error it raised. */
async function run(options: {
  fetch?: typeof fetch;
  messages?: Message[];
  tools?: unknown[];
  forwardedProps?: unknown;
  headers?: Record<string, string>;
  context?: unknown[];
}) {
  const agent = new HttpAgent({
    url: URL,
    threadId: "thread_1",
    initialMessages: options.messages ?? [],
    headers: options.headers ?? {},
    fetch: options.fetch ?? workerFetch(),
  });
  const runErrors: string[] = [];
  const outcome = await agent
    .runAgent(
      {
        runId: "run_1",
        tools: (options.tools ?? []) as never,
        context: (options.context ?? []) as never,
        forwardedProps: options.forwardedProps,
      },
      { onRunErrorEvent: ({ event }) => void runErrors.push(`${event.code}: ${event.message}`) },
    )
    .then(
      (result) => ({ result, error: undefined }),
      (error: unknown) => ({ result: undefined, error: error as Error & { status?: number; payload?: unknown } }),
    );
  return { agent, runErrors, ...outcome };
}

describe("@ag-ui/client HttpAgent.runAgent against POST /v1/ag-ui, every recording of every provider the Worker serves", () => {
  for (const { provider, recording, prompt, tools } of replays) {
    it(`${provider} (${recording.name}): the new assistant message's toolCalls are the calls of /v1/stream`, async () => {
      const reference = await streamCalls(provider, prompt, tools);
      const expected = referenceCalls(reference.finish);
      const { result, error, runErrors } = await run({
        messages: [user(prompt)],
        tools,
        forwardedProps: { model: `${provider}/test-model` },
      });
      expect([error, runErrors]).toEqual([undefined, []]);
      const assistant = result!.newMessages.filter((message) => message.role === "assistant");
      expect(assistant).toHaveLength(1);
      const calls =
        (assistant[0] as { toolCalls?: { id: string; type: string; function: { name: string; arguments: string } }[] })
          .toolCalls ?? [];
      expect(calls.map((call) => [call.type, call.function.name, call.function.arguments])).toEqual(
        expected.map((call) => ["function", call.name, call.rawArguments]),
      );
      // The provider's own id, before the signature an Interactions call's id carries (thought-signatures.ts).
      calls.forEach((call, i) => expect(callIdOf(call.id, provider)).toBe(expected[i]!.id ?? call.id));
      expect(new Set(calls.map((call) => call.id)).size).toBe(calls.length);
      expect((assistant[0] as { content?: string }).content ?? "").toBe(reference.finish.text);
    });
  }
});

describe("POST /v1/ag-ui in run mode offline: the scripted model, the Worker's tools at the edge", () => {
  const routed = (async (input: RequestInfo | URL, init?: RequestInit) =>
    agUIRoute(
      new Request(input, init),
      testEnv(),
      { fetch: () => Promise.reject(new Error("no network")), timers: new ManualTimers() },
      demoTools({ now: () => NOW }),
    )) as typeof fetch;
  for (const provider of ["openai", "openai-responses", "anthropic", "gemini"]) {
    it(`${provider}: an assistant message with three calls, a tool message per result, then the answer`, async () => {
      const { result, error } = await run({
        fetch: routed,
        messages: [user(PROMPT)],
        forwardedProps: { model: `${provider}/demo`, run: true, tools: ["current_time", "calculate", "convert_units"] },
      });
      expect(error).toBeUndefined();
      const messages = result!.newMessages as {
        role: string;
        content?: string;
        toolCallId?: string;
        toolCalls?: { id: string; function: { name: string } }[];
      }[];
      expect(messages.map((message) => message.role)).toEqual(["assistant", "tool", "tool", "tool", "assistant"]);
      const calls = messages[0]!.toolCalls!;
      expect(calls.map((call) => call.function.name)).toEqual(["current_time", "calculate", "convert_units"]);
      expect(messages.slice(1, 4).map((message) => [message.toolCallId, JSON.parse(message.content!)])).toEqual([
        [
          calls[0]!.id,
          {
            time_zone: "Asia/Tokyo",
            date: "2026-11-23",
            time: "08:30:00",
            weekday: "Monday",
            utc_offset: "+09:00",
            utc: "2026-11-22T23:30:00.000Z",
          },
        ],
        [calls[1]!.id, { result: 39.1 }],
        [calls[2]!.id, { value: 42.1648128, unit: "km", category: "length" }],
      ]);
      expect(messages[4]!.content).toBe(
        "In Asia/Tokyo it is 08:30 on Monday, 2026-11-23 (UTC+09:00). 230 * 17 / 100 = 39.1. 26.2 mi is 42.1648128 km.",
      );
    });
  }
});

describe("POST /v1/ag-ui: earlier turns and the context reach the provider in its own shape", () => {
  it("gemini: toolCalls and tool messages become functionCall and functionResponse parts (names found by id), the context a system instruction", async () => {
    const upstream = new FakeUpstream({ kind: "response", status: 500, body: "" });
    const env = testEnv({ GEMINI_API_KEY: "k", GEMINI_BASE_URL: "https://provider.test/v1beta", CLIENT_TOKEN: "t" });
    const messages: Message[] = [
      { id: "s", role: "system", content: "Be brief." },
      user("Weather in Paris?"),
      {
        id: "a",
        role: "assistant",
        toolCalls: [
          { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
        ],
      },
      { id: "t", role: "tool", toolCallId: "call_1", content: '{"celsius":18}' },
      { id: "r", role: "reasoning", content: "thinking" } as unknown as Message,
      { id: "u2", role: "user", content: [{ type: "text", text: "And Rome?" }] } as unknown as Message,
    ];
    const { error } = await run({
      fetch: workerFetch({ env, upstream }),
      headers: { authorization: "Bearer t" },
      messages,
      context: [{ description: "User's city", value: "Paris" }],
      forwardedProps: { model: "gemini/gemini-2.5-flash" },
    });
    expect(error?.status).toBe(502);
    const body = upstream.requests[0]!.body;
    expect(body["systemInstruction"]).toEqual({ parts: [{ text: "Context:\n- User's city: Paris\n\nBe brief." }] });
    expect(body["contents"]).toEqual([
      { role: "user", parts: [{ text: "Weather in Paris?" }] },
      { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Paris" }, id: "call_1" } }] },
      {
        role: "user",
        parts: [
          { functionResponse: { name: "get_weather", id: "call_1", response: { celsius: 18 } } },
          { text: "And Rome?" },
        ],
      },
    ]);
  });
});

describe("POST /v1/ag-ui: errors before the stream are RUN_ERROR bodies the agent raises", () => {
  const rejected = async (
    options: Parameters<typeof run>[0],
    status: number,
    code: string,
    message: string | RegExp,
  ) => {
    const { error } = await run(options);
    expect(error?.status).toBe(status);
    expect(error?.payload).toEqual({ type: "RUN_ERROR", code, message: expect.stringMatching(message) });
    expect(error?.message.startsWith(`HTTP ${status}: `)).toBe(true);
  };

  it("an unknown provider, malformed messages, a stored file's content, client tools in run mode: 400 naming the field", async () => {
    await rejected(
      { messages: [user("hi")], forwardedProps: { model: "llama/3" } },
      400,
      "unknown_provider",
      /^`forwardedProps.model` names no provider of this Worker/,
    );
    await rejected({ messages: [user("hi")] }, 400, "invalid_request", /^`forwardedProps.model` is required/);
    await rejected(
      {
        messages: [
          {
            id: "x",
            role: "user",
            // Images and documents reach the provider; one stored elsewhere (a `file` source) cannot.
            content: [{ type: "image", source: { type: "file", value: "file-1" } }],
          } as unknown as Message,
        ],
        forwardedProps: { model: "openai/m" },
      },
      400,
      "invalid_request",
      /`messages\[0\]\.content\[0\]\.source\.value` names a stored file/,
    );
    await rejected(
      { messages: [user("hi")], tools: [TOOL], forwardedProps: { model: "openai/m", run: true } },
      400,
      "invalid_request",
      /^In run mode the Worker runs its own tools/,
    );
    await rejected(
      { messages: [user("hi")], forwardedProps: { model: "openai/m", tools: ["calculate"] } },
      400,
      "invalid_request",
      /run mode/,
    );
    await rejected(
      // AG-UI names a tool with any string: the Worker bounds it at 128 characters.
      { messages: [user("hi")], tools: [{ ...TOOL, name: "x".repeat(129) }], forwardedProps: { model: "openai/m" } },
      400,
      "invalid_request",
      /field: tools\[0\]\.name/,
    );
  });

  it("bad JSON, a missing threadId, a role AG-UI does not have and a result without its call's id (sent raw: the agent itself refuses to send such messages) are 400 RUN_ERROR JSON", async () => {
    const orphan = await worker().call(
      post("/v1/ag-ui", {
        threadId: "t",
        runId: "r",
        messages: [{ id: "x", role: "tool", content: "r" }],
        forwardedProps: { model: "openai/m" },
      }),
      testEnv(),
    );
    expect([orphan.status, await orphan.json()]).toEqual([
      400,
      {
        type: "RUN_ERROR",
        message: "`messages[0].toolCallId` must be a non-empty string: the id of the call.",
        code: "invalid_request",
      },
    ]);
    const robot = await worker().call(
      post("/v1/ag-ui", {
        threadId: "t",
        runId: "r",
        messages: [{ id: "x", role: "robot", content: "?" }],
        forwardedProps: { model: "openai/m" },
      }),
      testEnv(),
    );
    expect([robot.status, await robot.json()]).toEqual([
      400,
      { type: "RUN_ERROR", message: expect.stringMatching(/field: messages\[0\]\.role\)$/), code: "invalid_request" },
    ]);
    const badJson = await worker().call(post("/v1/ag-ui", undefined, { raw: "[" }), testEnv());
    expect([badJson.status, await badJson.json()]).toEqual([
      400,
      { type: "RUN_ERROR", message: "The request body is not valid JSON.", code: "invalid_json" },
    ]);
    const noThread = await worker().call(
      post("/v1/ag-ui", { runId: "r", messages: [], forwardedProps: { model: "openai/m" } }),
      testEnv(),
    );
    expect([noThread.status, await noThread.json()]).toEqual([
      400,
      { type: "RUN_ERROR", message: "`threadId` must be a string.", code: "invalid_request" },
    ]);
  });

  it("the checks of /v1/stream: 401 without the token (the agent's headers carry it), 413 past MAX_BODY_BYTES", async () => {
    const env = testEnv({ CLIENT_TOKEN: "t" });
    await rejected(
      { fetch: workerFetch({ env }), messages: [user("hi")], forwardedProps: { model: "openai/m" } },
      401,
      "unauthorized",
      /Bearer/,
    );
    const { error } = await run({
      fetch: workerFetch({ env }),
      headers: { authorization: "Bearer t" },
      messages: [user("What is the capital of the UK?")],
      forwardedProps: { model: "openai/m" },
    });
    expect(error).toBeUndefined();
    await rejected(
      {
        fetch: workerFetch({ env: testEnv({ MAX_BODY_BYTES: "300" }) }),
        messages: [user("x".repeat(400))],
        forwardedProps: { model: "openai/m" },
      },
      413,
      "body_too_large",
      /exceeds/,
    );
  });
});

describe("POST /v1/ag-ui: a client that goes away cancels the provider request", () => {
  const env = testEnv({ ...liveOpenAI, CLIENT_TOKEN: "t" });
  for (const runMode of [false, true]) {
    it(
      runMode ? "in run mode: the loop and the model call in flight" : "one model call: its upstream body is cancelled",
      async () => {
        const upstream = new FakeUpstream({
          kind: "sse",
          chunks: openAIChunks([weatherCall(0, "call_1", '{"city":'), weatherCall(0, "call_1", '"Par')]).slice(0, 2),
          then: "stall",
        });
        const input = {
          threadId: "t",
          runId: "r",
          messages: [user("hi")],
          tools: [],
          context: [],
          state: {},
          forwardedProps: runMode ? { model: "openai/m", run: true, tools: ["calculate"] } : { model: "openai/m" },
        };
        const response = await worker(upstream).call(
          post("/v1/ag-ui", input, { headers: { authorization: "Bearer t" } }),
          env,
        );
        const reader = response.body!.getReader();
        expect(new TextDecoder().decode((await reader.read()).value)).toContain('"type":"RUN_STARTED"');
        await reader.cancel("client went away");
        expect(await eventually(() => upstream.cancelled !== undefined)).toBe(true);
        expect(upstream.requests[0]?.signal.aborted).toBe(true);
      },
    );
  }
});
