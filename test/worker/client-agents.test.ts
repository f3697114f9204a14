// The agent protocols against the Worker in workerd, the real SDKs' `fetch` pointed at its handler:
// @anthropic-ai/sdk on POST /v1/messages and openai-node on POST /v1/responses, for every recording
// the Worker replays (the calls of /v1/stream for the same request), a second turn with the tool
// results that reaches each provider in its own format, MODEL_ALIASES, x-api-key, the agent body
// limit, errors in each protocol's shape naming the field by its path, and the keep-alive frame.
import { callIdOf } from "../../worker/protocols/thought-signatures.ts";
import Anthropic, { AuthenticationError, BadRequestError, NotFoundError } from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/env.ts";
import { HEARTBEAT_MS, withHeartbeat } from "../../worker/http/heartbeat.ts";
import { upstreamProviders } from "../../worker/upstream/providers/index.ts";
import { recordingChunks } from "../../worker/upstream/replay/recording.ts";
import { post, referenceCalls, replays, streamCalls, TOOL, workerFetch } from "./client-support.ts";
import {
  chatChunk,
  FakeUpstream,
  liveOpenAI,
  ManualTimers,
  openAIChunks,
  settled,
  testEnv,
  worker,
} from "./support.ts";

const anthropic = (options: { apiKey?: string; fetch?: typeof fetch } = {}) =>
  new Anthropic({
    baseURL: "http://localhost:8787",
    apiKey: options.apiKey ?? "anything-on-localhost",
    fetch: options.fetch ?? workerFetch(),
    maxRetries: 0,
  });
const openai = (options: { apiKey?: string; fetch?: typeof fetch } = {}) =>
  new OpenAI({
    baseURL: "http://localhost:8787/v1",
    apiKey: options.apiKey ?? "anything-on-localhost",
    fetch: options.fetch ?? workerFetch(),
    maxRetries: 0,
  });
const messagesTool = {
  name: TOOL.name,
  description: TOOL.description,
  input_schema: { ...TOOL.parameters, type: "object" as const },
};
const responsesTool = { type: "function" as const, strict: false, ...TOOL };

describe("@anthropic-ai/sdk against POST /v1/messages, every recording of every provider", () => {
  for (const { provider, recording, prompt, tools } of replays) {
    it(`${provider} (${recording.name}): stream().finalMessage(), create({stream: true}) and create() give the calls of /v1/stream`, async () => {
      const reference = await streamCalls(provider, prompt, tools);
      const expected = referenceCalls(reference.finish);
      const request = {
        model: `${provider}/test-model`,
        max_tokens: 1024,
        messages: [{ role: "user" as const, content: prompt }],
        tools: tools.map(({ name, description, parameters }) => ({ name, description, input_schema: parameters })),
      };
      const final = await anthropic().messages.stream(request).finalMessage();
      expect(final.model).toBe(`${provider}/test-model`);
      const calls = final.content.flatMap((block) => (block.type === "tool_use" ? [block] : []));
      expect(calls.map((call) => [call.name, call.input])).toEqual(expected.map((call) => [call.name, call.arguments]));
      // A Gemini Interactions call's id carries its signature after the provider's (thought-signatures.ts).
      calls.forEach((call, i) => expect(callIdOf(call.id, provider)).toBe(expected[i]!.id ?? call.id));
      expect(final.stop_reason).toBe(expected.length > 0 ? "tool_use" : final.stop_reason);
      const text = final.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
      expect(text).toBe(reference.finish.text);

      const stream = await anthropic().messages.create({ ...request, stream: true });
      const names: string[] = [];
      for await (const event of stream)
        if (event.type === "content_block_start" && event.content_block.type === "tool_use")
          names.push(event.content_block.name);
      expect(names).toEqual(expected.map((call) => call.name));

      const message = await anthropic().messages.create(request);
      const whole = message.content.flatMap((block) => (block.type === "tool_use" ? [block] : []));
      expect(whole.map((call) => [call.name, call.input])).toEqual(calls.map((call) => [call.name, call.input]));
      expect(message.stop_reason).toBe(final.stop_reason);
    });
  }
});

describe("openai-node against POST /v1/responses, every recording of every provider", () => {
  for (const { provider, recording, prompt, tools } of replays) {
    it(`${provider} (${recording.name}): stream().finalResponse(), create({stream: true}) and create() give the calls of /v1/stream`, async () => {
      const reference = await streamCalls(provider, prompt, tools);
      const expected = referenceCalls(reference.finish);
      const request = {
        model: `${provider}/test-model`,
        input: prompt,
        tools: tools.map((tool) => ({ ...responsesTool, ...tool })),
      };
      const final = await openai().responses.stream(request).finalResponse();
      expect([final.status, final.model]).toEqual(["completed", `${provider}/test-model`]);
      const calls = final.output.flatMap((item) => (item.type === "function_call" ? [item] : []));
      expect(calls.map((call) => [call.name, call.arguments])).toEqual(
        expected.map((call) => [call.name, call.rawArguments]),
      );
      calls.forEach((call, i) => expect(callIdOf(call.call_id, provider)).toBe(expected[i]!.id ?? call.call_id));
      expect(final.output_text).toBe(reference.finish.text);

      const stream = await openai().responses.create({ ...request, stream: true });
      const done: string[] = [];
      for await (const event of stream)
        if (event.type === "response.output_item.done" && event.item.type === "function_call")
          done.push(event.item.name);
      expect(done).toEqual(expected.map((call) => call.name));

      const response = await openai().responses.create(request);
      const whole = response.output.flatMap((item) => (item.type === "function_call" ? [item] : []));
      expect(whole.map((call) => [call.name, call.arguments])).toEqual(
        calls.map((call) => [call.name, call.arguments]),
      );
    });
  }
});

/** Each provider live against a fake upstream that answers with its first recording, and how its request carries a tool result. */
const LIVE: Record<string, { env: Partial<Env>; result: string }> = {
  openai: { env: { OPENAI_API_KEY: "k", OPENAI_BASE_URL: "https://provider.test/v1" }, result: '"role":"tool"' },
  "openai-responses": {
    env: { OPENAI_API_KEY: "k", OPENAI_BASE_URL: "https://provider.test/v1" },
    result: '"type":"function_call_output"',
  },
  anthropic: {
    env: { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "https://provider.test/v1" },
    result: '"type":"tool_result"',
  },
  gemini: {
    env: { GEMINI_API_KEY: "k", GEMINI_BASE_URL: "https://provider.test/v1beta" },
    result: '"functionResponse"',
  },
  bedrock: {
    env: { AWS_ACCESS_KEY_ID: "AKIDEXAMPLE", AWS_SECRET_ACCESS_KEY: "secret", AWS_REGION: "us-west-2" },
    result: '"toolResult"',
  },
  cohere: { env: { COHERE_API_KEY: "k", COHERE_BASE_URL: "https://provider.test/v2" }, result: '"role":"tool"' },
  ollama: { env: { OLLAMA_BASE_URL: "https://provider.test" }, result: '"role":"tool"' },
  "gemini-interactions": {
    env: { GEMINI_API_KEY: "k", GEMINI_BASE_URL: "https://provider.test/v1beta" },
    result: '"type":"function_result"',
  },
};

function liveUpstream(provider: string): FakeUpstream {
  const recording = upstreamProviders[provider as keyof typeof upstreamProviders].recordings[0]!;
  const contentType = recording.contentType ?? "text/event-stream; charset=utf-8";
  return new FakeUpstream({
    kind: "sse",
    chunks: recordingChunks(recording),
    headers: { "content-type": contentType },
  });
}

describe("a second turn with the tool results reaches each provider in its own format", () => {
  for (const provider of Object.keys(upstreamProviders)) {
    const live = LIVE[provider]!;
    it(`${provider}: a Messages tool_result and a Responses function_call_output`, async () => {
      const env = testEnv({ ...live.env, CLIENT_TOKEN: "t" });
      const upstream = liveUpstream(provider);
      await anthropic({ apiKey: "t", fetch: workerFetch({ env, upstream }) }).messages.create({
        model: `${provider}/test-model`,
        max_tokens: 512,
        tools: [messagesTool],
        messages: [
          { role: "user", content: "Look up Paris." },
          {
            role: "assistant",
            content: [{ type: "tool_use", id: "toolu_01", name: "lookup", input: { query: "Paris" } }],
          },
          {
            role: "user",
            content: [
              { type: "tool_result", tool_use_id: "toolu_01", content: [{ type: "text", text: "18 degrees" }] },
              { type: "text", text: "And now?" },
            ],
          },
        ],
      });
      await openai({ apiKey: "t", fetch: workerFetch({ env, upstream }) }).responses.create({
        model: `${provider}/test-model`,
        tools: [responsesTool],
        input: [
          { role: "user", content: [{ type: "input_text", text: "Look up Paris." }] },
          { type: "function_call", call_id: "call_01", name: "lookup", arguments: '{"query":"Paris"}' },
          { type: "function_call_output", call_id: "call_01", output: "18 degrees" },
        ],
      });
      expect(upstream.requests).toHaveLength(2);
      for (const seen of upstream.requests) {
        const body = JSON.stringify(seen.body);
        expect(body).toContain(live.result);
        expect(body).toContain("18 degrees");
        expect(body).toContain("lookup");
      }
    });
  }
});

describe("the agent endpoints: names, keys, limits and errors in each protocol's shape", () => {
  it("MODEL_ALIASES routes a client's own model names (exact, prefix*, *), and x-api-key is the token", async () => {
    const env = testEnv({
      CLIENT_TOKEN: "t",
      MODEL_ALIASES: "claude-sonnet-4-5=anthropic/m,claude-haiku-*=gemini/m,*=openai/gpt-4o-mini",
    });
    const sdk = anthropic({ apiKey: "t", fetch: workerFetch({ env }) });
    for (const model of ["claude-sonnet-4-5", "claude-haiku-4-5-20251001", "gpt-5"]) {
      const message = await sdk.messages.create({ model, max_tokens: 64, messages: [{ role: "user", content: "hi" }] });
      expect(message.model).toBe(model);
    }
    const models = await sdk.models.list();
    // The aliases, and offline (no provider key) the scripted model that serves any name.
    expect(models.data.map((model) => model.id)).toEqual([
      "claude-sonnet-4-5",
      "scripted-model",
      ...Object.keys(upstreamProviders).map((provider) => `${provider}/scripted-model`),
    ]);
    const keyed = anthropic({ apiKey: "t", fetch: workerFetch({ env: { ...env, GEMINI_API_KEY: "g" } }) });
    expect((await keyed.models.list()).data.map((model) => model.id)).toEqual(["claude-sonnet-4-5"]);
    const wrong = await anthropic({ apiKey: "wrong", fetch: workerFetch({ env }) })
      .messages.create({ model: "claude-sonnet-4-5", max_tokens: 64, messages: [{ role: "user", content: "hi" }] })
      .catch((error: unknown) => error);
    expect(wrong).toBeInstanceOf(AuthenticationError);
  });

  it("a name without a provider goes to the protocol's own provider offline or with its key, else is 404 not_found_error saying how to name a model; a bad block is 400 naming its path", async () => {
    const sdk = anthropic();
    const request = { model: "claude-opus-9", max_tokens: 64, messages: [{ role: "user" as const, content: "hi" }] };
    // Offline, any name is served (by the scripted model), under its own name.
    expect((await sdk.messages.create(request)).model).toBe("claude-opus-9");
    // With another provider's key only, the name must be mapped or written <provider>/<model>.
    const keyed = anthropic({
      apiKey: "t",
      fetch: workerFetch({ env: testEnv({ CLIENT_TOKEN: "t", OPENAI_API_KEY: "sk" }) }),
    });
    const missing = await keyed.messages.create(request).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as NotFoundError).message).toContain("<provider>/<model>");
    // With Anthropic's key, the agent's own names go to Anthropic.
    const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
    const live = testEnv({ CLIENT_TOKEN: "t", ANTHROPIC_API_KEY: "sk-ant" });
    const failed = await worker(upstream).call(
      new Request("http://localhost:8787/v1/messages", {
        method: "POST",
        headers: { "x-api-key": "t", "content-type": "application/json" },
        body: JSON.stringify(request),
      }),
      live,
    );
    expect(failed.status).toBe(502);
    expect(upstream.requests[0]!.url).toContain("api.anthropic.com");
    expect((upstream.requests[0]!.body as { model: string }).model).toBe("claude-opus-9");
    const bad = await sdk.messages
      .create({
        model: "openai/m",
        max_tokens: 64,
        messages: [{ role: "user", content: [{ type: "video", source: {} } as never] }],
      })
      .catch((error: unknown) => error);
    expect(bad).toBeInstanceOf(BadRequestError);
    expect((bad as BadRequestError).message).toContain("messages[0].content[0].type");
    // A system message inside the conversation (Claude Code's environment, for a model it does not know) is taken.
    const system = await sdk.messages.create({
      model: "openai/m",
      max_tokens: 64,
      messages: [
        { role: "user", content: "hi" },
        { role: "system", content: [{ type: "text", text: "Be brief." }] } as never,
      ],
    });
    expect(system.type).toBe("message");
    const response = await worker().call(post("/v1/messages/count_tokens", {}), testEnv());
    expect([response.status, ((await response.json()) as { type: string }).type]).toEqual([404, "error"]);
  });

  it("Responses: previous_response_id and built-in tools are 400s naming them; web_search and namespace tools are dropped", async () => {
    const sdk = openai();
    const previous = await sdk.responses
      .create({ model: "openai/m", input: "hi", previous_response_id: "resp_1" })
      .catch((error: unknown) => error);
    expect(previous).toMatchObject({ status: 400, param: "previous_response_id" });
    const builtIn = await sdk.responses
      .create({ model: "openai/m", input: "hi", tools: [{ type: "file_search", vector_store_ids: ["v"] }] })
      .catch((error: unknown) => error);
    expect(builtIn).toMatchObject({ status: 400, param: "tools[0].type" });
    // Codex offers both by default: a web search and a namespace of sub-agent functions.
    const searched = await sdk.responses.create({
      model: "openai/m",
      input: "hi",
      tools: [{ type: "web_search" }, { type: "namespace", name: "multi_agent_v1", tools: [] } as never],
    });
    expect(searched.status).toBe("completed");
  });

  it("Responses: a custom tool goes to the provider as a function of one string, and its call comes back as a custom_tool_call with the text", async () => {
    const patch = "*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch";
    const args = JSON.stringify({ input: patch });
    const upstream = new FakeUpstream({
      kind: "sse",
      chunks: openAIChunks([
        chatChunk({
          tool_calls: [{ index: 0, id: "call_p", function: { name: "apply_patch", arguments: args.slice(0, 9) } }],
        }),
        chatChunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(9) } }] }),
        chatChunk({}, "tool_calls"),
      ]),
    });
    const sdk = openai({
      apiKey: "t",
      fetch: workerFetch({ env: testEnv({ ...liveOpenAI, CLIENT_TOKEN: "t" }), upstream }),
    });
    const final = await sdk.responses
      .stream({
        model: "openai/gpt-4o-mini",
        input: "Add a.txt",
        tools: [{ type: "custom", name: "apply_patch", description: "Apply a patch." }],
      })
      .finalResponse();
    expect(final.output).toMatchObject([
      { type: "custom_tool_call", call_id: "call_p", name: "apply_patch", input: patch },
    ]);
    const sent = upstream.requests[0]!.body as { tools: { function: { name: string; parameters: unknown } }[] };
    expect(sent.tools[0]!.function).toMatchObject({
      name: "apply_patch",
      parameters: { type: "object", properties: { input: { type: "string" } }, required: ["input"] },
    });
    // The next turn sends the call and its output back; the provider sees a function call and a tool message.
    await sdk.responses.create({
      model: "openai/gpt-4o-mini",
      tools: [{ type: "custom", name: "apply_patch" }],
      input: [
        { type: "custom_tool_call", call_id: "call_p", name: "apply_patch", input: patch },
        { type: "custom_tool_call_output", call_id: "call_p", output: "Done." },
      ],
    });
    const next = JSON.stringify(upstream.requests[1]!.body);
    expect(next).toContain(JSON.stringify(JSON.stringify({ input: patch })));
    expect(next).toContain('"role":"tool"');
  });

  it("Gemini's thought signature rides in the call id and reaches Gemini again on the next turn, through both protocols", async () => {
    const signature = "CiQBjz1rX+signed/thought==";
    const gemini = {
      candidates: [
        {
          content: {
            role: "model",
            parts: [{ functionCall: { name: "lookup", args: { query: "Paris" } }, thoughtSignature: signature }],
          },
          finishReason: "STOP",
        },
      ],
    };
    const upstream = new FakeUpstream({ kind: "sse", chunks: [`data: ${JSON.stringify(gemini)}\r\n\r\n`] });
    const env = testEnv({ GEMINI_API_KEY: "k", GEMINI_BASE_URL: "https://provider.test/v1beta", CLIENT_TOKEN: "t" });
    const messages = anthropic({ apiKey: "t", fetch: workerFetch({ env, upstream }) });
    const first = await messages.messages
      .stream({
        model: "gemini/m",
        max_tokens: 64,
        tools: [messagesTool],
        messages: [{ role: "user", content: "Look up Paris." }],
      })
      .finalMessage();
    const call = first.content.find((block) => block.type === "tool_use")!;
    expect(call).toMatchObject({ name: "lookup", input: { query: "Paris" } });
    expect(call.id).toMatch(/^call_[A-Za-z0-9]+__ts_[A-Za-z0-9_-]+$/);
    await messages.messages.create({
      model: "gemini/m",
      max_tokens: 64,
      tools: [messagesTool],
      messages: [
        { role: "user", content: "Look up Paris." },
        { role: "assistant", content: [call] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: call.id, content: "18 degrees" }] },
      ],
    });
    expect(JSON.stringify(upstream.requests[1]!.body)).toContain(`"thoughtSignature":${JSON.stringify(signature)}`);

    const responses = openai({ apiKey: "t", fetch: workerFetch({ env, upstream }) });
    const final = await responses.responses
      .stream({ model: "gemini/m", tools: [responsesTool], input: "Look up Paris." })
      .finalResponse();
    const item = final.output.find((entry) => entry.type === "function_call")!;
    await responses.responses.create({
      model: "gemini/m",
      tools: [responsesTool],
      input: [
        { role: "user", content: "Look up Paris." },
        { type: "function_call", call_id: item.call_id, name: item.name, arguments: item.arguments },
        { type: "function_call_output", call_id: item.call_id, output: "18 degrees" },
      ],
    });
    expect(JSON.stringify(upstream.requests[3]!.body)).toContain(`"thoughtSignature":${JSON.stringify(signature)}`);
  });

  it("Messages: a tool_result with is_error reaches Anthropic as is_error and Bedrock as status error; other providers read it in the text", async () => {
    const cases: [string, string][] = [
      ["openai", '"content":"Error: timeout"'],
      ["anthropic", '"content":"timeout","is_error":true'],
      ["bedrock", '"content":[{"text":"timeout"}],"status":"error"'],
    ];
    for (const [provider, expected] of cases) {
      const upstream = liveUpstream(provider);
      await anthropic({
        apiKey: "t",
        fetch: workerFetch({ env: testEnv({ ...LIVE[provider]!.env, CLIENT_TOKEN: "t" }), upstream }),
      }).messages.create({
        model: `${provider}/m`,
        max_tokens: 64,
        tools: [messagesTool],
        messages: [
          { role: "user", content: "Look up Paris." },
          { role: "assistant", content: [{ type: "tool_use", id: "toolu_01", name: "lookup", input: {} }] },
          {
            role: "user",
            content: [{ type: "tool_result", tool_use_id: "toolu_01", content: "timeout", is_error: true }],
          },
        ],
      });
      expect(JSON.stringify(upstream.requests[0]!.body)).toContain(expected);
    }
  });

  it("?beta=true and anthropic-beta: only the betas ANTHROPIC_BETAS lists reach Anthropic, at the Worker's version, and nothing reaches another provider", async () => {
    const allowed = "fine-grained-tool-streaming-2025-05-14, interleaved-thinking-2025-05-14";
    const cases = [
      // Claude Code's kind of list: one allowed, one paid, one unknown, one allowed twice.
      {
        provider: "anthropic",
        vars: { ANTHROPIC_BETAS: allowed },
        expected: "fine-grained-tool-streaming-2025-05-14,interleaved-thinking-2025-05-14",
      },
      { provider: "anthropic", vars: {}, expected: null },
      { provider: "anthropic", vars: { ANTHROPIC_BETAS: "context-1m-2025-08-07-not-this" }, expected: null },
      { provider: "openai", vars: { ANTHROPIC_BETAS: allowed }, expected: null },
    ];
    for (const { provider, vars, expected } of cases) {
      const upstream = liveUpstream(provider);
      const worker = workerFetch({ env: testEnv({ ...LIVE[provider]!.env, ...vars, CLIENT_TOKEN: "t" }), upstream });
      const sdk = anthropic({
        apiKey: "t",
        // A version no Worker writes its body for: it must not reach Anthropic.
        fetch: (input, init) => {
          const request = new Request(input, init);
          request.headers.set("anthropic-version", "2099-01-01");
          return worker(request);
        },
      });
      const message = await sdk.beta.messages.create({
        model: `${provider}/m`,
        max_tokens: 64,
        betas: [
          "fine-grained-tool-streaming-2025-05-14",
          "context-1m-2025-08-07",
          "made-up-beta",
          "interleaved-thinking-2025-05-14",
          "fine-grained-tool-streaming-2025-05-14",
        ],
        messages: [{ role: "user", content: "hi" }],
      });
      expect(message.type).toBe("message");
      const headers = upstream.requests[0]!.headers;
      expect(headers.get("anthropic-beta"), `${provider} ${JSON.stringify(vars)}`).toBe(expected);
      // The Worker's version, never the client's.
      expect(headers.get("anthropic-version")).toBe(provider === "anthropic" ? "2023-06-01" : null);
    }
  });

  it("the agent endpoints take a body past MAX_BODY_BYTES up to MAX_AGENT_BODY_BYTES; /v1/chat/completions does not", async () => {
    const env = testEnv({ MAX_BODY_BYTES: 1000, MAX_AGENT_BODY_BYTES: 200_000 });
    const long = "x".repeat(50_000);
    const ok = await worker().call(
      post("/v1/messages", { model: "openai/m", max_tokens: 64, messages: [{ role: "user", content: long }] }),
      env,
    );
    expect(ok.status).toBe(200);
    const chat = await worker().call(
      post("/v1/chat/completions", { model: "openai/m", messages: [{ role: "user", content: long }] }),
      env,
    );
    expect(chat.status).toBe(413);
    const tooLong = await worker().call(
      post("/v1/messages", {
        model: "openai/m",
        max_tokens: 64,
        messages: [{ role: "user", content: long.repeat(5) }],
      }),
      env,
    );
    expect(tooLong.status).toBe(413);
    expect(await tooLong.json()).toMatchObject({ type: "error", error: { type: "request_too_large" } });
  });

  it("a keep-alive frame goes out after 15 s of silence between chunks, never before the first", async () => {
    const timers = new ManualTimers();
    let push: ((chunk: Uint8Array) => void) | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (chunk) => controller.enqueue(chunk);
      },
    });
    const reader = withHeartbeat(body, timers, { frame: ": ping\n\n", afterFirstChunk: true }).getReader();
    let firstRead = false;
    const first = reader.read().then((result) => ((firstRead = true), result));
    // 15 s of silence before the first chunk: no frame (the protocol's first event comes first).
    await settled();
    for (const handle of timers.handlesOf(HEARTBEAT_MS)) timers.fire(handle);
    await settled();
    expect(firstRead).toBe(false);
    push!(new TextEncoder().encode("event: a\n\n"));
    expect(new TextDecoder().decode((await first).value)).toBe("event: a\n\n");
    const second = reader.read();
    await settled(); // the read is waiting
    timers.fireNext(); // 15 s after the first chunk
    expect(new TextDecoder().decode((await second).value)).toBe(": ping\n\n");
    await reader.cancel();
    expect(timers.pending).toBe(0);
  });
});
