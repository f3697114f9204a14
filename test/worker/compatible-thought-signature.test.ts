// Gemini's OpenAI-compatible endpoint (generativelanguage.googleapis.com/v1beta/openai/) puts a
// Gemini 3 call's thought signature in the call's `extra_content.google.thought_signature`, and
// refuses the next turn when the call comes back without it ("Function call is missing a
// thought_signature in functionCall parts", 400). Behind the Worker's `openai` upstream, a client of
// any agent protocol runs a two-turn tool loop with its own SDK against a scripted endpoint that
// checks the history as Gemini does; an OpenAI call with no `extra_content` keeps its id as it is.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { createFetchHandler } from "../../worker/app.ts";
import { chatChunk } from "../support/streams.ts";
import { ManualTimers, openAIChunks, testEnv } from "./support.ts";

const EXTRA = { google: { thought_signature: "CiQBjz1rX+step/signature==" } };
const PARAMETERS = { type: "object" as const, properties: { query: { type: "string" } } };
const MODEL = "openai/gemini-3-flash-preview";

interface SentCall {
  id?: string;
  extra_content?: unknown;
}

/** The endpoint: a signed call (when `signed`) on the first turn, text once the result came; a 400 for a call sent back unsigned. */
function scriptedEndpoint(signed = true): {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  sent: SentCall[][];
} {
  const sent: SentCall[][] = [];
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    const request = new Request(url, init);
    const { messages } = (await request.json()) as { messages: { role: string; tool_calls?: SentCall[] }[] };
    const calls = messages.flatMap((m) => (m.role === "assistant" ? (m.tool_calls ?? []) : []));
    sent.push(calls);
    if (signed && calls.some((call) => JSON.stringify(call.extra_content) !== JSON.stringify(EXTRA))) {
      const message = "Function call is missing a thought_signature in functionCall parts.";
      return Response.json([{ error: { code: 400, message, status: "INVALID_ARGUMENT" } }], { status: 400 });
    }
    const call = {
      index: 0,
      id: "function-call-1",
      type: "function",
      function: { name: "lookup", arguments: '{"query":"Paris"}' },
      ...(signed ? { extra_content: EXTRA } : {}),
    };
    const chunks =
      messages.at(-1)?.role === "tool"
        ? [chatChunk({ role: "assistant", content: "18 degrees in Paris." }), chatChunk({}, "stop")]
        : [chatChunk({ role: "assistant", tool_calls: [call] }), chatChunk({}, "tool_calls")];
    return new Response(openAIChunks(chunks).join(""), { headers: { "content-type": "text/event-stream" } });
  };
  return { fetch, sent };
}

const env = testEnv({ OPENAI_API_KEY: "k", OPENAI_BASE_URL: "https://provider.test/v1", CLIENT_TOKEN: "t" });
function client(signed = true): { fetch: typeof fetch; sent: SentCall[][] } {
  const endpoint = scriptedEndpoint(signed);
  const handler = createFetchHandler({ fetch: endpoint.fetch, timers: new ManualTimers() });
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) =>
    handler(new Request(input, init), env)) as typeof globalThis.fetch;
  return { fetch, sent: endpoint.sent };
}

/** A two-turn Chat Completions loop (openai-node, `stream` or not): the call the client saw, and the second answer. */
async function chatLoop(fetch: typeof globalThis.fetch, stream: boolean): Promise<[string, string | null]> {
  const openai = new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch, maxRetries: 0 });
  const tools = [{ type: "function" as const, function: { name: "lookup", parameters: PARAMETERS } }];
  const ask = { role: "user" as const, content: "Weather in Paris?" };
  const message = stream
    ? (await openai.chat.completions.stream({ model: MODEL, messages: [ask], tools }).finalChatCompletion()).choices[0]!
        .message
    : (await openai.chat.completions.create({ model: MODEL, messages: [ask], tools })).choices[0]!.message;
  const calls = message.tool_calls!;
  const call = calls[0]!;
  const second = await openai.chat.completions.create({
    model: MODEL,
    tools,
    messages: [
      ask,
      { role: "assistant", content: null, tool_calls: calls },
      { role: "tool", tool_call_id: call.id, content: "18 degrees" },
    ],
  });
  return [call.id, second.choices[0]!.message.content];
}

describe("Gemini's OpenAI-compatible endpoint: a call's extra_content reaches the next turn through the call id", () => {
  it("Chat Completions (openai-node)", async () => {
    const { fetch, sent } = client();
    const [, text] = await chatLoop(fetch, false);
    expect([text, sent[1]]).toEqual(["18 degrees in Paris.", [expect.objectContaining({ id: "function-call-1" })]]);
  });

  it("Chat Completions (openai-node), streamed", async () => {
    const { fetch, sent } = client();
    const [, text] = await chatLoop(fetch, true);
    expect([text, sent[1]]).toEqual(["18 degrees in Paris.", [expect.objectContaining({ id: "function-call-1" })]]);
  });

  it("Messages (@anthropic-ai/sdk)", async () => {
    const { fetch, sent } = client();
    const anthropic = new Anthropic({ baseURL: "http://localhost:8787", apiKey: "t", fetch, maxRetries: 0 });
    const tools = [{ name: "lookup", input_schema: PARAMETERS }];
    const ask = { role: "user" as const, content: "Weather in Paris?" };
    const first = await anthropic.messages
      .stream({ model: MODEL, max_tokens: 64, messages: [ask], tools })
      .finalMessage();
    const call = first.content.find((block) => block.type === "tool_use")!;
    const result = { type: "tool_result" as const, tool_use_id: call.id, content: "18 degrees" };
    const history: Anthropic.MessageParam[] = [
      ask,
      { role: "assistant", content: [call] },
      { role: "user", content: [result] },
    ];
    const second = await anthropic.messages.create({ model: MODEL, max_tokens: 64, tools, messages: history });
    expect([second.content, sent[1]]).toEqual([
      [expect.objectContaining({ text: "18 degrees in Paris." })],
      [expect.objectContaining({ id: "function-call-1" })],
    ]);
  });

  it("Responses (openai-node), streamed", async () => {
    const { fetch, sent } = client();
    const openai = new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch, maxRetries: 0 });
    const tools = [{ type: "function" as const, name: "lookup", strict: false, parameters: PARAMETERS }];
    const ask = { role: "user" as const, content: "Weather in Paris?" };
    const first = await openai.responses.stream({ model: MODEL, input: [ask], tools }).finalResponse();
    const call = first.output.find((item) => item.type === "function_call")!;
    const second = await openai.responses.create({
      model: MODEL,
      tools,
      input: [
        ask,
        { type: "function_call", call_id: call.call_id, name: call.name, arguments: call.arguments },
        { type: "function_call_output", call_id: call.call_id, output: "18 degrees" },
      ],
    });
    expect([second.output_text, sent[1]]).toEqual([
      "18 degrees in Paris.",
      [expect.objectContaining({ id: "function-call-1" })],
    ]);
  });

  it("a call with no extra_content keeps the provider's id, and goes back with none", async () => {
    const { fetch, sent } = client(false);
    const [id, text] = await chatLoop(fetch, true);
    expect([id, text, sent[1]]).toEqual([
      "function-call-1",
      "18 degrees in Paris.",
      [{ id: "function-call-1", type: "function", function: expect.anything() }],
    ]);
  });
});
