import { detectProvider, streamToolCalls, ToolCallStreamError, type Provider } from "../../src/index.ts";
import { supportedProvider } from "../support/fixture-provider.ts";
import { allFixtures } from "../support/fixtures.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { bytes, collect, fromChunks } from "../support/streams.ts";

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
