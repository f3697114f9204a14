import { BODY_READ_MS } from "../../worker/http/read-json-body.ts";
import { HEARTBEAT_MS } from "../../worker/http/heartbeat.ts";
import { describe, expect, it } from "vitest";
import { fixturesOf, recordingsAvailable, summarize } from "../support/fixtures.ts";
import { upstreamProviders } from "../../worker/upstream/providers/index.ts";
import { replayDelay } from "../../worker/upstream/replay/pacing.ts";
import { CheckBudget } from "../../src/index.ts";
import { MAX_PICK_STEPS, pickRecording, recordingChunks } from "../../worker/upstream/replay/recording.ts";
import { replayUpstream } from "../../worker/upstream/replay/replay-upstream.ts";
import {
  declaredTools,
  ManualTimers,
  eventually,
  readSSE,
  streamRequest,
  testEnv,
  validBody,
  worker,
} from "./support.ts";

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, chunk) => n + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) out.set(chunk, (at += chunk.length) - chunk.length);
  return out;
}

/** The chunks of a body as they arrive. */
async function chunksOf(response: Response): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  const reader = response.body!.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
  return chunks;
}

describe.skipIf(!recordingsAvailable)("the replay upstream (no provider key)", () => {
  for (const [provider, upstream] of Object.entries(upstreamProviders)) {
    for (const recording of upstream.recordings) {
      it(`${provider}: "${recording.name}" streams the events of the recorded fixture`, async () => {
        const prompt = `Replay ${recording.name}: tell me about ${recording.keywords.join(" and ")}`;
        const response = await worker().call(
          streamRequest(
            validBody({
              provider,
              messages: [{ role: "user", content: prompt }],
              tools: declaredTools(["get_weather", ...recording.tools]),
            }),
          ),
        );
        expect(response.status).toBe(200);
        expect(response.headers.get("x-replay-recording")).toBe(recording.name);
        const fixture = fixturesOf(provider).find((f) => f.name === recording.name);
        expect(fixture, "the recording is a copy of a shared fixture").toBeDefined();
        expect(concat(recordingChunks(recording)), "byte for byte").toEqual(fixture!.body);
        const { messages, events } = await readSSE(response);
        expect(summarize(events)).toEqual(fixture!.expected);
        expect(messages.map((m) => m.id)).toEqual(events.map((_, i) => String(i)));
      });
    }
  }

  const framings = [
    ["bedrock", "application/vnd.amazon.eventstream"],
    ["ollama", "application/x-ndjson"],
    ["cohere", "text/event-stream; charset=utf-8"],
  ] as const;
  for (const [provider, contentType] of framings) {
    it(`${provider}: the replay upstream answers ${contentType}, one recorded message per chunk, as the provider frames them`, async () => {
      for (const recording of upstreamProviders[provider].recordings) {
        const response = await replayUpstream(recording, { delayMs: 0, timers: new ManualTimers() })(
          "https://replay.test/",
          { method: "POST" },
        );
        expect(response.headers.get("content-type")).toBe(contentType);
        const chunks = await chunksOf(response);
        const fixture = fixturesOf(provider).find((f) => f.name === recording.name)!;
        expect(concat(chunks)).toEqual(fixture.body);
        if (provider === "bedrock") {
          // Each chunk is one whole message: its prelude's total length is the chunk's length.
          for (const chunk of chunks)
            expect(new DataView(chunk.buffer, chunk.byteOffset).getUint32(0)).toBe(chunk.length);
        } else {
          const separator = provider === "ollama" ? "\n" : "\n\n";
          for (const chunk of chunks) expect(new TextDecoder().decode(chunk).endsWith(separator)).toBe(true);
        }
        expect(chunks.length).toBeGreaterThan(1);
      }
    });
  }

  it("a recording plays when the prompt names it, or mentions its keywords and the request declares every tool it calls", async () => {
    const recordings = upstreamProviders.openai.recordings;
    const tools = ["get_capital", "search", "weather"].map((name) => ({ name, parameters: {} }));
    const pick = (prompt: string, declared = tools, choice?: { type: string }) =>
      pickRecording(recordings, prompt, declared, "openai", choice).then((recording) => recording?.name);
    expect(await pick("hello")).toBeUndefined();
    expect(await pick("What is the CAPITAL of the UK?")).toBe("chat-tool-call-gpt-4o-mini-usage");
    // Its calls are to a tool the request does not declare: the scripted model answers instead.
    expect(await pick("What is the capital of the UK?", [{ name: "lookup_country", parameters: {} }])).toBeUndefined();
    expect(await pick("Tigers game in Detroit?", [{ name: "search", parameters: {} }])).toBeUndefined();
    // Named, it plays whatever the tools.
    expect(await pick("replay chat-tool-call-gpt-4o-mini-usage", [])).toBe("chat-tool-call-gpt-4o-mini-usage");
  });

  it("a recording the request could not have asked for does not play: arguments its schema refuses, values the prompt does not name, a tool_choice", async () => {
    const city = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
    const getWeather = [{ name: "get_weather", parameters: city }];
    const pick = (provider: keyof typeof upstreamProviders, prompt: string, choice?: { type: string }) =>
      pickRecording(upstreamProviders[provider].recordings, prompt, getWeather, provider, choice).then((r) => r?.name);
    // Ollama's recording asks for Tokyo's weather: not the answer to Paris's.
    expect(await pick("ollama", "What's the weather in Paris?")).toBeUndefined();
    expect(await pick("ollama", "What's the weather in Tokyo?")).toBe("native-tool-call");
    expect(await pick("ollama", "What's the weather in Tokyo?", { type: "none" })).toBeUndefined();
    expect(await pick("ollama", "What's the weather in Tokyo?", { type: "required" })).toBeUndefined();
    // Anthropic's sends `location`, which this `get_weather` does not take, required or not.
    expect(await pick("anthropic", "What's the weather in Paris, France?")).toBeUndefined();
    const optionalCity = [
      { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
    ];
    expect(
      await pickRecording(
        upstreamProviders.anthropic.recordings,
        "Weather in Paris, France?",
        optionalCity,
        "anthropic",
      ),
    ).toBeUndefined();
    const anyWeather = [{ name: "get_weather", parameters: {} }];
    expect(
      await pickRecording(upstreamProviders.anthropic.recordings, "Weather in Paris, France?", anyWeather, "anthropic"),
    ).toMatchObject({ name: "text-then-tool-use-with-ping" });
  });

  it("the checks of the recordings' calls against a request's schemas share one budget: a costly schema spends it once", async () => {
    // propertyNames under anyOf of 8 patterns of 8,000 optional characters each: linear, yet
    // 320,000 steps for one call's keys. Each call's check had 2,000,000 steps of its own, so a
    // pick cost a request that much per candidate.
    const costly = {
      type: "object",
      anyOf: Array.from({ length: 8 }, (_, i) => ({ propertyNames: { pattern: `^(?:a?){8000}z${i}` } })),
    };
    const tools = ["get_capital", "search", "weather"].map((name) => ({ name, parameters: structuredClone(costly) }));
    const budget = new CheckBudget(Number.POSITIVE_INFINITY, MAX_PICK_STEPS);
    const prompt = "The capital of the UK, and the Tigers game schedule in Detroit?";
    expect(
      await pickRecording(upstreamProviders.openai.recordings, prompt, tools, "openai", undefined, budget),
    ).toBeUndefined();
    expect(budget.exhausted).toBe(true);
    // Past it by at most a character's steps of one pattern (8,000 threads), not by another call's.
    expect(budget.spent).toBeLessThan(MAX_PICK_STEPS + 10_000);
    // An ordinary schema is checked well within it, and the recording plays.
    const plain = [
      { name: "get_capital", parameters: { type: "object", properties: { country: { type: "string" } } } },
    ];
    const fresh = new CheckBudget(Number.POSITIVE_INFINITY, MAX_PICK_STEPS);
    const picked = await pickRecording(upstreamProviders.openai.recordings, prompt, plain, "openai", undefined, fresh);
    expect(picked?.name).toBe("chat-tool-call-gpt-4o-mini-usage");
    expect(fresh.spent).toBeLessThan(1_000);
  });

  it("reads a recording's calls once per isolate, however many requests could pick it, and picks as before", async () => {
    const [ollama] = upstreamProviders.ollama.recordings.filter((r) => r.name === "native-tool-call");
    let reads = 0;
    // The same recording, counting how often its messages are read.
    const counted = Object.defineProperty({ ...ollama! }, "events", {
      get: () => {
        reads++;
        return ollama!.events;
      },
    });
    const city = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
    const getWeather = [{ name: "get_weather", parameters: city }];
    const picks = [];
    for (const prompt of ["What's the weather in Tokyo?", "What's the weather in Paris?", "Weather in Tokyo?"])
      picks.push((await pickRecording([counted], prompt, getWeather, "ollama"))?.name);
    expect(picks).toEqual(["native-tool-call", undefined, "native-tool-call"]);
    expect(reads).toBe(1);
  });

  it("each recording lists the tools it calls", async () => {
    for (const [provider, upstream] of Object.entries(upstreamProviders))
      for (const recording of upstream.recordings) {
        const fixture = fixturesOf(provider).find((f) => f.name === recording.name)!;
        // The tools the client declares: not those the provider runs itself (Interactions' google_search).
        const own = fixture.expected.toolCalls.filter((call) => !call.providerExecuted);
        const called = [...new Set(own.map((call) => call.name))];
        expect(recording.tools, `${provider} ${recording.name}`).toEqual(called);
      }
  });

  // The idle timeout runs on the same clock, set far above any pacing delay so that the test
  // lets only the pacing timers fire.
  const IDLE = 999_999;
  const DEADLINE = 9_999_999;
  // Neither the idle timeout, the deadline, the heartbeat to the client nor the body's deadline.
  const pacing = (ms: number) => ms !== IDLE && ms !== DEADLINE && ms !== HEARTBEAT_MS && ms !== BODY_READ_MS;

  it("paces events like a model, on the injected clock: nothing arrives before its delay has passed", async () => {
    const timers = new ManualTimers();
    // No write window: the only short timers are the pacing's.
    const env = testEnv({
      REPLAY_DELAY_MS: "40",
      IDLE_TIMEOUT_MS: String(IDLE),
      WRITE_WINDOW_MS: "0",
      MAX_RESPONSE_MS: String(DEADLINE),
    });
    const response = await worker(undefined, timers).call(
      streamRequest(validBody({ messages: [{ role: "user", content: "replay chat-tool-call-gpt-4o-mini-usage" }] })),
      env,
    );
    const reader = response.body!.getReader();
    let received = "";
    let done = false;
    const reading = (async () => {
      for (let r = await reader.read(); !r.done; r = await reader.read()) received += new TextDecoder().decode(r.value);
      done = true;
    })();
    let fired = 0;
    for (;;) {
      if (!(await eventually(() => done || timers.pendingDelays.some(pacing)))) throw new Error("the replay stalled");
      if (done) break;
      expect(received).not.toContain("event: finish");
      timers.fireWhere(pacing);
      fired++;
    }
    await reading;
    const paced = timers.scheduled.filter(pacing);
    expect(paced).toEqual(paced.map((_, i) => replayDelay(i, 40)));
    expect(paced[0]).toBe(240); // the wait for the first token
    expect(fired).toBe(upstreamProviders.openai.recordings[1]!.events.length);
    expect(received).toContain("event: finish");
  });

  it("the replay stops pacing when the client goes away", async () => {
    const timers = new ManualTimers();
    const env = testEnv({ REPLAY_DELAY_MS: "40", IDLE_TIMEOUT_MS: String(IDLE), MAX_RESPONSE_MS: String(DEADLINE) });
    const response = await worker(undefined, timers).call(streamRequest(validBody()), env);
    const reader = response.body!.getReader();
    const first = reader.read();
    for (let i = 0; i < 3; i++) {
      expect(await eventually(() => timers.pendingDelays.some(pacing))).toBe(true);
      timers.fireWhere(pacing);
    }
    expect((await first).value).toBeDefined();
    await reader.cancel();
    expect(await eventually(() => timers.pending === 0)).toBe(true);
  });
});

describe("a request without tools, offline", () => {
  for (const provider of Object.keys(upstreamProviders)) {
    it(`${provider}: POST /v1/stream gets the scripted model's text, never a call`, async () => {
      const response = await worker().call(streamRequest(validBody({ provider, tools: [] })));
      expect(response.status).toBe(200);
      expect(response.headers.get("x-replay-recording")).toBe("scripted-model");
      const { events } = await readSSE(response);
      expect(events.filter((event) => event.type.startsWith("tool-call"))).toEqual([]);
      expect(events.at(-1)).toMatchObject({ type: "finish", reason: "stop", toolCalls: [] });
      expect(events.some((event) => event.type === "text-delta")).toBe(true);
    });
  }

  for (const provider of Object.keys(upstreamProviders)) {
    it(`${provider}: a request that ends with tool results gets the scripted model's answer from them, never the recording's calls again`, async () => {
      const body = validBody({
        provider,
        messages: [
          { role: "user", content: "What is the weather in Paris?" },
          {
            role: "assistant",
            content: "",
            tool_calls: [{ id: "call_1", name: "get_weather", arguments: { city: "Paris" } }],
          },
          { role: "tool", tool_call_id: "call_1", name: "get_weather", content: '{"celsius": 18}' },
        ],
      });
      const response = await worker().call(streamRequest(body));
      expect(response.status).toBe(200);
      expect(response.headers.get("x-replay-recording")).toBe("scripted-model");
      const { events } = await readSSE(response);
      expect(events.filter((event) => event.type.startsWith("tool-call"))).toEqual([]);
      const text = events.map((event) => (event.type === "text-delta" ? event.text : "")).join("");
      expect(text).toContain("18");
      expect(events.at(-1)).toMatchObject({ type: "finish", reason: "stop" });
    });
  }

  it("POST /v1/chat/completions without tools answers text, with no tool_calls", async () => {
    const response = await worker().call(
      new Request("http://localhost:8787/v1/chat/completions", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "openai/gpt-4o-mini", messages: [{ role: "user", content: "Hello" }] }),
      }),
    );
    expect(response.status).toBe(200);
    const completion = (await response.json()) as {
      choices: { message: { content: string | null; tool_calls?: unknown }; finish_reason: string }[];
    };
    expect(completion.choices[0]!.message.tool_calls).toBeUndefined();
    expect(completion.choices[0]!.message.content).toContain("scripted model");
    expect(completion.choices[0]!.finish_reason).toBe("stop");
  });
});
