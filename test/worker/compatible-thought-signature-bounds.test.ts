// A call id of the `<id>__xc_<base64url>` shape (./compatible-thought-signature.test.ts) comes
// from the client, which may write any: what it carries goes upstream only as the one thing the
// feature needs, Gemini's `extra_content.google.thought_signature`, to the `openai` upstream (the
// only one the Worker gives such ids), and an id carrying more than any signature is a 400 in the
// client protocol's own error shape naming the field, not a 500 or a body of the client's JSON.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { createFetchHandler } from "../../worker/app.ts";
import { chatChunk } from "../support/streams.ts";
import { ManualTimers, openAIChunks, testEnv } from "./support.ts";

const SIGNATURE = "CiQBjz1rX+step/signature==";
const PARAMETERS = { type: "object" as const, properties: { query: { type: "string" } } };
const MODEL = "openai/gemini-3-flash-preview";

const base64url = (text: string): string =>
  btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
/** The id a client sends back: the provider's id, then `extra` (any JSON text) as the Worker marks it. */
const idWith = (extra: string): string => `function-call-1__xc_${base64url(extra)}`;

const env = testEnv({ OPENAI_API_KEY: "k", OPENAI_BASE_URL: "https://provider.test/v1", CLIENT_TOKEN: "t" });

/** The Worker in front of an endpoint that answers text and keeps the calls of each body it got. */
function worker(): { fetch: typeof fetch; sent: unknown[][] } {
  const sent: unknown[][] = [];
  const upstream = async (url: string, init: RequestInit): Promise<Response> => {
    const request = new Request(url, init);
    const { messages } = (await request.json()) as { messages: { role: string; tool_calls?: unknown[] }[] };
    sent.push(messages.flatMap((m) => (m.role === "assistant" ? (m.tool_calls ?? []) : [])));
    const chunks = [chatChunk({ role: "assistant", content: "18 degrees." }), chatChunk({}, "stop")];
    return new Response(openAIChunks(chunks).join(""), { headers: { "content-type": "text/event-stream" } });
  };
  const handler = createFetchHandler({ fetch: upstream, timers: new ManualTimers() });
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) =>
    handler(new Request(input, init), env)) as typeof globalThis.fetch;
  return { fetch, sent };
}

/** A Chat Completions turn (openai-node) whose history holds a call of id `id` and its result. */
async function chatTurn(fetch: typeof globalThis.fetch, id: string): Promise<string | null> {
  const openai = new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch, maxRetries: 0 });
  const call = { id, type: "function" as const, function: { name: "lookup", arguments: '{"query":"Paris"}' } };
  const answer = await openai.chat.completions.create({
    model: MODEL,
    tools: [{ type: "function", function: { name: "lookup", parameters: PARAMETERS } }],
    messages: [
      { role: "user", content: "Weather in Paris?" },
      { role: "assistant", content: null, tool_calls: [call] },
      { role: "tool", tool_call_id: id, content: "18 degrees" },
    ],
  });
  return answer.choices[0]!.message.content;
}

/** What a call failed with: the SDK's error, or the answer it did not fail with. */
const failure = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    (answer) => ({ answer }),
    (error: unknown) => error,
  );

// Past the limit of what an id may carry (64 KiB): a signature no Gemini turn comes near.
const HUGE = idWith(JSON.stringify({ google: { thought_signature: "A".repeat(70_000) } }));

describe("an extra_content call id a client sends back carries only Gemini's signature, bounded", () => {
  it("the upstream gets the signature alone, not the rest of the JSON the id holds", async () => {
    const { fetch, sent } = worker();
    const injected = JSON.stringify({ google: { thought_signature: SIGNATURE, other: 1 }, tools: ["rm -rf"] });
    expect(await chatTurn(fetch, idWith(injected))).toBe("18 degrees.");
    expect(sent[0]).toEqual([
      expect.objectContaining({ id: "function-call-1", extra_content: { google: { thought_signature: SIGNATURE } } }),
    ]);
  });

  it("an id whose JSON is no signature (nested 12,000 deep) is an id like any other, not a 400 naming `messages`", async () => {
    const { fetch, sent } = worker();
    const deep = `{"google":{"thought_signature":${"[".repeat(12_000)}${"]".repeat(12_000)}}}`;
    const id = idWith(deep);
    expect(await chatTurn(fetch, id)).toBe("18 degrees.");
    expect(sent[0]).toEqual([{ id, type: "function", function: expect.anything() }]);
  });

  it("Chat Completions: an id past the limit is a 400 naming messages[1].tool_calls[0].id", async () => {
    const { fetch, sent } = worker();
    const error = await failure(chatTurn(fetch, HUGE));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe("messages[1].tool_calls[0].id");
    expect(sent).toEqual([]);
  });

  it("Responses: an id past the limit is a 400 naming input[1].call_id", async () => {
    const { fetch, sent } = worker();
    const openai = new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch, maxRetries: 0 });
    const error = await failure(
      openai.responses.create({
        model: MODEL,
        tools: [{ type: "function", name: "lookup", strict: false, parameters: PARAMETERS }],
        input: [
          { role: "user", content: "Weather in Paris?" },
          { type: "function_call", call_id: HUGE, name: "lookup", arguments: "{}" },
          { type: "function_call_output", call_id: HUGE, output: "18 degrees" },
        ],
      }),
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe("input[1].call_id");
    expect(sent).toEqual([]);
  });

  it("Messages: an id past the limit is a 400 invalid_request_error naming messages[1].content[0].id", async () => {
    const { fetch, sent } = worker();
    const anthropic = new Anthropic({ baseURL: "http://localhost:8787", apiKey: "t", fetch, maxRetries: 0 });
    const error = await failure(
      anthropic.messages.create({
        model: MODEL,
        max_tokens: 64,
        tools: [{ name: "lookup", input_schema: PARAMETERS }],
        messages: [
          { role: "user", content: "Weather in Paris?" },
          { role: "assistant", content: [{ type: "tool_use", id: HUGE, name: "lookup", input: {} }] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: HUGE, content: "18 degrees" }] },
        ],
      }),
    );
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    const body = (error as InstanceType<typeof Anthropic.BadRequestError>).error as {
      error: { type: string; message: string };
    };
    expect(body.error.type).toBe("invalid_request_error");
    expect(body.error.message).toContain("messages[1].content[0].id");
    expect(sent).toEqual([]);
  });
});
