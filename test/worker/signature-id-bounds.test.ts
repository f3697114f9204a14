// A call id of the `call_<token>__ts_<base64url>` (Gemini) or `<id>__is_<base64url>` (Gemini
// Interactions) shape (./thought-signatures.ts) comes from the client, which may write any: what it
// carries is read only for the upstream that mints such ids (the one whose next turn takes the
// signature back), no more of it than any signature needs (64 KiB, as `__xc_`'s:
// ./compatible-thought-signature-bounds.test.ts), and a longer one is a 400 in the client
// protocol's own error shape naming the field, checked before anything is decoded.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { chatChunk } from "../support/streams.ts";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, openAIChunks, testEnv } from "./support.ts";

const PARAMETERS = { type: "object" as const, properties: { query: { type: "string" } } };
const env = testEnv({
  OPENAI_API_KEY: "k",
  OPENAI_BASE_URL: "https://provider.test/v1",
  GEMINI_API_KEY: "k",
  GEMINI_BASE_URL: "https://gemini.test/v1beta",
  CLIENT_TOKEN: "t",
});
const base64url = (text: string): string =>
  btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");

// Past the limit (64 KiB of base64url): a signature no Gemini turn comes near (the largest recorded is 5.8 KB).
const LONG = "A".repeat(70_000);
const GEMINI_ID = `call_0123456789abcdef__ts_${LONG}`;
const STEP_ID = `fc_1__is_${LONG}`;

/** The Worker in front of an endpoint that answers Chat text; `sent`: the bodies it got. */
function worker(): { fetch: typeof fetch; sent: () => { messages?: { role: string; tool_calls?: unknown[] }[] }[] } {
  const chunks = [chatChunk({ role: "assistant", content: "18 degrees." }), chatChunk({}, "stop")];
  const upstream = new FakeUpstream({ kind: "sse", chunks: openAIChunks(chunks) });
  return {
    fetch: workerFetch({ env, upstream }),
    sent: () => upstream.requests.map((request) => request.body as never),
  };
}

/** A Chat Completions turn (openai-node) whose history holds a call of id `id` and its result. */
function chatTurn(fetch: typeof globalThis.fetch, model: string, id: string): Promise<unknown> {
  const openai = new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch, maxRetries: 0 });
  const call = { id, type: "function" as const, function: { name: "lookup", arguments: '{"query":"Paris"}' } };
  return openai.chat.completions
    .create({
      model,
      tools: [{ type: "function", function: { name: "lookup", parameters: PARAMETERS } }],
      messages: [
        { role: "user", content: "Weather in Paris?" },
        { role: "assistant", content: null, tool_calls: [call] },
        { role: "tool", tool_call_id: id, content: "18 degrees" },
      ],
    })
    .then(
      (answer) => answer.choices[0]!.message.content,
      (error: unknown) => error,
    );
}

/** A Responses turn (openai-node) whose input holds a call of id `id` and its output. */
function responsesTurn(fetch: typeof globalThis.fetch, model: string, id: string): Promise<unknown> {
  const openai = new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch, maxRetries: 0 });
  const input = [
    { role: "user" as const, content: "Weather in Paris?" },
    { type: "function_call" as const, call_id: id, name: "lookup", arguments: "{}" },
    { type: "function_call_output" as const, call_id: id, output: "18 degrees" },
  ];
  const tools = [{ type: "function" as const, name: "lookup", strict: false, parameters: PARAMETERS }];
  return openai.responses.create({ model, tools, input }).catch((thrown: unknown) => thrown);
}

/** A Messages turn (@anthropic-ai/sdk) whose history holds a tool_use of id `id` and its result. */
function messagesTurn(fetch: typeof globalThis.fetch, model: string, id: string): Promise<unknown> {
  const anthropic = new Anthropic({ baseURL: "http://localhost:8787", apiKey: "t", fetch, maxRetries: 0 });
  const messages = [
    { role: "user" as const, content: "Weather in Paris?" },
    { role: "assistant" as const, content: [{ type: "tool_use" as const, id, name: "lookup", input: {} }] },
    { role: "user" as const, content: [{ type: "tool_result" as const, tool_use_id: id, content: "18 degrees" }] },
  ];
  const tools = [{ name: "lookup", input_schema: PARAMETERS }];
  return anthropic.messages.create({ model, max_tokens: 64, tools, messages }).catch((thrown: unknown) => thrown);
}

/** The field a 400 names, in the protocol's shape (OpenAI's `param`, Anthropic's `invalid_request_error` message). */
function fieldOf(error: unknown): string | undefined {
  if (error instanceof OpenAI.BadRequestError) return error.param ?? undefined;
  if (!(error instanceof Anthropic.BadRequestError)) return undefined;
  const body = error.error as { error: { type: string; message: string } };
  return body.error.type === "invalid_request_error" ? /^`([^`]+)`/.exec(body.error.message)?.[1] : undefined;
}

const tooLong = [
  {
    client: "Chat Completions",
    model: "gemini/gemini-3-flash-preview",
    id: GEMINI_ID,
    turn: chatTurn,
    field: "messages[1].tool_calls[0].id",
  },
  {
    client: "Responses",
    model: "gemini/gemini-3-flash-preview",
    id: GEMINI_ID,
    turn: responsesTurn,
    field: "input[1].call_id",
  },
  {
    client: "Messages",
    model: "gemini-interactions/gemini-3-flash-preview",
    id: STEP_ID,
    turn: messagesTurn,
    field: "messages[1].content[0].id",
  },
];

describe("a signed call id a client sends back: read for its own upstream only, bounded", () => {
  it.each(tooLong)(
    "$client to $model: an id past the limit is a 400 naming $field",
    async ({ model, id, turn, field }) => {
      const { fetch, sent } = worker();
      expect(fieldOf(await turn(fetch, model, id))).toBe(field);
      expect(sent()).toEqual([]);
    },
  );

  it("to any other upstream (openai) a __ts_ or __is_ id is an id like any other: sent as it came, nothing decoded", async () => {
    for (const id of [`fc_1__is_${base64url("step-signature")}`, `call_0123__ts_${base64url("sig")}`, STEP_ID]) {
      const { fetch, sent } = worker();
      expect(await chatTurn(fetch, "openai/gpt-x", id)).toBe("18 degrees.");
      const messages = sent()[0]!.messages!;
      expect(messages.flatMap((m) => (m.role === "assistant" ? (m.tool_calls ?? []) : []))).toEqual([
        { id, type: "function", function: expect.anything() },
      ]);
      expect(
        messages.flatMap((m) => (m.role === "tool" ? [(m as { tool_call_id?: string }).tool_call_id] : [])),
      ).toEqual([id]);
    }
  });
});
