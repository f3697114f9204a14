// POST /v1/run with a scripted provider: tool errors that go back to the model, a later step
// that fails, the step limit, and a client that goes away (mid-tool and mid-step).
import { describe, expect, it } from "vitest";
import type { RunnableTool } from "../../src/index.ts";
import { runRoute } from "../../worker/protocols/tool-call-events/run-route.ts";
import type { RunEvent } from "../../worker/services/tool-loop.ts";
import { demoTools } from "../../worker/demo-tools/index.ts";
import { createParser } from "eventsource-parser";
import { eventually, ManualTimers, openAIChunks, testEnv } from "./support.ts";

type Answer = { chunks: readonly string[]; then?: "close" | "stall" } | { status: number };

/** A provider that answers its n-th request with `answers[n]` (the last one again past the end), and records every request. */
class ScriptedUpstream {
  readonly requests: { body: Record<string, unknown>; signal: AbortSignal }[] = [];
  readonly cancelled: unknown[] = [];
  constructor(readonly answers: readonly Answer[]) {}

  readonly fetch = async (url: string, init: RequestInit): Promise<Response> => {
    const request = new Request(url, init);
    const n = this.requests.length;
    // Aborted when the provider would see the request end: its signal, or its body cancelled (support.ts).
    const closed = new AbortController();
    const signal = AbortSignal.any([request.signal, closed.signal]);
    this.requests.push({ body: (await request.json()) as Record<string, unknown>, signal });
    const answer = this.answers[Math.min(n, this.answers.length - 1)]!;
    if ("status" in answer) return new Response("provider detail", { status: answer.status });
    let next = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        pull: (controller) => {
          const chunk = answer.chunks[next++];
          if (chunk !== undefined) return controller.enqueue(new TextEncoder().encode(chunk));
          if (answer.then === "stall") return new Promise<void>(() => {});
          controller.close();
        },
        cancel: (reason) => {
          this.cancelled.push(reason);
          closed.abort(reason);
        },
      },
      { highWaterMark: 0 },
    );
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  };
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  choices: [{ index: 0, delta, finish_reason: finish }],
});
/** An OpenAI turn that calls one tool. */
const callTurn = (id: string, name: string, args: string) =>
  openAIChunks([
    chunk({ tool_calls: [{ index: 0, id, type: "function", function: { name, arguments: args } }] }),
    chunk({}, "tool_calls"),
  ]);
const textTurn = (text: string) => openAIChunks([chunk({ content: text }), chunk({}, "stop")]);

const env = testEnv({ OPENAI_API_KEY: "sk-test", CLIENT_TOKEN: "t" });
const request = (body: Record<string, unknown> = {}) =>
  new Request("http://localhost:8787/v1/run", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer t" },
    body: JSON.stringify({
      provider: "openai",
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "Compute it." }],
      tools: ["calculate"],
      ...body,
    }),
  });

function parse(text: string): RunEvent[] {
  const events: RunEvent[] = [];
  createParser({ onEvent: (m) => events.push(JSON.parse(m.data) as RunEvent) }).feed(text);
  return events;
}

const start = (
  upstream: ScriptedUpstream,
  tools?: Readonly<Record<string, RunnableTool>>,
  body: Record<string, unknown> = {},
) => runRoute(request(body), env, { fetch: upstream.fetch, timers: new ManualTimers() }, tools ?? demoTools());

/** Reads frames until one satisfies `until`; returns what was read. */
async function readUntil(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  until: (event: RunEvent) => boolean,
): Promise<RunEvent[]> {
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error("the stream ended first");
    text += new TextDecoder().decode(value);
    const events = parse(text);
    if (events.some(until)) return events;
  }
}

describe("POST /v1/run: tool errors go back to the model", () => {
  it("a failing tool gives a tool-error, and its message is the call's result in the next request", async () => {
    const upstream = new ScriptedUpstream([
      { chunks: callTurn("call_1", "calculate", '{"expression":"1/0"}') },
      { chunks: textTurn("Cannot divide by zero.") },
    ]);
    const events = parse(await (await start(upstream)).text());
    expect(events.find((e) => e.type === "tool-error")).toEqual({
      type: "tool-error",
      step: 1,
      index: 0,
      id: "call_1",
      name: "calculate",
      error: { code: "handler-failed", message: "Division by zero at position 2.", retryable: false },
    });
    expect((upstream.requests[1]!.body["messages"] as unknown[]).at(-1)).toEqual({
      role: "tool",
      tool_call_id: "call_1",
      content: "Division by zero at position 2.",
    });
    expect(events.at(-1)).toEqual({ type: "loop-finish", steps: 2, reason: "no-tool-calls" });
  });

  it("arguments that do not match the tool's schema are refused before it runs, with what it expects", async () => {
    let ran = false;
    const tools = { calculate: { ...demoTools()["calculate"]!, run: () => ((ran = true), 0) } };
    const upstream = new ScriptedUpstream([
      { chunks: callTurn("call_1", "calculate", '{"expr":"1+1"}') },
      { chunks: textTurn("ok") },
    ]);
    const events = parse(await (await start(upstream, tools)).text());
    const error = events.find((e) => e.type === "tool-error");
    expect(error).toMatchObject({ error: { code: "invalid-arguments" } });
    expect(error?.type === "tool-error" && error.error.message).toContain("required fields expression");
    expect(ran).toBe(false);
  });

  it("a result over the size cap is cut with a marker and flagged", async () => {
    const tools = { calculate: { ...demoTools()["calculate"]!, run: () => "y".repeat(20_000) } };
    const upstream = new ScriptedUpstream([
      { chunks: callTurn("call_1", "calculate", '{"expression":"1"}') },
      { chunks: textTurn("ok") },
    ]);
    const events = parse(await (await start(upstream, tools)).text());
    const result = events.find((e) => e.type === "tool-result");
    expect(result).toMatchObject({ truncated: true });
    expect(result?.type === "tool-result" && result.result).toMatch(
      /\n\[truncated: the result was 20000 bytes; the limit is 8192\]$/,
    );
  });

  it("a tool that needs approval is announced and then denied (no one can approve over the stream), never left waiting", async () => {
    let ran = false;
    const write: RunnableTool = { needsApproval: true, run: () => ((ran = true), "done") };
    const upstream = new ScriptedUpstream([
      { chunks: callTurn("call_1", "write", '{"path":"a"}') },
      { chunks: textTurn("ok") },
    ]);
    const events = parse(await (await start(upstream, { write }, { tools: ["write"] })).text());
    expect(
      events.filter((e) => e.type === "tool-approval-request" || e.type === "tool-error").map((e) => e.type),
    ).toEqual(["tool-approval-request", "tool-error"]);
    expect(events.find((e) => e.type === "tool-error")).toMatchObject({ error: { code: "denied" } });
    expect(ran).toBe(false);
    expect(events.at(-1)).toEqual({ type: "loop-finish", steps: 2, reason: "no-tool-calls" });
  });
});

describe("POST /v1/run: later steps and limits", () => {
  it("a provider failure on the second step ends the stream with an error event naming the Worker's code and call-failed, without the provider's text", async () => {
    const upstream = new ScriptedUpstream([
      { chunks: callTurn("call_1", "calculate", '{"expression":"2+2"}') },
      { status: 500 },
    ]);
    const text = await (await start(upstream)).text();
    const events = parse(text);
    expect(events.find((e) => e.type === "tool-result")).toMatchObject({ result: { result: 4 } });
    expect(events.slice(-2)).toEqual([
      {
        type: "error",
        step: 2,
        error: {
          code: "stream-failed",
          message: "The request of step 2 failed before a response: The provider failed to answer. (upstream_error)",
        },
      },
      { type: "loop-finish", steps: 2, reason: "call-failed" },
    ]);
    expect(text).not.toContain("provider detail");
  });

  it("max_steps caps the model calls: a model that keeps calling tools ends with max-steps", async () => {
    const upstream = new ScriptedUpstream([{ chunks: callTurn("call_1", "calculate", '{"expression":"1+1"}') }]);
    const events = parse(await (await start(upstream, undefined, { max_steps: 3 })).text());
    expect(upstream.requests).toHaveLength(3);
    expect(events.at(-1)).toEqual({ type: "loop-finish", steps: 3, reason: "max-steps" });
  });
});

describe("POST /v1/run: a client that goes away", () => {
  it("while a tool runs: the tool's signal is aborted and no further model call is made", async () => {
    let signal: AbortSignal | undefined;
    const slow: RunnableTool = { run: (_args, context) => ((signal = context.signal), new Promise(() => {})) };
    const upstream = new ScriptedUpstream([
      { chunks: callTurn("call_1", "slow", "{}") },
      { chunks: textTurn("never") },
    ]);
    const response = await start(upstream, { slow }, { tools: ["slow"] });
    const reader = response.body!.getReader();
    await readUntil(reader, (e) => e.type === "tool-call");
    expect(await eventually(() => signal !== undefined)).toBe(true);
    expect(signal!.aborted).toBe(false);
    await reader.cancel("client went away");
    expect(await eventually(() => signal!.aborted)).toBe(true);
    expect(upstream.requests).toHaveLength(1);
  });

  it("during the second model call: that provider request is aborted and its body cancelled", async () => {
    const upstream = new ScriptedUpstream([
      { chunks: callTurn("call_1", "calculate", '{"expression":"6*7"}') },
      { chunks: openAIChunks([chunk({ content: "The answer" })]).slice(0, 1), then: "stall" },
    ]);
    const response = await start(upstream);
    const reader = response.body!.getReader();
    const seen = await readUntil(reader, (e) => e.type === "text-delta" && e.step === 2);
    expect(seen.find((e) => e.type === "tool-result")).toMatchObject({ step: 1, result: { result: 42 } });
    expect(upstream.requests[1]!.signal.aborted).toBe(false);
    await reader.cancel("client went away");
    expect(await eventually(() => upstream.requests[1]!.signal.aborted)).toBe(true);
    // The first step's body was let go at its `[DONE]`; the second's is cancelled by the client.
    expect(await eventually(() => upstream.cancelled.length === 2)).toBe(true);
    expect(String(upstream.cancelled[0])).toMatch(/response ended/);
  });

  it("before the first event is read: the first step's body is cancelled", async () => {
    const upstream = new ScriptedUpstream([{ chunks: [], then: "stall" }]);
    const response = await start(upstream);
    await response.body!.cancel("client went away");
    expect(await eventually(() => upstream.cancelled.length === 1)).toBe(true);
    expect(upstream.requests[0]!.signal.aborted).toBe(true);
  });
});
