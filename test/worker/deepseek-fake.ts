// A DeepSeek-style thinking provider (a Chat Completions fake, strict as DeepSeek is about an
// assistant turn's `reasoning_content`) behind the Worker's `openai` upstream, for the tests of each
// client protocol's tool loop of two turns (agent-thinking-*.test.ts).
import { createFetchHandler } from "../../worker/app.ts";
import { chatChunk } from "../support/streams.ts";
import { ManualTimers, openAIChunks, testEnv } from "./support.ts";

/** Turn 1's reasoning. */
export const THINKING = "The user wants the weather in Paris; call lookup.";
/** Turn 2's reasoning. */
const AFTER = "The tool said 18 degrees.";
/** Turn 2's answer. */
export const ANSWER = "It is 18 degrees in Paris.";
/** The tool's result the client sends. */
export const RESULT = "18 degrees";
/** The user's question. */
export const ask = "Weather in Paris?";
/** The tool's parameters. */
export const schema = { type: "object" as const, properties: { query: { type: "string" } } };

/** DeepSeek in thinking mode: a call on turn 1, text once the result came; a 400 for an assistant turn with calls and no reasoning_content. */
export class DeepSeekFake {
  readonly bodies: Record<string, unknown>[] = [];

  readonly fetch = async (url: string, init: RequestInit): Promise<Response> => {
    const request = new Request(url, init);
    const body = (await request.json()) as { messages: Record<string, unknown>[] };
    this.bodies.push(body);
    const missing = body.messages.findIndex(
      (m) => m["role"] === "assistant" && Array.isArray(m["tool_calls"]) && typeof m["reasoning_content"] !== "string",
    );
    if (missing !== -1)
      return Response.json(
        {
          error: {
            message: `Missing \`reasoning_content\` field in the assistant message at message index ${missing}. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls`,
            type: "invalid_request_error",
            param: null,
            code: "invalid_request_error",
          },
        },
        { status: 400 },
      );
    const answered = body.messages.at(-1)?.["role"] === "tool";
    const thinking = answered ? AFTER : THINKING;
    const chunks = [
      chatChunk({ role: "assistant", content: null, reasoning_content: "" }),
      ...thinking.match(/.{1,12}/g)!.map((piece) => chatChunk({ content: null, reasoning_content: piece })),
      answered
        ? chatChunk({ content: ANSWER })
        : chatChunk({
            tool_calls: [
              {
                index: 0,
                id: "call_ds_1",
                type: "function",
                function: { name: "lookup", arguments: '{"query":"Paris"}' },
              },
            ],
          }),
      chatChunk({}, answered ? "stop" : "tool_calls"),
    ];
    return new Response(openAIChunks(chunks).join(""), { headers: { "content-type": "text/event-stream" } });
  };

  /** The assistant turn of the last request. */
  lastAssistant(): Record<string, unknown> | undefined {
    return Array.isArray(this.bodies.at(-1)?.["messages"])
      ? (this.bodies.at(-1)!["messages"] as Record<string, unknown>[]).find((m) => m["role"] === "assistant")
      : undefined;
  }
}

/** The Worker's env: the fake as its OpenAI upstream, a client token `t`. */
export const env = testEnv({ OPENAI_API_KEY: "k", OPENAI_BASE_URL: "https://provider.test/v1", CLIENT_TOKEN: "t" });
/** A fetch that answers with the Worker in front of `fake`. */
export function clientFetch(fake: DeepSeekFake): typeof fetch {
  const handler = createFetchHandler({ fetch: fake.fetch, timers: new ManualTimers() });
  return (async (input: RequestInfo | URL, init?: RequestInit) =>
    handler(new Request(input, init), env)) as typeof fetch;
}
/** The model every client asks for. */
export const MODEL = "openai/deepseek-reasoner";
/** Turn 1 as the provider must get it back on turn 2: its reasoning_content with its call. */
export const expectedTurn = {
  role: "assistant",
  content: null,
  reasoning_content: THINKING,
  tool_calls: [{ id: "call_ds_1", type: "function", function: { name: "lookup", arguments: '{"query":"Paris"}' } }],
};
