// streamToolCalls given an SDK's parsed chunks instead of bytes (issue 28): every recording, its
// payloads parsed as the provider's SDK yields them, gives the events its bytes give; faults of
// the iterator lose nothing; cancelling returns the iterator (which aborts an SDK's request).
import {
  AwsEventStreamDecoderStream,
  type ChainInput,
  JsonArrayDecoderStream,
  NdjsonDecoderStream,
  PROVIDERS,
  sdkChunks,
  SSEDecoderStream,
  streamToolCallBatches,
  streamToolCalls,
  type FramedMessage,
  type Provider,
  type ToolCallEvent,
} from "../../src/index.ts";
import * as openai from "../../src/openai.ts";
import { supportedProvider } from "../support/fixture-provider.ts";
import { allFixtures, type Fixture } from "../support/fixtures.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { chatChunk, collect, fromChunks } from "../support/streams.ts";

const FRAMINGS = {
  sse: SSEDecoderStream,
  ndjson: NdjsonDecoderStream,
  "json-array": JsonArrayDecoderStream,
  "event-stream": AwsEventStreamDecoderStream,
} as const;

/**
 * `tool_calls` -> `toolCalls`, as cohere-ai's serializers name the wire's fields: a cited
 * document and a tool output are records of the application's, passed through as they are.
 */
function camelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()),
      key === "document" || key === "tool_output" ? item : camelKeys(item),
    ]),
  );
}

/** The bytes of a base64 string (the AWS SDK hands an InvokeModel chunk's `bytes` over decoded). */
function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** One framed message as the provider's SDK yields it, or `undefined` for one it never yields. */
function sdkObject(provider: Provider, message: FramedMessage): object | undefined {
  if (provider === "bedrock") {
    const payload = JSON.parse(message.data) as Record<string, unknown>;
    const name = String(message.event ?? message.headers?.[":exception-type"]);
    if (name === "chunk") return { chunk: { bytes: fromBase64(String(payload["bytes"])) } };
    return { [name]: payload };
  }
  if (message.data.trim() === "[DONE]" || message.event === "ping") return undefined; // the SDKs skip these
  const payload = JSON.parse(message.data) as object;
  return provider === "cohere" ? (camelKeys(payload) as object) : payload;
}

/**
 * The recordings an SDK reads without throwing: every payload parses and the provider reported no
 * error (an SDK throws at an error event; that path is the iterator's fault, tested below).
 */
async function sdkRecordings(): Promise<{ fixture: Fixture; provider: Provider; objects: object[] }[]> {
  const runs = [];
  for (const fixture of allFixtures) {
    const provider = supportedProvider(fixture);
    if (provider === undefined || fixture.expected.error !== undefined) continue;
    const messages = await collect(fromChunks([fixture.body]).pipeThrough(new FRAMINGS[fixture.format]()));
    try {
      const objects = messages.map((message) => sdkObject(provider, message)).filter((o) => o !== undefined);
      runs.push({ fixture, provider, objects });
    } catch {
      // A payload that is not JSON: an SDK would throw there.
    }
  }
  return runs;
}

/** An async generator over `objects`, counting `return()` calls (an SDK's stream aborts its request there). */
function sdkStream(objects: readonly object[], fault?: { after: number; error: Error }) {
  const state = { returned: 0 };
  async function* generate(): AsyncGenerator<object> {
    try {
      for (const [i, object] of objects.entries()) {
        if (fault && i === fault.after) throw fault.error;
        yield object;
      }
    } finally {
      state.returned++;
    }
  }
  return { stream: generate(), state };
}

const CALL_CHUNKS = [
  chatChunk({ content: "Checking." }),
  chatChunk({
    tool_calls: [
      { index: 0, id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":' } },
    ],
  }),
  chatChunk({ tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] }),
  chatChunk({}, "tool_calls"),
] as object[];

const types = (events: readonly ToolCallEvent[]): string[] => events.map((event) => event.type);

group("streamToolCalls from an SDK's parsed chunks", (test) => {
  test("every recording, as its SDK yields it, gives the events of its bytes", async () => {
    const runs = await sdkRecordings();
    assert(runs.length > 40, `only ${runs.length} recordings`);
    for (const { fixture, provider, objects } of runs) {
      const fromBytes = await collect(streamToolCalls(fromChunks([fixture.body]), { provider }));
      const fromObjects = await collect(streamToolCalls(sdkStream(objects).stream, { provider }));
      assertEquals(fromObjects, fromBytes, `${fixture.provider}/${fixture.name}`);
    }
    const providers = new Set(runs.map((run) => run.provider));
    assertEquals([...providers].sort(), [...PROVIDERS].sort());
  }).needs("recordings");

  test("a ReadableStream of objects, an array, and the batches, read the same", async () => {
    const events = await collect(streamToolCalls(fromChunks(CALL_CHUNKS), { provider: "openai" }));
    assertEquals(types(events), [
      "text-delta",
      "tool-call-start",
      "tool-call-delta",
      "tool-call-delta",
      "tool-call",
      "finish",
    ]);
    const batches = await collect(streamToolCallBatches(sdkStream(CALL_CHUNKS).stream, { provider: "openai" }));
    assertEquals(batches.flat(), events);
    assertEquals(await collect(streamToolCalls(CALL_CHUNKS, { provider: "openai" })), events);
  });

  test("the objects are read as they are: no copy through JSON text, and never changed", async () => {
    const chunks = structuredClone(CALL_CHUNKS);
    await collect(streamToolCalls(sdkStream(chunks).stream, { provider: "openai" }));
    assertEquals(chunks, CALL_CHUNKS);
  });

  test("without `provider`, an SDK's chunks are an unknown-provider error and an abort", async () => {
    const { stream, state } = sdkStream(CALL_CHUNKS);
    const events = await collect(streamToolCalls(stream));
    assertEquals(types(events), ["error", "abort"]);
    assert(events[0]?.type === "error" && events[0].error.code === "unknown-provider", "unknown-provider");
    assertEquals(state.returned, 1);
  });

  test("an SDK's whole answer (no `stream: true`): a stream-failed error saying so and an abort, not a TypeError", async () => {
    const completion = { id: "chatcmpl-1", object: "chat.completion", choices: [] }; // create() without stream
    const message = { id: "msg_1", type: "message", role: "assistant", content: [] }; // Anthropic's
    for (const input of [completion, message] as unknown as ChainInput[]) {
      for (const events of [
        await collect(streamToolCalls(input, { provider: "openai" })),
        (await collect(streamToolCallBatches(input, { provider: "anthropic" }))).flat(),
        await collect(openai.streamToolCalls(input, { sdkChunks })), // a provider's subpath, with the plug-in
      ]) {
        assertEquals(types(events), ["error", "abort"]);
        assert(events[0]?.type === "error" && events[0].error.code === "stream-failed", "stream-failed");
        assert(events[0].error.message.includes("asked for without `stream: true`"), events[0].error.message);
      }
      // Without the plug-in, a subpath names it, as for any SDK object.
      const [error] = await collect(openai.streamToolCalls(input));
      assert(error?.type === "error" && error.error.code === "unknown-provider", "unknown-provider");
    }
  });

  test("an iterator that throws: what came before is delivered, the open call discarded, then error and abort", async () => {
    const { stream } = sdkStream(CALL_CHUNKS, { after: 3, error: new Error("socket hang up") });
    const events = await collect(streamToolCalls(stream, { provider: "openai" }));
    assertEquals(types(events), [
      "text-delta",
      "tool-call-start",
      "tool-call-delta",
      "tool-call-delta",
      "error",
      "abort",
    ]);
    const [error, abort] = events.slice(-2);
    assert(error?.type === "error" && error.error.code === "stream-failed", "stream-failed");
    assert(abort?.type === "abort" && abort.discarded.length === 1, "the half call is discarded");
  });

  test("the signal returns the iterator (an SDK aborts its request there) and ends with abort", async () => {
    const controller = new AbortController();
    let returned = 0;
    let index = 0;
    // A stream that gives one chunk, then waits for ever, as a stalled provider does.
    const stalled: AsyncIterable<object> = {
      [Symbol.asyncIterator]: () => ({
        next: () =>
          index++ === 0 ? Promise.resolve({ done: false, value: CALL_CHUNKS[0]! }) : new Promise<never>(() => {}),
        return: async () => {
          returned++;
          return { done: true, value: undefined };
        },
      }),
    };
    const reader = streamToolCalls(stalled, { provider: "openai", signal: controller.signal }).getReader();
    assertEquals((await reader.read()).value?.type, "text-delta");
    const next = reader.read();
    controller.abort();
    const rest: ToolCallEvent[] = [];
    for (let r = await next; !r.done; r = await reader.read()) rest.push(r.value);
    assertEquals(types(rest), ["abort"]);
    assertEquals(returned, 1);
  });

  test("cancelling the events returns the iterator", async () => {
    const { stream, state } = sdkStream(CALL_CHUNKS);
    const reader = streamToolCalls(stream, { provider: "openai" }).getReader();
    await reader.read();
    await reader.cancel();
    assertEquals(state.returned, 1);
  });

  test("an async iterable of byte chunks (a Node Readable, a body read under a watch) is read as bytes; a cancel's reason reaches its return()", async () => {
    const body = new TextEncoder().encode(CALL_CHUNKS.map((c) => `data: ${JSON.stringify(c)}\n\n`).join(""));
    const pieces = [body.subarray(0, 7), body.subarray(7, 40), body.subarray(40)];
    async function* chunks(): AsyncGenerator<Uint8Array> {
      yield* pieces;
    }
    assertEquals(
      await collect(streamToolCalls(chunks(), { provider: "openai" })),
      await collect(streamToolCalls(fromChunks(pieces), { provider: "openai" })),
    );
    const reasons: unknown[] = [];
    const first = new TextEncoder().encode(`data: ${JSON.stringify(CALL_CHUNKS[0])}\n\n`);
    let index = 0;
    // One message, then a wait for ever, as a stalled provider.
    const endless: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({
        next: () => (index++ === 0 ? Promise.resolve({ done: false, value: first }) : new Promise<never>(() => {})),
        return: async (reason?: unknown) => {
          reasons.push(reason);
          return { done: true, value: undefined };
        },
      }),
    };
    const reader = streamToolCalls(endless, { provider: "openai" }).getReader();
    await reader.read();
    await reader.cancel("client went away");
    assertEquals(reasons, ["client went away"]);
  });

  test("limits count the same as for bytes: maxToolCalls and maxArgumentsLength", async () => {
    for (const options of [{ maxToolCalls: 0 }, { maxArgumentsLength: 4 }]) {
      const fromObjects = await collect(
        streamToolCalls(sdkStream(CALL_CHUNKS).stream, { provider: "openai", ...options }),
      );
      const bytes = new TextEncoder().encode(CALL_CHUNKS.map((c) => `data: ${JSON.stringify(c)}\n\n`).join(""));
      const fromBytes = await collect(streamToolCalls(fromChunks([bytes]), { provider: "openai", ...options }));
      assertEquals(fromObjects, fromBytes);
      assertEquals(fromObjects.at(-1)?.type, "abort");
    }
  });

  test("Bedrock: an exception member is the provider's error, as its exception message is", async () => {
    const events = await collect(
      streamToolCalls(
        sdkStream([
          { messageStart: { role: "assistant" } },
          { contentBlockDelta: { contentBlockIndex: 0, delta: { text: "Hi" } } },
          { throttlingException: { message: "Too many requests" } },
        ]).stream,
        { provider: "bedrock" },
      ),
    );
    const error = events.find((event) => event.type === "error");
    assert(error?.type === "error" && error.error.code === "provider-error", "provider-error");
    assertEquals(error.error.data, { throttlingException: { message: "Too many requests" } });
    assertEquals(events[0], { type: "text-delta", text: "Hi" });
  });

  test("Bedrock InvokeModel: an exception member after the chunks is the provider's error, not a malformed chunk", async () => {
    const bytes = (event: object) => ({ chunk: { bytes: new TextEncoder().encode(JSON.stringify(event)) } });
    const events = await collect(
      streamToolCalls(
        sdkStream([
          bytes({ type: "message_start", message: { usage: { input_tokens: 3, output_tokens: 1 } } }),
          bytes({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
          bytes({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hi" } }),
          { modelStreamErrorException: { message: "Model stream error", originalStatusCode: 500 } },
        ]).stream,
        { provider: "bedrock" },
      ),
    );
    const errors = events.filter((event) => event.type === "error");
    assertEquals(
      errors.map((event) => event.type === "error" && [event.error.code, event.error.data]),
      [["provider-error", { modelStreamErrorException: { message: "Model stream error", originalStatusCode: 500 } }]],
    );
    assertEquals(
      events.find((event) => event.type === "text-delta"),
      { type: "text-delta", text: "Hi" },
    );
  });

  test("Bedrock InvokeModel: an event the SDK does not know ($unknown) is ignored, and the chunks after it are still read", async () => {
    const bytes = (event: object) => ({ chunk: { bytes: new TextEncoder().encode(JSON.stringify(event)) } });
    const text = (index: number, value: string) =>
      bytes({ type: "content_block_delta", index, delta: { type: "text_delta", text: value } });
    const events = await collect(
      streamToolCalls(
        sdkStream([
          bytes({ type: "message_start", message: { usage: { input_tokens: 3, output_tokens: 1 } } }),
          bytes({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
          text(0, "Hi"),
          // What @aws-sdk/client-bedrock-runtime yields for an event type newer than the SDK.
          { $unknown: ["newEvent", { detail: 1 }] },
          text(0, " there"),
          bytes({ type: "content_block_stop", index: 0 }),
          bytes({ type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 2 } }),
          bytes({ type: "message_stop" }),
        ]).stream,
        { provider: "bedrock" },
      ),
    );
    assertEquals(
      events.map((event) => (event.type === "text-delta" ? event.text : event.type)),
      ["usage", "Hi", " there", "finish"],
    );
    const finish = events.at(-1);
    assertEquals(finish?.type === "finish" && finish.reason, "stop");
  });
});
