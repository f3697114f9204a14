// A body read with the wrong `provider` (or that is no stream at all: an HTML page answered with
// status 200) says so with one `unknown-provider` error naming the provider its events look like,
// instead of ending with a bare `abort`; every recording read with its own provider says nothing
// of the kind, however its bytes are cut, and neither do the streams that carry no delta.
import fc from "fast-check";
import { PROVIDERS, streamToolCalls, type Provider, type ProviderDelta, type ToolCallEvent } from "../../src/index.ts";
import { withProviderHint } from "../../src/pipeline/provider-hint.ts";
import { providerProtocol } from "../../src/providers/registry.ts";
import { externalBodies, externalFixtures, externalProvider } from "../support/external-fixtures.ts";
import { supportedProvider } from "../support/fixture-provider.ts";
import { allFixtures, type Fixture } from "../support/fixtures.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { bytes, chatChunk, collect, fromChunks, splitAt } from "../support/streams.ts";

const CONTENT_TYPES: Record<Fixture["format"], string> = {
  sse: "text/event-stream",
  ndjson: "application/x-ndjson",
  "event-stream": "application/vnd.amazon.eventstream",
  "json-array": "application/json",
};

const read = (body: BodyInit | ReadableStream<Uint8Array>, provider?: Provider, type?: string) =>
  collect(
    streamToolCalls(
      body instanceof ReadableStream ? body : new Response(body, type ? { headers: { "content-type": type } } : {}),
      provider ? { provider } : {},
    ),
  );

const hints = (events: ToolCallEvent[]): string[] =>
  events.flatMap((e) => (e.type === "error" && e.error.code === "unknown-provider" ? [e.error.message] : []));

/** The recordings of every protocol, with the provider that reads them. */
const recordings = (): [Fixture, Provider][] =>
  allFixtures.flatMap((f): [Fixture, Provider][] => {
    const provider = supportedProvider(f);
    return provider ? [[f, provider]] : [];
  });

/**
 * Whether the hint names the recording's provider: not for a Gemini JSON array, which the SSE
 * framing refuses as JSON (its own `unknown-provider` error) and NDJSON cuts into lines of no
 * protocol. Bedrock's framing cannot cut another protocol's bytes at all: a `malformed-frame` error
 * ends the stream, and no pair reads as Bedrock here.
 */
const namesTheProvider = (f: Fixture): boolean => f.format !== "json-array";

group("streamToolCalls with the wrong provider", (test) => {
  test("every recording read with each other provider gives one unknown-provider error naming its own, and no usage", async () => {
    let pairs = 0;
    for (const [fixture, right] of recordings())
      for (const wrong of PROVIDERS) {
        if (wrong === right || wrong === "bedrock") continue;
        const events = await read(fixture.body, wrong, CONTENT_TYPES[fixture.format]);
        const said = hints(events);
        const where = `${fixture.provider}/${fixture.name} read as ${wrong}`;
        assertEquals(said.length, 1, `${where}: one hint`);
        if (namesTheProvider(fixture)) assert(said[0]!.includes(`provider: "${right}"`), `${where}: ${said[0]}`);
        assert(!events.some((e) => e.type === "usage"), `${where}: no usage of another protocol's message`);
        pairs++;
      }
    assert(pairs > 300, `${pairs} pairs`);
  }).needs("recordings");

  test("Anthropic's events read as OpenAI Chat: the hint, then the abort, and no stray usage", async () => {
    const fixture = allFixtures.find((f) => f.provider === "anthropic" && f.name === "parallel-tool-use");
    assert(fixture, "the recording");
    const events = await read(fixture.body, "openai", "text/event-stream");
    assertEquals(
      events.map((e) => e.type),
      ["error", "abort"],
    );
    assertEquals(hints(events), [
      `The body's events look like Anthropic Messages', not OpenAI Chat Completions': pass provider: "anthropic".`,
    ]);
  }).needs("recordings");

  test("Gemini Interactions' events read as OpenAI Chat: the hint comes before the finish its [DONE] makes", async () => {
    const body = [
      'event: interaction.created\ndata: {"interaction":{"id":"v1_1"},"event_type":"interaction.created"}\n\n',
      'event: step.delta\ndata: {"index":0,"delta":{"text":"hi","type":"text"},"event_type":"step.delta"}\n\n',
      "event: done\ndata: [DONE]\n\n",
    ].join("");
    const events = await read(body, "openai");
    assertEquals(
      events.map((e) => e.type),
      ["error", "finish"],
    );
    assert(hints(events)[0]?.includes('pass provider: "gemini-interactions"'), "named");
  });

  test("an HTML page answered with status 200: its content type and first tag, never the rest of it", async () => {
    const page = "<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body>session 8f3a secret</body></html>";
    for (const provider of [undefined, ...PROVIDERS.filter((p) => p !== "bedrock")]) {
      const events = await read(page, provider, "text/html; charset=utf-8");
      assertEquals(
        events.map((e) => e.type),
        ["error", "abort"],
        `${provider}`,
      );
      const message = hints(events)[0] ?? "";
      assert(message.includes("text/html") && message.includes('"<!DOCTYPE html>"'), `${provider}: ${message}`);
      assert(!message.includes("secret") && !message.includes("Sign in"), "nothing more of the page");
    }
  });

  test("a plain-text body without a content type is said, not quoted", async () => {
    const events = await read(fromChunks([bytes("error code: 1015")]), "openai");
    const [message] = hints(events);
    assertEquals(
      message,
      "The body is not a stream of events, not OpenAI Chat Completions': check the URL and the provider option.",
    );
  });

  test("a gzip body not decompressed is said as no stream, not named Bedrock's", async () => {
    // A gzip member's first bytes (1f 8b): a control character, as Bedrock's event stream begins with (00).
    const gzip = new Uint8Array([
      0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0x4b, 0x49, 0x2c, 0x49, 0xb4, 0x52, 0xa8, 0xae, 5, 0,
    ]);
    const [message] = hints(await read(fromChunks([gzip]), "openai"));
    assert(message?.startsWith("The body is not a stream of events"), `${message}`);
  });

  test("a held usage or error keeps its place before an error the decoder read", async () => {
    const usage = { prompt_tokens: 3, completion_tokens: 0, total_tokens: 3 };
    const error = { error: { message: "overloaded" } };
    for (const [first, type] of [
      ["not json", "error"],
      [JSON.stringify({ usage }), "usage"],
    ] as const) {
      const events = await read(`data: ${first}\n\ndata: ${JSON.stringify(error)}\n\n`, "openai");
      assertEquals(
        events.map((e) => (e.type === "error" ? e.error.code : e.type)),
        [type === "error" ? "malformed-payload" : "usage", "provider-error", "abort"],
        first,
      );
    }
  });

  test("what is held is bounded: another protocol's lines get the hint before the body ends, garbage its errors", () => {
    const decode = (provider: Provider, data: string, count: number) => {
      const out: ProviderDelta[] = [];
      const decoder = withProviderHint(providerProtocol(provider), provider).createDecoder((d) => out.push(d));
      for (let i = 0; i < count; i++) decoder.decode({ data });
      return out;
    };
    // OpenAI Chat's SSE read as Ollama's NDJSON: a malformed-payload error per line, held; the hint once 64 are.
    const said = decode("ollama", `data: ${JSON.stringify(chatChunk({ content: "hi" }))}`, 1000);
    assertEquals(
      said.map((d) => (d.type === "error" ? d.error.code : d.type)),
      ["unknown-provider"],
    );
    // Lines of no protocol: past 64 held, the errors go out, in their order, and no hint (a slow stream's keep-alives).
    const garbage = decode("openai", "keep-alive", 1000);
    assertEquals(garbage.length, 1000);
    assert(
      garbage.every((d) => d.type === "error" && d.error.code === "malformed-payload"),
      "the decoder's errors",
    );
  });

  test("JSON of no protocol, read as a provider that reads nothing of it", async () => {
    const events = await read('data: {"detail":"Not Found"}\n\n', "anthropic");
    assertEquals(hints(events), [
      "None of the body's events is one of Anthropic Messages': check the URL and the provider option.",
    ]);
  });

  test("objects of no protocol whose only read is a usage (the AI SDK's fullStream as OpenAI Chat): the hint, not a silent finish", async () => {
    const usage = { inputTokens: 3, outputTokens: 5, totalTokens: 8 }; // streamText's fullStream, ai 6
    const parts = [
      { type: "start" },
      { type: "start-step", request: {}, warnings: [] },
      { type: "tool-input-start", id: "call_1", toolName: "weather", dynamic: false },
      { type: "tool-input-delta", id: "call_1", delta: '{"city":"Paris"}' },
      { type: "tool-input-end", id: "call_1" },
      { type: "tool-call", toolCallId: "call_1", toolName: "weather", input: { city: "Paris" } },
      { type: "finish-step", finishReason: "tool-calls", usage, response: { id: "aitxt-1" } },
      { type: "finish", finishReason: "tool-calls", totalUsage: usage },
    ];
    const events = await collect(streamToolCalls(parts, { provider: "openai" }));
    assertEquals(hints(events), [
      "None of the body's events is one of OpenAI Chat Completions': check the URL and the provider option.",
    ]);
    assert(!events.some((e) => e.type === "usage"), "no usage of another protocol's message");
  });
});

group("streamToolCalls with the right provider gives no hint", (test) => {
  test("every recording, cut anywhere", async () => {
    const all = recordings();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: all.length - 1 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        async (at, cuts) => {
          const [fixture, provider] = all[at]!;
          const offsets = cuts.map((c) => c % (fixture.body.length + 1));
          const events = await read(fromChunks(splitAt(fixture.body, offsets)), provider);
          assertEquals(hints(events), [], `${fixture.provider}/${fixture.name}`);
        },
      ),
      { seed: 20261203, numRuns: 150 },
    );
    for (const [fixture, provider] of all) {
      const events = await read(fixture.body, provider, CONTENT_TYPES[fixture.format]);
      assertEquals(hints(events), [], `${fixture.provider}/${fixture.name}`);
    }
  }).needs("recordings");

  test("other projects' recordings", async () => {
    let bodies = 0;
    for (const fixture of externalFixtures)
      for (const body of externalBodies(fixture)) {
        assertEquals(hints(await read(body, externalProvider(fixture))), [], `${fixture.source}/${fixture.name}`);
        bodies++;
      }
    assert(bodies > 0, "bodies read");
  });

  test("streams that carry no delta: keep-alives, an empty answer, usage or an error alone, an empty body", async () => {
    const usage = { prompt_tokens: 3, completion_tokens: 0, total_tokens: 3 };
    const cases: [Provider, string][] = [
      ["openai", ": keep-alive\n\n: OPENROUTER PROCESSING\n\n"],
      ["openai", ""],
      ["openai", "\n\n"],
      ["openai", "retry: 1000\n\n"],
      ["openai", "data: [DONE]\n\n"],
      ["openai", `data: ${JSON.stringify({ ...(chatChunk({}) as object), choices: [], usage })}\n\ndata: [DONE]\n\n`],
      ["openai", `data: ${JSON.stringify({ error: { message: "overloaded", code: 529 } })}\n\n`],
      ["openai", `data: ${JSON.stringify({ error: { message: "overloaded" }, status: 529 })}\n\n`],
      ["openai", `data: ${JSON.stringify({ choices: [], prompt_filter_results: [{ prompt_index: 0 }] })}\n\n`],
      ["anthropic", 'event: ping\ndata: {"type":"ping"}\n\n'],
      [
        "anthropic",
        'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
      ],
      ["openai-responses", 'event: error\ndata: {"type":"error","code":"server_error","message":"x"}\n\n'],
      ["gemini", '[{"error":{"code":503,"message":"overloaded","status":"UNAVAILABLE"}}]'],
      ["gemini", "[]"],
      ["ollama", '{"error":"model not found"}\n'],
      ["gemini-interactions", 'event: error\ndata: {"event_type":"error","error":{"code":"x","message":"y"}}\n\n'],
      ["cohere", ": ping\n\n"],
    ];
    for (const [provider, body] of cases) assertEquals(hints(await read(body, provider)), [], `${provider}: ${body}`);
  });

  test("an OpenAI-compatible stream whose first chunk carries only Azure's filter results keeps its usage first", async () => {
    const body = [
      { choices: [], prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }] },
      chatChunk({ content: "hi" }),
      { ...(chatChunk({}, "stop") as object), usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } },
    ]
      .map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`)
      .join("");
    const events = await read(body, "openai");
    assertEquals(
      events.map((e) => e.type),
      ["text-delta", "usage", "finish"],
    );
  });
});
