// POST /v1/ui with a call the user approved whose tool has not run (ai 6/7: a tool part in state
// `approval-responded`, `approved: true`, no output): ai's `streamText` runs the tool before it
// calls the model, and without `execute` leaves the call without a result (a provider 400). The
// Worker runs it at the edge in run mode when it has that tool, and the model gets the call with
// its result; otherwise the call goes back to the client, input available, for its `onToolCall`:
// never dropped, never sent without a result. Read through ai's own transport and reader.
import * as ai from "ai";
import { describe, expect, it } from "vitest";
import type { RunnableTool } from "../../src/index.ts";
import type { Env } from "../../worker/env.ts";
import { uiRoute } from "../../worker/protocols/ui-message/route.ts";
import { FakeUpstream, ManualTimers } from "./support.ts";
import { live, scripted, WEATHER } from "./open-responses-support.ts";

const APPROVED = {
  type: "tool-get_weather",
  toolCallId: "call_1",
  state: "approval-responded",
  input: { location: "Paris" },
  approval: { id: "ap_1", approved: true },
};
const history = (part: Record<string, unknown> = APPROVED): ai.UIMessage[] => [
  { id: "u1", role: "user", parts: [{ type: "text", text: "Weather in Paris?" }] },
  { id: "a1", role: "assistant", parts: [{ type: "step-start" }, part as never] },
];

/** The Worker's `get_weather`, each run written down. */
function weatherTool(ran: unknown[]): Record<string, RunnableTool> {
  return {
    get_weather: {
      description: "Weather.",
      parameters: WEATHER.parameters,
      run: (args) => {
        ran.push(args);
        return { celsius: 18 };
      },
    },
  };
}

/** ai's transport and reader against /v1/ui, continuing the history's last message, as `useChat` does. */
async function resend(
  upstream: FakeUpstream,
  body: Record<string, unknown>,
  messages = history(),
  ran: unknown[] = [],
) {
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) =>
    uiRoute(
      new Request(input, init),
      live("openai") as Env,
      { fetch: upstream.fetch, timers: new ManualTimers() },
      weatherTool(ran),
    )) as typeof globalThis.fetch;
  const transport = new ai.DefaultChatTransport({
    api: "http://localhost:8787/v1/ui",
    headers: { authorization: "Bearer t" },
    fetch,
    body,
  });
  const chunks = await transport
    .sendMessages({ chatId: "c", messages, abortSignal: undefined, trigger: "submit-message", messageId: "a1" })
    .catch((error: Error) => error);
  if (chunks instanceof Error) return { error: chunks.message, parts: [] as ai.UIMessage["parts"] };
  let message = messages.at(-1)!;
  for await (const snapshot of ai.readUIMessageStream({ message: structuredClone(message), stream: chunks }))
    message = snapshot;
  return { error: undefined, parts: message.parts };
}

describe("POST /v1/ui: a call the user approved whose tool has not run", () => {
  it("goes back to the client with its input available, for its onToolCall, and no model is called", async () => {
    const upstream = scripted("openai", { text: "Ok." });
    const { error, parts } = await resend(upstream, { model: "openai/m", tools: [WEATHER] });
    expect(error).toBeUndefined();
    expect(upstream.requests).toHaveLength(0);
    // The part is where it was, in the message's last step (so `sendAutomaticallyWhen` sees it once answered).
    expect(parts).toEqual([
      { type: "step-start" },
      expect.objectContaining({ toolCallId: "call_1", state: "input-available", input: { location: "Paris" } }),
    ]);
  });

  it("in run mode, the Worker's tool runs at the edge: the client reads its output, the model gets the call and its result", async () => {
    const upstream = scripted("openai", { text: "18 °C." });
    const ran: unknown[] = [];
    const { error, parts } = await resend(
      upstream,
      { model: "openai/m", run: true, tools: ["get_weather"] },
      history(),
      ran,
    );
    expect(error).toBeUndefined();
    expect(ran).toEqual([{ location: "Paris" }]);
    expect(parts[1]).toEqual(
      expect.objectContaining({ toolCallId: "call_1", state: "output-available", output: { celsius: 18 } }),
    );
    expect(parts.filter((part) => part.type === "tool-get_weather")).toHaveLength(1);
    expect(parts.at(-1)).toEqual(expect.objectContaining({ type: "text", text: "18 °C." }));
    expect(upstream.requests[0]?.body?.["messages"]).toEqual([
      { role: "user", content: "Weather in Paris?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"location":"Paris"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: '{"celsius":18}' },
    ]);
  });

  it("in run mode, a tool the Worker does not have is a 400 naming the part", async () => {
    const upstream = scripted("openai", { text: "Ok." });
    const part = { ...APPROVED, type: "tool-get_time", toolCallId: "call_2" };
    const { error } = await resend(upstream, { model: "openai/m", run: true, tools: ["get_weather"] }, history(part));
    expect(error).toContain("messages[1].parts[1]");
    expect(upstream.requests).toHaveLength(0);
  });

  it("in an earlier turn (the user wrote since, so nothing will run it) is a 400 naming the part", async () => {
    const upstream = scripted("openai", { text: "Ok." });
    const later = [
      ...history(),
      { id: "u2", role: "user" as const, parts: [{ type: "text" as const, text: "And Rome?" }] },
    ];
    const { error } = await resend(upstream, { model: "openai/m", tools: [WEATHER] }, later);
    expect(error).toContain("messages[1].parts[1]");
    expect(upstream.requests).toHaveLength(0);
  });

  it("run at the edge, then the provider fails: the client keeps the tool's output, so the tool runs once also when it sends again", async () => {
    // Found by stop 75's whole-diff review: the output was dropped with the provider's error, and the tool ran twice.
    const ran: unknown[] = [];
    const body = { model: "openai/m", run: true, tools: ["get_weather"] };
    const refusing = new FakeUpstream({
      kind: "response",
      status: 429,
      body: JSON.stringify({ error: { message: "Rate limit reached.", type: "rate_limit_exceeded" } }),
      headers: { "content-type": "application/json" },
    });
    const first = await resend(refusing, body, history(), ran);
    expect(first.parts.some((part) => (part as { state?: string }).state === "output-available")).toBe(true);
    const again = [history()[0]!, { ...history()[1]!, parts: first.parts }];
    await resend(scripted("openai", { text: "18 °C." }), body, again as ai.UIMessage[], ran);
    expect(ran).toHaveLength(1);
  });
});

describe("POST /v1/ui: approved calls keep the run's bounds", () => {
  // Found by stop 75's per-landing review: every approved call ran, as many as a body holds.
  const approvedCalls = (count: number): ai.UIMessage[] => [
    history()[0]!,
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        ...Array.from(
          { length: count },
          (_, i) => ({ ...APPROVED, toolCallId: `call_${i}`, approval: { id: `ap_${i}`, approved: true } }) as never,
        ),
      ],
    },
  ];
  const body = { model: "openai/m", run: true, tools: ["get_weather"] };

  it("more than MAX_TOOL_CALLS (64) is a 400 naming the first past it, and none runs", async () => {
    const ran: unknown[] = [];
    const { error } = await resend(scripted("openai", { text: "Ok." }), body, approvedCalls(200), ran);
    expect(error).toContain("messages[1].parts[65]");
    expect(ran).toHaveLength(0);
  });

  it("64 run", async () => {
    const ran: unknown[] = [];
    const { error } = await resend(scripted("openai", { text: "Ok." }), body, approvedCalls(64), ran);
    expect([error, ran.length]).toEqual([undefined, 64]);
  });
});
