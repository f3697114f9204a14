// What a /v1/responses response repeats of its request (Open Responses' ResponseResource: every
// setting with the request's value or its zero value, in every snapshot), `tool_choice:
// {type: "allowed_tools"}` enforced (only the listed tools reach the provider, a call of another
// is suppressed), and the 400s of settings out of their bounds, in OpenAI's error shape.
import { describe, expect, it } from "vitest";
import { readConformingResponse, readConformingStream } from "../support/open-responses.ts";
import { sharedData } from "../support/shared-data.ts";
import { openAIClient, post } from "./client-support.ts";
import { allowedToolsOf } from "../../worker/protocols/openai-responses/allowed-calls.ts";
import type { WireTool } from "../../worker/protocols/client-request.ts";
import { AUTH, live, scripted } from "./open-responses-support.ts";
import { worker } from "./support.ts";

const tool = (name: string) => ({
  type: "function",
  name,
  description: `The ${name} tool.`,
  parameters: { type: "object", properties: { q: { type: "string" } } },
});
const SETTINGS = {
  instructions: "Be brief.",
  tools: [tool("search"), { ...tool("send_email"), strict: true }],
  tool_choice: { type: "allowed_tools", mode: "auto", tools: [{ type: "function", name: "search" }] },
  metadata: { tenant: "acme", run: "7" },
  temperature: 0.3,
  top_p: 0.9,
  // Anthropic has no penalties (a 400): one at 0, the default, is nothing to refuse.
  presence_penalty: 0,
  frequency_penalty: 0,
  top_logprobs: 2,
  max_output_tokens: 300,
  max_tool_calls: 4,
  truncation: "auto",
  parallel_tool_calls: false,
  text: { format: { type: "json_schema", name: "answer", schema: { type: "object" }, strict: true }, verbosity: "low" },
  reasoning: { effort: "low", summary: "auto" },
  prompt_cache_key: "cache-1",
  safety_identifier: "user-42",
};
const ECHOED = {
  ...SETTINGS,
  tools: [
    { ...tool("search"), strict: null },
    { ...tool("send_email"), strict: true },
  ],
  text: {
    format: { type: "json_schema", name: "answer", description: null, schema: { type: "object" }, strict: true },
    verbosity: "low",
  },
  previous_response_id: null,
  background: false,
  service_tier: "default",
  store: false,
};
const DEFAULTS = {
  instructions: null,
  tools: [],
  tool_choice: "auto",
  metadata: {},
  temperature: 1,
  top_p: 1,
  presence_penalty: 0,
  frequency_penalty: 0,
  top_logprobs: 0,
  max_output_tokens: null,
  max_tool_calls: null,
  truncation: "disabled",
  parallel_tool_calls: true,
  text: { format: { type: "text" } },
  reasoning: null,
  prompt_cache_key: null,
  safety_identifier: null,
  previous_response_id: null,
  background: false,
  service_tier: "default",
};

const send = (body: Record<string, unknown>, upstream = scripted("anthropic", { text: "Done." })) =>
  worker(upstream).call(
    post("/v1/responses", { model: "anthropic/test-model", input: "Hi", ...body }, AUTH),
    live("anthropic"),
  );

describe("what a /v1/responses response repeats of its request", () => {
  it("every setting as the request gave it, in the JSON body", async () => {
    const { response } = await readConformingResponse(await send(SETTINGS));
    expect(response).toMatchObject(ECHOED);
    expect(response["completed_at"]).toEqual(expect.any(Number));
  });

  it("every setting in every snapshot of the stream: response.created, .in_progress, .completed", async () => {
    const { events } = await readConformingStream(await send({ ...SETTINGS, stream: true }));
    const snapshots = events.filter((event) => "response" in event).map((event) => event["response"]);
    expect(snapshots).toHaveLength(3);
    for (const snapshot of snapshots) expect(snapshot).toMatchObject(ECHOED);
    expect(snapshots.map((snapshot) => (snapshot as { completed_at: unknown }).completed_at)).toEqual([
      null,
      null,
      expect.any(Number),
    ]);
  });

  it("the penalties, to a provider that has them, as given", async () => {
    const penalties = { presence_penalty: 0.5, frequency_penalty: -0.5 };
    const answer = await worker(scripted("gemini", { text: "Done." })).call(
      post("/v1/responses", { model: "gemini/test-model", input: "Hi", ...penalties }, AUTH),
      live("gemini"),
    );
    expect((await readConformingResponse(answer)).response).toMatchObject(penalties);
  });

  it("a request that gives none: the zero values", async () => {
    const { response } = await readConformingResponse(await send({}));
    expect(response).toMatchObject(DEFAULTS);
  });

  // A json_schema format is left out: the spec's document (2026-04-24) types its `schema` as `null`
  // only, where its source schema (JsonSchemaResponseFormat.json) says an object or null.
  it.skipIf(!sharedData["open-responses"].available)("both conform to the spec's ResponseResource", async () => {
    const text = { format: { type: "json_object" }, verbosity: "low" };
    expect((await readConformingResponse(await send({ ...SETTINGS, text }))).issues).toEqual([]);
    expect((await readConformingResponse(await send({}))).issues).toEqual([]);
  });
});

describe("reasoning.effort beyond the spec's enum (none, low, medium, high, xhigh)", () => {
  for (const [sent, echoed] of [
    ["minimal", "low"],
    ["max", "xhigh"],
  ])
    it(`${sent}: the provider is sent ${sent}, the response repeats ${echoed}`, async () => {
      const upstream = scripted("openai-responses", { text: "Done." });
      const answer = await worker(upstream).call(
        post("/v1/responses", { model: "openai-responses/test-model", input: "Hi", reasoning: { effort: sent } }, AUTH),
        live("openai-responses"),
      );
      const { issues, response } = await readConformingResponse(answer);
      expect(issues).toEqual([]);
      expect(response["reasoning"]).toEqual({ effort: echoed, summary: null });
      expect((upstream.requests[0]!.body as { reasoning: { effort: string } }).reasoning.effort).toBe(sent);
    });
});

it("max_tool_calls reaches an OpenAI Responses upstream, which has it (the others have no such limit)", async () => {
  const upstream = scripted("openai-responses", { text: "Done." });
  const body = { model: "openai-responses/test-model", input: "Hi", max_tool_calls: 3 };
  await worker(upstream).call(post("/v1/responses", body, AUTH), live("openai-responses"));
  expect(upstream.requests[0]!.body).toMatchObject({ max_tool_calls: 3 });
});

describe("tool_choice allowed_tools", () => {
  const call = (name: string) => scripted("anthropic", { calls: [{ name, arguments: { q: "x" } }] });

  it("only the allowed tools reach the provider, which is free to call them or not (mode auto)", async () => {
    const upstream = call("search");
    const { response } = await readConformingResponse(await send(SETTINGS, upstream));
    const sent = upstream.requests[0]!.body as { tools: { name: string }[]; tool_choice?: { type: string } };
    expect(sent.tools.map((t) => t.name)).toEqual(["search"]);
    expect(sent.tool_choice?.type ?? "auto").toBe("auto");
    expect(response["output"]).toMatchObject([{ type: "function_call", name: "search" }]);
  });

  it("no mode, or a null one, is auto, and the response says so (the spec's AllowedToolChoice requires it)", async () => {
    const listed = [{ type: "function", name: "search" }];
    for (const choice of [
      { type: "allowed_tools", tools: listed },
      { type: "allowed_tools", mode: null, tools: listed },
    ]) {
      const body = { tools: [tool("search")], tool_choice: choice };
      const { issues, response } = await readConformingResponse(await send(body));
      const streamed = await readConformingStream(await send({ ...body, stream: true }));
      expect([issues, streamed.issues]).toEqual([[], []]);
      expect([response["tool_choice"], streamed.response?.["tool_choice"]]).toEqual([
        { ...choice, mode: "auto" },
        { ...choice, mode: "auto" },
      ]);
    }
  });

  it("mode required: the provider must call one of them", async () => {
    const upstream = call("search");
    await send({ ...SETTINGS, tool_choice: { ...SETTINGS.tool_choice, mode: "required" } }, upstream);
    expect((upstream.requests[0]!.body as { tool_choice: { type: string } }).tool_choice.type).toBe("any");
  });

  it("a call of a tool not listed is suppressed, streamed or not: no item, no event of it", async () => {
    const turn = { text: "Let me send it.", calls: [{ name: "send_email", arguments: { q: "x" } }] };
    const { response } = await readConformingResponse(await send(SETTINGS, scripted("anthropic", turn)));
    expect(response).toMatchObject({ status: "completed", output: [{ type: "message" }] });
    expect(response["output"]).toHaveLength(1);
    const { events } = await readConformingStream(
      await send({ ...SETTINGS, stream: true }, scripted("anthropic", turn)),
    );
    const ofCalls = events.filter(
      (event) =>
        String(event["type"]).startsWith("response.function_call") ||
        (event["item"] as { type?: string } | undefined)?.type === "function_call",
    );
    expect(ofCalls).toEqual([]);
    expect(events.at(-1)?.["type"]).toBe("response.completed");
  });

  it("the only call suppressed: the response fails as a model error that says why, never completed empty", async () => {
    // Completed with `output: []` before: a client saw an empty answer and no reason for it.
    // A json_object format: the spec's document types a json_schema format's `schema` as `null` only.
    const settings = { ...SETTINGS, text: { format: { type: "json_object" }, verbosity: "low" } };
    const whole = await send(settings, call("send_email"));
    const { issues, response } = await readConformingResponse(whole);
    expect([issues, whole.status, response["status"], response["output"]]).toEqual([[], 502, "failed", []]);
    expect((response["error"] as { message: string }).message).toContain("tool_choice does not allow");
    const streamed = await readConformingStream(await send({ ...settings, stream: true }, call("send_email")));
    expect(streamed.issues).toEqual([]);
    expect(streamed.events.map((event) => event["type"])).toEqual([
      "response.created",
      "response.in_progress",
      "error",
      "response.failed",
    ]);
    expect(streamed.events.at(-2)?.["error"]).toMatchObject({
      type: "model_error",
      code: "provider-error",
      param: null,
    });
    // openai-node throws it, with the Worker's words, streamed and not.
    const openai = openAIClient(call("send_email"), live("anthropic"));
    const request = { model: "anthropic/test-model", input: "Hi", ...settings } as never;
    await expect(openai.responses.stream(request).finalResponse()).rejects.toThrow(/tool_choice does not allow/);
    await expect(openAIClient(call("send_email"), live("anthropic")).responses.create(request)).rejects.toThrow(
      /tool_choice does not allow/,
    );
  });

  it("a listed name that is none of the tools is a 400 naming it", async () => {
    const answer = await send({
      ...SETTINGS,
      tool_choice: { type: "allowed_tools", tools: [{ type: "function", name: "nope" }] },
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: { param: "tool_choice.tools[0].name" } });
  });

  it("reads each tool's name a bounded number of times, however many names (up to OpenAI's 128) the choice lists", () => {
    let reads = 0;
    const tools = Array.from({ length: 1_024 }, (_, i) => ({
      get name() {
        reads++;
        return `t${i}`;
      },
    })) as unknown as WireTool[];
    const listed = Array.from({ length: 128 }, () => ({ type: "function", name: "t1023" }));
    expect(allowedToolsOf({ type: "allowed_tools", tools: listed }, tools)).toEqual(new Set(["t1023"]));
    // Every tool's name per listed name before: 128 x 1,024.
    expect(reads).toBe(1_024);
  });
});

describe("settings out of bounds are 400s naming them", () => {
  const cases: [string, Record<string, unknown>][] = [
    ["metadata", { metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, "v"])) }],
    ["metadata", { metadata: { key: 7 } }],
    ["top_p", { top_p: 2 }],
    ["top_logprobs", { top_logprobs: 1.5 }],
    ["truncation", { truncation: "sometimes" }],
    ["text.format.type", { text: { format: { type: "xml" } } }],
    // The SDK's ResponseFormatTextJSONSchemaConfig (name a-z, A-Z, 0-9, _ and -, at most 64; strict a
    // boolean or null) and FunctionTool (strict a boolean or null): a "true" read as not strict before.
    ["text.format.name", { text: { format: { type: "json_schema", name: "my format", schema: {} } } }],
    ["text.format.name", { text: { format: { type: "json_schema", name: "f".repeat(65), schema: {} } } }],
    ["text.format.strict", { text: { format: { type: "json_schema", name: "f", schema: {}, strict: "true" } } }],
    ["tools[1].strict", { tools: [tool("search"), { ...tool("send_email"), strict: "true" }] }],
    // The spec's CreateResponseBody bounds (maxLength 64, minimum 16, ServiceTierEnum), as OpenAI's.
    ["prompt_cache_key", { prompt_cache_key: "k".repeat(65) }],
    ["safety_identifier", { safety_identifier: "u".repeat(65) }],
    ["max_output_tokens", { max_output_tokens: 15 }],
    ["service_tier", { service_tier: "turbo" }],
    // Echoed as sent, these broke the response's `reasoning` (the spec's summary enum, an object).
    ["reasoning.summary", { reasoning: { effort: "low", summary: "verbose" } }],
    ["reasoning.summary", { reasoning: { generate_summary: 7 } }],
    ["reasoning", { reasoning: "high" }],
    // Options the response does not repeat, accepted whatever they were before.
    ["include[1]", { include: ["reasoning.encrypted_content", "everything"] }],
    ["include", { include: "reasoning.encrypted_content" }],
    // Logprobs, which no provider here returns: a 400, not an answer without them.
    ["include[0]", { include: ["message.output_text.logprobs"] }],
    ["stream_options", { stream: true, stream_options: 5 }],
    ["stream_options.include_obfuscation", { stream: true, stream_options: { include_obfuscation: "no" } }],
    ["background", { background: "yes" }],
    [
      "tool_choice.mode",
      {
        tools: [tool("search")],
        tool_choice: { type: "allowed_tools", mode: "some", tools: [{ type: "function", name: "search" }] },
      },
    ],
  ];
  it("what Codex and the AI SDK send is within them: a thread id as cache key, their service tiers", async () => {
    for (const service_tier of ["auto", "default", "flex", "priority", "scale", "fast", "ultrafast"]) {
      const body = { service_tier, prompt_cache_key: "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", max_output_tokens: 16 };
      expect((await send({ ...body, safety_identifier: "u".repeat(64) })).status).toBe(200);
    }
    const format = { type: "json_schema", name: `Out-put_${"f".repeat(56)}`, schema: { type: "object" }, strict: null };
    expect((await send({ text: { format }, tools: [{ ...tool("search"), strict: null }] })).status).toBe(200);
    // Codex with its output_token_replay feature, toward a provider named OpenAI.
    const include = ["reasoning.encrypted_content", "output.encrypted_content"];
    expect((await send({ include, store: false })).status).toBe(200);
  });
  for (const [param, body] of cases)
    it(`${param}: ${JSON.stringify(body).slice(0, 60)}`, async () => {
      const answer = await send(body);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ error: { type: "invalid_request_error", param } });
    });
});
