// @anthropic-ai/sdk and the AI SDK's Anthropic provider read what AnthropicMessagesEncoderStream
// writes: for every recorded provider stream, `messages.stream(...).finalMessage()`,
// `messages.create({stream: true})` and `messages.create()` (against readAnthropicMessage's
// object) give the calls the events gave, and `streamText` of `@ai-sdk/anthropic` reads them as
// tool calls; a provider error mid-stream is an APIError with the library's message. A fetch
// stub serves the bytes: no network.
import { createAnthropic } from "@ai-sdk/anthropic";
import Anthropic, { APIError } from "@anthropic-ai/sdk";
import { jsonSchema, streamText, type Tool } from "ai";
import { describe, expect, it } from "vitest";
import {
  AnthropicMessagesEncoderStream,
  readAnthropicMessage,
  ToolRunnerStream,
  type EncodableEvent,
  type ToolCallEvent,
} from "../../src/index.ts";
import { AGENT_OPTIONS, failed, fixtureEvents } from "../support/encoders.ts";
import { supportedProvider } from "../support/fixture-provider.ts";
import { allFixtures, recordingsAvailable } from "../support/fixtures.ts";
import { assertCallIds, expectedCalls } from "../support/protocol-readers.ts";
import { collect, fromChunks } from "../support/streams.ts";

const fixtures = allFixtures.filter((fixture) => supportedProvider(fixture) !== undefined);
const BASE_URL = "http://127.0.0.1:9";

/** A client whose every request is answered with `respond()`'s body. */
const client = (respond: () => Response): Anthropic =>
  new Anthropic({ apiKey: "test", baseURL: BASE_URL, maxRetries: 0, fetch: async () => respond() });

const sse = (events: readonly ToolCallEvent[]): Response =>
  new Response(fromChunks(events).pipeThrough(new AnthropicMessagesEncoderStream(AGENT_OPTIONS.anthropic())), {
    headers: { "content-type": "text/event-stream" },
  });
const request = { model: "test-model", max_tokens: 1024, messages: [{ role: "user" as const, content: "hi" }] };
const callsOf = (content: readonly { type: string }[]) =>
  content.flatMap((block) =>
    block.type === "tool_use" ? [block as { type: "tool_use"; id: string; name: string; input: unknown }] : [],
  );
/** The input a client parses from a call's arguments (`{}` for none; invalid JSON has no parsed value). */
const inputOf = (call: { rawArguments: string; arguments?: unknown }): unknown =>
  call.rawArguments === "" ? {} : call.arguments;

describe.skipIf(!recordingsAvailable)("@anthropic-ai/sdk reads AnthropicMessagesEncoderStream", () => {
  for (const fixture of fixtures) {
    it(`${fixture.provider}/${fixture.name}: stream().finalMessage(), create({stream: true}) and create() give the events' calls`, async () => {
      const events = await fixtureEvents(fixture);
      const expected = expectedCalls(events).filter((call) => !call.invalid);
      if (failed(events) || events.at(-1)?.type !== "finish") {
        const thrown = await client(() => sse(events))
          .messages.stream(request)
          .finalMessage()
          .catch((error: unknown) => error);
        expect(thrown).toBeInstanceOf(APIError);
        // The library's message, no code of its own after it.
        const said = events.find((event) => event.type === "error");
        if (said?.type === "error") expect((thrown as APIError).message).toContain(said.error.message);
        expect((thrown as APIError).message).not.toMatch(/\([a-z-]+\)/);
        return;
      }
      const final = await client(() => sse(events))
        .messages.stream(request)
        .finalMessage();
      const calls = callsOf(final.content);
      if (expectedCalls(events).every((call) => !call.invalid)) {
        expect(calls.map((c) => [c.name, c.input])).toEqual(expected.map((c) => [c.name, inputOf(c)]));
        assertCallIds(
          calls.map((c) => c.id),
          expected,
        );
      }
      // A call the length limit cut is max_tokens (as Anthropic reports it), so the SDK's user runs no half call.
      const cut =
        events.some((e) => e.type === "finish" && e.reason === "length") &&
        expectedCalls(events).some((c) => c.invalid);
      expect(final.stop_reason).toBe(cut ? "max_tokens" : calls.length > 0 ? "tool_use" : final.stop_reason);
      const finish = events.at(-1);
      if (finish?.type === "finish") expect(final.usage.output_tokens).toBe(finish.usage?.outputTokens ?? 0);

      // create({stream: true}), accumulated by hand as the API reference shows: blocks by index.
      const stream = await client(() => sse(events)).messages.create({ ...request, stream: true });
      const json: Record<number, string> = {};
      const names: Record<number, string> = {};
      for await (const event of stream) {
        if (event.type === "content_block_start" && event.content_block.type === "tool_use") {
          names[event.index] = event.content_block.name;
          json[event.index] = "";
        }
        if (event.type === "content_block_delta" && event.delta.type === "input_json_delta")
          json[event.index] += event.delta.partial_json;
      }
      expect(Object.values(names)).toEqual(calls.map((c) => c.name));

      // create() against the non-streaming object built from the same events.
      const result = await readAnthropicMessage(fromChunks<EncodableEvent>(events), AGENT_OPTIONS.anthropic());
      if (result.type !== "message") throw new Error("a message");
      const message = await client(() => Response.json(result.message)).messages.create(request);
      // A call cut short has the input the SDK read of it streamed; one not JSON at all none it can read.
      const read = calls.map((c) => {
        try {
          return c.input;
        } catch {
          return undefined;
        }
      });
      const fields = (list: ReturnType<typeof callsOf>) =>
        list.map((c, i) => [c.id, c.name, read[i] === undefined ? null : c.input]);
      expect(fields(callsOf(message.content))).toEqual(fields(calls));
      expect(message.stop_reason).toBe(final.stop_reason);
    });
  }

  it("a provider error mid-stream is an APIError with the library's message, neither its code nor the provider's text", async () => {
    const fixture = fixtures.find((f) => f.provider === "anthropic" && f.name === "error-event-mid-stream")!;
    const events = await fixtureEvents(fixture);
    const thrown = await client(() => sse(events))
      .messages.stream(request)
      .finalMessage()
      .catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(APIError);
    expect((thrown as APIError).message).toContain("The provider reported an error inside the stream.");
    expect((thrown as APIError).message).not.toContain("provider-error");
    expect((thrown as APIError).message).not.toContain("Overloaded");
  });
});

describe("a provider error after open content blocks, as Anthropic ends such a stream", () => {
  // Anthropic's streaming reference ends a failed stream with one `event: error` and nothing
  // after it: no content_block_stop for the open block, no message_delta, no message_stop. The
  // SDK throws at that frame, so a half-written tool_use is never handed over as a call.
  const events: ToolCallEvent[] = [
    { type: "text-delta", text: "Running it." },
    { type: "tool-call-start", index: 0, id: "toolu_1", name: "Bash" },
    { type: "tool-call-delta", index: 0, id: "toolu_1", argumentsDelta: '{"command":"rm', closed: false },
    { type: "error", error: { code: "provider-error", message: "The provider reported an error inside the stream." } },
    {
      type: "abort",
      reason: "provider-error",
      discarded: [{ index: 0, id: "toolu_1", name: "Bash", rawArguments: "" }],
    },
  ];

  it("the stream ends at event: error with the tool_use block open, and the SDK throws an APIError there", async () => {
    const text = await sse(events).text();
    const names = [...text.matchAll(/^event: (\w+)$/gm)].map((match) => match[1]);
    expect(names.slice(-4)).toEqual(["content_block_stop", "content_block_start", "content_block_delta", "error"]);
    expect(text).toContain('"type":"tool_use"');
    const seen: string[] = [];
    const thrown = await (async () => {
      for await (const event of await client(() => sse(events)).messages.create({ ...request, stream: true }))
        seen.push(event.type);
    })().catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(APIError);
    expect(seen).not.toContain("message_stop");
    expect(seen.filter((type) => type === "content_block_stop")).toHaveLength(1); // the text block, before the call began
    const final = await client(() => sse(events))
      .messages.stream(request)
      .finalMessage()
      .catch((error: unknown) => error);
    expect(final).toBeInstanceOf(APIError);
  });
});

describe.skipIf(!recordingsAvailable)("a call a max_tokens stop cut, that a tool runner answered at once", () => {
  it("ends the message max_tokens, as Anthropic ends it, never tool_use (its tool-error is no content)", async () => {
    const fixture = fixtures.find((f) => f.provider === "anthropic" && f.name === "max-tokens-incomplete-tool-json")!;
    const events = await fixtureEvents(fixture);
    const answered = () =>
      fromChunks(events).pipeThrough(new ToolRunnerStream({ tools: { make_file: { run: () => "written" } } }));
    // The runner answers the invalid call with a tool-error the moment it comes, before the finish.
    const types = (await collect(answered())).map((event) => event.type);
    expect(types.slice(-3)).toEqual(["invalid-tool-call", "tool-error", "finish"]);
    const encoder = () => new AnthropicMessagesEncoderStream(AGENT_OPTIONS.anthropic());
    const body = () =>
      new Response(answered().pipeThrough(encoder()), { headers: { "content-type": "text/event-stream" } });
    const final = await client(body).messages.stream(request).finalMessage();
    expect(final.stop_reason).toBe("max_tokens");
  });
});

describe.skipIf(!recordingsAvailable)("@ai-sdk/anthropic streamText reads AnthropicMessagesEncoderStream", () => {
  for (const fixture of fixtures) {
    it(`${fixture.provider}/${fixture.name}: the tool calls and the text`, async () => {
      const events = await fixtureEvents(fixture);
      if (failed(events) || events.at(-1)?.type !== "finish") return;
      const provider = createAnthropic({ apiKey: "test", baseURL: `${BASE_URL}/v1`, fetch: async () => sse(events) });
      // The tools the calls name, without `execute`: streamText reports the calls and stops. A
      // literal `Tool`, not `tool()`: its result types the missing `execute` as `undefined`, which
      // exactOptionalPropertyTypes does not let into a ToolSet.
      const tools = Object.fromEntries(
        expectedCalls(events).map((call) => [call.name, { inputSchema: jsonSchema({}) } satisfies Tool]),
      );
      const result = streamText({ model: provider("claude-sonnet-4-5"), prompt: "hi", tools });
      const calls = await result.toolCalls;
      const expected = expectedCalls(events).filter((call) => !call.invalid);
      expect(calls.filter((c) => !c.invalid).map((c) => [c.toolName, c.input])).toEqual(
        expected.map((c) => [c.name, inputOf(c)]),
      );
      expect(await result.text).toBe(
        events.flatMap((e) => (e.type === "text-delta" && !e.choice ? [e.text] : [])).join(""),
      );
    });
  }
});
