// Gemini's OpenAI-compatible endpoint signs only the first call of a step, in its
// `extra_content.google.thought_signature`, and refuses a history whose step's first call comes
// back without it (400). When the model ignores a forced tool and the Worker leaves that first
// (signed) call out, the call it keeps must carry the `extra_content` to the next turn, as a
// native Gemini signature does (forced-tool-signature.test.ts): a two-turn exchange through the
// Worker's `openai` upstream on Chat Completions (rules before the signatures ride in ids) and
// Responses (rules after).
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { createFetchHandler } from "../../worker/app.ts";
import { chatChunk } from "../support/streams.ts";
import { ManualTimers, openAIChunks, testEnv } from "./support.ts";

const EXTRA = { google: { thought_signature: "CiQBjz1rX+step/signature==" } };
const PARAMETERS = { type: "object" as const, properties: { query: { type: "string" } } };
const MODEL = "openai/gemini-3-flash-preview";
const NAMES = ["search", "lookup"];
const ask = { role: "user" as const, content: "Look up Paris." };

interface SentCall {
  id?: string;
  function?: { name: string };
  extra_content?: unknown;
}

/** `search` (signed) then `lookup` (unsigned) whatever the forced tool; a 400 for a step whose first call comes back unsigned. */
function scriptedEndpoint(): { fetch: (url: string, init: RequestInit) => Promise<Response>; refused: string[] } {
  const refused: string[] = [];
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    const request = new Request(url, init);
    const { messages } = (await request.json()) as { messages: { role: string; tool_calls?: SentCall[] }[] };
    for (const message of messages.filter((m) => m.role === "assistant")) {
      const first = message.tool_calls?.[0];
      // The call kept (`lookup`) goes back under the provider's own id, with the step's extra_content.
      if (first && (first.id !== "function-call-1" || JSON.stringify(first.extra_content) !== JSON.stringify(EXTRA))) {
        refused.push(first.function?.name ?? "");
        const text = "Function call is missing a thought_signature in functionCall parts.";
        return Response.json([{ error: { code: 400, message: text, status: "INVALID_ARGUMENT" } }], { status: 400 });
      }
    }
    const call = (index: number, name: string) => ({
      index,
      id: `function-call-${index}`,
      type: "function",
      function: { name, arguments: '{"query":"Paris"}' },
      ...(index === 0 ? { extra_content: EXTRA } : {}),
    });
    const chunks =
      messages.at(-1)?.role === "tool"
        ? [chatChunk({ role: "assistant", content: "18 degrees in Paris." }), chatChunk({}, "stop")]
        : [
            chatChunk({ role: "assistant", tool_calls: [call(0, "search"), call(1, "lookup")] }),
            chatChunk({}, "tool_calls"),
          ];
    return new Response(openAIChunks(chunks).join(""), { headers: { "content-type": "text/event-stream" } });
  };
  return { fetch, refused };
}

const env = testEnv({ OPENAI_API_KEY: "k", OPENAI_BASE_URL: "https://provider.test/v1", CLIENT_TOKEN: "t" });
function client(): { openai: OpenAI; refused: string[] } {
  const endpoint = scriptedEndpoint();
  const handler = createFetchHandler({ fetch: endpoint.fetch, timers: new ManualTimers() });
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) =>
    handler(new Request(input, init), env)) as typeof globalThis.fetch;
  const openai = new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch, maxRetries: 0 });
  return { openai, refused: endpoint.refused };
}

describe("a forced tool Gemini's OpenAI-compatible endpoint ignored: the call kept carries the step's extra_content", () => {
  it("Chat Completions (openai-node)", async () => {
    const { openai, refused } = client();
    const tools = NAMES.map((name) => ({ type: "function" as const, function: { name, parameters: PARAMETERS } }));
    const tool_choice = { type: "function" as const, function: { name: "lookup" } };
    const first = await openai.chat.completions.create({ model: MODEL, messages: [ask], tools, tool_choice });
    const message = first.choices[0]!.message;
    expect(message.tool_calls?.map((call) => call.type === "function" && call.function.name)).toEqual(["lookup"]);
    const call = message.tool_calls![0]!;
    const second = await openai.chat.completions.create({
      model: MODEL,
      messages: [ask, message, { role: "tool", tool_call_id: call.id, content: "18 degrees" }],
      tools,
    });
    expect([refused, second.choices[0]!.message.content]).toEqual([[], "18 degrees in Paris."]);
  });

  it("Responses (openai-node), streamed", async () => {
    const { openai, refused } = client();
    const tools = NAMES.map((name) => ({ type: "function" as const, name, strict: false, parameters: PARAMETERS }));
    const stream = openai.responses.stream({
      model: MODEL,
      input: [ask],
      tools,
      tool_choice: { type: "function", name: "lookup" },
    });
    const calls = (await stream.finalResponse()).output.filter((item) => item.type === "function_call");
    expect(calls.map(({ name }) => name)).toEqual(["lookup"]);
    // The calls as the client got them, then their outputs: the next turn's history.
    const outputs = calls.map(({ call_id }) => ({
      type: "function_call_output" as const,
      call_id,
      output: "18 degrees",
    }));
    const input = [
      ask,
      ...calls.map(({ call_id, name, arguments: args }) => ({
        type: "function_call" as const,
        call_id,
        name,
        arguments: args,
      })),
      ...outputs,
    ];
    const second = await openai.responses.create({ model: MODEL, tools, input });
    expect([refused, second.output_text]).toEqual([[], "18 degrees in Paris."]);
  });
});
