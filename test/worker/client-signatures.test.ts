// Gemini's call signatures through /v1/ag-ui and /v1/ui: Gemini 3 refuses a turn whose function
// calls come back without the `thoughtSignature` each came with, and Gemini Interactions a
// `function_call` step without its `signature`. An AG-UI agent and `useChat` send back only what
// they got, and they echo each call's id: so the id carries the signature
// (worker/protocols/thought-signatures.ts), as on the Chat, Messages and Responses routes. Each
// case is a two-turn exchange with the real client (@ag-ui/client's HttpAgent; the AI SDK's
// DefaultChatTransport and readUIMessageStream, the tool output filled in as `addToolOutput`
// does) against a fake upstream, and reads the second turn's upstream body: the signature on its
// call, and each result under its call's id.
import { HttpAgent, type Message } from "@ag-ui/client";
import * as ai from "ai";
import { describe, expect, it } from "vitest";
import { callIdOf } from "../../worker/protocols/thought-signatures.ts";
import { fixturesOf } from "../support/fixtures.ts";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

const env = testEnv({ GEMINI_API_KEY: "k", GEMINI_BASE_URL: "https://provider.test/v1beta", CLIENT_TOKEN: "t" });
const PROMPT = "Weather in Paris and Oslo?";
const tools = [
  {
    name: "get_weather",
    description: "Weather",
    parameters: { type: "object", properties: { city: { type: "string" } } },
  },
];
const RESULT = { celsius: 18 };

/** Gemini 3's parallel calls: the first one signed, as the API signs them. */
const SIGNATURE = "CiQBjz1rX+signed/thought==";
const geminiCalls = {
  candidates: [
    {
      content: {
        role: "model",
        parts: [
          { functionCall: { name: "get_weather", args: { city: "Paris" } }, thoughtSignature: SIGNATURE },
          { functionCall: { name: "get_weather", args: { city: "Oslo" } } },
        ],
      },
      finishReason: "STOP",
    },
  ],
};
const geminiText = { candidates: [{ content: { role: "model", parts: [{ text: "18 C." }] }, finishReason: "STOP" }] };
const sse = (chunk: unknown): string => `data: ${JSON.stringify(chunk)}\r\n\r\n`;

/** Gemini Interactions: two calls, each signed by a `thought_signature` delta after its start. */
const recording = fixturesOf("gemini-interactions").find((f) => f.name === "sdk-calls-signed-after-start")!;
const SIGNED: Record<string, string> = { fc_a1: "c2lnLWZjX2Ex", fc_b2: "c2lnLWZjX2Iy" };
const interactionsText = [
  'event: step.start\ndata: {"event_type":"step.start","index":0,"step":{"type":"model_output"}}\n\n',
  'event: step.delta\ndata: {"event_type":"step.delta","index":0,"delta":{"type":"text","text":"18 C."}}\n\n',
  'event: step.stop\ndata: {"event_type":"step.stop","index":0}\n\n',
  'event: interaction.completed\ndata: {"event_type":"interaction.completed","interaction":{"id":"v1_b","status":"completed"}}\n\n',
  "event: done\ndata: [DONE]\n\n",
];

const PROVIDERS = {
  gemini: { model: "gemini/gemini-3-pro-preview", calls: [sse(geminiCalls)], text: [sse(geminiText)] },
  "gemini-interactions": {
    model: "gemini-interactions/gemini-3-flash-preview",
    calls: [recording.body],
    text: interactionsText,
  },
} as const;
type Provider = keyof typeof PROVIDERS;

/** A fake upstream that answers the first turn with the provider's calls, and the next with text. */
function upstreamOf(provider: Provider): { upstream: FakeUpstream; next(): void } {
  const upstream = new FakeUpstream({ kind: "sse", chunks: PROVIDERS[provider].calls });
  return { upstream, next: () => void (upstream.answer = { kind: "sse", chunks: PROVIDERS[provider].text }) };
}

/** Two turns of an AG-UI agent: its calls, then a tool message for each; the ids the client saw. */
async function agUITurns(provider: Provider, upstream: ReturnType<typeof upstreamOf>): Promise<string[]> {
  const agent = new HttpAgent({
    url: "http://localhost:8787/v1/ag-ui",
    threadId: "thread_1",
    initialMessages: [{ id: "user_1", role: "user", content: PROMPT }],
    headers: { authorization: "Bearer t" },
    fetch: workerFetch({ env, upstream: upstream.upstream }),
  });
  const forwardedProps = { model: PROVIDERS[provider].model };
  const first = await agent.runAgent({ runId: "run_1", tools, forwardedProps });
  const calls = first.newMessages.flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []) : []));
  calls.forEach((call, i) => {
    const result: Message = { id: `tool_${i}`, role: "tool", toolCallId: call.id, content: JSON.stringify(RESULT) };
    agent.addMessage(result);
  });
  upstream.next();
  const second = await agent.runAgent({ runId: "run_2", tools, forwardedProps });
  expect(second.newMessages.at(-1)).toMatchObject({ role: "assistant", content: "18 C." });
  return calls.map((call) => call.id);
}

/** Two turns of `useChat`'s transport: its tool parts, then each with its output; the ids the client saw. */
async function uiTurns(provider: Provider, upstream: ReturnType<typeof upstreamOf>): Promise<string[]> {
  const transport = new ai.DefaultChatTransport({
    api: "http://localhost:8787/v1/ui",
    headers: { authorization: "Bearer t" },
    fetch: workerFetch({ env, upstream: upstream.upstream }),
    body: { model: PROVIDERS[provider].model, tools },
  });
  const submit = { chatId: "chat_1", abortSignal: undefined, trigger: "submit-message", messageId: undefined } as const;
  const send = async (messages: ai.UIMessage[]): Promise<ai.UIMessage> => {
    const chunks = await transport.sendMessages({ ...submit, messages });
    let message: ai.UIMessage | undefined;
    for await (const snapshot of ai.readUIMessageStream({ stream: chunks })) message = snapshot;
    return message!;
  };
  const user: ai.UIMessage = { id: "user_1", role: "user", parts: [{ type: "text", text: PROMPT }] };
  const first = await send([user]);
  const called = first.parts.filter((part): part is ai.ToolUIPart => part.type.startsWith("tool-"));
  const answered = first.parts.map((part) =>
    part.type.startsWith("tool-") ? ({ ...part, state: "output-available", output: RESULT } as ai.ToolUIPart) : part,
  );
  upstream.next();
  const second = await send([user, { ...first, parts: answered }]);
  expect(second.parts.filter((part) => part.type === "text")).toMatchObject([{ text: "18 C." }]);
  return called.map((part) => part.toolCallId);
}

const routes = [
  ["POST /v1/ag-ui (@ag-ui/client HttpAgent)", agUITurns],
  ["POST /v1/ui (ai DefaultChatTransport + readUIMessageStream)", uiTurns],
] as const;

for (const [route, turns] of routes) {
  describe(`${route}: Gemini's call signatures come back on the next turn`, () => {
    it("gemini: the signed call's id carries its thoughtSignature; turn 2 sends it on that functionCall, each functionResponse under its call's id", async () => {
      const upstream = upstreamOf("gemini");
      const ids = await turns("gemini", upstream);
      expect(ids).toHaveLength(2);
      expect(ids[0]).toMatch(/^call_[A-Za-z0-9]+__ts_[A-Za-z0-9_-]+$/);
      expect(ids[1]).not.toContain("__ts_");
      const contents = upstream.upstream.requests[1]!.body["contents"];
      expect(contents).toEqual([
        { role: "user", parts: [{ text: PROMPT }] },
        {
          role: "model",
          parts: [
            { functionCall: { name: "get_weather", args: { city: "Paris" }, id: ids[0] }, thoughtSignature: SIGNATURE },
            { functionCall: { name: "get_weather", args: { city: "Oslo" }, id: ids[1] } },
          ],
        },
        {
          role: "user",
          parts: [
            { functionResponse: { name: "get_weather", id: ids[0], response: RESULT } },
            { functionResponse: { name: "get_weather", id: ids[1], response: RESULT } },
          ],
        },
      ]);
    });

    it("gemini-interactions: each call's id carries its step's signature; turn 2 sends each step its own id and signature, each result under that id", async () => {
      const upstream = upstreamOf("gemini-interactions");
      const ids = await turns("gemini-interactions", upstream);
      expect(ids.map((id) => [callIdOf(id, "gemini-interactions"), id.includes("__is_")])).toEqual([
        ["fc_a1", true],
        ["fc_b2", true],
      ]);
      const input = upstream.upstream.requests[1]!.body["input"] as Record<string, unknown>[];
      expect(input.filter((step) => step["type"] === "function_call" || step["type"] === "function_result")).toEqual([
        ...["fc_a1", "fc_b2"].map((id, i) => ({
          type: "function_call",
          id,
          name: "get_weather",
          arguments: { location: i === 0 ? "Paris" : "Oslo" },
          signature: SIGNED[id],
        })),
        ...["fc_a1", "fc_b2"].map((id) => ({
          type: "function_result",
          call_id: id,
          name: "get_weather",
          result: JSON.stringify(RESULT),
        })),
      ]);
    });
  });
}
