// Gemini signs only the first function call of a step, and Gemini 3 refuses a history whose first
// call of a step comes back unsigned ("Function call is missing a thought_signature in
// functionCall parts", 400). When Gemini ignores a forced tool and the Worker leaves its first
// (signed) call out, the call it keeps must carry that signature, on every client protocol that
// carries signatures (in the call's id): a two-turn exchange through the Worker against a scripted
// Gemini that checks the history it gets back as Gemini 3 does.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { createFetchHandler } from "../../worker/app.ts";
import { live } from "./open-responses-support.ts";
import { ManualTimers } from "./support.ts";

const SIGNATURE = "CiQBjz1rX+step/signature==";
const PARAMETERS = { type: "object", properties: { query: { type: "string" } } };

interface Part {
  functionCall?: { name: string };
  thoughtSignature?: string;
  text?: string;
}

/**
 * Gemini 3 as the thought-signatures guide describes it: the first turn calls `search` (signed,
 * the step's signature) and `lookup` (unsigned), whatever the forced tool; a later request whose
 * model step's first function call lacks that signature is a 400, else the answer is text.
 */
function scriptedGemini(): { fetch: (url: string, init: RequestInit) => Promise<Response>; refused: string[] } {
  const refused: string[] = [];
  let turn = 0;
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    const request = new Request(url, init);
    const { contents } = (await request.json()) as { contents: { role: string; parts: Part[] }[] };
    for (const content of contents.filter((c) => c.role === "model")) {
      const first = content.parts.find((part) => part.functionCall);
      if (first && first.thoughtSignature !== SIGNATURE) {
        refused.push(first.functionCall!.name);
        const message = "Function call is missing a thought_signature in functionCall parts.";
        return Response.json({ error: { code: 400, message, status: "INVALID_ARGUMENT" } }, { status: 400 });
      }
    }
    const parts: Part[] =
      turn++ === 0
        ? [
            { functionCall: { name: "search", args: { query: "Paris" } }, thoughtSignature: SIGNATURE } as Part,
            { functionCall: { name: "lookup", args: { query: "Paris" } } } as Part,
          ]
        : [{ text: "18 degrees in Paris." }];
    const chunk = { candidates: [{ content: { role: "model", parts }, finishReason: "STOP" }] };
    return new Response(`data: ${JSON.stringify(chunk)}\r\n\r\n`, { headers: { "content-type": "text/event-stream" } });
  };
  return { fetch, refused };
}

function client(): { fetch: typeof fetch; refused: string[] } {
  const gemini = scriptedGemini();
  const handler = createFetchHandler({ fetch: gemini.fetch, timers: new ManualTimers() });
  const env = live("gemini");
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) =>
    handler(new Request(input, init), env)) as typeof globalThis.fetch;
  return { fetch, refused: gemini.refused };
}

describe("a forced tool Gemini ignored: the call kept carries the step's signature to the next turn", () => {
  it("Chat Completions (openai-node)", async () => {
    const { fetch, refused } = client();
    const openai = new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch, maxRetries: 0 });
    const tools = ["search", "lookup"].map((name) => ({
      type: "function" as const,
      function: { name, parameters: PARAMETERS },
    }));
    const ask = { role: "user" as const, content: "Look up Paris." };
    const first = await openai.chat.completions.create({
      model: "gemini/m",
      messages: [ask],
      tools,
      tool_choice: { type: "function", function: { name: "lookup" } },
    });
    const message = first.choices[0]!.message;
    expect(message.tool_calls?.map((call) => call.type === "function" && call.function.name)).toEqual(["lookup"]);
    const call = message.tool_calls![0]!;
    const second = await openai.chat.completions.create({
      model: "gemini/m",
      messages: [ask, message, { role: "tool", tool_call_id: call.id, content: "18 degrees" }],
      tools,
    });
    expect([refused, second.choices[0]!.message.content]).toEqual([[], "18 degrees in Paris."]);
  });

  it("Messages (@anthropic-ai/sdk)", async () => {
    const { fetch, refused } = client();
    const anthropic = new Anthropic({ baseURL: "http://localhost:8787", apiKey: "t", fetch, maxRetries: 0 });
    const tools = ["search", "lookup"].map((name) => ({
      name,
      input_schema: PARAMETERS as Anthropic.Tool.InputSchema,
    }));
    const ask = { role: "user" as const, content: "Look up Paris." };
    const first = await anthropic.messages
      .stream({
        model: "gemini/m",
        max_tokens: 64,
        messages: [ask],
        tools,
        tool_choice: { type: "tool", name: "lookup" },
      })
      .finalMessage();
    const calls = first.content.filter((block) => block.type === "tool_use");
    expect(calls.map((block) => block.name)).toEqual(["lookup"]);
    const second = await anthropic.messages.create({
      model: "gemini/m",
      max_tokens: 64,
      tools,
      messages: [
        ask,
        { role: "assistant", content: calls },
        { role: "user", content: [{ type: "tool_result", tool_use_id: calls[0]!.id, content: "18 degrees" }] },
      ],
    });
    expect([refused, second.content]).toEqual([[], [expect.objectContaining({ text: "18 degrees in Paris." })]]);
  });

  it("Responses (openai-node), streamed", async () => {
    const { fetch, refused } = client();
    const openai = new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch, maxRetries: 0 });
    const tools = ["search", "lookup"].map((name) => ({
      type: "function" as const,
      name,
      strict: false,
      parameters: PARAMETERS,
    }));
    const ask = { role: "user" as const, content: "Look up Paris." };
    const first = await openai.responses
      .stream({ model: "gemini/m", input: [ask], tools, tool_choice: { type: "function", name: "lookup" } })
      .finalResponse();
    const calls = first.output.filter((item) => item.type === "function_call");
    expect(calls.map((item) => item.name)).toEqual(["lookup"]);
    const call = calls[0]!;
    const second = await openai.responses.create({
      model: "gemini/m",
      tools,
      input: [
        ask,
        { type: "function_call", call_id: call.call_id, name: call.name, arguments: call.arguments },
        { type: "function_call_output", call_id: call.call_id, output: "18 degrees" },
      ],
    });
    expect([refused, second.output_text]).toEqual([[], "18 degrees in Paris."]);
  });
});
