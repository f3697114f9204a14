// POST /v1/run against the recorded multi-step conversations of the replay upstream: the loop
// runs offline, the tools run, and the request of each step carries the previous steps' calls
// and results in the provider's own shape.
import { describe, expect, it } from "vitest";
import type { RunnableTool } from "../../src/index.ts";
import { stepOfRequest, type RecordedConversation } from "../../worker/replay/conversation.ts";
import {
  anthropicShellTwoPlusTwo,
  geminiCapitalTemperature,
  openaiResponsesMultiply,
  openaiWeatherTwoCities,
  recordedConversations,
} from "../../worker/replay/conversations/index.ts";
import { replayConversation, splitEvents } from "../../worker/replay/replay-upstream.ts";
import { runRoute, type RunEvent } from "../../worker/routes/run.ts";
import { ManualTimers, testEnv, worker } from "./support.ts";
import { createParser } from "eventsource-parser";

const runRequest = (body: unknown, headers: Record<string, string> = {}): Request =>
  new Request("http://localhost:8787/v1/run", { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

async function readRun(response: Response): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  const parser = createParser({ onEvent: (message) => events.push(JSON.parse(message.data) as RunEvent) });
  parser.feed(await response.text());
  return events;
}

/** A provider stand-in that answers with a recorded conversation and keeps each request body it was sent. */
function recordingUpstream(conversation: RecordedConversation) {
  const replay = replayConversation(conversation, conversation.provider, { delayMs: 0, timers: new ManualTimers() });
  const bodies: Record<string, unknown>[] = [];
  return {
    bodies,
    fetch: async (request: Request): Promise<Response> => {
      bodies.push((await request.clone().json()) as Record<string, unknown>);
      return replay(request);
    },
  };
}

/** A tool that answers each call from a table (what the recorded application answered), keyed by the call's JSON arguments. */
function tableTool(answers: Record<string, string>): RunnableTool & { seen: unknown[] } {
  const seen: unknown[] = [];
  return {
    seen,
    run(args) {
      seen.push(args);
      const answer = answers[JSON.stringify(args)];
      if (answer === undefined) throw new Error("unexpected arguments");
      return answer;
    },
  };
}

const live = (key: "OPENAI_API_KEY" | "ANTHROPIC_API_KEY" | "GEMINI_API_KEY") => testEnv({ [key]: "test-key", CLIENT_TOKEN: "t" });
const auth = { authorization: "Bearer t" };

describe("the recorded conversations", () => {
  for (const [provider, conversations] of Object.entries(recordedConversations)) {
    for (const conversation of conversations) {
      it(`${provider}: "${conversation.name}" starts with tool calls, ends with text, and each recorded request is at its own step`, () => {
        expect(conversation.provider).toBe(provider);
        expect(conversation.steps.length).toBeGreaterThanOrEqual(2);
        conversation.steps.forEach((step, i) => expect(stepOfRequest(conversation.provider, step.request)).toBe(i));
        for (const step of conversation.steps) expect(splitEvents(step.response).join("")).toBe(step.response);
      });
    }
  }
});

describe("stepOfRequest", () => {
  it("counts the rounds of tool results after the last prompt: parallel results count once, an earlier exchange not at all", () => {
    const call = { role: "assistant", content: null, tool_calls: [{ id: "a" }, { id: "b" }] };
    const results = [{ role: "tool", tool_call_id: "a", content: "1" }, { role: "tool", tool_call_id: "b", content: "2" }];
    expect(stepOfRequest("openai", { messages: [{ role: "user", content: "q" }] })).toBe(0);
    expect(stepOfRequest("openai", { messages: [{ role: "user", content: "q" }, call, ...results] })).toBe(1);
    expect(stepOfRequest("openai", { messages: [{ role: "user", content: "q" }, call, ...results, call, ...results] })).toBe(2);
    expect(stepOfRequest("openai", { messages: [{ role: "user", content: "q" }, call, ...results, { role: "assistant", content: "x" }, { role: "user", content: "again" }] })).toBe(0);
    const toolResult = { role: "user", content: [{ type: "tool_result", tool_use_id: "a", content: "1" }] };
    expect(stepOfRequest("anthropic", { messages: [{ role: "user", content: [{ type: "text", text: "q" }] }, { role: "assistant", content: [] }, toolResult] })).toBe(1);
    expect(stepOfRequest("openai", "not a request body")).toBe(0);
  });
});

describe("POST /v1/run offline (no provider key): the replay upstream answers each step", () => {
  it("openai: both recorded get_weather calls are answered (here with unknown-tool errors), then the recorded text", async () => {
    const response = await worker().call(
      runRequest({ provider: "openai", model: "gpt-4o-mini", messages: [{ role: "user", content: "What is the weather in New York City and London?" }], tools: ["calculate"] }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(response.headers.get("x-replay-recording")).toBe("openai-weather-two-cities");
    const events = await readRun(response);
    const errors = events.filter((e) => e.type === "tool-error");
    expect(errors).toEqual([0, 1].map((index) => expect.objectContaining({ step: 1, index, name: "get_weather", error: expect.objectContaining({ code: "unknown-tool" }) })));
    expect(errors[0]).toMatchObject({ error: { message: "No tool of that name exists. Call one of: calculate." } });
    const text = events.flatMap((e) => (e.type === "text-delta" ? [e.text] : [])).join("");
    expect(text).toBe("The weather in New York City is 25 degrees and sunny, while in London, it is 15 degrees and raining.");
    expect(events.filter((e) => e.type === "step-finish").map((e) => e.step)).toEqual([1, 2]);
    expect(events.at(-1)).toEqual({ type: "loop-finish", steps: 2, reason: "no-tool-calls" });
  });

  it("anthropic: the recorded bash call gets an unknown-tool error (is_error) and the run ends with the recorded text", async () => {
    const response = await worker().call(
      runRequest({ provider: "anthropic", model: "claude-sonnet-4-6", messages: [{ role: "user", content: "What is 2 + 2? Use python to calculate it." }], tools: ["calculate", "current_time"] }),
    );
    expect(response.headers.get("x-replay-recording")).toBe("anthropic-shell-two-plus-two");
    const events = await readRun(response);
    const stepOne = events.find((e) => e.type === "step-finish" && e.step === 1);
    expect(stepOne).toMatchObject({ messages: [{ role: "assistant" }, { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_015Rk6ndKaiXYx9AiJcpUR2H", is_error: true }] }] });
    expect(events.flatMap((e) => (e.type === "text-delta" ? [e.text] : [])).join("")).toBe("The result of **2 + 2 = 4**! 🎉");
    expect(events.at(-1)).toEqual({ type: "loop-finish", steps: 2, reason: "no-tool-calls" });
  });

  it("gemini: three steps, get_capital then get_temperature, then the text", async () => {
    const response = await worker().call(
      runRequest({ provider: "gemini", model: "gemini-2.0-flash", messages: [{ role: "user", content: "What is the temperature of the capital of France?" }], tools: ["convert_units"] }),
    );
    const events = await readRun(response);
    expect(events.filter((e) => e.type === "tool-call").map((e) => [e.step, e.name])).toEqual([
      [1, "get_capital"],
      [2, "get_temperature"],
    ]);
    expect(events.at(-1)).toEqual({ type: "loop-finish", steps: 3, reason: "no-tool-calls" });
  });

  it("openai-responses: the recorded multiply call, then the recorded text", async () => {
    const response = await worker().call(runRequest({ provider: "openai-responses", model: "gpt-5.5", messages: [{ role: "user", content: "What is 1231 * 2331? Use the multiply tool." }], tools: ["calculate"] }));
    expect(response.headers.get("x-replay-recording")).toBe("openai-responses-multiply");
    const events = await readRun(response);
    expect(events.find((e) => e.type === "tool-error")).toMatchObject({ step: 1, id: "call_sVidsfFJ6zlzRpelrPkTPlpd", name: "multiply", error: { code: "unknown-tool" } });
    expect(events.flatMap((e) => (e.type === "text-delta" ? [e.text] : [])).join("")).toBe("1231 × 2331 = **2,869,461**");
    expect(events.at(-1)).toEqual({ type: "loop-finish", steps: 2, reason: "no-tool-calls" });
  });

  it("openai: a prompt asking for a table replays the constructed unit_table run: its result grows row by row, then the text", async () => {
    const timers = new ManualTimers();
    const pending = worker(undefined, timers).call(
      runRequest({ provider: "openai", model: "gpt-4o-mini", messages: [{ role: "user", content: "Make me a table of km to miles" }], tools: ["unit_table"] }),
    );
    // The rows are paced on the Worker's timers: let each one come.
    const rowDelays = (async () => {
      for (let row = 1; row < 5; row++) {
        await timers.whenScheduled(150);
        timers.fireWhere((ms) => ms === 150);
      }
    })();
    const response = await pending;
    expect(response.headers.get("x-replay-recording")).toBe("openai-unit-table-constructed");
    const events = await readRun(response);
    await rowDelays;
    const results = events.filter((e) => e.type === "tool-result");
    expect(results.map((e) => e.type === "tool-result" && [e.preliminary ?? false, (e.result as { rows: unknown[] }).rows.length])).toEqual([
      [true, 1],
      [true, 2],
      [true, 3],
      [true, 4],
      [true, 5],
      [false, 5],
    ]);
    expect(results.at(-1)).toMatchObject({ step: 1, name: "unit_table", result: { from: "km", to: "mi", rows: [[1, 0.621371192237], [5, 3.10685596119], [10, 6.21371192237], [21.0975, 13.1093787282], [42.195, 26.2187574565]] } });
    const stepOne = events.find((e) => e.type === "step-finish" && e.step === 1);
    expect(stepOne).toMatchObject({ messages: [{ role: "assistant" }, { role: "tool", tool_call_id: "call_demo_unit_table", content: JSON.stringify((results.at(-1) as { result: unknown }).result) }] });
    expect(events.flatMap((e) => (e.type === "text-delta" ? [e.text] : [])).join("")).toContain("a marathon (42.195 km) is 26.22 mi");
    expect(events.at(-1)).toEqual({ type: "loop-finish", steps: 2, reason: "no-tool-calls" });
  });

  it("every frame is numbered and named after its event, and each event carries its step", async () => {
    const response = await worker().call(runRequest({ provider: "openai", model: "m", messages: [{ role: "user", content: "weather in London" }], tools: [] }));
    const text = await response.text();
    const frames: { event?: string | undefined; id?: string | undefined; data: string }[] = [];
    createParser({ onEvent: (m) => frames.push(m) }).feed(text);
    frames.forEach((frame, i) => {
      const event = JSON.parse(frame.data) as RunEvent;
      expect(frame.id).toBe(String(i));
      expect(frame.event).toBe(event.type);
      if (event.type !== "loop-finish") expect(event.step).toBeGreaterThanOrEqual(1);
    });
  });
});

describe("POST /v1/run: the request of step 2 carries the calls and results of step 1", () => {
  it("openai: two parallel calls run, and the second request has the assistant turn and one tool message per call", async () => {
    const upstream = recordingUpstream(openaiWeatherTwoCities);
    const getWeather = tableTool({ '{"location":"New York City"}': "25 degrees and sunny", '{"location":"London"}': "15 degrees and raining" });
    const recorded = openaiWeatherTwoCities.steps[0]!.request as { messages: unknown[] };
    const response = await runRoute(
      runRequest({ provider: "openai", model: "gpt-4o-mini", messages: recorded.messages, tools: ["get_weather"] }, auth),
      live("OPENAI_API_KEY"),
      { fetch: upstream.fetch, timers: new ManualTimers() },
      { get_weather: getWeather },
    );
    const events = await readRun(response);
    expect(events.filter((e) => e.type === "tool-result").map((e) => e.type === "tool-result" && [e.id, e.result])).toEqual(
      expect.arrayContaining([
        ["call_9ujI2ZExKzIGa57dsFCuwSXI", "25 degrees and sunny"],
        ["call_M5Jmiz7Y7ZUiASk3ShRROpUr", "15 degrees and raining"],
      ]),
    );
    expect(upstream.bodies).toHaveLength(2);
    const [first, second] = upstream.bodies;
    expect(first!["messages"]).toEqual(recorded.messages);
    expect(second!["messages"]).toEqual([
      ...recorded.messages,
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_9ujI2ZExKzIGa57dsFCuwSXI", type: "function", function: { name: "get_weather", arguments: '{"location": "New York City"}' } },
          { id: "call_M5Jmiz7Y7ZUiASk3ShRROpUr", type: "function", function: { name: "get_weather", arguments: '{"location": "London"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_9ujI2ZExKzIGa57dsFCuwSXI", content: "25 degrees and sunny" },
      { role: "tool", tool_call_id: "call_M5Jmiz7Y7ZUiASk3ShRROpUr", content: "15 degrees and raining" },
    ]);
    // The same calls and results as the recorded application sent (which also listed each call's `index`).
    const recordedSecond = (openaiWeatherTwoCities.steps[1]!.request as { messages: Record<string, unknown>[] }).messages;
    expect((second!["messages"] as unknown[]).slice(3)).toEqual(recordedSecond.slice(3));
    expect((recordedSecond[2]!["tool_calls"] as Record<string, unknown>[]).map(({ index: _index, ...call }) => call)).toEqual(
      ((second!["messages"] as Record<string, unknown>[])[2]!["tool_calls"] as unknown[]),
    );
    const { messages: _m1, ...firstRest } = first!;
    const { messages: _m2, ...secondRest } = second!;
    expect(secondRest).toEqual(firstRest);
    expect(events.at(-1)).toEqual({ type: "loop-finish", steps: 2, reason: "no-tool-calls" });
  });

  it("anthropic: the second request's messages are exactly the recorded ones", async () => {
    const upstream = recordingUpstream(anthropicShellTwoPlusTwo);
    const bash = tableTool({ '{"command":"python3 -c \\"print(2 + 2)\\""}': "4" });
    const response = await runRoute(
      runRequest(
        { provider: "anthropic", model: "claude-sonnet-4-6", messages: [{ role: "system", content: "Always use the shell tool. Keep responses brief." }, { role: "user", content: "What is 2 + 2? Use python to calculate it." }], tools: ["bash"] },
        auth,
      ),
      live("ANTHROPIC_API_KEY"),
      { fetch: upstream.fetch, timers: new ManualTimers() },
      { bash },
    );
    const events = await readRun(response);
    expect(bash.seen).toEqual([{ command: 'python3 -c "print(2 + 2)"' }]);
    expect(events.find((e) => e.type === "tool-result")).toMatchObject({ step: 1, id: "toolu_015Rk6ndKaiXYx9AiJcpUR2H", name: "bash", result: "4" });
    const recordedFirst = anthropicShellTwoPlusTwo.steps[0]!.request as Record<string, unknown>;
    const recordedSecond = anthropicShellTwoPlusTwo.steps[1]!.request as Record<string, unknown>;
    expect(upstream.bodies.map((body) => body["messages"])).toEqual([recordedFirst["messages"], recordedSecond["messages"]]);
    expect(upstream.bodies[1]!["system"]).toBe(recordedSecond["system"]);
    expect(events.at(-1)).toEqual({ type: "loop-finish", steps: 2, reason: "no-tool-calls" });
  });

  it("openai-responses: the second request's input has the function_call and its function_call_output", async () => {
    const upstream = recordingUpstream(openaiResponsesMultiply);
    const multiply = tableTool({ '{"a":1231,"b":2331}': "2869461" });
    const response = await runRoute(
      runRequest({ provider: "openai-responses", model: "gpt-5.5", messages: [{ role: "user", content: "What is 1231 * 2331? Use the multiply tool." }], tools: ["multiply"] }, auth),
      live("OPENAI_API_KEY"),
      { fetch: upstream.fetch, timers: new ManualTimers() },
      { multiply },
    );
    const events = await readRun(response);
    expect(events.find((e) => e.type === "tool-result")).toMatchObject({ step: 1, id: "call_sVidsfFJ6zlzRpelrPkTPlpd", result: "2869461" });
    const recorded = (openaiResponsesMultiply.steps[1]!.request as { input: Record<string, unknown>[] }).input;
    expect(upstream.bodies[1]!["input"]).toEqual([
      { role: "user", content: "What is 1231 * 2331? Use the multiply tool." },
      { type: "function_call", call_id: "call_sVidsfFJ6zlzRpelrPkTPlpd", name: "multiply", arguments: '{"a":1231,"b":2331}' },
      { type: "function_call_output", call_id: "call_sVidsfFJ6zlzRpelrPkTPlpd", output: "2869461" },
    ]);
    // As recorded, except that the recorded client re-serialized the arguments with spaces.
    expect(recorded[2]).toEqual((upstream.bodies[1]!["input"] as unknown[])[2]);
    expect({ ...recorded[1], arguments: JSON.parse(recorded[1]!["arguments"] as string) }).toEqual({ ...((upstream.bodies[1]!["input"] as Record<string, unknown>[])[1]), arguments: { a: 1231, b: 2331 } });
    expect(events.at(-1)).toEqual({ type: "loop-finish", steps: 2, reason: "no-tool-calls" });
  });

  it("gemini: each request carries every earlier functionCall and functionResponse", async () => {
    const upstream = recordingUpstream(geminiCapitalTemperature);
    const response = await runRoute(
      runRequest({ provider: "gemini", model: "gemini-2.0-flash", messages: [{ role: "user", content: "What is the temperature of the capital of France?" }], tools: ["get_capital", "get_temperature"] }, auth),
      live("GEMINI_API_KEY"),
      { fetch: upstream.fetch, timers: new ManualTimers() },
      { get_capital: tableTool({ '{"country":"France"}': "Paris" }), get_temperature: tableTool({ '{"city":"Paris"}': "30°C" }) },
    );
    const events = await readRun(response);
    expect(upstream.bodies.map((body) => (body["contents"] as unknown[]).length)).toEqual([1, 3, 5]);
    expect((upstream.bodies[2]!["contents"] as unknown[]).slice(1)).toEqual([
      { role: "model", parts: [{ functionCall: { name: "get_capital", args: { country: "France" } } }] },
      { role: "user", parts: [{ functionResponse: { name: "get_capital", response: { result: "Paris" } } }] },
      { role: "model", parts: [{ functionCall: { name: "get_temperature", args: { city: "Paris" } } }] },
      { role: "user", parts: [{ functionResponse: { name: "get_temperature", response: { result: "30°C" } } }] },
    ]);
    expect(events.at(-1)).toEqual({ type: "loop-finish", steps: 3, reason: "no-tool-calls" });
  });
});
