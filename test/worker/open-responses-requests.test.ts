// The request side of the Open Responses spec on POST /v1/responses (its `CreateResponseBody` and
// `*Param` item types): every form the spec allows is taken (its `null`s, its typeless item
// reference), and what this Worker cannot honour is a 400 in OpenAI's error shape naming the field.
import { describe, expect, it } from "vitest";
import type { Provider } from "../../src/index.ts";
import { readConformingResponse, readConformingStream } from "../support/open-responses.ts";
import { openAIClient, post } from "./client-support.ts";
import { AUTH, live, scripted, WEATHER } from "./open-responses-support.ts";
import { responses, worker } from "./support.ts";

const send = (body: Record<string, unknown>, provider: Provider = "anthropic", turn: TurnOf = { text: "Done." }) =>
  worker(scripted(provider, turn)).call(
    post("/v1/responses", { model: `${provider}/test-model`, input: "Hi", ...body }, AUTH),
    live(provider),
  );

type TurnOf = Parameters<typeof scripted>[1];

const refused = async (body: Record<string, unknown>, param: string) => {
  const answer = await send(body);
  expect(answer.status).toBe(400);
  expect(await answer.json()).toMatchObject({ error: { type: "invalid_request_error", param } });
};

describe("the spec's item reference (ItemReferenceParam: `type` optional or null)", () => {
  for (const reference of [{ id: "msg_1" }, { type: null, id: "msg_1" }])
    it(`${JSON.stringify(reference)} without stored responses: a 400 that says so, naming its id`, async () => {
      const answer = await send({ input: [reference] });
      expect(answer.status).toBe(400);
      const { error } = (await answer.json()) as { error: { param: string; message: string } };
      expect(error.param).toBe("input[0].id");
      expect(error.message).toContain("item_reference");
    });

  it("a message without a type is still a message", async () => {
    const { response } = await readConformingResponse(await send({ input: [{ role: "user", content: "Hi" }] }));
    expect(response["status"]).toBe("completed");
  });
});

it("every field the spec types as nullable taken as null", async () => {
  const nulls = Object.fromEntries(
    [
      "previous_response_id",
      "tools",
      "tool_choice",
      "metadata",
      "text",
      "temperature",
      "top_p",
      "presence_penalty",
      "frequency_penalty",
      "parallel_tool_calls",
      "stream_options",
      "max_output_tokens",
      "max_tool_calls",
      "reasoning",
      "safety_identifier",
      "prompt_cache_key",
      "instructions",
      "top_logprobs",
    ].map((field) => [field, null]),
  );
  const items = [
    { type: "message", role: "user", content: "Weather?", id: null, status: null },
    { type: "function_call", call_id: "c1", name: "get_weather", arguments: "{}", id: null, status: null },
    { type: "function_call_output", call_id: "c1", output: "18 °C", id: null, status: null },
    { type: "reasoning", id: null, summary: [], content: null, encrypted_content: null },
  ];
  const { issues, response } = await readConformingResponse(
    await send({ ...nulls, tools: [WEATHER], input: items, text: { format: null }, reasoning: { effort: null } }),
  );
  expect([issues, response["status"]]).toEqual([[], "completed"]);
});

describe("tool_choice none and parallel_tool_calls: false hold, whatever the provider makes", () => {
  const three: TurnOf = {
    calls: ["Paris", "Tokyo", "Lima"].map((location) => ({ name: "get_weather", arguments: { location } })),
  };
  const calls = (response: Record<string, unknown> | undefined) =>
    ((response?.["output"] ?? []) as { type: string; arguments: string }[])
      .filter((item) => item.type === "function_call")
      .map((item) => (JSON.parse(item.arguments) as { location: string }).location);
  const cases: [string, Provider, Record<string, unknown>, string[]][] = [
    ["no setting: every call", "anthropic", {}, ["Paris", "Tokyo", "Lima"]],
    // A compatible server (vLLM, LM Studio, ...) may call a tool all the same: "MUST NOT call any tools".
    ["tool_choice none: no call", "openai", { tool_choice: "none" }, []],
    [
      "allowed_tools of mode none: no call",
      "openai",
      { tool_choice: { type: "allowed_tools", mode: "none", tools: [{ type: "function", name: "get_weather" }] } },
      [],
    ],
    ["parallel_tool_calls false: the first call", "anthropic", { parallel_tool_calls: false }, ["Paris"]],
    // A call of another tool than the one forced is not run: the scripted model calls get_weather.
    ["a function forced, another called: no call", "openai", { tool_choice: { type: "function", name: "other" } }, []],
    [
      "the function forced, called",
      "openai",
      { tool_choice: { type: "function", name: "get_weather" } },
      ["Paris", "Tokyo", "Lima"],
    ],
    ["parallel_tool_calls false, to Gemini", "gemini", { parallel_tool_calls: false }, ["Paris"]],
    ["parallel_tool_calls false, to Cohere", "cohere", { parallel_tool_calls: false }, ["Paris"]],
    // max_tool_calls limits the calls of OpenAI's built-in tools (OpenAI is sent it), not a function's.
    ["max_tool_calls 1: every function call", "cohere", { max_tool_calls: 1 }, ["Paris", "Tokyo", "Lima"]],
    [
      "parallel_tool_calls false to OpenAI Responses: the first call",
      "openai-responses",
      { parallel_tool_calls: false },
      ["Paris"],
    ],
  ];
  for (const [name, provider, settings, expected] of cases)
    it(`${provider}, ${name}: streamed and not`, async () => {
      const body = { tools: [WEATHER, { ...WEATHER, name: "other" }], input: "Weather?", ...settings };
      const whole = await readConformingResponse(await send(body, provider, three));
      const streamed = await readConformingStream(await send({ ...body, stream: true }, provider, three));
      expect([whole.issues, streamed.issues]).toEqual([[], []]);
      expect([calls(whole.response), calls(streamed.response)]).toEqual([expected, expected]);
      // No call left and no text: a failure that says why, not an empty completed response.
      const status = expected.length === 0 ? "failed" : "completed";
      expect([whole.response["status"], streamed.response?.["status"]]).toEqual([status, status]);
      expect(whole.response["parallel_tool_calls"]).toBe(settings["parallel_tool_calls"] ?? true);
    });
});

it("parallel_tool_calls false: the providers with a field for it are told", async () => {
  const sent = async (provider: Provider, env = live(provider)) => {
    const upstream = scripted(provider, { text: "Done." });
    const body = { model: `${provider}/test-model`, input: "Hi", tools: [WEATHER], parallel_tool_calls: false };
    expect((await worker(upstream).call(post("/v1/responses", body, AUTH), env)).status).toBe(200);
    return upstream.requests[0]!.body as Record<string, unknown>;
  };
  expect((await sent("openai-responses"))["parallel_tool_calls"]).toBe(false);
  expect((await sent("anthropic"))["tool_choice"]).toEqual({ type: "auto", disable_parallel_tool_use: true });
  expect(
    (await sent("openai", { ...live("openai"), OPENAI_BASE_URL: "https://api.openai.com/v1" }))["parallel_tool_calls"],
  ).toBe(false);
  // A compatible server may refuse a field it does not know: held to one call by the Worker alone.
  expect(await sent("openai")).not.toHaveProperty("parallel_tool_calls");
});

it("OpenAI's prompt template, which would leave the answer without its instructions: a 400 naming it", async () => {
  await refused({ prompt: { id: "pmpt_1", variables: { city: "Paris" } } }, "prompt");
  expect((await send({ prompt: null })).status).toBe(200);
});

describe("text.format as the response repeats it: the format that was used", () => {
  const SCHEMA = { type: "json_schema", name: "answer", schema: { type: "object" }, strict: true };
  const echoed = async (provider: Provider, format: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const answer = await worker(scripted(provider, { text: "{}" })).call(
      post("/v1/responses", { model: `${provider}/test-model`, input: "Hi", text: { format }, ...extra }, AUTH),
      live(provider),
    );
    const { issues, response } = await readConformingResponse(answer);
    const { type } = (response["text"] as { format: { type: string } }).format;
    // The spec's document types a json_schema format's `schema` as `null` only (see open-responses-settings).
    if (type !== "json_schema") expect(issues).toEqual([]);
    return type;
  };

  it("a format the provider was sent, as given", async () => {
    expect(await echoed("anthropic", SCHEMA)).toBe("json_schema");
    expect(await echoed("gemini", { type: "json_object" })).toBe("json_object");
  });

  // Left out for the provider (a Responses client such as Codex sends it whatever the model): the
  // response says so rather than claim a format its text was not held to.
  it("one the provider was not sent, text: Anthropic's JSON object, a Gemini 2.5 model's beside tools", async () => {
    expect(await echoed("anthropic", { type: "json_object" })).toBe("text");
    const gemini = worker(scripted("gemini", { text: "{}" }));
    const body = { model: "gemini/gemini-2.5-flash", input: "Hi", tools: [WEATHER], text: { format: SCHEMA } };
    const { response } = await readConformingResponse(
      await gemini.call(post("/v1/responses", body, AUTH), live("gemini")),
    );
    expect(response["text"]).toEqual({ format: { type: "text" } });
  });

  it("a json_schema without a name is a 400 whatever the provider", async () => {
    for (const provider of ["anthropic", "bedrock"] as const) {
      const answer = await send({ text: { format: { type: "json_schema", schema: { type: "object" } } } }, provider);
      expect(await answer.json()).toMatchObject({ error: { param: "text.format.name" } });
    }
  });
});

it("a strict function reaches OpenAI Chat strict, at OpenAI (a compatible server may refuse the field)", async () => {
  const tools = [
    { ...WEATHER, strict: true },
    { ...WEATHER, name: "loose" },
  ];
  const sent = async (env: ReturnType<typeof live>) => {
    const upstream = scripted("openai", { text: "Done." });
    const body = { model: "openai/test-model", input: "Hi", tools };
    expect((await worker(upstream).call(post("/v1/responses", body, AUTH), env)).status).toBe(200);
    const functions = (upstream.requests[0]!.body as { tools: { function: Record<string, unknown> }[] }).tools;
    return functions.map((tool) => tool.function["strict"]);
  };
  expect(await sent({ ...live("openai"), OPENAI_BASE_URL: "https://api.openai.com/v1" })).toEqual([true, undefined]);
  expect(await sent(live("openai"))).toEqual([undefined, undefined]);
});

it("a strict function reaches an OpenAI Responses upstream strict, the others as the kit sends them", async () => {
  const upstream = scripted("openai-responses", { text: "Done." });
  const tools = [
    { ...WEATHER, strict: true },
    { ...WEATHER, name: "loose" },
    { ...WEATHER, name: "unsaid", strict: false },
  ];
  const body = { model: "openai-responses/test-model", input: "Hi", tools };
  expect((await worker(upstream).call(post("/v1/responses", body, AUTH), live("openai-responses"))).status).toBe(200);
  const sent = (upstream.requests[0]!.body as { tools: Record<string, unknown>[] }).tools;
  expect(sent.map((tool) => [tool["name"], tool["strict"]])).toEqual([
    ["get_weather", true],
    ["loose", false],
    ["unsaid", false],
  ]);
  expect(sent[0]).toEqual({
    type: "function",
    name: "get_weather",
    description: WEATHER.description,
    parameters: WEATHER.parameters,
    strict: true,
  });
});

it("prompt_cache_key and safety_identifier reach the OpenAI upstreams, which take them, truncation auto OpenAI Responses", async () => {
  const keys = { prompt_cache_key: "thread-7", safety_identifier: "user-42" };
  const sent = async (provider: Provider, env = live(provider), more: Record<string, unknown> = {}) => {
    const upstream = scripted(provider, { text: "Done." });
    const body = { model: `${provider}/test-model`, input: "Hi", ...keys, ...more };
    expect((await worker(upstream).call(post("/v1/responses", body, AUTH), env)).status).toBe(200);
    return upstream.requests[0]!.body as Record<string, unknown>;
  };
  expect(await sent("openai-responses")).toMatchObject(keys);
  expect(await sent("openai-responses")).not.toHaveProperty("truncation");
  expect(await sent("openai", { ...live("openai"), OPENAI_BASE_URL: "https://api.openai.com/v1" })).toMatchObject(keys);
  // OpenAI drops the earliest items that overflow the context window; `disabled` is its default.
  expect(await sent("openai-responses", undefined, { truncation: "auto" })).toMatchObject({ truncation: "auto" });
  const chat = { ...live("openai"), OPENAI_BASE_URL: "https://api.openai.com/v1" };
  expect(await sent("openai", chat, { truncation: "auto" })).not.toHaveProperty("truncation");
  for (const body of [await sent("openai"), await sent("anthropic")]) {
    expect(body).not.toHaveProperty("prompt_cache_key");
    expect(body).not.toHaveProperty("safety_identifier");
  }
});

describe("through openai-node: its typed request forms, its stream helper", () => {
  const weather = { type: "function" as const, name: "get_weather", parameters: WEATHER.parameters, strict: false };
  const three: TurnOf = {
    calls: ["Paris", "Tokyo", "Lima"].map((location) => ({ name: "get_weather", arguments: { location } })),
  };

  it("parallel_tool_calls false: the stream helper's final response holds the first call", async () => {
    const client = openAIClient(scripted("gemini", three), live("gemini"));
    const stream = client.responses.stream({
      model: "gemini/test-model",
      input: "Weather in three cities?",
      tools: [weather],
      parallel_tool_calls: false,
    });
    const response = await stream.finalResponse();
    expect(response.output.map((item) => item.type)).toEqual(["function_call"]);
    expect(response.parallel_tool_calls).toBe(false);
  });

  it("an item reference without its type (ItemReference's `type` is optional there too)", async () => {
    const upstream = scripted("anthropic", three);
    const client = openAIClient(upstream, { ...live("anthropic"), RESPONSES: responses });
    const first = await client.responses.create({ model: "anthropic/test-model", input: "Weather?", tools: [weather] });
    const call = first.output.find((item) => item.type === "function_call")!;
    upstream.answer = scripted("anthropic", { text: "Sunny." }).answer;
    const second = await client.responses.create({
      model: "anthropic/test-model",
      tools: [weather],
      input: [{ id: call.id! }, { type: "function_call_output", call_id: call.call_id, output: "18 °C" }],
    });
    expect(second.output_text).toBe("Sunny.");
  });
});

it("POST /v1/responses/compact, which the spec lets a server leave out: a 404 in OpenAI's error shape", async () => {
  const answer = await worker(scripted("anthropic", { text: "Done." })).call(
    post("/v1/responses/compact", { model: "anthropic/test-model", input: "Hi" }, AUTH),
    live("anthropic"),
  );
  expect(answer.status).toBe(404);
  expect(await answer.json()).toMatchObject({
    error: { type: "invalid_request_error", code: "not_found", param: null },
  });
});

it("Codex's Responses WebSocket handshake: a 426 in OpenAI's shape (Codex then POSTs at once), a plain GET still 405", async () => {
  const app = worker(scripted("anthropic", { text: "Done." }));
  // The handshake Codex sends to `ws://<base_url>/responses` (its provider's `supports_websockets`).
  const handshake = new Request("http://localhost:8787/v1/responses", {
    headers: {
      ...AUTH.headers,
      upgrade: "websocket",
      connection: "Upgrade",
      "sec-websocket-version": "13",
      "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
      "openai-beta": "responses_websockets=2026-02-06",
    },
  });
  const answer = await app.call(handshake, live("anthropic"));
  expect(answer.status).toBe(426);
  // RFC 9110 (15.5.22): a 426 sends Upgrade, naming the protocol the resource is served over.
  expect(answer.headers.get("upgrade")).toBe("HTTP/1.1");
  expect(await answer.json()).toMatchObject({
    error: { type: "invalid_request_error", code: "upgrade_required", param: null },
  });
  const get = await app.call(new Request("http://localhost:8787/v1/responses", AUTH), live("anthropic"));
  expect([get.status, get.headers.get("allow")]).toEqual([405, "POST, OPTIONS"]);
});

describe("values OpenAI's API refuses (the spec's enums and bounds): a 400 naming the param", () => {
  const call = { type: "function_call", call_id: "c1", name: "get_weather", arguments: "{}" };
  const output = { type: "function_call_output", call_id: "c1", output: "18 °C" };
  const names = (n: number) => Array.from({ length: n }, () => ({ type: "function", name: "get_weather" }));
  for (const [name, body, param] of [
    ["a call's status outside its enum", { input: [{ ...call, status: "done" }, output] }, "input[0].status"],
    ["an output's status outside its enum", { input: [call, { ...output, status: "finished" }] }, "input[1].status"],
    [
      "an assistant message's unknown phase",
      {
        input: [
          { role: "assistant", content: "Hi.", phase: "summary" },
          { role: "user", content: "Go on." },
        ],
      },
      "input[0].phase",
    ],
    [
      "an empty allowed_tools list",
      { tools: [WEATHER], tool_choice: { type: "allowed_tools", mode: "auto", tools: [] } },
      "tool_choice.tools",
    ],
    // No tool at all either: the list is still what is wrong (OpenAI refuses an empty array by its path).
    [
      "an empty allowed_tools list and no tools",
      { tool_choice: { type: "allowed_tools", mode: "auto", tools: [] } },
      "tool_choice.tools",
    ],
    [
      "an empty allowed_tools list and empty tools",
      { tools: [], tool_choice: { type: "allowed_tools", mode: "required", tools: [] } },
      "tool_choice.tools",
    ],
    [
      "more than 128 allowed tools",
      { tools: [WEATHER], tool_choice: { type: "allowed_tools", mode: "auto", tools: names(129) } },
      "tool_choice.tools",
    ],
    // The spec's AllowedToolChoice lists FunctionToolChoice, `type` required: repeated without it before.
    [
      "an allowed tool without its type",
      { tools: [WEATHER], tool_choice: { type: "allowed_tools", mode: "auto", tools: [{ name: "get_weather" }] } },
      "tool_choice.tools[0].type",
    ],
    ["a function's description not a string", { tools: [{ ...WEATHER, description: 42 }] }, "tools[0].description"],
  ] as const)
    it(name, () => refused(body, param));

  it("an allowed_tools list empty or past 128 is OpenAI's own error for an array's length: its code and its words", async () => {
    // OpenAI answers any array of the wrong length so (openai-node raises BadRequestError with this code).
    const empty = await send({ tools: [WEATHER], tool_choice: { type: "allowed_tools", mode: "auto", tools: [] } });
    expect(await empty.json()).toEqual({
      error: {
        type: "invalid_request_error",
        param: "tool_choice.tools",
        code: "empty_array",
        message:
          "Invalid 'tool_choice.tools': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      },
    });
    const long = await send({
      tools: [WEATHER],
      tool_choice: { type: "allowed_tools", mode: "auto", tools: names(129) },
    });
    expect(await long.json()).toEqual({
      error: {
        type: "invalid_request_error",
        param: "tool_choice.tools",
        code: "array_above_max_length",
        message:
          "Invalid 'tool_choice.tools': array too long. Expected an array with maximum length 128, but got an array with length 129 instead.",
      },
    });
  });

  it("the values the spec allows are taken: each status, each phase, null, 128 allowed tools", async () => {
    for (const status of ["in_progress", "completed", "incomplete", null])
      expect(
        (
          await send({
            tools: [WEATHER],
            input: [
              { ...call, status },
              { ...output, status },
            ],
          })
        ).status,
      ).toBe(200);
    for (const phase of ["commentary", "final_answer", null])
      expect(
        (
          await send({
            input: [
              { role: "assistant", content: "Hi.", phase },
              { role: "user", content: "Go on." },
            ],
          })
        ).status,
      ).toBe(200);
    const choice = { type: "allowed_tools", mode: "auto", tools: names(128) };
    expect((await send({ tools: [{ ...WEATHER, description: null }], tool_choice: choice })).status).toBe(200);
  });
});
