// Declared tools are a contract (issue 36): when a request has `tools`, a call to any other name
// ends as an `invalid-tool-call` whose message names the tool, with or without early validation,
// and every client protocol renders it as it renders any invalid call (docs/clients.md): the
// Worker's own SSE and /v1/run carry the event, the AI SDK's stream a `tool-input-error` with the
// message, Chat Completions, Messages, Responses and AG-UI the call as the model made it. Offline
// the prompt names a recording whose calls (search, weather) the request never declared; live, a
// provider answers with them. A request without tools keeps every call.
import { describe, expect, it } from "vitest";
import type { FinishEvent, InvalidToolCallEvent } from "../../src/index.ts";
import { upstreamProviders } from "../../worker/upstream/providers/index.ts";
import { recording, recordingsAvailable } from "../support/fixtures.ts";
import { FakeUpstream, readSSE, streamRequest, testEnv, worker } from "./support.ts";

const REPLAY = "chat-parallel-tool-calls-two-functions";
const PROMPT = `Replay ${REPLAY}: is there a Tigers game today, and the weather in Detroit?`;
const CALLED = upstreamProviders.openai.recordings.find((r) => r.name === REPLAY)!.tools;
const TOOL = {
  name: "lookup_order",
  description: "Look up an order by its id.",
  parameters: { type: "object", properties: { order_id: { type: "string" } }, required: ["order_id"] },
};
const KEY = "sk-test-0123456789abcdef";

const post = (path: string, body: unknown, env = testEnv(), upstream?: FakeUpstream) =>
  worker(upstream).call(
    new Request(`http://localhost:8787${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer t" },
      body: JSON.stringify(body),
    }),
    env,
  );

/** The `data:` payloads of an SSE answer, as JSON. */
async function dataOf(response: Response): Promise<Record<string, unknown>[]> {
  expect(response.status).toBe(200);
  return [...(await response.text()).matchAll(/^data: (\{.*)$/gm)].map(
    (m) => JSON.parse(m[1]!) as Record<string, unknown>,
  );
}

/** The message of an undeclared call to `name`. */
const notDeclared = (name: string) => `${name} is not one of the request's tools`;

/** The invalid calls of `POST /v1/stream`'s answer, and its finish. */
async function streamAnswer(response: Response): Promise<{ invalid: InvalidToolCallEvent[]; finish: FinishEvent }> {
  expect(response.status).toBe(200);
  const { events } = await readSSE(response);
  const finish = events.at(-1);
  if (finish?.type !== "finish") throw new Error(`ends with ${JSON.stringify(finish)}`);
  expect(events.some((event) => event.type === "tool-call")).toBe(false);
  return { invalid: events.filter((e): e is InvalidToolCallEvent => e.type === "invalid-tool-call"), finish };
}

/** `[name, raw arguments]` of the invalid calls `POST /v1/stream` gives offline for the prompt: the undeclared ones. */
async function undeclaredRaw(): Promise<[string, string][]> {
  const body = {
    provider: "openai",
    model: "gpt-4o-mini",
    messages: [{ role: "user", content: PROMPT }],
    tools: [TOOL],
  };
  const { invalid, finish } = await streamAnswer(await worker().call(streamRequest(body), testEnv()));
  expectUndeclared(invalid, finish);
  return invalid.map((call) => [call.name, call.rawArguments]);
}

function expectUndeclared(invalid: readonly InvalidToolCallEvent[], finish: FinishEvent): void {
  expect(invalid.map((call) => call.name)).toEqual(CALLED);
  for (const call of invalid) {
    expect(call.error.code).toBe("schema-mismatch");
    expect(call.error.message).toContain(notDeclared(call.name));
  }
  expect(finish.toolCalls).toEqual([]);
  expect(finish.invalidToolCalls.map((call) => call.name)).toEqual(CALLED);
}

describe.skipIf(!recordingsAvailable)("a call to a tool the request did not declare, on every client protocol", () => {
  it("the recording calls tools other than the request's", () => {
    expect(CALLED).toEqual(["search", "weather"]);
    expect(CALLED).not.toContain(TOOL.name);
  });

  for (const earlyValidation of [false, true]) {
    it(`POST /v1/stream: an invalid-tool-call naming the tool${earlyValidation ? ", with early_validation" : ""}`, async () => {
      const body = {
        provider: "openai",
        model: "gpt-4o-mini",
        messages: [{ role: "user", content: PROMPT }],
        tools: [TOOL],
        ...(earlyValidation ? { early_validation: true } : {}),
      };
      const response = await worker().call(streamRequest(body), testEnv());
      expect(response.headers.get("x-replay-recording")).toBe(REPLAY);
      const { invalid, finish } = await streamAnswer(response);
      expectUndeclared(invalid, finish);
    });
  }

  it("POST /v1/stream with a provider key: the provider's call to an undeclared tool is invalid too", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: [recording("openai", REPLAY).text] });
    const env = testEnv({ OPENAI_API_KEY: KEY, CLIENT_TOKEN: "t" });
    const body = {
      provider: "openai",
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "Hi" }],
      tools: [TOOL],
    };
    const { invalid, finish } = await streamAnswer(await post("/v1/stream", body, env, upstream));
    expectUndeclared(invalid, finish);
  });

  it("POST /v1/stream without tools: every call is passed on as the model made it", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: [recording("openai", REPLAY).text] });
    const env = testEnv({ OPENAI_API_KEY: KEY, CLIENT_TOKEN: "t" });
    const body = { provider: "openai", model: "gpt-4o-mini", messages: [{ role: "user", content: "Hi" }] };
    const { events } = await readSSE(await post("/v1/stream", body, env, upstream));
    expect(events.some((event) => event.type === "invalid-tool-call")).toBe(false);
    const finish = events.at(-1) as FinishEvent;
    expect(finish.toolCalls.map((call) => call.name)).toEqual(CALLED);
  });

  it("POST /v1/run: the invalid calls are answered with a tool-error, never run", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: [recording("openai", REPLAY).text] });
    const env = testEnv({ OPENAI_API_KEY: KEY, CLIENT_TOKEN: "t" });
    const body = {
      provider: "openai",
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "Hi" }],
      tools: ["calculate"],
      max_steps: 1,
    };
    const { events } = await readSSE(await post("/v1/run", body, env, upstream));
    const invalid = events.filter((e): e is InvalidToolCallEvent => e.type === "invalid-tool-call");
    const all = events as readonly { type: string; name?: string }[];
    expect(invalid.map((call) => [call.name, call.error.message])).toEqual(
      CALLED.map((name) => [name, expect.stringContaining(notDeclared(name))]),
    );
    expect(all.filter((e) => e.type === "tool-error").map((e) => e.name)).toEqual(CALLED);
    expect(all.some((e) => e.type === "tool-result")).toBe(false);
  });

  it("POST /v1/ui: a tool-input-error whose errorText names the tool", async () => {
    const body = {
      id: "chat-1",
      trigger: "submit-message",
      model: "openai/gpt-4o-mini",
      tools: [TOOL],
      messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: PROMPT }] }],
    };
    const parts = await dataOf(await post("/v1/ui", body));
    expect(parts.some((part) => part["type"] === "tool-input-available")).toBe(false);
    const errors = parts.filter((part) => part["type"] === "tool-input-error");
    expect(errors.map((part) => [part["toolName"], part["errorText"]])).toEqual(
      CALLED.map((name) => [name, expect.stringContaining(notDeclared(name))]),
    );
  });

  // The protocols below have no place for an invalid call's message (docs/clients.md): the call
  // goes to the client as the model made it (the raw arguments of /v1/stream's invalid-tool-call
  // for the same request), and the client, which has no such tool, says so to the model.
  it("POST /v1/chat/completions: the calls as the model made them", async () => {
    const raw = await undeclaredRaw();
    const body = {
      model: "openai/gpt-4o-mini",
      messages: [{ role: "user", content: PROMPT }],
      tools: [{ type: "function", function: TOOL }],
    };
    const completion = (await (await post("/v1/chat/completions", body)).json()) as {
      choices: { message: { tool_calls: { function: { name: string; arguments: string } }[] } }[];
    };
    const calls = completion.choices[0]!.message.tool_calls;
    expect(calls.map((call) => [call.function.name, call.function.arguments])).toEqual(raw);
  });

  it("POST /v1/messages: tool_use blocks as the model made them", async () => {
    const raw = await undeclaredRaw();
    const body = {
      model: "openai/gpt-4o-mini",
      max_tokens: 1024,
      messages: [{ role: "user", content: PROMPT }],
      tools: [{ name: TOOL.name, description: TOOL.description, input_schema: TOOL.parameters }],
    };
    const message = (await (await post("/v1/messages", body)).json()) as {
      content: { type: string; name?: string; input?: unknown }[];
    };
    const uses = message.content.filter((block) => block.type === "tool_use");
    expect(uses.map((block) => [block.name, block.input])).toEqual(raw.map(([name, args]) => [name, JSON.parse(args)]));
  });

  it("POST /v1/responses: function_call items as the model made them", async () => {
    const raw = await undeclaredRaw();
    const body = { model: "openai/gpt-4o-mini", input: PROMPT, tools: [{ type: "function", ...TOOL }] };
    const response = (await (await post("/v1/responses", body)).json()) as {
      output: { type: string; name?: string; arguments?: string }[];
    };
    const calls = response.output.filter((item) => item.type === "function_call");
    expect(calls.map((item) => [item.name, item.arguments])).toEqual(raw);
  });

  it("POST /v1/ag-ui: the calls as the model made them", async () => {
    const raw = await undeclaredRaw();
    const body = {
      threadId: "t1",
      runId: "r1",
      state: {},
      context: [],
      tools: [TOOL],
      messages: [{ id: "m1", role: "user", content: PROMPT }],
      forwardedProps: { model: "openai/gpt-4o-mini" },
    };
    const events = await dataOf(await post("/v1/ag-ui", body));
    const starts = events.filter((e) => e["type"] === "TOOL_CALL_START");
    const argsOf = (id: unknown) =>
      events
        .filter((e) => e["type"] === "TOOL_CALL_ARGS" && e["toolCallId"] === id)
        .map((e) => e["delta"])
        .join("");
    expect(starts.map((e) => [e["toolCallName"], argsOf(e["toolCallId"])])).toEqual(raw);
    expect(events.at(-1)?.["type"]).toBe("RUN_FINISHED");
  });
});
