// OpenAI `custom` tools (free text with an optional grammar) to an OpenAI Responses upstream, which
// has them: the real openai-node on POST /v1/responses and POST /v1/chat/completions, in workerd,
// against a fake upstream answering in the Responses wire format (events as OpenAI documents them:
// `response.output_item.added` of a `custom_tool_call`, `response.custom_tool_call_input.delta` and
// `.done`). The upstream is sent the custom tool with its grammar, a `tool_choice` of it as
// `{type: "custom"}`, the conversation's custom calls and outputs as `custom_tool_call` /
// `custom_tool_call_output` items (from the client's input and from `previous_response_id`), and
// its custom call reaches both clients as their custom call, the text intact. The other upstreams
// (OpenAI Chat, Anthropic, Gemini) are still sent a function of one string.
import OpenAI from "openai";
import OpenAI7 from "openai-v7";
import { describe, expect, it } from "vitest";
import type { Provider } from "../../src/index.ts";
import type { Env } from "../../worker/env.ts";
import { readTranscript } from "../../worker/upstream/replay/scripted/transcript.ts";
import { post, workerFetch } from "./client-support.ts";
import { AUTH, live, scripted } from "./open-responses-support.ts";
import { FakeUpstream, responses, worker } from "./support.ts";

/** A patch with what JSON and SSE must carry intact: quotes, a backslash, newlines, non-ASCII. */
const PATCH = '*** Begin Patch\n*** Add File: a.txt\n+say "héllo" \\ 👋\n*** End Patch';
const LARK = { type: "grammar" as const, syntax: "lark" as const, definition: 'start: "*** Begin Patch" /(.|\\n)+/' };
const CUSTOM = { type: "custom" as const, name: "apply_patch", description: "Apply a patch.", format: LARK };
const WEATHER = {
  type: "function" as const,
  name: "get_weather",
  parameters: { type: "object", properties: { city: { type: "string" } } },
  strict: false,
};

/** An OpenAI Responses stream of one `custom_tool_call` whose input streams in three deltas. */
function customCallStream(): FakeUpstream {
  const item = { type: "custom_tool_call", id: "ctc_1", call_id: "call_p", name: "apply_patch" };
  const response = { id: "resp_up", object: "response", created_at: 1, model: "gpt-5", tools: [CUSTOM] };
  const done = { ...item, input: PATCH, status: "completed" };
  const usage = { input_tokens: 9, output_tokens: 20, total_tokens: 29 };
  const events: Record<string, unknown>[] = [
    { type: "response.created", response: { ...response, status: "in_progress", output: [] } },
    { type: "response.output_item.added", output_index: 0, item: { ...item, input: "", status: "in_progress" } },
    ...[PATCH.slice(0, 20), PATCH.slice(20, 44), PATCH.slice(44)].map((delta) => ({
      type: "response.custom_tool_call_input.delta",
      item_id: "ctc_1",
      output_index: 0,
      delta,
    })),
    { type: "response.custom_tool_call_input.done", item_id: "ctc_1", output_index: 0, input: PATCH },
    { type: "response.output_item.done", output_index: 0, item: done },
    { type: "response.completed", response: { ...response, status: "completed", output: [done], usage } },
  ];
  return new FakeUpstream({
    kind: "sse",
    chunks: events.map(
      (event, i) => `event: ${event["type"]}\ndata: ${JSON.stringify({ ...event, sequence_number: i })}\n\n`,
    ),
  });
}

/** openai-node against the Worker in front of `provider` (the stored responses bound). */
const sdk = (upstream: FakeUpstream, provider: Provider = "openai-responses", major: 6 | 7 = 6): OpenAI =>
  new (major === 6 ? OpenAI : OpenAI7)({
    baseURL: "http://localhost:8787/v1",
    apiKey: "t",
    maxRetries: 0,
    fetch: workerFetch({ env: { ...live(provider), RESPONSES: responses } as Env, upstream }),
  }) as unknown as OpenAI;

type Body = { tools?: unknown[]; input?: Record<string, unknown>[]; tool_choice?: unknown };
const bodyOf = (upstream: FakeUpstream, i: number): Body => upstream.requests[i]!.body as Body;
const CALL_ITEM = { type: "custom_tool_call", call_id: "call_p", name: "apply_patch", input: PATCH } as const;
const OUTPUT_ITEM = { type: "custom_tool_call_output", call_id: "call_p", output: "Added a.txt." } as const;

describe("custom tools to an OpenAI Responses upstream, natively", () => {
  it("Responses client: the tool goes with its grammar, the call streams back as a custom_tool_call, the next turns send it back as one", async () => {
    const upstream = customCallStream();
    const client = sdk(upstream);
    const deltas: string[] = [];
    const stream = client.responses.stream({ model: "openai-responses/gpt-5", input: "Add a.txt.", tools: [CUSTOM] });
    for await (const event of stream)
      if (event.type === "response.custom_tool_call_input.delta") deltas.push(event.delta);
    const first = await stream.finalResponse();
    expect(first.output).toMatchObject([CALL_ITEM]);
    expect(deltas.join("")).toBe(PATCH);
    expect(bodyOf(upstream, 0).tools).toEqual([CUSTOM]);

    // The client's input: its custom call and output as the items they are.
    await client.responses.create({
      model: "openai-responses/gpt-5",
      tools: [CUSTOM, WEATHER],
      input: [{ role: "user", content: "Add a.txt." }, CALL_ITEM, OUTPUT_ITEM],
    });
    expect(bodyOf(upstream, 1).input!.slice(1)).toEqual([CALL_ITEM, OUTPUT_ITEM]);
    expect(bodyOf(upstream, 1).tools).toEqual([CUSTOM, WEATHER]);

    // `previous_response_id`: the stored turn's custom call, then this turn's output.
    await client.responses.create({
      model: "openai-responses/gpt-5",
      tools: [CUSTOM],
      previous_response_id: first.id,
      input: [OUTPUT_ITEM],
    });
    const replayed = bodyOf(upstream, 2).input!;
    expect(replayed.slice(1)).toEqual([CALL_ITEM, OUTPUT_ITEM]);
  });

  it("Responses client: a tool_choice of the custom tool goes as {type: custom}, allowed_tools offers it alone", async () => {
    const upstream = customCallStream();
    const client = sdk(upstream);
    const base = { model: "openai-responses/gpt-5", input: "Add a.txt.", tools: [WEATHER, CUSTOM] };
    const forced = await client.responses.create({ ...base, tool_choice: { type: "custom", name: "apply_patch" } });
    expect(forced.output).toMatchObject([CALL_ITEM]);
    expect(bodyOf(upstream, 0).tool_choice).toEqual({ type: "custom", name: "apply_patch" });
    await client.responses.create({
      ...base,
      tool_choice: { type: "allowed_tools", mode: "required", tools: [{ type: "custom", name: "apply_patch" }] },
    });
    expect([bodyOf(upstream, 1).tools, bodyOf(upstream, 1).tool_choice]).toEqual([[CUSTOM], "required"]);
  });

  it("Chat client: the tool goes in the Responses shape, the call comes back as a custom call, the next turn sends it back as one", async () => {
    const upstream = customCallStream();
    const chatTool = {
      type: "custom" as const,
      custom: {
        name: "apply_patch",
        description: "Apply a patch.",
        format: { type: "grammar" as const, grammar: { syntax: "lark" as const, definition: LARK.definition } },
      },
    };
    const request = {
      model: "openai-responses/gpt-5",
      messages: [{ role: "user" as const, content: "Add a.txt." }],
      tools: [chatTool],
      tool_choice: { type: "custom" as const, custom: { name: "apply_patch" } },
    };
    const custom = { type: "custom", custom: { name: "apply_patch", input: PATCH } };
    const whole = await sdk(upstream).chat.completions.create(request);
    expect(whole.choices[0]!.message.tool_calls).toEqual([{ id: "call_p", ...custom }]);
    const final = await sdk(upstream, "openai-responses", 7).chat.completions.stream(request).finalChatCompletion();
    expect(final.choices[0]!.message.tool_calls).toEqual([{ id: "call_p", ...custom }]);
    expect([bodyOf(upstream, 0).tools, bodyOf(upstream, 0).tool_choice]).toEqual([
      [CUSTOM],
      { type: "custom", name: "apply_patch" },
    ]);

    await sdk(upstream).chat.completions.create({
      ...request,
      messages: [
        ...request.messages,
        { role: "assistant", content: null, tool_calls: [{ id: "call_p", ...custom } as never] },
        { role: "tool", tool_call_id: "call_p", content: "Added a.txt." },
      ],
    });
    expect(bodyOf(upstream, 2).input!.slice(1)).toEqual([CALL_ITEM, OUTPUT_ITEM]);
  });

  it("a custom tool's null description and format, absent to the Worker, go to OpenAI absent (its CustomTool types neither as null)", async () => {
    const upstream = customCallStream();
    const given = { type: "custom", name: "apply_patch", description: null, format: null, defer_loading: false };
    await sdk(upstream).responses.create({
      model: "openai-responses/gpt-5",
      input: "Add a.txt.",
      tools: [given as never],
    });
    expect(bodyOf(upstream, 0).tools).toEqual([{ type: "custom", name: "apply_patch", defer_loading: false }]);
  });

  it("a custom tool's format is checked for its shape: a 400 naming the field, for every upstream", async () => {
    for (const provider of ["openai-responses", "anthropic"] as const) {
      const client = sdk(customCallStream(), provider);
      const cases: [unknown, string][] = [
        [{ type: "json" }, "tools[0].format.type"],
        // Chat's nesting (`grammar: {syntax, definition}`) is not the Responses shape.
        [{ type: "grammar", grammar: { syntax: "lark", definition: "start: /.+/" } }, "tools[0].format.definition"],
        [{ type: "grammar", syntax: "ebnf", definition: "x" }, "tools[0].format.syntax"],
      ];
      for (const [format, param] of cases) {
        const error = await client.responses
          .create({ model: `${provider}/m`, input: "hi", tools: [{ ...CUSTOM, format } as never] })
          .catch((e: unknown) => e);
        expect([provider, (error as { status?: number }).status, (error as { param?: string }).param]).toEqual([
          provider,
          400,
          param,
        ]);
      }
    }
  });

  it("/v1/stream: a call echoed with inputFormat text goes to OpenAI Responses as a custom_tool_call, to Anthropic and Gemini as {input: text}; another inputFormat is a 400 naming it", async () => {
    const upstream = customCallStream();
    const app = worker(upstream);
    const body = (inputFormat: string) => ({
      provider: "openai-responses",
      model: "gpt-5",
      messages: [
        { role: "user", content: "Add a.txt." },
        {
          role: "assistant",
          content: "",
          tool_calls: [{ id: "call_p", name: "apply_patch", arguments: PATCH, inputFormat }],
        },
        { role: "tool", tool_call_id: "call_p", content: "Added a.txt." },
      ],
    });
    const answer = await app.call(post("/v1/stream", body("text"), AUTH), live("openai-responses"));
    await answer.text();
    expect([answer.status, bodyOf(upstream, 0).input!.slice(1)]).toEqual([200, [CALL_ITEM, OUTPUT_ITEM]]);
    const refused = await app.call(post("/v1/stream", body("json"), AUTH), live("openai-responses"));
    expect([refused.status, await refused.json()]).toMatchObject([
      400,
      { error: { field: "messages[1].tool_calls[0].inputFormat" } },
    ]);
    // OpenAI Chat takes such a call back as its custom call too (the library's Chat kit).
    const chat = scripted("openai", { text: "Done." });
    const chatAnswer = await worker(chat).call(
      post("/v1/stream", { ...body("text"), provider: "openai" }, AUTH),
      live("openai"),
    );
    await chatAnswer.text();
    const sent = (chat.requests[0]!.body as { messages: { tool_calls?: unknown[] }[] }).messages[1]!.tool_calls;
    expect(sent).toEqual([{ id: "call_p", type: "custom", custom: { name: "apply_patch", input: PATCH } }]);
    // Another provider has no free-text calls: the function of one string `input`, not `{}`, its text lost.
    for (const provider of ["anthropic", "gemini"] as const) {
      const other = scripted(provider, { text: "Done." });
      const answer = await worker(other).call(post("/v1/stream", { ...body("text"), provider }, AUTH), live(provider));
      await answer.text();
      expect([provider, JSON.stringify(other.requests[0]!.body)]).toEqual([
        provider,
        expect.stringContaining(JSON.stringify({ input: PATCH })),
      ]);
    }
  });

  it("offline, the scripted model reads the custom tool as the function of one string it calls, and the custom items as calls and results", () => {
    const transcript = readTranscript("openai-responses", {
      tools: [CUSTOM],
      input: [{ role: "user", content: "Add a.txt." }, CALL_ITEM, OUTPUT_ITEM],
    });
    expect(transcript.tools).toMatchObject([
      { name: "apply_patch", parameters: { properties: { input: { type: "string" } }, required: ["input"] } },
    ]);
    expect(transcript.calls).toEqual([{ id: "call_p", name: "apply_patch", arguments: { input: PATCH } }]);
    expect(transcript.results).toMatchObject([{ id: "call_p", content: "Added a.txt." }]);
  });

  for (const provider of ["openai", "anthropic", "gemini"] as const)
    it(`${provider}: still sent a function of one string, and the custom call as that function's call`, async () => {
      const upstream = scripted(provider, { text: "Done." });
      await sdk(upstream, provider).responses.create({
        model: `${provider}/test-model`,
        tools: [CUSTOM],
        tool_choice: { type: "custom", name: "apply_patch" },
        input: [{ role: "user", content: "Add a.txt." }, CALL_ITEM, OUTPUT_ITEM],
      });
      const sent = JSON.stringify(upstream.requests[0]!.body);
      expect(sent).toContain('"required":["input"]');
      expect(sent).not.toContain('"custom');
      expect(sent).not.toContain("grammar");
      // The call's text as the function's `input` (an object to Anthropic and Gemini, JSON text to OpenAI Chat).
      expect(sent).toContain(
        provider === "openai" ? JSON.stringify(JSON.stringify({ input: PATCH })) : JSON.stringify({ input: PATCH }),
      );
    });
});
