// POST /v1/run with Bedrock, Cohere and Ollama configured: a scripted provider answers step 1
// with calls to the Worker's `calculate` tool in its own wire format and step 2 with text; the
// request of step 2 must carry the calls and their results in that API's shape (Bedrock's
// `toolResult` blocks, Cohere's `tool` messages, Ollama's `tool` messages with `tool_name`).
// Offline, the run replay has no conversation for these providers: a 400 that says so.
import { AwsV4Signer } from "aws4fetch";
import { createParser } from "eventsource-parser";
import { describe, expect, it } from "vitest";
import { createFetchHandler } from "../../worker/app.ts";
import type { Env } from "../../worker/env.ts";
import { runRoute } from "../../worker/protocols/tool-call-events/run-route.ts";
import type { RunEvent } from "../../worker/services/tool-loop.ts";
import { demoTools } from "../../worker/demo-tools/index.ts";
import { converse } from "../support/event-stream.ts";
import { ManualTimers, testEnv } from "./support.ts";

interface Answer {
  body: string | Uint8Array;
  contentType: string;
}

/** A provider that answers its n-th request with `answers[n]`, and keeps each request as sent. */
class ScriptedUpstream {
  readonly requests: { url: string; headers: Headers; text: string; body: Record<string, unknown> }[] = [];
  constructor(readonly answers: readonly Answer[]) {}

  readonly fetch = async (url: string, init: RequestInit): Promise<Response> => {
    const request = new Request(url, init);
    const answer = this.answers[Math.min(this.requests.length, this.answers.length - 1)]!;
    const text = await request.text();
    this.requests.push({
      url: request.url,
      headers: request.headers,
      text,
      body: JSON.parse(text) as Record<string, unknown>,
    });
    return new Response(answer.body, { headers: { "content-type": answer.contentType } });
  };
}

const runRequest = (provider: string, model: string): Request =>
  new Request("http://localhost:8787/v1/run", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer t" },
    body: JSON.stringify({
      provider,
      model,
      messages: [{ role: "user", content: "What is 17% of 230?" }],
      tools: ["calculate"],
    }),
  });

const run = (provider: string, model: string, env: Partial<Env>, upstream: ScriptedUpstream) =>
  runRoute(
    runRequest(provider, model),
    testEnv({ ...env, CLIENT_TOKEN: "t" }),
    { fetch: upstream.fetch, timers: new ManualTimers() },
    demoTools(),
  );

async function readRun(response: Response): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  createParser({ onEvent: (m) => events.push(JSON.parse(m.data) as RunEvent) }).feed(await response.text());
  return events;
}

const sse = (events: readonly [string, unknown][]) =>
  events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join("");
const ndjson = (lines: readonly unknown[]) => lines.map((line) => `${JSON.stringify(line)}\n`).join("");

const AWS = {
  AWS_ACCESS_KEY_ID: "AKIDEXAMPLE",
  AWS_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
  AWS_REGION: "us-west-2",
};

describe("POST /v1/run with Bedrock, Cohere and Ollama: step 2 carries the calls and results in the provider's shape", () => {
  it("bedrock: the toolUse goes back in an assistant message and its result as a toolResult block, each step signed over its own body", async () => {
    const eventStream = "application/vnd.amazon.eventstream";
    const upstream = new ScriptedUpstream([
      {
        contentType: eventStream,
        body: converse([
          ["messageStart", { role: "assistant" }],
          [
            "contentBlockStart",
            { contentBlockIndex: 0, start: { toolUse: { toolUseId: "tooluse_Q1", name: "calculate" } } },
          ],
          ["contentBlockDelta", { contentBlockIndex: 0, delta: { toolUse: { input: '{"expression":' } } }],
          ["contentBlockDelta", { contentBlockIndex: 0, delta: { toolUse: { input: '"0.17 * 230"}' } } }],
          ["contentBlockStop", { contentBlockIndex: 0 }],
          ["messageStop", { stopReason: "tool_use" }],
          ["metadata", { usage: { inputTokens: 30, outputTokens: 9, totalTokens: 39 }, metrics: { latencyMs: 310 } }],
        ]),
      },
      {
        contentType: eventStream,
        body: converse([
          ["messageStart", { role: "assistant" }],
          ["contentBlockDelta", { contentBlockIndex: 0, delta: { text: "17% of 230 is 39.1." } }],
          ["contentBlockStop", { contentBlockIndex: 0 }],
          ["messageStop", { stopReason: "end_turn" }],
        ]),
      },
    ]);
    const events = await readRun(await run("bedrock", "us.amazon.nova-micro-v1:0", AWS, upstream));
    expect(events.find((e) => e.type === "tool-result")).toMatchObject({
      step: 1,
      id: "tooluse_Q1",
      name: "calculate",
      result: { result: 39.1 },
    });
    expect(events.at(-1)).toEqual({ type: "loop-finish", steps: 2, reason: "no-tool-calls" });
    expect(upstream.requests).toHaveLength(2);
    const [first, second] = upstream.requests;
    expect(first!.url).toBe(
      "https://bedrock-runtime.us-west-2.amazonaws.com/model/us.amazon.nova-micro-v1%3A0/converse-stream",
    );
    expect(second!.url).toBe(first!.url);
    expect(second!.body["messages"]).toEqual([
      { role: "user", content: [{ text: "What is 17% of 230?" }] },
      {
        role: "assistant",
        content: [{ toolUse: { toolUseId: "tooluse_Q1", name: "calculate", input: { expression: "0.17 * 230" } } }],
      },
      { role: "user", content: [{ toolResult: { toolUseId: "tooluse_Q1", content: [{ json: { result: 39.1 } }] } }] },
    ]);
    expect(second!.body["toolConfig"]).toEqual(first!.body["toolConfig"]);
    expect(
      (first!.body["toolConfig"] as { tools: { toolSpec: { name: string } }[] }).tools.map((t) => t.toolSpec.name),
    ).toEqual(["calculate"]);
    for (const sent of upstream.requests) {
      const datetime = sent.headers.get("x-amz-date")!;
      const oracle = new AwsV4Signer({
        url: sent.url,
        method: "POST",
        headers: { "content-type": "application/json", "x-amz-date": datetime },
        body: sent.text,
        accessKeyId: AWS.AWS_ACCESS_KEY_ID,
        secretAccessKey: AWS.AWS_SECRET_ACCESS_KEY,
        service: "bedrock",
        region: "us-west-2",
        datetime,
        allHeaders: true,
      });
      expect(sent.headers.get("authorization")).toBe(await oracle.authHeader());
    }
    expect(first!.headers.get("authorization")).not.toBe(second!.headers.get("authorization"));
  });

  it("cohere: the call goes back with its plan and JSON-text arguments, its result as a tool message", async () => {
    const upstream = new ScriptedUpstream([
      {
        contentType: "text/event-stream",
        body: sse([
          [
            "message-start",
            {
              id: "m1",
              type: "message-start",
              delta: { message: { role: "assistant", content: [], tool_plan: "", tool_calls: [], citations: [] } },
            },
          ],
          [
            "tool-plan-delta",
            { type: "tool-plan-delta", delta: { message: { tool_plan: "I will use the calculator." } } },
          ],
          [
            "tool-call-start",
            {
              type: "tool-call-start",
              index: 0,
              delta: {
                message: {
                  tool_calls: {
                    id: "calculate_k2x9",
                    type: "function",
                    function: { name: "calculate", arguments: "" },
                  },
                },
              },
            },
          ],
          [
            "tool-call-delta",
            {
              type: "tool-call-delta",
              index: 0,
              delta: { message: { tool_calls: { function: { arguments: '{"expression": ' } } } },
            },
          ],
          [
            "tool-call-delta",
            {
              type: "tool-call-delta",
              index: 0,
              delta: { message: { tool_calls: { function: { arguments: '"0.17 * 230"}' } } } },
            },
          ],
          ["tool-call-end", { type: "tool-call-end", index: 0 }],
          [
            "message-end",
            {
              type: "message-end",
              delta: {
                finish_reason: "TOOL_CALL",
                usage: {
                  billed_units: { input_tokens: 20, output_tokens: 12 },
                  tokens: { input_tokens: 900, output_tokens: 40 },
                },
              },
            },
          ],
        ]),
      },
      {
        contentType: "text/event-stream",
        body: sse([
          [
            "message-start",
            {
              id: "m2",
              type: "message-start",
              delta: { message: { role: "assistant", content: [], tool_plan: "", tool_calls: [], citations: [] } },
            },
          ],
          [
            "content-start",
            { type: "content-start", index: 0, delta: { message: { content: { type: "text", text: "" } } } },
          ],
          [
            "content-delta",
            { type: "content-delta", index: 0, delta: { message: { content: { text: "It is 39.1." } } } },
          ],
          ["content-end", { type: "content-end", index: 0 }],
          [
            "message-end",
            {
              type: "message-end",
              delta: {
                finish_reason: "COMPLETE",
                usage: {
                  billed_units: { input_tokens: 30, output_tokens: 5 },
                  tokens: { input_tokens: 950, output_tokens: 7 },
                },
              },
            },
          ],
        ]),
      },
    ]);
    const events = await readRun(await run("cohere", "command-a-03-2025", { COHERE_API_KEY: "co-key" }, upstream));
    expect(events.find((e) => e.type === "tool-result")).toMatchObject({
      step: 1,
      id: "calculate_k2x9",
      result: { result: 39.1 },
    });
    expect(events.at(-1)).toEqual({ type: "loop-finish", steps: 2, reason: "no-tool-calls" });
    const [first, second] = upstream.requests;
    expect(first!.url).toBe("https://api.cohere.com/v2/chat");
    expect(second!.headers.get("authorization")).toBe("Bearer co-key");
    expect(second!.body["messages"]).toEqual([
      { role: "user", content: "What is 17% of 230?" },
      {
        role: "assistant",
        tool_plan: "I will use the calculator.",
        tool_calls: [
          {
            id: "calculate_k2x9",
            type: "function",
            function: { name: "calculate", arguments: '{"expression":"0.17 * 230"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "calculate_k2x9", content: '{"result":39.1}' },
    ]);
    const { messages: _m1, ...firstRest } = first!.body;
    const { messages: _m2, ...secondRest } = second!.body;
    expect(secondRest).toEqual(firstRest);
  });

  it("ollama: two whole calls on one line go back with object arguments, each result a tool message with tool_name", async () => {
    const ndjsonType = "application/x-ndjson";
    const upstream = new ScriptedUpstream([
      {
        contentType: ndjsonType,
        body: ndjson([
          {
            model: "llama3.2",
            created_at: "2026-01-15T09:30:00Z",
            message: {
              role: "assistant",
              content: "",
              tool_calls: [
                { function: { name: "calculate", arguments: { expression: "0.17 * 230" } } },
                { function: { name: "calculate", arguments: { expression: "2 + 2" } } },
              ],
            },
            done: false,
          },
          {
            model: "llama3.2",
            created_at: "2026-01-15T09:30:01Z",
            message: { role: "assistant", content: "" },
            done_reason: "stop",
            done: true,
            prompt_eval_count: 120,
            eval_count: 30,
          },
        ]),
      },
      {
        contentType: ndjsonType,
        body: ndjson([
          { model: "llama3.2", message: { role: "assistant", content: "39.1 and 4." }, done: false },
          { model: "llama3.2", message: { role: "assistant", content: "" }, done_reason: "stop", done: true },
        ]),
      },
    ]);
    const events = await readRun(
      await run("ollama", "llama3.2", { OLLAMA_BASE_URL: "http://ollama.test:11434" }, upstream),
    );
    expect(events.filter((e) => e.type === "tool-result").map((e) => e.type === "tool-result" && e.result)).toEqual([
      { result: 39.1 },
      { result: 4 },
    ]);
    expect(events.at(-1)).toEqual({ type: "loop-finish", steps: 2, reason: "no-tool-calls" });
    const [first, second] = upstream.requests;
    expect(first!.url).toBe("http://ollama.test:11434/api/chat");
    expect(first!.headers.get("authorization")).toBeNull();
    expect(second!.body["messages"]).toEqual([
      { role: "user", content: "What is 17% of 230?" },
      {
        role: "assistant",
        content: "",
        tool_calls: [
          { function: { name: "calculate", arguments: { expression: "0.17 * 230" } } },
          { function: { name: "calculate", arguments: { expression: "2 + 2" } } },
        ],
      },
      { role: "tool", content: '{"result":39.1}', tool_name: "calculate" },
      { role: "tool", content: '{"result":4}', tool_name: "calculate" },
    ]);
    expect(second!.body["tools"]).toEqual(first!.body["tools"]);
    expect(second!.body["stream"]).toBe(true);
  });
});

describe("POST /v1/run offline with Bedrock, Cohere and Ollama", () => {
  for (const [provider, model] of [
    ["bedrock", "amazon.nova-micro-v1:0"],
    ["cohere", "command-a-03-2025"],
    ["ollama", "llama3.2"],
  ] as const) {
    it(`${provider}: without credentials the scripted model answers in ${provider}'s own wire format, and no upstream is called`, async () => {
      let called = false;
      const handler = createFetchHandler({
        fetch: async () => ((called = true), new Response(null, { status: 500 })),
        timers: new ManualTimers(),
      });
      const response = await handler(runRequest(provider, model), testEnv({ CLIENT_TOKEN: "t" }));
      expect(response.status).toBe(200);
      expect(response.headers.get("x-replay-recording")).toBe("scripted-model");
      const text = await response.text();
      expect(text).toContain("event: loop-finish");
      expect(text).not.toContain("event: abort");
      expect(called).toBe(false);
    });
  }
});
