// POST /v1/run offline: without a provider key, the scripted model answers each step in the
// provider's own wire format, calling the Worker's tools and answering from their results. Then,
// with a key, against the recorded multi-step conversations: the request of each step carries the
// previous steps' calls and results in the provider's own shape.
import { describe, expect, it } from "vitest";
import type { RunnableTool } from "../../src/index.ts";
import type { RecordedConversation } from "../support/conversation.ts";
import {
  anthropicShellTwoPlusTwo,
  geminiCapitalTemperature,
  openaiResponsesMultiply,
  openaiWeatherTwoCities,
} from "../support/conversations/index.ts";
import { providerNames } from "../../worker/upstream/providers/index.ts";
import { runRoute } from "../../worker/protocols/tool-call-events/run-route.ts";
import type { RunEvent } from "../../worker/services/tool-loop.ts";
import { demoTools } from "../../worker/demo-tools/index.ts";
import { ManualTimers, testEnv, worker } from "./support.ts";
import { createParser } from "eventsource-parser";

const runRequest = (body: unknown, headers: Record<string, string> = {}): Request =>
  new Request("http://localhost:8787/v1/run", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

async function readRun(response: Response): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  const parser = createParser({ onEvent: (message) => events.push(JSON.parse(message.data) as RunEvent) });
  parser.feed(await response.text());
  return events;
}

/** A provider stand-in that answers its n-th request with the conversation's n-th recorded answer and keeps each request body. */
function recordingUpstream(conversation: RecordedConversation) {
  const bodies: Record<string, unknown>[] = [];
  return {
    bodies,
    fetch: async (url: string, init: RequestInit): Promise<Response> => {
      const request = new Request(url, init);
      bodies.push((await request.json()) as Record<string, unknown>);
      const step = conversation.steps[Math.min(bodies.length, conversation.steps.length) - 1]!;
      return new Response(step.response, { headers: { "content-type": "text/event-stream" } });
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

const live = (key: "OPENAI_API_KEY" | "ANTHROPIC_API_KEY" | "GEMINI_API_KEY") =>
  testEnv({ [key]: "test-key", CLIENT_TOKEN: "t" });
const auth = { authorization: "Bearer t" };
const PROMPT = "What time is it in Tokyo, what is 17% of 230, and how many km is a marathon (26.2 mi)?";
const TOOLS = ["current_time", "calculate", "convert_units"];
/** 2026-11-22 23:30 UTC: Monday 08:30 in Tokyo. */
const NOW = Date.UTC(2026, 10, 22, 23, 30);
const textOf = (events: readonly RunEvent[]): string =>
  events.flatMap((e) => (e.type === "text-delta" ? [e.text] : [])).join("");

/** A run offline (no key), with the demo tools on a fixed clock. */
async function offlineRun(
  provider: string,
  prompt: string,
  tools: readonly string[] = TOOLS,
): Promise<{ response: Response; events: RunEvent[] }> {
  const response = await runRoute(
    runRequest({ provider, model: "demo-model", messages: [{ role: "user", content: prompt }], tools }),
    testEnv(),
    { fetch: () => Promise.reject(new Error("no network")), timers: new ManualTimers() },
    demoTools({ now: () => NOW }),
  );
  return { response, events: await readRun(response) };
}

describe("POST /v1/run offline (no provider key): the scripted model calls the Worker's tools and answers from their results", () => {
  for (const provider of providerNames) {
    it(`${provider}: the page's prompt runs current_time, calculate and convert_units, and the second step answers with what they returned`, async () => {
      const { response, events } = await offlineRun(provider, PROMPT);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
      expect(response.headers.get("x-replay-recording")).toBe("scripted-model");
      expect(
        events
          .filter((e) => e.type === "tool-call")
          .map((e) => e.type === "tool-call" && [e.step, e.name, e.arguments]),
      ).toEqual([
        [1, "current_time", { time_zone: "Asia/Tokyo" }],
        [1, "calculate", { expression: "230 * 17 / 100" }],
        [1, "convert_units", { value: 26.2, from: "mi", to: "km" }],
      ]);
      const results = events.filter((e) => e.type === "tool-result");
      expect(results.map((e) => e.type === "tool-result" && [e.name, e.result])).toEqual([
        [
          "current_time",
          {
            time_zone: "Asia/Tokyo",
            date: "2026-11-23",
            time: "08:30:00",
            weekday: "Monday",
            utc_offset: "+09:00",
            utc: "2026-11-22T23:30:00.000Z",
          },
        ],
        ["calculate", { result: 39.1 }],
        ["convert_units", { value: 42.1648128, unit: "km", category: "length" }],
      ]);
      expect(events.filter((e) => e.type === "tool-error")).toEqual([]);
      expect(textOf(events)).toBe(
        "In Asia/Tokyo it is 08:30 on Monday, 2026-11-23 (UTC+09:00). 230 * 17 / 100 = 39.1. 26.2 mi is 42.1648128 km.",
      );
      expect(events.filter((e) => e.type === "step-finish").map((e) => e.step)).toEqual([1, 2]);
      expect(events.at(-1)).toEqual({ type: "loop-finish", steps: 2, reason: "no-tool-calls" });
    });
  }

  it("a tool's error is sent back to the model, and the answer says the tool could not answer, with its message", async () => {
    const { events } = await offlineRun("anthropic", "What time is it in Mars/Olympus_Mons?");
    expect(events.find((e) => e.type === "tool-error")).toMatchObject({
      step: 1,
      name: "current_time",
      error: { code: "handler-failed" },
    });
    expect(textOf(events)).toMatch(/^current_time could not answer: That is not a known IANA time zone\./);
    expect(events.at(-1)).toEqual({ type: "loop-finish", steps: 2, reason: "no-tool-calls" });
  });

  it("only the tools the request enabled are called", async () => {
    const { events } = await offlineRun("gemini", PROMPT, ["calculate"]);
    expect(events.filter((e) => e.type === "tool-call").map((e) => e.type === "tool-call" && e.name)).toEqual([
      "calculate",
    ]);
    expect(textOf(events)).toBe("230 * 17 / 100 = 39.1.");
  });

  it("a prompt with nothing to call gets one step of text saying what the scripted model can do", async () => {
    const { events } = await offlineRun("openai-responses", "Write a haiku about rain.");
    expect(events.filter((e) => e.type === "tool-call")).toEqual([]);
    expect(textOf(events)).toContain("This is the Worker's scripted model, which answers when no provider key is set.");
    expect(events.at(-1)).toEqual({ type: "loop-finish", steps: 1, reason: "no-tool-calls" });
  });

  it("openai: a prompt asking for a table calls unit_table: its result grows row by row, then the answer gives the rows", async () => {
    const timers = new ManualTimers();
    const pending = worker(undefined, timers).call(
      runRequest({
        provider: "openai",
        model: "gpt-4o-mini",
        messages: [{ role: "user", content: "Make me a table of km to mi for 1, 5, 10, 21.0975 and 42.195" }],
        tools: ["unit_table"],
      }),
    );
    // The rows are paced on the Worker's timers: let each one come.
    const rowDelays = (async () => {
      for (let row = 1; row < 5; row++) {
        await timers.whenScheduled(150);
        timers.fireWhere((ms) => ms === 150);
      }
    })();
    const response = await pending;
    expect(response.headers.get("x-replay-recording")).toBe("scripted-model");
    const events = await readRun(response);
    await rowDelays;
    const results = events.filter((e) => e.type === "tool-result");
    expect(
      results.map(
        (e) => e.type === "tool-result" && [e.preliminary ?? false, (e.result as { rows: unknown[] }).rows.length],
      ),
    ).toEqual([
      [true, 1],
      [true, 2],
      [true, 3],
      [true, 4],
      [true, 5],
      [false, 5],
    ]);
    expect(results.at(-1)).toMatchObject({
      step: 1,
      name: "unit_table",
      result: {
        from: "km",
        to: "mi",
        rows: [
          [1, 0.621371192237],
          [5, 3.10685596119],
          [10, 6.21371192237],
          [21.0975, 13.1093787282],
          [42.195, 26.2187574565],
        ],
      },
    });
    const stepOne = events.find((e) => e.type === "step-finish" && e.step === 1);
    expect(stepOne).toMatchObject({
      messages: [
        { role: "assistant" },
        { role: "tool", content: JSON.stringify((results.at(-1) as { result: unknown }).result) },
      ],
    });
    expect(events.flatMap((e) => (e.type === "text-delta" ? [e.text] : [])).join("")).toBe(
      "1 km is 0.621371192237 mi, 5 km is 3.10685596119 mi, 10 km is 6.21371192237 mi, 21.0975 km is 13.1093787282 mi, 42.195 km is 26.2187574565 mi.",
    );
    expect(events.at(-1)).toEqual({ type: "loop-finish", steps: 2, reason: "no-tool-calls" });
  });

  it("every frame is numbered and named after its event, and each event carries its step", async () => {
    const response = await worker().call(
      runRequest({ provider: "openai", model: "m", messages: [{ role: "user", content: PROMPT }], tools: TOOLS }),
    );
    const text = await response.text();
    const frames: { event?: string | undefined; id?: string | undefined; data: string }[] = [];
    createParser({ onEvent: (m) => frames.push(m) }).feed(text);
    expect(frames.length).toBeGreaterThan(20);
    frames.forEach((frame, i) => {
      const event = JSON.parse(frame.data) as RunEvent;
      expect(frame.id).toBe(String(i));
      expect(frame.event).toBe(event.type);
      if (event.type !== "loop-finish") expect(event.step).toBeGreaterThanOrEqual(1);
    });
  });
});

describe("POST /v1/run offline: a Worker tool the prompt names but does not phrase as the demo does", () => {
  it("is filled from its schema (enums in the prompt's order, the prompt's numbers), runs, and its result is answered", async () => {
    const { events } = await offlineRun("bedrock", "Make a unit table from kg to lb for 1, 5 and 10.", [
      "unit_table",
      "current_time",
    ]);
    const calls = events.filter((e) => e.type === "tool-call");
    expect(calls.map((e) => e.type === "tool-call" && [e.step, e.name, e.arguments])).toEqual([
      [1, "unit_table", { from: "kg", to: "lb", values: [1, 5, 10] }],
    ]);
    expect(events.filter((e) => e.type === "tool-error")).toEqual([]);
    expect(textOf(events)).toContain("10 kg is");
  });
});

describe("POST /v1/run: the request of step 2 carries the calls and results of step 1", () => {
  it("openai: two parallel calls run, and the second request has the assistant turn and one tool message per call", async () => {
    const upstream = recordingUpstream(openaiWeatherTwoCities);
    const getWeather = tableTool({
      '{"location":"New York City"}': "25 degrees and sunny",
      '{"location":"London"}': "15 degrees and raining",
    });
    const recorded = openaiWeatherTwoCities.steps[0]!.request as { messages: unknown[] };
    const response = await runRoute(
      runRequest(
        { provider: "openai", model: "gpt-4o-mini", messages: recorded.messages, tools: ["get_weather"] },
        auth,
      ),
      live("OPENAI_API_KEY"),
      { fetch: upstream.fetch, timers: new ManualTimers() },
      { get_weather: getWeather },
    );
    const events = await readRun(response);
    expect(
      events.filter((e) => e.type === "tool-result").map((e) => e.type === "tool-result" && [e.id, e.result]),
    ).toEqual(
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
          {
            id: "call_9ujI2ZExKzIGa57dsFCuwSXI",
            type: "function",
            function: { name: "get_weather", arguments: '{"location": "New York City"}' },
          },
          {
            id: "call_M5Jmiz7Y7ZUiASk3ShRROpUr",
            type: "function",
            function: { name: "get_weather", arguments: '{"location": "London"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "call_9ujI2ZExKzIGa57dsFCuwSXI", content: "25 degrees and sunny" },
      { role: "tool", tool_call_id: "call_M5Jmiz7Y7ZUiASk3ShRROpUr", content: "15 degrees and raining" },
    ]);
    // The same calls and results as the recorded application sent (which also listed each call's `index`).
    const recordedSecond = (openaiWeatherTwoCities.steps[1]!.request as { messages: Record<string, unknown>[] })
      .messages;
    expect((second!["messages"] as unknown[]).slice(3)).toEqual(recordedSecond.slice(3));
    expect(
      (recordedSecond[2]!["tool_calls"] as Record<string, unknown>[]).map(({ index: _index, ...call }) => call),
    ).toEqual((second!["messages"] as Record<string, unknown>[])[2]!["tool_calls"] as unknown[]);
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
        {
          provider: "anthropic",
          model: "claude-sonnet-4-6",
          messages: [
            { role: "system", content: "Always use the shell tool. Keep responses brief." },
            { role: "user", content: "What is 2 + 2? Use python to calculate it." },
          ],
          tools: ["bash"],
        },
        auth,
      ),
      live("ANTHROPIC_API_KEY"),
      { fetch: upstream.fetch, timers: new ManualTimers() },
      { bash },
    );
    const events = await readRun(response);
    expect(bash.seen).toEqual([{ command: 'python3 -c "print(2 + 2)"' }]);
    expect(events.find((e) => e.type === "tool-result")).toMatchObject({
      step: 1,
      id: "toolu_015Rk6ndKaiXYx9AiJcpUR2H",
      name: "bash",
      result: "4",
    });
    const recordedFirst = anthropicShellTwoPlusTwo.steps[0]!.request as Record<string, unknown>;
    const recordedSecond = anthropicShellTwoPlusTwo.steps[1]!.request as Record<string, unknown>;
    expect(upstream.bodies.map((body) => body["messages"])).toEqual([
      recordedFirst["messages"],
      recordedSecond["messages"],
    ]);
    expect(upstream.bodies[1]!["system"]).toBe(recordedSecond["system"]);
    expect(events.at(-1)).toEqual({ type: "loop-finish", steps: 2, reason: "no-tool-calls" });
  });

  it("openai-responses: the second request's input has the function_call and its function_call_output", async () => {
    const upstream = recordingUpstream(openaiResponsesMultiply);
    const multiply = tableTool({ '{"a":1231,"b":2331}': "2869461" });
    const response = await runRoute(
      runRequest(
        {
          provider: "openai-responses",
          model: "gpt-5.5",
          messages: [{ role: "user", content: "What is 1231 * 2331? Use the multiply tool." }],
          tools: ["multiply"],
        },
        auth,
      ),
      live("OPENAI_API_KEY"),
      { fetch: upstream.fetch, timers: new ManualTimers() },
      { multiply },
    );
    const events = await readRun(response);
    expect(events.find((e) => e.type === "tool-result")).toMatchObject({
      step: 1,
      id: "call_sVidsfFJ6zlzRpelrPkTPlpd",
      result: "2869461",
    });
    const recorded = (openaiResponsesMultiply.steps[1]!.request as { input: Record<string, unknown>[] }).input;
    expect(upstream.bodies[1]!["input"]).toEqual([
      { role: "user", content: "What is 1231 * 2331? Use the multiply tool." },
      {
        type: "function_call",
        call_id: "call_sVidsfFJ6zlzRpelrPkTPlpd",
        name: "multiply",
        arguments: '{"a":1231,"b":2331}',
      },
      { type: "function_call_output", call_id: "call_sVidsfFJ6zlzRpelrPkTPlpd", output: "2869461" },
    ]);
    // As recorded, except that the recorded client re-serialized the arguments with spaces.
    expect(recorded[2]).toEqual((upstream.bodies[1]!["input"] as unknown[])[2]);
    expect({ ...recorded[1], arguments: JSON.parse(recorded[1]!["arguments"] as string) }).toEqual({
      ...(upstream.bodies[1]!["input"] as Record<string, unknown>[])[1],
      arguments: { a: 1231, b: 2331 },
    });
    expect(events.at(-1)).toEqual({ type: "loop-finish", steps: 2, reason: "no-tool-calls" });
  });

  it("gemini: each request carries every earlier functionCall and functionResponse", async () => {
    const upstream = recordingUpstream(geminiCapitalTemperature);
    const response = await runRoute(
      runRequest(
        {
          provider: "gemini",
          model: "gemini-2.0-flash",
          messages: [{ role: "user", content: "What is the temperature of the capital of France?" }],
          tools: ["get_capital", "get_temperature"],
        },
        auth,
      ),
      live("GEMINI_API_KEY"),
      { fetch: upstream.fetch, timers: new ManualTimers() },
      {
        get_capital: tableTool({ '{"country":"France"}': "Paris" }),
        get_temperature: tableTool({ '{"city":"Paris"}': "30°C" }),
      },
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
