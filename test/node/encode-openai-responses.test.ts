// openai-node and the AI SDK's OpenAI Responses model read what OpenAIResponsesEncoderStream
// writes: for every recorded provider stream, `responses.stream(...).finalResponse()`,
// `responses.create({stream: true})` and `responses.create()` (against readOpenAIResponse's
// object) give the calls the events gave, and `streamText` of `@ai-sdk/openai` (its Responses
// model) reads them as tool calls; a failed response is an `error` event with the library's code,
// which openai-node throws as an APIError, then `response.failed`. A fetch stub serves the bytes:
// no network.
import { createOpenAI } from "@ai-sdk/openai";
import { jsonSchema, streamText, type Tool } from "ai";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import {
  OpenAIResponsesEncoderStream,
  readOpenAIResponse,
  streamToolCalls,
  type EncodableEvent,
  type ToolCallEvent,
} from "../../src/index.ts";
import { AGENT_OPTIONS, failed, fixtureEvents, recordedKind } from "../support/encoders.ts";
import { supportedProvider } from "../support/fixture-provider.ts";
import { allFixtures, recordingsAvailable } from "../support/fixtures.ts";
import { assertCallIds, expectedCalls } from "../support/protocol-readers.ts";
import { bytes, collect, fromChunks } from "../support/streams.ts";
import { REFUSAL, refused } from "../providers/openai-chat/refusal-recordings.ts";
import { RESPONSES_REFUSAL, responsesRefused } from "../providers/openai-responses/refusal-recordings.ts";

const fixtures = allFixtures.filter((fixture) => supportedProvider(fixture) !== undefined);
const BASE_URL = "http://127.0.0.1:9/v1";

/** A client whose every request is answered with `respond()`'s body. */
const client = (respond: () => Response): OpenAI =>
  new OpenAI({ apiKey: "test", baseURL: BASE_URL, maxRetries: 0, fetch: async () => respond() });

const sse = (events: readonly ToolCallEvent[]): Response =>
  new Response(fromChunks(events).pipeThrough(new OpenAIResponsesEncoderStream(AGENT_OPTIONS.responses())), {
    headers: { "content-type": "text/event-stream" },
  });
const request = { model: "test-model", input: "hi" };
const callsOf = (output: readonly { type: string }[]) =>
  output.flatMap((item) =>
    item.type === "function_call" ? [item as { type: string; call_id: string; name: string; arguments: string }] : [],
  );

describe.skipIf(!recordingsAvailable)("openai-node reads OpenAIResponsesEncoderStream", () => {
  for (const fixture of fixtures) {
    it(`${fixture.provider}/${fixture.name}: stream().finalResponse(), create({stream: true}) and create() give the events' calls`, async () => {
      const events = await fixtureEvents(fixture);
      const expected = expectedCalls(events);
      if (failed(events) || events.at(-1)?.type !== "finish") {
        // openai-node throws the error event; create() reads the failed object. A recorded rate
        // limit keeps OpenAI's code (what OpenAI's own stream gives), any other the library's.
        const code =
          recordedKind(fixture) === "rate-limited" ? "rate_limit_exceeded" : expect.stringMatching(/^[a-z-]+$/);
        await expect(
          client(() => sse(events))
            .responses.stream(request)
            .finalResponse(),
        ).rejects.toMatchObject({ code });
        const { response } = await readOpenAIResponse(fromChunks<EncodableEvent>(events), AGENT_OPTIONS.responses());
        expect([response.status, response.error?.code]).toEqual(["failed", code]);
        return;
      }
      const final = await client(() => sse(events))
        .responses.stream(request)
        .finalResponse();
      const calls = callsOf(final.output);
      expect(calls.map((c) => [c.name, c.arguments])).toEqual(expected.map((c) => [c.name, c.rawArguments]));
      assertCallIds(
        calls.map((c) => c.call_id),
        expected,
      );
      expect(final.output_text).toBe(
        events.flatMap((e) => (e.type === "text-delta" && !e.choice ? [e.text] : [])).join(""),
      );
      const finish = events.at(-1);
      if (finish?.type === "finish") expect(final.usage?.output_tokens).toBe(finish.usage?.outputTokens ?? 0);

      // create({stream: true}): calls taken from output_item.done, as Codex takes them.
      const stream = await client(() => sse(events)).responses.create({ ...request, stream: true });
      const done: { name: string; arguments: string }[] = [];
      for await (const event of stream)
        if (event.type === "response.output_item.done" && event.item.type === "function_call")
          done.push({ name: event.item.name, arguments: event.item.arguments });
      expect(done).toEqual(calls.map((c) => ({ name: c.name, arguments: c.arguments })));

      // create() against the non-streaming object built from the same events.
      const { response } = await readOpenAIResponse(fromChunks<EncodableEvent>(events), AGENT_OPTIONS.responses());
      const created = await client(() => Response.json(response)).responses.create(request);
      // (finalResponse() adds its own parsed_arguments: the fields the wire carries are compared.)
      const fields = (list: ReturnType<typeof callsOf>) => list.map((c) => [c.call_id, c.name, c.arguments]);
      expect(fields(callsOf(created.output))).toEqual(fields(calls));
      expect(created.status).toBe(final.status);
      expect(created.output_text).toBe(final.output_text);
    });
  }
});

describe("openai-node reads a refusal the encoder writes", () => {
  // OpenAI Chat's refusal and OpenAI Responses' (their recordings' files say where their shapes come
  // from), both a `refusal` field part, written as a message item's `refusal` content part: openai-node's
  // stream accumulator fills it from `response.refusal.delta` / `.done` (lib/responses/ResponseAccumulator.js).
  for (const [provider, body, refusal] of [
    ["openai", refused, REFUSAL],
    ["openai-responses", responsesRefused, RESPONSES_REFUSAL],
  ] as const) {
    it(`${provider}: stream().finalResponse() has it as the message's refusal part, none as text`, async () => {
      const events = await collect(streamToolCalls(fromChunks([bytes(body)]), { provider }));
      const stream = client(() => sse(events)).responses.stream(request);
      const deltas: string[] = [];
      stream.on("response.refusal.delta", (event) => deltas.push(event.delta));
      const final = await stream.finalResponse();
      // toMatchObject: the parser adds `parsed: null` to each content part; arrays match whole.
      expect(final.output).toMatchObject([{ type: "message", content: [{ type: "refusal", refusal }] }]);
      expect([deltas.join(""), final.output_text, final.status]).toEqual([refusal, "", "completed"]);
    });
  }
});

describe("openai-node reads a Responses stream that fails mid-answer as a failure, every item closed", () => {
  const providerError = {
    type: "error",
    error: { code: "provider-error", message: "The provider reported an error inside the stream." },
  } as const;
  const abort = { type: "abort", reason: "provider-error", discarded: [] } as const;
  /**
   * The events of the stream, as openai-node's `responses.create({stream: true})` yields them, up to
   * the `error` event it throws, then `response.failed` (read off the wire, after the error).
   */
  const eventsOf = async (events: readonly ToolCallEvent[]) => {
    const out: { type: string; item?: { type: string; status?: string | null } }[] = [];
    const thrown = await (async () => {
      for await (const event of await client(() => sse(events)).responses.create({ ...request, stream: true }))
        out.push(event);
    })().catch((error: unknown) => error);
    expect(thrown).toMatchObject({ code: "provider-error", type: "model_error" });
    const text = await new Response(sse(events).body).text();
    const terminal = text
      .split("\n\n")
      .filter((frame) => frame.startsWith("event: "))
      .at(-1)!;
    out.push(JSON.parse(terminal.slice(terminal.indexOf("data: ") + 6)));
    return out;
  };
  /** The failed response, from the non-streaming reader (openai-node's `finalResponse()` throws the error event). */
  const failedResponse = async (events: readonly ToolCallEvent[]) =>
    (await readOpenAIResponse(fromChunks<EncodableEvent>(events), AGENT_OPTIONS.responses())).response;

  it("an open message is closed completed (its done events, then output_item.done) before response.failed", async () => {
    const events: ToolCallEvent[] = [
      { type: "text-delta", text: "The answer is" },
      providerError,
      { ...abort, discarded: [] },
    ];
    const seen = await eventsOf(events);
    expect(seen.map((e) => e.type).slice(-5)).toEqual([
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.failed",
    ]);
    // Open Responses: an `incomplete` item is one of an incomplete response, never of a failed one.
    expect(seen.at(-2)!.item).toMatchObject({ type: "message", status: "completed" });
    const final = await failedResponse(events);
    expect([final.status, final.error?.code]).toEqual(["failed", "provider-error"]);
    expect(final.output).toMatchObject([
      { type: "message", status: "completed", content: [{ type: "output_text", text: "The answer is" }] },
    ]);
  });

  it("a length stop ends the message it cut as incomplete, in response.incomplete", async () => {
    const finish: ToolCallEvent = {
      type: "finish",
      reason: "length",
      rawReason: "length",
      toolCalls: [],
      invalidToolCalls: [],
      text: "The answer is",
      reasoning: "",
    };
    const final = await client(() => sse([{ type: "text-delta", text: "The answer is" }, finish]))
      .responses.stream(request)
      .finalResponse();
    expect([final.status, final.incomplete_details?.reason]).toEqual(["incomplete", "max_output_tokens"]);
    expect(final.output).toMatchObject([{ type: "message", status: "incomplete" }]);
  });

  it("a call cut short is discarded: never sent output_item.done, not in the failed output (streamed or not)", async () => {
    const events: ToolCallEvent[] = [
      { type: "text-delta", text: "Looking." },
      { type: "tool-call-start", index: 0, id: "call_1", name: "shell" },
      { type: "tool-call-delta", index: 0, id: "call_1", argumentsDelta: '{"cmd":"rm', closed: false },
      providerError,
      { ...abort, discarded: [{ index: 0, id: "call_1", name: "shell", rawArguments: '{"cmd":"rm' }] },
    ];
    const seen = await eventsOf(events);
    const done = seen.filter((e) => e.type === "response.output_item.done").map((e) => e.item);
    expect(done).toMatchObject([{ type: "message", status: "completed" }]);
    expect(seen.at(-1)!.type).toBe("response.failed");
    // Neither running (`in_progress`) nor complete: a client reading the failed output never runs it.
    const streamed = (seen.at(-1) as unknown as { response: { output: { type: string }[] } }).response;
    expect(streamed.output.map((item) => item.type)).toEqual(["message"]);
    const final = await failedResponse(events);
    expect(final.status).toBe("failed");
    expect(final.output).toMatchObject([{ type: "message", status: "completed" }]);
    expect(final.output).toHaveLength(1);
    // openai-node's create() reads the failed object (the Worker's 502 body) with no call in it.
    const created = await client(() => Response.json(final)).responses.create(request);
    expect(callsOf(created.output)).toEqual([]);
  });

  it("text held behind a call cut short is still delivered: its message item before response.failed, in its output", async () => {
    const events: ToolCallEvent[] = [
      { type: "text-delta", text: "Looking." },
      { type: "tool-call-start", index: 0, id: "call_1", name: "shell" },
      { type: "tool-call-delta", index: 0, id: "call_1", argumentsDelta: '{"cmd":"ls', closed: false },
      { type: "text-delta", text: " The disk is full." },
      providerError,
      { ...abort, discarded: [{ index: 0, id: "call_1", name: "shell", rawArguments: '{"cmd":"ls' }] },
    ];
    const seen = await eventsOf(events);
    const texts = (seen as { type: string; delta?: string }[]).flatMap((e) =>
      e.type === "response.output_text.delta" ? [e.delta] : [],
    );
    expect(texts).toEqual(["Looking.", " The disk is full."]);
    const messages = [
      { type: "message", status: "completed", content: [{ type: "output_text", text: "Looking." }] },
      { type: "message", status: "completed", content: [{ type: "output_text", text: " The disk is full." }] },
    ];
    expect(seen.filter((e) => e.type === "response.output_item.done").map((e) => e.item)).toMatchObject(messages);
    const streamed = (seen.at(-1) as unknown as { type: string; response: { output: unknown[] } }).response;
    expect([seen.at(-1)!.type, streamed.output]).toMatchObject(["response.failed", messages]);
    expect((await failedResponse(events)).output).toMatchObject(messages);
  });
});

describe.skipIf(!recordingsAvailable)(
  "@ai-sdk/openai (Responses) streamText reads OpenAIResponsesEncoderStream",
  () => {
    for (const fixture of fixtures) {
      it(`${fixture.provider}/${fixture.name}: the tool calls and the text`, async () => {
        const events = await fixtureEvents(fixture);
        if (failed(events) || events.at(-1)?.type !== "finish") return;
        const provider = createOpenAI({ apiKey: "test", baseURL: BASE_URL, fetch: async () => sse(events) });
        // Without `execute` (a literal `Tool`: `tool()` types it `undefined`, no ToolSet member with
        // exactOptionalPropertyTypes): the calls are reported, not run.
        const tools = Object.fromEntries(
          expectedCalls(events).map((call) => [call.name, { inputSchema: jsonSchema({}) } satisfies Tool]),
        );
        const result = streamText({ model: provider.responses("gpt-5"), prompt: "hi", tools });
        const calls = await result.toolCalls;
        const expected = expectedCalls(events).filter((call) => !call.invalid);
        expect(calls.filter((c) => !c.invalid && !c.providerExecuted).map((c) => [c.toolName, c.input])).toEqual(
          expected.map((c) => [c.name, c.rawArguments === "" ? {} : c.arguments]),
        );
        // A provider's approval request (its mcp_approval_request item) is, to the AI SDK, the MCP
        // call OpenAI would make, provider-executed, awaiting approval: what it reads from OpenAI itself.
        expect(calls.filter((c) => c.providerExecuted).map((c) => [c.toolName, c.input])).toEqual(
          events.flatMap((e) => (e.type === "approval-request" ? [[`mcp.${e.name}`, e.arguments]] : [])),
        );
        const approvals = (await result.content).filter((part) => part.type === "tool-approval-request");
        expect(approvals.map((part) => part.approvalId)).toEqual(
          events.flatMap((e) => (e.type === "approval-request" ? [e.id] : [])),
        );
        expect(await result.text).toBe(
          events.flatMap((e) => (e.type === "text-delta" && !e.choice ? [e.text] : [])).join(""),
        );
      });
    }
  },
);
