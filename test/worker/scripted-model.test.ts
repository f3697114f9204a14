// The scripted model of the offline run mode (worker/upstream/replay/scripted/): for each of the seven
// protocols the library reads, its answers decoded by streamToolCalls with that provider give the
// planned calls and the text; each message is one frame of the provider's framing, shaped like
// the recorded ones (the same keys in the same order as the recordings of shared/fixtures); and
// it reads requests in every provider's shape (the library's next-turn builders) and answers from
// the results they carry.
import { describe, expect, it } from "vitest";
import {
  assistantMessage,
  AwsEventStreamDecoder,
  NdjsonDecoder,
  SSEDecoder,
  streamToolCalls,
  toolResultMessages,
  type FinishEvent,
  type FramedMessage,
  type JsonValue,
  type Provider,
  type ToolCallEvent,
} from "../../src/index.ts";
import { answerFrom } from "../../worker/upstream/replay/scripted/answers.ts";
import { planCalls } from "../../worker/upstream/replay/scripted/tool-plan.ts";
import { readPrompt } from "../../worker/upstream/replay/scripted/prompt-reading.ts";
import { Dice } from "../../worker/upstream/replay/scripted/pieces.ts";
import { scriptedModel, scriptedTurn } from "../../worker/upstream/replay/scripted/scripted-model.ts";
import type { ScriptedTurn } from "../../worker/upstream/replay/scripted/script.ts";
import { readTranscript } from "../../worker/upstream/replay/scripted/transcript.ts";
import { scriptWriters } from "../../worker/upstream/replay/scripted/writers/index.ts";
import { fixturesOf, recordingsAvailable } from "../support/fixtures.ts";
import { ManualTimers } from "./support.ts";

const PROVIDERS = Object.keys(scriptWriters) as Provider[];
const PROMPT = "What time is it in Tokyo, what is 17% of 230, and how many km is a marathon (26.2 mi)?";
const PLANNED = [
  { name: "current_time", arguments: { time_zone: "Asia/Tokyo" } },
  { name: "calculate", arguments: { expression: "230 * 17 / 100" } },
  { name: "convert_units", arguments: { value: 26.2, from: "mi", to: "km" } },
];
const NOW = Date.UTC(2026, 10, 22, 23, 30);
const callsTurn: ScriptedTurn = {
  model: "test-model",
  text: "",
  plan: "I will use current_time, calculate and convert_units to answer this.",
  calls: PLANNED,
  inputTokens: 120,
  tools: [],
  now: NOW,
};
const textTurn: ScriptedTurn = {
  ...callsTurn,
  plan: "",
  calls: [],
  text: "In Asia/Tokyo it is 08:30 on Monday, 2026-11-23 (UTC+09:00). 230 * 17 / 100 = 39.1.",
};

/** Each provider's call ids, as its API makes them (none for Gemini and Ollama). */
const ID_SHAPES: Record<Provider, RegExp | null> = {
  openai: /^call_[A-Za-z0-9]{24}$/,
  "openai-responses": /^call_[A-Za-z0-9]{24}$/,
  anthropic: /^toolu_01[A-Za-z0-9]{22}$/,
  gemini: null,
  bedrock: /^tooluse_[A-Za-z0-9_-]{22}$/,
  cohere: /^[a-z_]+_[a-z0-9]{12}$/,
  ollama: null,
  "gemini-interactions": /^[a-z0-9]{8}$/,
};

const CONTENT_TYPES: Record<Provider, string> = {
  openai: "text/event-stream",
  "openai-responses": "text/event-stream",
  anthropic: "text/event-stream",
  gemini: "text/event-stream",
  bedrock: "application/vnd.amazon.eventstream",
  cohere: "text/event-stream",
  ollama: "application/x-ndjson",
  "gemini-interactions": "text/event-stream",
};

async function decode(provider: Provider, turn: ScriptedTurn, seed = 7): Promise<ToolCallEvent[]> {
  const wire = scriptWriters[provider](turn, new Dice(seed));
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of wire.chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const events: ToolCallEvent[] = [];
  for await (const event of streamToolCalls(new Response(body, { headers: { "content-type": wire.contentType } }), {
    provider,
  }))
    events.push(event);
  return events;
}

/** The messages of one chunk, read with the provider's own framing. */
function framesOf(provider: Provider, chunk: Uint8Array): FramedMessage[] {
  const messages: FramedMessage[] = [];
  const framing =
    provider === "bedrock"
      ? new AwsEventStreamDecoder((m) => messages.push(m))
      : provider === "ollama"
        ? new NdjsonDecoder((m) => messages.push(m))
        : new SSEDecoder((m) => messages.push(m));
  framing.feed(chunk);
  framing.end();
  return messages;
}

/**
 * The shape of every object in a JSON value: its path and its keys in order with their value
 * types. Arguments and schemas are the request's own data, not the provider's shape: skipped.
 */
function shapes(value: unknown, path = "", out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) shapes(item, `${path}[]`, out);
  else if (typeof value === "object" && value !== null) {
    const kind = (item: unknown): string => (Array.isArray(item) ? "array" : item === null ? "null" : typeof item);
    out.add(
      `${path}{${Object.entries(value)
        .map(([key, item]) => `${key}:${kind(item)}`)
        .join(",")}}`,
    );
    for (const [key, item] of Object.entries(value)) if (!USER_DATA.has(key)) shapes(item, `${path}.${key}`, out);
  }
  return out;
}
const USER_DATA = new Set(["args", "arguments", "input", "parameters"]);

const finishOf = (events: readonly ToolCallEvent[]): FinishEvent => {
  const last = events.at(-1);
  if (last?.type !== "finish") throw new Error(`ends with finish: ${JSON.stringify(last)}`);
  return last;
};

describe("the scripted writers, read back by streamToolCalls with their provider", () => {
  for (const provider of PROVIDERS) {
    it(`${provider}: three calls to the Worker's tools, with ${ID_SHAPES[provider] ? "the provider's own id shape" : "no ids, as the provider sends none"}, and a tool-calls finish`, async () => {
      const events = await decode(provider, callsTurn);
      expect(events.filter((e) => e.type === "error" || e.type === "abort" || e.type === "invalid-tool-call")).toEqual(
        [],
      );
      const finish = finishOf(events);
      expect(finish.reason).toBe("tool-calls");
      expect(finish.toolCalls.map((call) => ({ name: call.name, arguments: call.arguments }))).toEqual(PLANNED);
      for (const call of finish.toolCalls) {
        if (ID_SHAPES[provider]) expect(call.id).toMatch(ID_SHAPES[provider]!);
        else expect(call.id).toBeNull();
      }
      expect(new Set(finish.toolCalls.map((call) => call.id)).size).toBe(ID_SHAPES[provider] ? 3 : 1);
      expect(finish.usage?.inputTokens).toBeGreaterThan(0);
      if (provider === "cohere") expect(finish.reasoning).toBe(callsTurn.plan);
    });

    it(`${provider}: a text answer streams in several deltas and finishes with stop`, async () => {
      const events = await decode(provider, textTurn);
      const finish = finishOf(events);
      expect([finish.reason, finish.text, finish.toolCalls]).toEqual(["stop", textTurn.text, []]);
      expect(events.filter((e) => e.type === "text-delta").length).toBeGreaterThan(1);
    });

    it(`${provider}: ${CONTENT_TYPES[provider]}, one message of the provider's framing per chunk, the same bytes for the same seed`, () => {
      const wire = scriptWriters[provider](callsTurn, new Dice(3));
      expect(wire.contentType.split(";")[0]).toBe(CONTENT_TYPES[provider]);
      for (const chunk of wire.chunks) expect(framesOf(provider, chunk)).toHaveLength(1);
      expect(scriptWriters[provider](callsTurn, new Dice(3)).chunks).toEqual(wire.chunks);
      expect(scriptWriters[provider](callsTurn, new Dice(4)).chunks).not.toEqual(wire.chunks);
    });
  }

  it("bedrock: every message carries a prelude CRC and a message CRC the decoder verifies, and Bedrock's headers and padding", () => {
    const wire = scriptWriters.bedrock(callsTurn, new Dice(5));
    const types: string[] = [];
    for (const chunk of wire.chunks) {
      const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      expect(view.getUint32(0)).toBe(chunk.byteLength);
      const [message] = framesOf("bedrock", chunk);
      expect(message?.headers).toMatchObject({ ":content-type": "application/json", ":message-type": "event" });
      expect(Object.keys(message!.headers!)).toEqual([":event-type", ":content-type", ":message-type"]);
      expect(JSON.parse(message!.data)["p"]).toMatch(/^[a-zA-Z0-9]+$/);
      types.push(message!.event!);
      // One flipped bit in the payload breaks the message CRC.
      const damaged = chunk.slice();
      damaged[damaged.length - 6]! ^= 1;
      expect(() => framesOf("bedrock", damaged)).toThrow();
    }
    expect(types[0]).toBe("messageStart");
    expect(types.slice(-2)).toEqual(["messageStop", "metadata"]);
  });

  it("gemini: CRLF event ends and the API's spacing (a space after each colon, none after commas)", () => {
    const [chunk] = scriptWriters.gemini(callsTurn, new Dice(1)).chunks;
    const text = new TextDecoder().decode(chunk);
    expect(text.endsWith("\r\n\r\n")).toBe(true);
    expect(text).toContain(
      '{"candidates": [{"content": {"parts": [{"functionCall": {"name": "current_time","args": {"time_zone": "Asia/Tokyo"}}}',
    );
  });
});

/** The recordings each writer's messages are compared with. */
const SHAPES: Record<Provider, string[]> = {
  openai: ["chat-tool-call-gpt-4o-mini-usage", "chat-text-then-tool-call-usage"],
  "openai-responses": ["text-then-function-call", "parallel-function-calls", "reasoning-then-function-call-usage"],
  anthropic: ["parallel-tool-use", "text-then-tool-use-with-ping"],
  gemini: [
    "parallel-function-calls-thought-signature",
    "function-call-gemini-2.0-flash",
    "function-call-gemini-3-thought-signature",
    "parallel-function-calls-single-chunk",
  ],
  bedrock: ["converse-nova-text-then-tool-use", "converse-nova-text"],
  cohere: ["tool-plan-then-parallel-tool-calls", "text"],
  ollama: ["native-tool-call"],
  "gemini-interactions": ["docs-function-call-with-google-search", "docs-text-with-thought"],
};

describe.skipIf(!recordingsAvailable)("the scripted writers' messages have the recorded shapes", () => {
  for (const provider of PROVIDERS) {
    it(`${provider}: every object of every message has the keys, in order, and value types of one at the same place in a recording (${SHAPES[provider].join(", ")})`, () => {
      const recorded = new Set<string>();
      const fixtures = fixturesOf(provider).filter((fixture) => SHAPES[provider].includes(fixture.name));
      expect(fixtures).toHaveLength(SHAPES[provider].length);
      for (const fixture of fixtures) {
        for (const message of framesOf(provider, fixture.body))
          if (message.data !== "[DONE]") shapes(JSON.parse(message.data), "", recorded);
      }
      let compared = 0;
      for (const turn of [callsTurn, textTurn]) {
        for (const chunk of scriptWriters[provider](turn, new Dice(11)).chunks) {
          const [message] = framesOf(provider, chunk);
          if (message!.data === "[DONE]") continue;
          for (const shape of shapes(JSON.parse(message!.data))) {
            expect(recorded, `${provider} ${message!.event ?? ""} ${message!.data.slice(0, 120)}`).toContain(shape);
            compared++;
          }
        }
      }
      expect(compared).toBeGreaterThan(20);
    });
  }
});

describe("what the scripted model reads in a prompt", () => {
  it("the demo prompt: the time in Tokyo, 17% of 230 and a marathon in km, in the prompt's order", () => {
    expect(
      planCalls(
        PROMPT,
        ["current_time", "calculate", "convert_units"].map((name) => ({ name })),
      ),
    ).toEqual(PLANNED);
  });

  it("only the tools the request offers are called", () => {
    expect(
      planCalls(
        PROMPT,
        ["calculate"].map((name) => ({ name })),
      ),
    ).toEqual([PLANNED[1]]);
    expect(planCalls(PROMPT, [])).toEqual([]);
  });

  it("common phrasings: several cities, zone names, written-out and spelled arithmetic, conversions both ways", () => {
    const asks = (prompt: string) => readPrompt(prompt).map(({ at: _at, ...ask }) => ask);
    expect(asks("What time is it in New York City and in London?")).toEqual([
      { tool: "current_time", zone: "America/New_York" },
      { tool: "current_time", zone: "Europe/London" },
    ]);
    expect(asks("What's the time in Europe/Paris?")).toEqual([{ tool: "current_time", zone: "Europe/Paris" }]);
    expect(asks("What time is it?")).toEqual([{ tool: "current_time", zone: "UTC" }]);
    expect(asks("Compute (1200 * 0.07) / 12 please")).toEqual([
      { tool: "calculate", expression: "(1200 * 0.07) / 12" },
    ]);
    expect(asks("What is 12 times 7?")).toEqual([{ tool: "calculate", expression: "12 * 7" }]);
    expect(asks("and the square root of 2")).toEqual([{ tool: "calculate", expression: "sqrt(2)" }]);
    expect(asks("Convert 100 °F to celsius")).toEqual([{ tool: "convert_units", value: 100, from: "F", to: "C" }]);
    expect(asks("5 kilograms in pounds, and 3 cups to ml")).toEqual([
      { tool: "convert_units", value: 5, from: "kg", to: "lb" },
      { tool: "convert_units", value: 3, from: "cup", to: "ml" },
    ]);
    expect(asks("How many miles is 10 km?")).toEqual([{ tool: "convert_units", value: 10, from: "km", to: "mi" }]);
    expect(asks("The meeting is on 2026-11-23; tell me a joke")).toEqual([]);
  });
});

/** A request body in `provider`'s wire format after one round of the given calls and results, built with the library's own next-turn builders. */
function afterResults(
  provider: Provider,
  calls: { id: string | null; name: string; arguments: JsonValue }[],
  outputs: { output: JsonValue; isError?: boolean }[],
): unknown {
  const toolCalls = calls.map((call, index) => ({
    type: "tool-call" as const,
    index,
    id: call.id,
    name: call.name,
    rawArguments: JSON.stringify(call.arguments),
    arguments: call.arguments,
  }));
  const finish = {
    type: "finish",
    reason: "tool-calls",
    rawReason: "tool_calls",
    toolCalls,
    invalidToolCalls: [],
    text: "",
    reasoning: "",
  } as unknown as FinishEvent;
  const turn = [
    assistantMessage(provider, finish),
    ...toolResultMessages(
      provider,
      toolCalls.map((call, i) => ({ call, output: outputs[i]!.output, isError: outputs[i]!.isError ?? false })),
    ),
  ];
  const prompt: Record<Provider, unknown> = {
    openai: { role: "user", content: PROMPT },
    "openai-responses": { role: "user", content: PROMPT },
    anthropic: { role: "user", content: [{ type: "text", text: PROMPT }] },
    gemini: { role: "user", parts: [{ text: PROMPT }] },
    bedrock: { role: "user", content: [{ text: PROMPT }] },
    cohere: { role: "user", content: PROMPT },
    ollama: { role: "user", content: PROMPT },
    "gemini-interactions": { type: "user_input", content: [{ type: "text", text: PROMPT }] },
  };
  const conversation = [prompt[provider], ...turn.flat()];
  if (provider === "gemini") return { contents: conversation };
  if (provider === "openai-responses" || provider === "gemini-interactions")
    return { model: "test-model", input: conversation };
  return { model: "test-model", messages: conversation };
}

describe("the scripted model answers from the results the request carries", () => {
  const ids: Record<Provider, (i: number) => string | null> = {
    openai: (i) => `call_${i}`,
    "openai-responses": (i) => `call_${i}`,
    anthropic: (i) => `toolu_${i}`,
    gemini: () => null,
    bedrock: (i) => `tooluse_${i}`,
    cohere: (i) => `calculate_${i}`,
    ollama: () => null,
    "gemini-interactions": (i) => `fc${i}`,
  };
  const results = [
    {
      output: {
        time_zone: "Asia/Tokyo",
        date: "2026-11-23",
        time: "08:30:00",
        weekday: "Monday",
        utc_offset: "+09:00",
        utc: "2026-11-22T23:30:00.000Z",
      },
    },
    { output: { result: 39.1 } },
    { output: "`from` is not a known unit.", isError: true },
  ];
  for (const provider of PROVIDERS) {
    it(`${provider}: reads the prompt, the calls and their results (an error said to be one), and writes the answer from them`, async () => {
      const calls = PLANNED.map((call, i) => ({ id: ids[provider](i), ...call }));
      const body = afterResults(provider, calls, results);
      const transcript = readTranscript(provider, body);
      expect(transcript.prompt).toBe(PROMPT);
      expect(transcript.calls.map((call) => [call.name, call.arguments])).toEqual(
        PLANNED.map((call) => [call.name, call.arguments]),
      );
      expect(transcript.results).toHaveLength(3);
      const expected =
        "In Asia/Tokyo it is 08:30 on Monday, 2026-11-23 (UTC+09:00). 230 * 17 / 100 = 39.1. convert_units could not answer: `from` is not a known unit.";
      expect(answerFrom(transcript.calls, transcript.results)).toBe(expected);

      const send = scriptedModel(provider, { delayMs: 0, timers: new ManualTimers(), now: () => NOW });
      const response = await send("https://provider.test/v1/models/test-model:stream", {
        method: "POST",
        body: JSON.stringify(body),
      });
      expect(response.headers.get("x-replay-recording")).toBe("scripted-model");
      const events: ToolCallEvent[] = [];
      for await (const event of streamToolCalls(response, { provider })) events.push(event);
      expect([finishOf(events).reason, finishOf(events).text]).toEqual(["stop", expected]);
    });
  }

  it("a prompt it has no tool for gets a text saying what it can do, and the same request the same bytes", async () => {
    const turn = scriptedTurn(
      "openai",
      {
        model: "m",
        messages: [{ role: "user", content: "Write me a poem" }],
        tools: [{ type: "function", function: { name: "calculate" } }],
      },
      "m",
      10,
      NOW,
    );
    expect(turn.calls).toEqual([]);
    expect(turn.text).toBe(
      `This is the Worker's scripted model, which answers when no provider key is set. It calls the Worker's tools for arithmetic ("What is 17% of 230?"). Set a provider key to talk to a real model.`,
    );
    const send = scriptedModel("anthropic", { delayMs: 0, timers: new ManualTimers(), now: () => NOW });
    const request = (): Promise<Response> =>
      send("https://provider.test/v1/messages", {
        method: "POST",
        body: JSON.stringify({
          model: "m",
          messages: [{ role: "user", content: PROMPT }],
          tools: [{ name: "calculate" }],
        }),
      });
    expect(await (await request()).text()).toBe(await (await request()).text());
  });
});

describe("the scripted model's cost is bounded", () => {
  it("reads only the start of a huge prompt (its patterns would take quadratic time on long digit runs) and makes at most 8 calls", () => {
    // Read whole, the digits would end in a conversion ("...999 km to mi").
    const calls = planCalls(
      `What is 2 + 2? ${"9".repeat(200_000)} km to mi`,
      ["calculate", "convert_units"].map((name) => ({ name })),
    );
    expect(calls).toEqual([{ name: "calculate", arguments: { expression: "2 + 2" } }]);
    const many = planCalls(Array.from({ length: 20 }, (_, i) => `${i + 1} km to mi`).join(", "), [
      { name: "convert_units" },
    ]);
    expect(many).toHaveLength(8);
  });
});

describe("the scripted model and a conversion table tool (unit_table), when a request offers one", () => {
  it("a prompt asking for a table calls unit_table with the units and the values it lists, and the answer lists the rows", () => {
    expect(
      planCalls(
        "Make me a table of km to miles for 1, 5 and 10 km.",
        ["unit_table"].map((name) => ({ name })),
      ),
    ).toEqual([{ name: "unit_table", arguments: { from: "km", to: "mi", values: [1, 5, 10] } }]);
    expect(
      planCalls(
        "A table of °F to celsius?",
        ["unit_table", "convert_units"].map((name) => ({ name })),
      ),
    ).toEqual([{ name: "unit_table", arguments: { from: "F", to: "C" } }]);
    expect(
      planCalls(
        "Make me a table of km to miles",
        ["convert_units"].map((name) => ({ name })),
      ),
    ).toEqual([]);
    const call = { id: "c1", name: "unit_table", arguments: { from: "km", to: "mi", values: [1, 5] } };
    const result = {
      id: "c1",
      name: null,
      content: {
        from: "km",
        to: "mi",
        rows: [
          [1, 0.621371192237],
          [5, 3.10685596119],
        ],
      },
      isError: false,
    };
    expect(answerFrom([call], [result])).toBe("1 km is 0.621371192237 mi, 5 km is 3.10685596119 mi.");
  });
});
