// Gemini Interactions behind /v1/chat/completions: each function_call step's signature must come
// back on the next turn, and a Chat client sends back only what it got: the tool_call id carries it
// (`<id>__is_<base64url>`, worker/protocols/thought-signatures.ts), as on /v1/messages and
// /v1/responses. openai-node's two-turn tool loop against a fake Interactions API that refuses a
// function_call step without its signature, or with another one, as the real API does (a 400).
// The first turn is test/recordings/gemini-interactions/sdk-calls-signed-after-start: each call's
// signature comes after its start (a thought_signature delta of its step), so no id of the call
// may reach the client before it; re-chunked at any byte, no chunk carries an unsigned id.
import fc from "fast-check";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { createFetchHandler } from "../../worker/app.ts";
import { callIdOf } from "../../worker/protocols/thought-signatures.ts";
import { fixturesOf } from "../support/fixtures.ts";
import { splitAt } from "../support/streams.ts";
import { ManualTimers, testEnv } from "./support.ts";

const env = testEnv({ GEMINI_API_KEY: "AIza-test-0123456789", CLIENT_TOKEN: "t" });
const MODEL = "gemini-interactions/gemini-3-flash-preview";
const recording = fixturesOf("gemini-interactions").find((f) => f.name === "sdk-calls-signed-after-start")!;
/** The signatures the recording's calls carry, by the provider's call id. */
const SIGNED: Record<string, string> = { fc_a1: "c2lnLWZjX2Ex", fc_b2: "c2lnLWZjX2Iy" };
const TOOL_SCHEMA = { type: "object", properties: { location: { type: "string" } } };
const tools = [{ type: "function" as const, function: { name: "get_weather", parameters: TOOL_SCHEMA } }];
const PROMPT = "Weather in Paris and Oslo?";

const stream = (chunks: readonly Uint8Array[]): Response =>
  new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    }),
    { headers: { "content-type": "text/event-stream" } },
  );

const TEXT_TURN = [
  'event: step.start\ndata: {"event_type":"step.start","index":0,"step":{"type":"model_output"}}\n\n',
  'event: step.delta\ndata: {"event_type":"step.delta","index":0,"delta":{"type":"text","text":"Paris 18 C, Oslo 4 C."}}\n\n',
  'event: step.stop\ndata: {"event_type":"step.stop","index":0}\n\n',
  'event: interaction.completed\ndata: {"event_type":"interaction.completed","interaction":{"id":"v1_b","status":"completed"}}\n\n',
  "event: done\ndata: [DONE]\n\n",
].map((text) => new TextEncoder().encode(text));

/**
 * A fake of the Interactions API: the first turn is the recording (cut at `cuts`); a turn with
 * function_call steps is refused with a 400 unless each carries the signature it was given.
 */
function fakeInteractions(cuts: readonly number[] = []) {
  const bodies: Record<string, unknown>[] = [];
  const refused: string[] = [];
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    const request = new Request(url, init);
    const body = (await request.json()) as Record<string, unknown>;
    bodies.push(body);
    const steps = (body["input"] as Record<string, unknown>[]).filter((s) => s["type"] === "function_call");
    if (steps.length === 0) return stream(splitAt(recording.body, [...cuts]));
    for (const step of steps) {
      if (step["signature"] !== SIGNED[String(step["id"])]) {
        refused.push(String(step["id"]));
        return Response.json(
          {
            error: { code: 400, message: "Function call is missing a thought_signature.", status: "INVALID_ARGUMENT" },
          },
          { status: 400 },
        );
      }
    }
    return stream(TEXT_TURN);
  };
  return { fetch, bodies, refused };
}

function client(fetch: (url: string, init: RequestInit) => Promise<Response>): OpenAI {
  const handler = createFetchHandler({ fetch, timers: new ManualTimers() });
  return new OpenAI({
    baseURL: "http://localhost:8787/v1",
    apiKey: "t",
    maxRetries: 0,
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) =>
      handler(new Request(input, init), env)) as typeof globalThis.fetch,
  });
}

type ChatCall = OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;

/** The second turn: the assistant message with `calls` as the client got them, and a result for each. */
function nextTurn(calls: readonly ChatCall[]): OpenAI.Chat.Completions.ChatCompletionMessageParam[] {
  return [
    { role: "user", content: PROMPT },
    { role: "assistant", content: "Checking both cities.", tool_calls: [...calls] },
    ...calls.map((call) => ({ role: "tool" as const, tool_call_id: call.id, content: "18" })),
  ];
}

describe("Gemini Interactions call signatures through /v1/chat/completions (openai-node)", () => {
  it("stream: the tool_call ids carry the signatures; the next turn sends each back on its call and is accepted", async () => {
    const fake = fakeInteractions();
    const openai = client(fake.fetch);
    const first = await openai.chat.completions
      .stream({ model: MODEL, messages: [{ role: "user", content: PROMPT }], tools })
      .finalChatCompletion();
    const calls = (first.choices[0]?.message.tool_calls ?? []) as ChatCall[];
    expect(
      calls.map((call) => [
        callIdOf(call.id, "gemini-interactions"),
        call.id.startsWith(`${callIdOf(call.id, "gemini-interactions")}__is_`),
        call.function.arguments,
      ]),
    ).toEqual([
      ["fc_a1", true, '{"location":"Paris"}'],
      ["fc_b2", true, '{"location":"Oslo"}'],
    ]);
    const second = await openai.chat.completions.create({ model: MODEL, messages: nextTurn(calls), tools });
    expect(second.choices[0]?.message.content).toBe("Paris 18 C, Oslo 4 C.");
    expect(fake.refused).toEqual([]);
    const input = fake.bodies[1]?.["input"] as Record<string, unknown>[];
    expect(input.filter((s) => s["type"] !== "user_input" && s["type"] !== "model_output")).toEqual([
      {
        type: "function_call",
        id: "fc_a1",
        name: "get_weather",
        arguments: { location: "Paris" },
        signature: SIGNED["fc_a1"],
      },
      {
        type: "function_call",
        id: "fc_b2",
        name: "get_weather",
        arguments: { location: "Oslo" },
        signature: SIGNED["fc_b2"],
      },
      { type: "function_result", call_id: "fc_a1", name: "get_weather", result: "18" },
      { type: "function_result", call_id: "fc_b2", name: "get_weather", result: "18" },
    ]);
  });

  it("create() without stream: the same ids; a client that drops the signature from the id is refused by the provider", async () => {
    const fake = fakeInteractions();
    const openai = client(fake.fetch);
    const first = await openai.chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: PROMPT }],
      tools,
    });
    const calls = (first.choices[0]?.message.tool_calls ?? []) as ChatCall[];
    expect(calls.map((call) => call.id.startsWith(`${callIdOf(call.id, "gemini-interactions")}__is_`))).toEqual([
      true,
      true,
    ]);
    const stripped = calls.map((call) => ({ ...call, id: callIdOf(call.id, "gemini-interactions") }));
    await expect(
      openai.chat.completions.create({ model: MODEL, messages: nextTurn(stripped), tools }),
    ).rejects.toThrow();
    expect(fake.refused).toEqual(["fc_a1"]);
    const accepted = await openai.chat.completions.create({ model: MODEL, messages: nextTurn(calls), tools });
    expect(accepted.choices[0]?.message.content).toBe("Paris 18 C, Oslo 4 C.");
  });

  it("a call signed after its start: at any cut of the bytes, no chunk names it without its signature, and the text before it is kept", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: recording.body.length - 1 }), { maxLength: 30 }),
        async (cuts) => {
          const openai = client(fakeInteractions(cuts).fetch);
          const chunks = await openai.chat.completions.create({
            model: MODEL,
            messages: [{ role: "user", content: PROMPT }],
            tools,
            stream: true,
          });
          const ids: string[] = [];
          let text = "";
          for await (const chunk of chunks) {
            text += chunk.choices[0]?.delta.content ?? "";
            for (const call of chunk.choices[0]?.delta.tool_calls ?? []) if (call.id !== undefined) ids.push(call.id);
          }
          expect(text).toBe("Checking both cities.");
          expect(ids.map((id) => callIdOf(id, "gemini-interactions"))).toEqual(["fc_a1", "fc_b2"]);
          for (const id of ids) expect(id.startsWith(`${callIdOf(id, "gemini-interactions")}__is_`), id).toBe(true);
        },
      ),
      { seed: 34, numRuns: 15 },
    );
  });
});
