// early_validation and abort_on_violation on POST /v1/stream and POST /v1/run, against a fake
// provider under workerd.
import { createParser } from "eventsource-parser";
import { describe, expect, it } from "vitest";
import { joinDeltas } from "../../src/index.ts";
import { createFetchHandler } from "../../worker/app.ts";
import type { RunEvent } from "../../worker/services/tool-loop.ts";
import { upstreamProviders } from "../../worker/upstream/providers/index.ts";
import { recordingsAvailable } from "../support/fixtures.ts";
import {
  chatChunk,
  declaredTools,
  eventually,
  FakeUpstream,
  ManualTimers,
  openAIChunks,
  readSSE,
  responses,
  streamRequest,
  testEnv,
  validBody,
  worker,
} from "./support.ts";

const liveEnv = () => testEnv({ OPENAI_API_KEY: "sk-test", CLIENT_TOKEN: "t" });
const auth = { headers: { authorization: "Bearer t" } };
const unitTool = {
  name: "get_weather",
  parameters: {
    type: "object",
    properties: { city: { type: "string" }, unit: { type: "string", enum: ["celsius", "fahrenheit"] } },
  },
};
const call = (args: string, id?: string) =>
  chatChunk({
    tool_calls: [
      {
        index: 0,
        ...(id ? { id, function: { name: "get_weather", arguments: args } } : { function: { arguments: args } }),
      },
    ],
  });
/** A call whose unit goes wrong at its third fragment, with much more after it. */
const badCall = openAIChunks([
  chatChunk({ content: "Checking." }),
  call('{"city": "Oslo", ', "call_1"),
  call('"unit": "kel'),
  ...Array.from({ length: 20 }, () => call("vin")),
  call('"}'),
  chatChunk({}, "tool_calls"),
]);

async function expectInvalid(body: Record<string, unknown>, field: string): Promise<void> {
  const upstream = new FakeUpstream({ kind: "hang" });
  const response = await worker(upstream).call(streamRequest(validBody(body), auth), liveEnv());
  expect(response.status).toBe(400);
  expect(await response.json()).toMatchObject({ error: { code: "invalid_request", field } });
  expect(upstream.requests).toHaveLength(0);
}

describe("early_validation and abort_on_violation", () => {
  it("values that are not booleans, and abort_on_violation without early_validation, are 400 naming the field", async () => {
    await expectInvalid({ early_validation: "yes" }, "early_validation");
    await expectInvalid({ early_validation: 1 }, "early_validation");
    await expectInvalid({ early_validation: true, abort_on_violation: "true" }, "abort_on_violation");
    await expectInvalid({ abort_on_violation: true }, "abort_on_violation");
    await expectInvalid({ early_validation: false, abort_on_violation: true }, "abort_on_violation");
  });

  it("/v1/stream with early_validation sends tool-call-violation the moment the call goes wrong, then its invalid-tool-call", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: badCall });
    const response = await worker(upstream).call(
      streamRequest(validBody({ tools: [unitTool], early_validation: true }), auth),
      liveEnv(),
    );
    const { messages, events } = await readSSE(response);
    const types = events.map((event) => event.type);
    // The violation follows the delta that carried "kel", well before the rest of the call.
    const at = types.indexOf("tool-call-violation");
    expect(types[at - 1]).toBe("tool-call-delta");
    const before = events
      .slice(0, at)
      .flatMap((event) => (event.type === "tool-call-delta" ? [event.argumentsDelta] : []));
    expect(before.join("")).toBe('{"city": "Oslo", "unit": "kel');
    expect(messages.find((message) => message.event === "tool-call-violation")?.data).toBe(
      JSON.stringify({
        type: "tool-call-violation",
        index: 0,
        id: "call_1",
        name: "get_weather",
        error: { code: "schema-mismatch", message: 'Expected one of "celsius", "fahrenheit".', path: "/unit" },
      }),
    );
    expect(types.slice(-2)).toEqual(["invalid-tool-call", "finish"]);
    // Not cancelled for the violation: the body is let go only at the provider's own end ([DONE]).
    expect([undefined, "The response ended."]).toContain(upstream.cancelled?.reason);
  });

  it("/v1/stream with abort_on_violation ends with abort schema-violation and cancels the provider request", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: badCall });
    const response = await worker(upstream).call(
      streamRequest(validBody({ tools: [unitTool], early_validation: true, abort_on_violation: true }), auth),
      liveEnv(),
    );
    const { events } = await readSSE(response);
    expect(joinDeltas(events).map((event) => event.type)).toEqual([
      "text-delta",
      "tool-call-start",
      "tool-call-delta",
      "tool-call-violation",
      "abort",
    ]);
    expect(events.at(-1)).toMatchObject({
      type: "abort",
      reason: "schema-violation",
      error: { code: "schema-mismatch", path: "/unit" },
      discarded: [{ id: "call_1", rawArguments: '{"city": "Oslo", "unit": "kel' }],
    });
    expect(await eventually(() => upstream.cancelled !== undefined)).toBe(true);
    expect(upstream.requests[0]?.signal.aborted).toBe(true);
    expect(upstream.pulled).toBeLessThan(badCall.length);
  });

  it("a resumable response (Durable Object, replay upstream) carries the fields through, and a resume replays the violation", async () => {
    const env = testEnv({ RESPONSES: responses });
    const app = worker(new FakeUpstream({ kind: "network-error" }));
    const tools = [
      { name: "search", parameters: { type: "object", properties: { query: { type: "string" } } } },
      { name: "weather", parameters: { type: "object", properties: { city: { enum: ["Paris", "London"] } } } },
    ];
    const started = await app.call(
      streamRequest(
        // Named: a recording whose calls the tools' schemas refuse is never picked by its keywords.
        validBody({
          tools,
          early_validation: true,
          messages: [
            { role: "user", content: "replay chat-parallel-tool-calls-two-functions: Tigers game in Detroit?" },
          ],
        }),
      ),
      env,
    );
    const id = started.headers.get("x-response-id")!;
    const { messages } = await readSSE(started);
    const violation = messages.find((message) => message.event === "tool-call-violation");
    expect(JSON.parse(violation?.data ?? "null")).toMatchObject({ name: "weather", error: { path: "/city" } });
    const resumed = await app.call(
      new Request(`http://localhost:8787/v1/stream/${id}`, { headers: { "last-event-id": "-1" } }),
      env,
    );
    expect((await readSSE(resumed)).messages).toEqual(messages);
  });

  it("issue 33's backtracking patterns finish: the early and the final check of a pattern run in linear time", async () => {
    // On a backtracking RegExp each of these ran for longer than any test waits (2^40 paths).
    const tool = {
      name: "get_weather",
      parameters: {
        type: "object",
        properties: { city: { type: "string", pattern: "^(a+)+$" } },
        patternProperties: { "^(?:.?){40}(?:.?){40}$x": { type: "number" } },
      },
    };
    const chunks = openAIChunks([
      call('{"city": "', "call_1"),
      call(`${"a".repeat(40)}!"}`),
      chatChunk({}, "tool_calls"),
    ]);
    const upstream = new FakeUpstream({ kind: "sse", chunks });
    const { events } = await readSSE(
      await worker(upstream).call(streamRequest(validBody({ tools: [tool], early_validation: true }), auth), liveEnv()),
    );
    expect(events.find((event) => event.type === "tool-call-violation")).toMatchObject({
      error: { message: "Expected to match its pattern.", path: "/city" },
    });
    expect(events.find((event) => event.type === "invalid-tool-call")).toMatchObject({
      error: { issues: ["$.city must match its pattern"] },
    });
  });

  it("without early_validation a call is passed on as the model made it", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: badCall });
    const { events } = await readSSE(
      await worker(upstream).call(streamRequest(validBody({ tools: [unitTool] }), auth), liveEnv()),
    );
    expect(events.map((event) => event.type).slice(-2)).toEqual(["tool-call", "finish"]);
  });

  it("/v1/run with abort_on_violation stops the bad step and asks the model again at once with what was wrong", async () => {
    const bodies: Record<string, unknown>[] = [];
    const firstBody = new FakeUpstream({ kind: "sse", chunks: [] });
    const answers = [
      openAIChunks([
        chatChunk({
          tool_calls: [{ index: 0, id: "call_c", function: { name: "calculate", arguments: '{"expression": 4' } }],
        }),
        ...Array.from({ length: 20 }, () => chatChunk({ tool_calls: [{ index: 0, function: { arguments: "2" } }] })),
        chatChunk({}, "tool_calls"),
      ]),
      openAIChunks([chatChunk({ content: "It is 42." }), chatChunk({}, "stop")]),
    ];
    const fetch = async (url: string, init: RequestInit): Promise<Response> => {
      const request = new Request(url, init);
      bodies.push((await request.json()) as Record<string, unknown>);
      firstBody.answer = { kind: "sse", chunks: answers[bodies.length - 1]! };
      return firstBody.fetch(request.url, { method: "POST", body: "{}", signal: request.signal });
    };
    const handler = createFetchHandler({ fetch, timers: new ManualTimers() });
    const request = new Request("http://localhost:8787/v1/run", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer t" },
      body: JSON.stringify({
        provider: "openai",
        model: "gpt-4o-mini",
        messages: [{ role: "user", content: "6 * 7?" }],
        tools: ["calculate"],
        early_validation: true,
        abort_on_violation: true,
      }),
    });
    const response = await handler(request, liveEnv());
    expect(response.status).toBe(200);
    const events: RunEvent[] = [];
    const parser = createParser({ onEvent: (message) => events.push(JSON.parse(message.data) as RunEvent) });
    parser.feed(await response.text());
    expect(events.map((event) => event.type)).toEqual([
      "tool-call-start",
      "tool-call-delta",
      "tool-call-violation",
      "abort",
      "tool-error",
      "step-finish",
      "text-delta",
      "finish",
      "step-finish",
      "loop-finish",
    ]);
    expect(events.at(-1)).toMatchObject({ type: "loop-finish", reason: "no-tool-calls", steps: 2 });
    const toolMessage = (bodies[1]!["messages"] as { role: string; content: string }[]).find(
      (message) => message.role === "tool",
    );
    expect(toolMessage?.content).toMatch(
      /^The arguments stopped matching the tool's parameters at \/expression while they streamed: Expected string, found number\./,
    );
  });

  // Early validation reads the provider's protocol object, fragment runs read it too: the finish is
  // the same either way, its `order` (kept for any protocol object) included.
  it("a stream's finish is the same with and without early_validation, its order included", async () => {
    // Text after the call: a turn whose `order` says more than text, then calls.
    const chunks = openAIChunks([
      call('{"city": "Oslo"}', "call_1"),
      chatChunk({ content: "Done." }),
      chatChunk({}, "tool_calls"),
    ]);
    const finish = async (early: boolean) => {
      const upstream = new FakeUpstream({ kind: "sse", chunks });
      const body = validBody({ tools: [unitTool], ...(early ? { early_validation: true } : {}) });
      const response = await worker(upstream).call(streamRequest(body, auth), liveEnv());
      return (await readSSE(response)).events.filter((event) => event.type === "finish");
    };
    const without = await finish(false);
    expect(without[0]).toMatchObject({ order: [{ type: "tool-call", index: 0 }, { type: "text" }] });
    expect(await finish(true)).toEqual(without);
  });
  // /v1/run reads each step with the protocol object /v1/stream reads with: a step's finish has
  // the same `order` (an OpenAI Chat turn's, which its provider's own parts do not keep).
  it("/v1/run: a step's finish has the order /v1/stream's has, with and without early_validation", async () => {
    const calc = (args: string, id?: string) =>
      chatChunk({
        tool_calls: [{ index: 0, ...(id ? { id, function: { name: "calculate", arguments: args } } : {}) }],
      });
    const steps = [
      openAIChunks([
        calc('{"expression": "6 * 7"}', "call_c"),
        chatChunk({ content: "Done." }),
        chatChunk({}, "tool_calls"),
      ]),
      openAIChunks([chatChunk({ content: "It is 42." }), chatChunk({}, "stop")]),
    ];
    const finishes = async (early: boolean) => {
      const upstream = new FakeUpstream({ kind: "sse", chunks: [] });
      let step = 0;
      const fetch = (url: string, init: RequestInit): Promise<Response> => {
        upstream.answer = { kind: "sse", chunks: steps[step++]! };
        return upstream.fetch(url, init);
      };
      const handler = createFetchHandler({ fetch, timers: new ManualTimers() });
      const body = {
        provider: "openai",
        model: "gpt-4o-mini",
        messages: [{ role: "user", content: "6 * 7?" }],
        tools: ["calculate"],
        ...(early ? { early_validation: true } : {}),
      };
      const request = new Request("http://localhost:8787/v1/run", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer t" },
        body: JSON.stringify(body),
      });
      const events: RunEvent[] = [];
      const parser = createParser({ onEvent: (message) => events.push(JSON.parse(message.data) as RunEvent) });
      parser.feed(await (await handler(request, liveEnv())).text());
      return events.filter((event) => event.type === "finish");
    };
    const without = await finishes(false);
    expect(without).toHaveLength(2);
    expect(without[0]).toMatchObject({ order: [{ type: "tool-call", index: 0 }, { type: "text" }] });
    expect(await finishes(true)).toEqual(without);
  });
  it.skipIf(!recordingsAvailable)("each recorded stream finishes alike with and without early_validation", async () => {
    for (const [provider, upstream] of Object.entries(upstreamProviders))
      for (const recording of upstream.recordings) {
        const prompt = `Replay ${recording.name}: tell me about ${recording.keywords.join(" and ")}`;
        const body = { provider, messages: [{ role: "user", content: prompt }] };
        const tools = declaredTools(["get_weather", ...recording.tools]);
        const finish = async (early: boolean) => {
          const request = validBody({ ...body, tools, ...(early ? { early_validation: true } : {}) });
          const response = await worker().call(streamRequest(request));
          return (await readSSE(response)).events.filter((event) => event.type === "finish");
        };
        const without = await finish(false);
        expect(without, recording.name).toHaveLength(1); // a finish to compare, not two empty lists
        expect(await finish(true), recording.name).toEqual(without);
      }
  });
});
