// @ag-ui/client reads what AGUIEncoderStream writes: `HttpAgent.runAgent` against a local
// 127.0.0.1 server that answers the RunAgentInput with the encoder's bytes (its events pass the
// client's verifier and are applied), for every recorded provider stream: the new assistant
// message's toolCalls are the events' calls; tools run at the edge add tool messages; a provider
// error and a cut stream end the run with RUN_ERROR.
import { HttpAgent } from "@ag-ui/client";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGUIEncoderStream, runToolLoop, ToolRunnerStream, type EncodableEvent } from "../../src/index.ts";
import { countingIds, failed, fixtureEvents, withViolation } from "../support/encoders.ts";
import { supportedProvider } from "../support/fixture-provider.ts";
import { allFixtures, recordingsAvailable } from "../support/fixtures.ts";
import { assertCallIds, expectedCalls } from "../support/protocol-readers.ts";
import { collect, fromChunks } from "../support/streams.ts";
import { replayModel } from "../support/tool-fakes.ts";

const fixtures = allFixtures.filter((fixture) => supportedProvider(fixture) !== undefined);
let server: Server;
let url: string;
/** What the server answers the next run with: events to encode, or raw text. */
let answer: readonly EncodableEvent[] | string = [];
/** The RunAgentInput bodies the server received. */
const inputs: { threadId: string; runId: string }[] = [];

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const input = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { threadId: string; runId: string };
    inputs.push(input);
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    if (typeof answer === "string") return void response.end(answer);
    const body = fromChunks(answer).pipeThrough(
      new AGUIEncoderStream({ threadId: input.threadId, runId: input.runId, generateId: countingIds() }),
    );
    for await (const bytes of body) response.write(bytes);
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Runs an agent whose endpoint answers with `events`; the run's error, if it failed. */
async function run(events: readonly EncodableEvent[] | string) {
  answer = events;
  const agent = new HttpAgent({ url, threadId: "thread_1" });
  const runErrors: string[] = [];
  const outcome = await agent
    .runAgent(
      { runId: `run_${inputs.length + 1}` },
      { onRunErrorEvent: ({ event }) => void runErrors.push(`${event.code}: ${event.message}`) },
    )
    .then(
      (result) => ({ result, error: undefined }),
      (error: unknown) => ({ result: undefined, error }),
    );
  return { agent, ...outcome, runErrors };
}

describe.skipIf(!recordingsAvailable)("@ag-ui/client HttpAgent reads AGUIEncoderStream", () => {
  it("a tool-call-violation reaches the client as a CUSTOM event, and the call still ends whole", async () => {
    const fixture = fixtures.find(
      (f) => f.provider === "openai" && f.name === "chat-parallel-tool-calls-two-functions",
    )!;
    const events = await fixtureEvents(fixture);
    answer = withViolation(events);
    const agent = new HttpAgent({ url, threadId: "thread_1" });
    const custom: { name: string; value: { toolCallId: string; path: string } }[] = [];
    const { newMessages } = await agent.runAgent(
      { runId: "run_violation" },
      { onCustomEvent: ({ event }) => void custom.push(event as (typeof custom)[number]) },
    );
    expect(custom.map((event) => [event.name, event.value.path])).toEqual([["tool-call-violation", "/city"]]);
    const calls = newMessages.flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []) : []));
    expect(calls.map((call) => call.function.name)).toEqual(["search", "weather"]);
    expect(custom[0]!.value.toolCallId).toBe(calls[1]!.id);
  });

  for (const fixture of fixtures) {
    it(`${fixture.provider}/${fixture.name}: the new assistant message's toolCalls are the events' calls`, async () => {
      const events = await fixtureEvents(fixture);
      const { agent, result, error, runErrors } = await run(events);
      expect(inputs.at(-1)?.threadId).toBe("thread_1");
      if (failed(events)) {
        expect(runErrors).toHaveLength(1);
        expect(error ?? result).toBeDefined();
        return;
      }
      expect(error).toBeUndefined();
      const assistants = result!.newMessages.filter((message) => message.role === "assistant");
      expect(assistants.length).toBeLessThanOrEqual(1);
      const expected = expectedCalls(events);
      const calls = assistants[0]?.role === "assistant" ? (assistants[0].toolCalls ?? []) : [];
      expect(calls.map((call) => [call.function.name, call.function.arguments])).toEqual(
        expected.map((call) => [call.name, call.rawArguments]),
      );
      assertCallIds(
        calls.map((call) => call.id),
        expected,
      );
      expect(agent.messages).toEqual(result!.newMessages);
    });
  }

  it("tools run at the edge over two steps: a tool message per call after the assistant message that made it", async () => {
    const first = fixtures.find((f) => f.provider === "anthropic" && f.name === "parallel-tool-use")!;
    const second = fixtures.find((f) => f.provider === "anthropic" && f.name === "thinking-then-text")!;
    const events = await collect(
      runToolLoop({
        provider: "anthropic",
        messages: [{ role: "user", content: "hi" }],
        tools: { weather: { run: (args) => ({ sky: "clear", ...(args as object) }) } },
        call: replayModel([first.text, second.text]).call,
      }),
    );
    const { result, error } = await run(events);
    expect(error).toBeUndefined();
    const roles = result!.newMessages.map((message) => message.role);
    expect(roles).toEqual(["assistant", "tool", "tool", "reasoning", "assistant"]);
    const [calling, ...rest] = result!.newMessages;
    const calls = calling?.role === "assistant" ? (calling.toolCalls ?? []) : [];
    expect(
      rest
        .slice(0, 2)
        .map((message) => (message.role === "tool" ? [message.toolCallId, JSON.parse(message.content as string)] : [])),
    ).toEqual(calls.map((call) => [call.id, { sky: "clear", ...JSON.parse(call.function.arguments) }]));
  });

  it("a streaming tool (an async generator): one tool message with the final result; the results so far reach onCustomEvent", async () => {
    const fixture = fixtures.find((f) => f.provider === "anthropic" && f.name === "tool-use-escaped-quotes-in-input")!;
    const name = expectedCalls(await fixtureEvents(fixture))[0]!.name;
    answer = await collect(
      fromChunks(await fixtureEvents(fixture)).pipeThrough(
        new ToolRunnerStream({
          tools: {
            [name]: {
              async *run() {
                yield { rows: [1] };
                yield { rows: [1, 2] };
                return { rows: [1, 2, 3] };
              },
            },
          },
        }),
      ),
    );
    const agent = new HttpAgent({ url, threadId: "thread_1" });
    const custom: { name: string; value: { toolCallId: string; content: string } }[] = [];
    const { newMessages } = await agent.runAgent(
      { runId: "run_streaming_tool" },
      { onCustomEvent: ({ event }) => void custom.push(event as (typeof custom)[number]) },
    );
    const tools = newMessages.flatMap((message) =>
      message.role === "tool" ? [[message.toolCallId, JSON.parse(message.content as string)]] : [],
    );
    const calls = newMessages.flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []) : []));
    expect(tools).toEqual([[calls[0]!.id, { rows: [1, 2, 3] }]]);
    expect(custom.map((event) => [event.name, event.value.toolCallId, JSON.parse(event.value.content)])).toEqual([
      ["tool-result-preliminary", calls[0]!.id, { rows: [1] }],
      ["tool-result-preliminary", calls[0]!.id, { rows: [1, 2] }],
    ]);
  });

  it("a provider error mid-stream ends the run with RUN_ERROR: the library's message and code, never the provider's text", async () => {
    const fixture = fixtures.find((f) => f.provider === "anthropic" && f.name === "error-event-mid-stream")!;
    const { runErrors } = await run(await fixtureEvents(fixture));
    expect(runErrors).toEqual(["provider-error: The provider reported an error inside the stream."]);
  });

  it("a stream cut in the middle of a call: RUN_ERROR, the call never ended", async () => {
    const fixture = fixtures.find((f) => f.provider === "anthropic" && f.name === "three-tool-use-blocks")!;
    const events = await fixtureEvents(fixture);
    const at = events.findIndex((e) => e.type === "tool-call-delta") + 1;
    const start = events.find((e) => e.type === "tool-call-start")!;
    if (start.type !== "tool-call-start") throw new Error("a start");
    const cut: EncodableEvent[] = [
      ...events.slice(0, at),
      {
        type: "abort",
        reason: "stream-failed",
        discarded: [{ index: start.index, id: start.id, name: start.name, rawArguments: "" }],
        error: { code: "stream-failed", message: "The input stream failed." },
      },
    ];
    const { runErrors, agent } = await run(cut);
    expect(runErrors).toEqual(["stream-failed: The input stream failed."]);
    expect(agent.messages.every((message) => message.role !== "tool")).toBe(true);
  });

  it("a loop's step that a max_tokens stop cut inside a call: RUN_ERROR, never TOOL_CALL_END, and the stage stops the loop", async () => {
    const fixture = fixtures.find((f) => f.provider === "anthropic" && f.name === "max-tokens-incomplete-tool-json")!;
    // The runner answers the cut call with a tool-error at once, and the loop would send that back.
    const model = replayModel([fixture.text, fixture.text]);
    const body = runToolLoop({
      provider: "anthropic",
      messages: [{ role: "user", content: "hi" }],
      tools: { make_file: { run: () => "written" } },
      call: model.call,
    }).pipeThrough(new AGUIEncoderStream({ threadId: "thread_1", runId: "run_1", generateId: countingIds() }));
    const { runErrors, agent } = await run(await new Response(body).text());
    expect(runErrors.map((error) => error.split(":")[0])).toEqual(["length"]);
    expect(agent.messages.flatMap((message) => (message.role === "tool" ? [message] : []))).toEqual([]);
    expect(model.requests).toHaveLength(1);
  });

  it("the client's verifier is on in these runs: arguments before their TOOL_CALL_START fail the run", async () => {
    const frame = (event: object): string => `data: ${JSON.stringify(event)}\n\n`;
    const { error } = await run(
      frame({ type: "RUN_STARTED", threadId: "thread_1", runId: "run_x" }) +
        frame({ type: "TOOL_CALL_ARGS", toolCallId: "call_1", delta: "{}" }) +
        frame({ type: "RUN_FINISHED", threadId: "thread_1", runId: "run_x" }),
    );
    expect(String(error)).toContain("No active tool call found with ID 'call_1'");
  });
});
