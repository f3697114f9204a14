import { detectProvider, streamToolCalls, ToolCallStreamError, type Provider } from "../../src/index.ts";
import { supportedProvider } from "../support/fixture-provider.ts";
import { allFixtures } from "../support/fixtures.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { bytes, collect, fromChunks } from "../support/streams.ts";

/** A body of `count` error events (whose shape tells no protocol) that then stays open; `allSent` once all were read. */
function errorEventsThenOpen(count: number): {
  body: ReadableStream<Uint8Array>;
  allSent: Promise<void>;
  cancelled: () => unknown;
} {
  const sse = 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error"}}\n\n';
  let drained = (): void => {};
  const allSent = new Promise<void>((resolve) => (drained = resolve));
  let sent = 0;
  let reason: unknown;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent++ < count) controller.enqueue(bytes(sse));
      else drained();
    },
    cancel(why) {
      reason = why;
      drained();
    },
  });
  return { body, allSent, cancelled: () => reason };
}

group("Provider detection", (test) => {
  test("every recorded stream gives the same events with no provider option as with the right one", async () => {
    for (const fixture of allFixtures) {
      const provider = supportedProvider(fixture);
      if (!provider) continue;
      const detected = await collect(streamToolCalls(fromChunks([fixture.body])));
      const given = await collect(streamToolCalls(fromChunks([fixture.body]), { provider }));
      assertEquals(detected, given, `${fixture.provider}/${fixture.name}`);
    }
  });

  test("a stream it cannot recognize ends with unknown-provider naming the option, then abort", async () => {
    const events = await collect(
      streamToolCalls(fromChunks([bytes('data: {"hello":"world"}\n\ndata: {"more":1}\n\n')])),
    );
    assertEquals(
      events.map((e) => e.type),
      ["error", "abort"],
    );
    assert(
      events[0]?.type === "error" &&
        events[0].error.code === "unknown-provider" &&
        events[0].error.message.includes("provider option"),
      "unknown-provider",
    );
  });

  test("a provider option that is not a provider throws unknown-provider at the call", () => {
    let code: unknown = "no error";
    try {
      streamToolCalls(fromChunks([bytes("data: {}\n\n")]), { provider: "openai-chat" as Provider });
    } catch (error) {
      code = error instanceof ToolCallStreamError ? error.code : error;
    }
    assertEquals(code, "unknown-provider");
  });

  test("an error event first is held until the protocol is known", async () => {
    const sse = 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error"}}\n\n';
    const events = await collect(streamToolCalls(fromChunks([bytes(sse)])));
    assertEquals(
      events.map((e) => e.type),
      ["error", "abort"],
    );
    assert(
      events[0]?.type === "error" && events[0].error.code === "provider-error",
      "the provider's error is delivered",
    );
  });

  test("error events before the protocol is known are not held without bound: past 64 they come out while the stream is open", async () => {
    // A hundred error events, then the body stays open: nothing tells the protocol.
    const { body, allSent } = errorEventsThenOpen(100);
    const reader = streamToolCalls(body).getReader();
    const first = await Promise.race([
      reader.read().then(({ value }) => value?.type),
      allSent.then(() => new Promise((resolve) => setTimeout(() => resolve("nothing while open"), 0))),
    ]);
    await reader.cancel();
    assertEquals(first, "error");
  });

  test("past 64 held error events, the first one decoded ends the stream and the body held open is cancelled", async () => {
    // 200 error events, then the body stays open: the error ends the response (OpenAI Chat's, as
    // Anthropic's), so the chain ends there rather than reading on or waiting for a close.
    const { body, allSent, cancelled } = errorEventsThenOpen(200);
    const reader = streamToolCalls(body).getReader();
    const quiet = allSent.then(() => new Promise<"quiet">((resolve) => setTimeout(() => resolve("quiet"), 0)));
    const types: string[] = [];
    for (;;) {
      const read = await Promise.race([reader.read(), quiet]);
      if (read === "quiet" || read.done) break;
      types.push(read.value.type);
    }
    assertEquals([types, cancelled()], [["error", "abort"], "The response ended."]);
  });

  test("a Responses keepalive first is held until the protocol is known (a resumed stream can start with one)", async () => {
    // OpenAI sends `{"type":"keepalive","sequence_number":N}` on long-running Responses streams
    // (openai-node #1964/#1965, openai-java #767/#776): undocumented, in no SDK union. A stream
    // resumed after `starting_after` (background mode) goes on from wherever the model is, so its
    // first event can be one; anything could follow it, as after an error event.
    const events = [
      { type: "keepalive", sequence_number: 7 },
      {
        type: "response.output_text.delta",
        sequence_number: 8,
        item_id: "msg_1",
        output_index: 0,
        content_index: 0,
        delta: "Hi",
      },
      { type: "response.completed", sequence_number: 9, response: { id: "resp_1", status: "completed", output: [] } },
    ];
    const sse = events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join("");
    assertEquals(detectProvider({ data: JSON.stringify(events[0]) }), undefined);
    const detected = await collect(streamToolCalls(fromChunks([bytes(sse)])));
    const given = await collect(streamToolCalls(fromChunks([bytes(sse)]), { provider: "openai-responses" }));
    assertEquals(detected, given);
    assertEquals(
      given.map((e) => e.type),
      ["text-delta", "finish"],
    );
  });

  test("detectProvider tells each protocol by its first event", () => {
    assertEquals(
      [
        detectProvider({ event: "message_start", data: '{"type":"message_start"}' }),
        detectProvider({ data: '{"type":"response.created","sequence_number":0}' }),
        detectProvider({ data: '{"candidates":[]}' }),
        detectProvider({ data: '{"object":"chat.completion.chunk","choices":[]}' }),
        detectProvider({ data: "[DONE]" }),
        detectProvider({ data: "<html>" }),
      ],
      ["anthropic", "openai-responses", "gemini", "openai", "openai", null],
    );
  });
});
