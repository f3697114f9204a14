// What a client allowed on the AI SDK's UI stream (/v1/ui) and AG-UI (/v1/ag-ui): their
// `tool_choice` (none, a forced tool) is held to as on Chat Completions and Messages, when the
// provider calls all the same: the calls left out never reach the client, an answer of those calls
// alone ends in the protocol's own error (the UI stream's `error` chunk, which the AI SDK throws;
// AG-UI's RUN_ERROR), and in run mode a call left out is never run: the Worker's tool is not called.
import * as ai from "ai";
import { HttpAgent } from "@ag-ui/client";
import { describe, expect, it } from "vitest";
import type { Provider, RunnableTool } from "../../src/index.ts";
import { agUIRoute } from "../../worker/protocols/ag-ui/route.ts";
import { uiRoute } from "../../worker/protocols/ui-message/route.ts";
import type { Env } from "../../worker/env.ts";
import { runRoute } from "../../worker/protocols/tool-call-events/run-route.ts";
import { type FakeUpstream, ManualTimers, readSSE } from "./support.ts";
import { live, scripted, WEATHER } from "./open-responses-support.ts";

const PROVIDERS: Provider[] = ["openai", "anthropic", "gemini"];
const TIME = { name: "get_time", parameters: { type: "object", properties: { zone: { type: "string" } } } };
/** The two tools, as /v1/stream takes them (AG-UI's `Tool` needs a description). */
const TOOLS = [
  { name: WEATHER.name, description: "Weather.", parameters: WEATHER.parameters },
  { ...TIME, description: "Time." },
];
const WHY = /tool_choice does not allow/;
/** The choices that leave a call of `get_time` out: none, and a forced `get_weather`. */
const CHOICES: [string, unknown][] = [
  ["none", "none"],
  ["a forced other tool", { name: "get_weather" }],
];

/** A turn that calls `get_time`, whatever the request said, after `text` if any. */
const callsTime = (provider: Provider, text = "") =>
  scripted(provider, { text, calls: [{ name: "get_time", arguments: { zone: "CET" } }] });

/** Both tools run at the edge, each call of one written down. */
function spyTools(ran: string[]): Record<string, RunnableTool> {
  const tool = (name: string): RunnableTool => ({
    description: `${name}.`,
    parameters: name === "get_time" ? TIME.parameters : WEATHER.parameters,
    run: () => {
      ran.push(name);
      return "done";
    },
  });
  return { get_time: tool("get_time"), get_weather: tool("get_weather") };
}

/** A `fetch` to `route` with `provider`'s live env, its upstream `upstream`, its tools `tools`. */
const routed = (
  route: typeof uiRoute,
  provider: Provider,
  upstream: FakeUpstream,
  tools: Record<string, RunnableTool>,
): typeof fetch =>
  (async (input: RequestInfo | URL, init?: RequestInit) =>
    route(
      new Request(input, init),
      live(provider) as Env,
      { fetch: upstream.fetch, timers: new ManualTimers() },
      tools,
    )) as typeof fetch;

/** The AI SDK's transport and reader against /v1/ui: the message read, and the errors the reader got. */
async function uiChat(fetch: typeof globalThis.fetch, body: Record<string, unknown>) {
  const transport = new ai.DefaultChatTransport({
    api: "http://localhost:8787/v1/ui",
    headers: { authorization: "Bearer t" },
    fetch,
    body,
  });
  const chunks = await transport.sendMessages({
    chatId: "chat_1",
    messages: [{ id: "user_1", role: "user", parts: [{ type: "text", text: "Time?" }] }],
    abortSignal: undefined,
    trigger: "submit-message",
    messageId: undefined,
  });
  const errors: Error[] = [];
  let message: ai.UIMessage | undefined;
  for await (const snapshot of ai.readUIMessageStream({
    stream: chunks,
    onError: (error) => errors.push(error as Error),
  }))
    message = snapshot;
  const parts = message?.parts ?? [];
  return {
    errors: errors.map((error) => error.message),
    tools: parts.flatMap((part) => (part.type.startsWith("tool-") ? [part.type] : [])),
    text: parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join(""),
  };
}

/** HttpAgent.runAgent against /v1/ag-ui: the RUN_ERRORs, and the calls of the new assistant messages. */
async function agUIRun(fetch: typeof globalThis.fetch, forwardedProps: Record<string, unknown>, tools: unknown[]) {
  const agent = new HttpAgent({
    url: "http://localhost:8787/v1/ag-ui",
    threadId: "thread_1",
    headers: { authorization: "Bearer t" },
    initialMessages: [{ id: "user_1", role: "user", content: "Time?" }],
    fetch,
  });
  const runErrors: string[] = [];
  const result = await agent
    .runAgent(
      { runId: "run_1", tools: tools as never, forwardedProps },
      { onRunErrorEvent: ({ event }) => void runErrors.push(event.message) },
    )
    .catch(() => undefined);
  const calls = (result?.newMessages ?? []).flatMap((message) =>
    message.role === "assistant" ? (message.toolCalls ?? []).map((call) => call.function.name) : [],
  );
  return { runErrors, calls };
}

describe("POST /v1/ui and /v1/ag-ui hold to tool_choice: a call it leaves out never reaches the client", () => {
  for (const provider of PROVIDERS)
    for (const [label, tool_choice] of CHOICES) {
      it(`${provider}, ${label}: the text alone with text beside it, else the protocol's error`, async () => {
        const body = { model: `${provider}/test-model`, tools: TOOLS, tool_choice };
        // AG-UI's client tools are the input's, the rest of the request its forwardedProps.
        const props = { model: body.model, tool_choice };
        // Gemini's scripted turn writes its calls alone.
        if (provider !== "gemini") {
          const kept = await uiChat(routed(uiRoute, provider, callsTime(provider, "Here."), {}), body);
          expect(kept).toEqual({ errors: [], tools: [], text: "Here." });
          const agKept = await agUIRun(routed(agUIRoute, provider, callsTime(provider, "Here."), {}), props, TOOLS);
          expect(agKept).toEqual({ runErrors: [], calls: [] });
        }
        const empty = await uiChat(routed(uiRoute, provider, callsTime(provider), {}), body);
        expect(empty.tools).toEqual([]);
        expect(empty.errors).toEqual([expect.stringMatching(WHY)]);
        const agEmpty = await agUIRun(routed(agUIRoute, provider, callsTime(provider), {}), props, TOOLS);
        expect(agEmpty.calls).toEqual([]);
        expect(agEmpty.runErrors).toEqual([expect.stringMatching(WHY)]);
      });

      it(`${provider}, ${label}, run mode: the call left out is never run, and the run ends in the protocol's error`, async () => {
        const body = { model: `${provider}/test-model`, run: true, tools: ["get_time", "get_weather"], tool_choice };
        const ran: string[] = [];
        const upstream = callsTime(provider);
        const ui = await uiChat(routed(uiRoute, provider, upstream, spyTools(ran)), body);
        expect(ui.tools).toEqual([]);
        expect(ui.errors).toEqual([expect.stringMatching(WHY)]);
        const agUpstream = callsTime(provider);
        const ag = await agUIRun(routed(agUIRoute, provider, agUpstream, spyTools(ran)), body, []);
        expect(ag.calls).toEqual([]);
        expect(ag.runErrors).toEqual([expect.stringMatching(WHY)]);
        // Not run, and no second step sent with its result.
        expect(ran).toEqual([]);
        expect([upstream.requests.length, agUpstream.requests.length]).toEqual([1, 1]);
      });
    }

  it("POST /v1/run, none: the call is never run, the loop ends on the error that says why", async () => {
    const ran: string[] = [];
    const upstream = callsTime("openai");
    const request = new Request("http://localhost:8787/v1/run", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer t" },
      body: JSON.stringify({
        provider: "openai",
        model: "test-model",
        messages: [{ role: "user", content: "Time?" }],
        tools: ["get_time", "get_weather"],
        tool_choice: "none",
      }),
    });
    const runtime = { fetch: upstream.fetch, timers: new ManualTimers() };
    const { events } = await readSSE(await runRoute(request, live("openai") as Env, runtime, spyTools(ran)));
    const types = events.map((event) => event.type as string);
    expect(types).not.toContain("tool-call");
    expect(events.find((event) => event.type === "error")).toMatchObject({
      error: { message: expect.stringMatching(WHY) },
    });
    expect(events.at(-1)).toMatchObject({ type: "loop-finish", reason: "calls-left-out", steps: 1 });
    expect([ran, upstream.requests.length]).toEqual([[], 1]);
  });

  it("run mode, a forced tool: the forced call runs, the other is left out and never run", async () => {
    const ran: string[] = [];
    const upstream = scripted("openai", {
      calls: [
        { name: "get_time", arguments: { zone: "CET" } },
        { name: "get_weather", arguments: { location: "Paris" } },
      ],
    });
    const body = {
      model: "openai/test-model",
      run: true,
      max_steps: 1,
      tools: ["get_time", "get_weather"],
      tool_choice: { name: "get_weather" },
    };
    const ui = await uiChat(routed(uiRoute, "openai", upstream, spyTools(ran)), body);
    expect([ui.tools, ui.errors]).toEqual([["tool-get_weather"], []]);
    expect(ran).toEqual(["get_weather"]);
  });
});
