// openai-node reads what OpenAIChatEncoderStream writes: for every recorded provider stream,
// `chat.completions.stream(...).finalChatCompletion()`, `create({stream: true})` and
// `create({stream: false})` (against readOpenAIChatCompletion's object) give the calls the
// events gave; a provider error mid-stream and a cut stream are APIErrors. The bytes are served
// by a fetch stub: no network.
import OpenAI, { APIError } from "openai";
import { describe, expect, it } from "vitest";
import {
  OpenAIChatEncoderStream,
  readOpenAIChatCompletion,
  streamToolCalls,
  type EncodableEvent,
  type OpenAIChatEncoderOptions,
  type ToolCallEvent,
} from "../../src/index.ts";
import { countingIds, failed, fixtureEvents, recordedKind } from "../support/encoders.ts";
import { supportedProvider } from "../support/fixture-provider.ts";
import { allFixtures, recordingsAvailable } from "../support/fixtures.ts";
import { assertCallIds, expectedCalls } from "../support/protocol-readers.ts";
import { bytes, collect, fromChunks } from "../support/streams.ts";

const fixtures = allFixtures.filter((fixture) => supportedProvider(fixture) !== undefined);
const options = (): OpenAIChatEncoderOptions => ({
  model: "test-model",
  includeUsage: true,
  generateId: countingIds(),
});

/** A client whose every request is answered with `respond()`'s body. */
function client(respond: () => Response): OpenAI {
  return new OpenAI({ apiKey: "test", baseURL: "http://127.0.0.1:9/v1", maxRetries: 0, fetch: async () => respond() });
}

const sse = (events: readonly ToolCallEvent[]): Response =>
  new Response(fromChunks(events).pipeThrough(new OpenAIChatEncoderStream(options())), {
    headers: { "content-type": "text/event-stream" },
  });
const request = { model: "test-model", messages: [{ role: "user" as const, content: "hi" }] };
const callsOf = (message: {
  tool_calls?: ({ id: string; function?: { name: string; arguments: string } } & object)[] | undefined;
}) =>
  (message.tool_calls ?? []).map((call) => ({
    id: call.id,
    name: call.function!.name,
    arguments: call.function!.arguments,
  }));

describe.skipIf(!recordingsAvailable)("openai-node reads OpenAIChatEncoderStream", () => {
  for (const fixture of fixtures) {
    it(`${fixture.provider}/${fixture.name}: stream().finalChatCompletion() and create() give the events' calls`, async () => {
      const events = await fixtureEvents(fixture);
      const expected = expectedCalls(events);
      if (failed(events)) {
        const thrown = await client(() => sse(events))
          .chat.completions.stream(request)
          .finalChatCompletion()
          .catch((error: unknown) => error);
        expect(thrown).toBeInstanceOf(APIError);
        // A recorded rate limit is OpenAI's own (its type and code); any other failure a server_error.
        const limited = recordedKind(fixture) === "rate-limited";
        expect([(thrown as APIError).type, (thrown as APIError).code]).toEqual(
          limited ? ["tokens", "rate_limit_exceeded"] : ["server_error", expect.stringMatching(/^[a-z-]+$/)],
        );
        return;
      }
      const final = await client(() => sse(events))
        .chat.completions.stream({ ...request, stream_options: { include_usage: true } })
        .finalChatCompletion();
      const calls = callsOf(final.choices[0]!.message);
      expect(calls.map((c) => [c.name, c.arguments])).toEqual(expected.map((c) => [c.name, c.rawArguments]));
      assertCallIds(
        calls.map((c) => c.id),
        expected,
      );
      const finish = events.at(-1);
      if (finish?.type === "finish" && finish.usage)
        expect(final.usage?.prompt_tokens).toBe(finish.usage.inputTokens ?? 0);

      // create({stream: true}), accumulated the way the API reference shows: by tool_calls[].index.
      const chunks = await client(() => sse(events)).chat.completions.create({ ...request, stream: true });
      const byIndex: { id: string; name: string; arguments: string }[] = [];
      for await (const chunk of chunks) {
        for (const part of chunk.choices[0]?.delta.tool_calls ?? []) {
          const call = (byIndex[part.index] ??= { id: "", name: "", arguments: "" });
          call.id ||= part.id ?? "";
          call.name += part.function?.name ?? "";
          call.arguments += part.function?.arguments ?? "";
        }
      }
      expect(byIndex).toEqual(calls);

      // create({stream: false}) against the non-streaming object built from the same events.
      const result = await readOpenAIChatCompletion(fromChunks<EncodableEvent>(events), options());
      if (result.type !== "completion") throw new Error("a completion");
      const completion = await client(() => Response.json(result.completion)).chat.completions.create(request);
      expect(callsOf(completion.choices[0]!.message).map((c) => [c.name, c.arguments])).toEqual(
        calls.map((c) => [c.name, c.arguments]),
      );
      expect(completion.choices[0]!.finish_reason).toBe(final.choices[0]!.finish_reason);
    });
  }

  it("a provider error mid-stream is an APIError with the library's message and code, and never the provider's text", async () => {
    const fixture = fixtures.find((f) => f.provider === "anthropic" && f.name === "error-event-mid-stream")!;
    const events = await fixtureEvents(fixture);
    const thrown = await client(() => sse(events))
      .chat.completions.create({ ...request, stream: true })
      .then(async (stream) => {
        for await (const _ of stream);
      })
      .catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(APIError);
    expect((thrown as APIError).code).toBe("provider-error");
    expect((thrown as APIError).message).toContain("The provider reported an error inside the stream.");
    expect((thrown as APIError).message).not.toContain("Overloaded");
  });

  it("a stream cut short: the fragments streamed before the cut arrive, then an APIError of code input-ended and no [DONE]", async () => {
    const fixture = fixtures.find(
      (f) => f.provider === "openai" && f.name === "chat-parallel-tool-calls-two-functions",
    )!;
    const full = await fixtureEvents(fixture);
    // Cut the body just after the first call's last fragment: the second call is half received.
    const cut = fixture.text.indexOf('index":1', fixture.text.indexOf('index":1') + 1);
    const events = await collect(
      streamToolCalls(fromChunks([bytes(fixture.text.slice(0, cut))]), { provider: "openai" }),
    );
    const last = events.at(-1)!;
    expect(last.type === "abort" && last.reason).toBe("input-ended");
    const seen: Record<number, string> = {};
    const thrown = await client(() => sse(events))
      .chat.completions.create({ ...request, stream: true })
      .then(async (stream) => {
        for await (const chunk of stream)
          for (const part of chunk.choices[0]?.delta.tool_calls ?? [])
            seen[part.index] = (seen[part.index] ?? "") + (part.function?.arguments ?? "");
      })
      .catch((error: unknown) => error);
    expect((thrown as APIError).code).toBe("input-ended");
    expect(seen[0]).toBe(expectedCalls(full)[0]!.rawArguments);
  });

  it("a non-streaming request whose response failed gets the error object to answer with", async () => {
    const fixture = fixtures.find((f) => f.provider === "groq" && f.name === "error-event-tool-use-failed")!;
    const result = await readOpenAIChatCompletion(fromChunks<EncodableEvent>(await fixtureEvents(fixture)), options());
    expect(result).toEqual({
      type: "error",
      error: {
        message: "The provider reported an error inside the stream.",
        type: "server_error",
        param: null,
        code: "provider-error",
      },
    });
    const thrown = await client(() =>
      Response.json({ error: result.type === "error" ? result.error : null }, { status: 502 }),
    )
      .chat.completions.create(request)
      .catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(APIError);
    expect((thrown as APIError).status).toBe(502);
    expect((thrown as APIError).code).toBe("provider-error");
  });
});
