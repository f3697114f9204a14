// SDK objects that throw or are not JSON data (issue 33, finding 5): a getter or Proxy trap that
// throws, arguments given as an object with a cycle, a BigInt or 100,000 levels, end the stream as
// every other fault does: what came before delivered (batched too), then `error` and `abort`, and
// the SDK iterator returned. Arguments too deep are the accumulator's `too-deep`, as in text.
import fc from "fast-check";
import { streamToolCallBatches, streamToolCalls, type Provider, type ToolCallEvent } from "../../src/index.ts";
import { objectJsonText } from "../../src/shared/object-json-text.ts";
import { jsonText } from "../../src/shared/json-text.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { bytes, chatChunk as chatChunkOf, collect, fromChunks } from "../support/streams.ts";

const chatChunk = (...args: Parameters<typeof chatChunkOf>): object => chatChunkOf(...args) as object;

const SECRET = "sk-secret-payload";

/** An object every read of which throws (the traps of reading a Proxy), as a hostile SDK chunk. */
const trapped = (): object =>
  new Proxy(
    {},
    {
      // `then` is read by the SDK's async generator itself (a yielded value is awaited).
      get: (_, key) => {
        if (key === "then") return undefined;
        throw new Error(SECRET);
      },
      has: () => {
        throw new Error(SECRET);
      },
      ownKeys: () => {
        throw new Error(SECRET);
      },
      getOwnPropertyDescriptor: () => {
        throw new Error(SECRET);
      },
    },
  );

/** An async generator over `objects` that counts its `return()`s (an SDK aborts its request there). */
function sdkStream(objects: readonly object[]) {
  const state = { returned: 0, yielded: 0 };
  async function* generate(): AsyncGenerator<object> {
    try {
      for (const object of objects) {
        state.yielded++;
        yield object;
      }
      // An SDK's stream would go on: a hostile chunk must stop the reading.
      yield* objects;
    } finally {
      state.returned++;
    }
  }
  return { stream: generate(), state };
}

/** A Gemini Interactions `text` delta whose text throws when read. */
const throwingText = (): { readonly type: "text"; readonly text: string } =>
  Object.defineProperty({ type: "text" }, "text", {
    enumerable: true,
    get: () => {
      throw new Error(SECRET);
    },
  }) as { readonly type: "text"; readonly text: string };

/** One chunk per provider that gives a text delta "Hi" (with what must come before it). */
const TEXT: Record<Provider, object[]> = {
  openai: [chatChunk({ content: "Hi" })],
  anthropic: [
    { type: "message_start", message: { id: "msg_1", role: "assistant", content: [], usage: {} } },
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hi" } },
  ],
  gemini: [{ candidates: [{ index: 0, content: { role: "model", parts: [{ text: "Hi" }] } }] }],
  "openai-responses": [
    {
      type: "response.output_text.delta",
      sequence_number: 1,
      item_id: "msg_1",
      output_index: 0,
      content_index: 0,
      delta: "Hi",
    },
  ],
  bedrock: [
    { messageStart: { role: "assistant" } },
    { contentBlockDelta: { contentBlockIndex: 0, delta: { text: "Hi" } } },
  ],
  cohere: [{ type: "content-delta", index: 0, delta: { message: { content: { text: "Hi" } } } }],
  ollama: [{ model: "m", message: { role: "assistant", content: "Hi" }, done: false }],
  "gemini-interactions": [
    { event_type: "step.start", index: 0, step: { type: "model_output" } },
    { event_type: "step.delta", index: 0, delta: { type: "text", text: "Hi" } },
  ],
};

/** One chunk per provider that gives a whole call whose arguments are `args`, an object. */
const CALL: Partial<Record<Provider, (args: unknown) => object[]>> = {
  openai: (args) => [
    chatChunk({ tool_calls: [{ index: 0, id: "c1", type: "function", function: { name: "f", arguments: args } }] }),
    chatChunk({}, "tool_calls"),
  ],
  anthropic: (args) => [
    { type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "t1", name: "f", input: args } },
    { type: "content_block_stop", index: 1 },
    { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: {} },
    { type: "message_stop" },
  ],
  gemini: (args) => [
    { candidates: [{ index: 0, content: { parts: [{ functionCall: { name: "f", args } }] }, finishReason: "STOP" }] },
  ],
  bedrock: (args) => [
    { contentBlockStart: { contentBlockIndex: 1, start: { toolUse: { toolUseId: "t1", name: "f" } } } },
    { contentBlockDelta: { contentBlockIndex: 1, delta: { toolUse: { input: args } } } },
    { contentBlockStop: { contentBlockIndex: 1 } },
    { messageStop: { stopReason: "tool_use" } },
  ],
  ollama: (args) => [
    {
      message: { role: "assistant", content: "", tool_calls: [{ function: { name: "f", arguments: args } }] },
      done: false,
    },
    { message: { role: "assistant", content: "" }, done: true, done_reason: "stop" },
  ],
  "gemini-interactions": (args) => [
    { event_type: "step.start", index: 1, step: { type: "function_call", id: "c1", name: "f", arguments: {} } },
    { event_type: "step.delta", index: 1, delta: { type: "function_call", id: "c1", name: "f", arguments: args } },
    { event_type: "step.stop", index: 1 },
    { event_type: "interaction.completed", interaction: { id: "v1_1", status: "requires_action" } },
  ],
};

const types = (events: readonly ToolCallEvent[]): string[] => events.map((event) => event.type);

/** Nested `depth` levels: `{"a":{"a":...}}`. */
function deep(depth: number): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let node = root;
  for (let i = 1; i < depth; i++) node = node["a"] = {} as Record<string, unknown>;
  return root;
}

/**
 * Reads `objects` with `streamToolCalls` and `streamToolCallBatches`: both end with the text, an
 * `error` of `code` and an `abort`, return the iterator once, and never quote the payload.
 */
async function endsWith(provider: Provider, objects: object[], code: string, label: string): Promise<void> {
  const one = sdkStream(objects);
  const all = await collect(streamToolCalls(one.stream, { provider }));
  // Anthropic's message_start reports usage before the text: not what this checks.
  const events = all[0]?.type === "usage" ? all.slice(1) : all;
  assertEquals(types(events), ["text-delta", "error", "abort"], `${label}: events`);
  const error = events[1];
  assert(error?.type === "error" && error.error.code === code, `${label}: ${code}, not ${JSON.stringify(error)}`);
  assert(!JSON.stringify(events).includes(SECRET), `${label}: the payload is not quoted`);
  assertEquals(one.state.returned, 1, `${label}: the iterator is returned`);
  const batched = sdkStream(objects);
  const batches = await collect(streamToolCallBatches(batched.stream, { provider }));
  assertEquals(batches.flat(), all, `${label}: the batches hold the same events`);
  assertEquals(batched.state.returned, 1, `${label}: the batches' iterator is returned`);
}

group("SDK objects that throw or are not JSON data end the stream as any fault does", (test) => {
  test("a chunk whose every Proxy trap throws, for each provider: the text, then malformed-payload and abort", async () => {
    for (const [provider, text] of Object.entries(TEXT) as [Provider, object[]][])
      await endsWith(provider, [...text, trapped()], "malformed-payload", provider);
  });

  test("a getter that throws deep in a chunk, for each provider", async () => {
    const throwing = {
      get text(): string {
        throw new Error(SECRET);
      },
    };
    const chunks: Record<Provider, object> = {
      openai: chatChunk({
        get content(): string {
          throw new Error(SECRET);
        },
      }),
      anthropic: { type: "content_block_delta", index: 0, delta: throwing },
      gemini: { candidates: [{ index: 0, content: { parts: [throwing] } }] },
      "openai-responses": {
        type: "response.output_text.delta",
        sequence_number: 2,
        get delta(): string {
          throw new Error(SECRET);
        },
      },
      bedrock: { contentBlockDelta: { contentBlockIndex: 0, delta: throwing } },
      cohere: { type: "content-delta", index: 0, delta: { message: { content: throwing } } },
      ollama: {
        message: {
          role: "assistant",
          get content(): string {
            throw new Error(SECRET);
          },
        },
        done: false,
      },
      "gemini-interactions": { event_type: "step.delta", index: 0, delta: throwingText() },
    };
    for (const [provider, text] of Object.entries(TEXT) as [Provider, object[]][])
      await endsWith(provider, [...text, chunks[provider]], "malformed-payload", provider);
  });

  test("arguments given as an object with a cycle or a BigInt: malformed-payload, for each provider that takes objects", async () => {
    const cycle: Record<string, unknown> = { city: "Oslo" };
    cycle["self"] = { back: cycle };
    for (const [provider, call] of Object.entries(CALL) as [Provider, (args: unknown) => object[]][]) {
      await endsWith(provider, [...TEXT[provider], ...call(cycle)], "malformed-payload", `${provider} cycle`);
      await endsWith(provider, [...TEXT[provider], ...call({ n: 10n })], "malformed-payload", `${provider} BigInt`);
    }
  });

  test("arguments 100,000 levels deep: written without a stack overflow, then too-deep as in text; the stream goes on", async () => {
    for (const [provider, call] of Object.entries(CALL) as [Provider, (args: unknown) => object[]][]) {
      const events = await collect(streamToolCalls([...TEXT[provider], ...call(deep(100_000))], { provider }));
      const invalid = events.find((event) => event.type === "invalid-tool-call");
      assert(invalid?.type === "invalid-tool-call" && invalid.error.code === "too-deep", `${provider}: too-deep`);
      assertEquals(events.at(-1)?.type, "finish", `${provider}: the stream finishes`);
    }
  });

  test("Ollama's bytes with arguments 100,000 levels deep (JSON.parse reads them) are too-deep, not a stack overflow", async () => {
    const line = (value: object): string => `${JSON.stringify(value)}\n`;
    const args = `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`;
    const body =
      line({ message: { role: "assistant", content: "Hi" }, done: false }).replace("\n", "") +
      `\n{"message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"f","arguments":${args}}}]},"done":false}\n` +
      line({ message: { role: "assistant", content: "" }, done: true, done_reason: "stop" });
    const events = await collect(streamToolCalls(fromChunks([bytes(body)]), { provider: "ollama" }));
    assertEquals(types(events), ["text-delta", "tool-call-start", "tool-call-delta", "invalid-tool-call", "finish"]);
  });

  test("Cohere's camelCase objects with a cycle or a part shared many times are renamed once each", async () => {
    const shared: Record<string, unknown> = { docId: "d" };
    let wide: Record<string, unknown> = shared;
    // 40 levels of two references to one object: 2^40 paths, 40 objects.
    for (let i = 0; i < 40; i++) wide = { left: wide, right: wide };
    const cyclic: Record<string, unknown> = { sourceType: "tool" };
    cyclic["parent"] = cyclic;
    const one = sdkStream([
      ...TEXT.cohere,
      { type: "citation-start", index: 0, delta: { message: { citations: { sources: [wide, cyclic] } } } },
      { type: "message-end", delta: { finishReason: "COMPLETE", usage: { billedUnits: { inputTokens: 1 } } } },
    ]);
    const events = await collect(streamToolCalls(one.stream, { provider: "cohere" }));
    assertEquals(types(events), ["text-delta", "finish"]);
  });

  test("an iterable whose iterator cannot be made, or whose result's getter throws: stream-failed and abort", async () => {
    const unmade: AsyncIterable<object> = {
      [Symbol.asyncIterator]: () => {
        throw new Error(SECRET);
      },
    };
    assertEquals(types(await collect(streamToolCalls(unmade, { provider: "openai" }))), ["error", "abort"]);
    let returned = 0;
    let index = 0;
    const badResult: AsyncIterable<object> = {
      [Symbol.asyncIterator]: () => ({
        next: async (): Promise<IteratorResult<object>> =>
          index++ === 0
            ? { done: false, value: chatChunk({ content: "Hi" }) }
            : ({
                get done(): boolean {
                  throw new Error(SECRET);
                },
                value: undefined,
              } as IteratorResult<object>),
        return: async () => {
          returned++;
          return { done: true, value: undefined };
        },
      }),
    };
    const events = await collect(streamToolCalls(badResult, { provider: "openai" }));
    assertEquals(types(events), ["text-delta", "error", "abort"]);
    assert(events[1]?.type === "error" && events[1].error.code === "stream-failed", "stream-failed");
    assert(!JSON.stringify(events).includes(SECRET), "the error is not quoted");
    assert(returned <= 1, "returned at most once");
  });

  test("a return() that throws does not make cancelling the events reject", async () => {
    const throwing: AsyncIterable<object> = {
      [Symbol.asyncIterator]: () => ({
        next: async () => ({ done: false, value: chatChunk({ content: "Hi" }) }),
        return: () => {
          throw new Error(SECRET);
        },
      }),
    };
    const reader = streamToolCalls(throwing, { provider: "openai" }).getReader();
    await reader.read();
    await reader.cancel();
  });
});

group("objectJsonText and jsonText write what JSON.stringify writes, with a stack of their own", (test) => {
  test("jsonText (the byte path's): any JSON data as JSON.stringify writes it, 100,000 levels deep too", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => assertEquals(jsonText(v), JSON.stringify(v))),
      { seed: 36, numRuns: 300 },
    );
    const text = `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`;
    assertEquals(jsonText(JSON.parse(text)), text);
  });

  test("jsonText never hangs on what is not JSON data: a cycle or a BigInt throws", () => {
    const cycle: Record<string, unknown> = {};
    cycle["self"] = cycle;
    let code: string | undefined;
    try {
      jsonText(cycle);
    } catch (error) {
      code = (error as { code?: string }).code;
    }
    assertEquals(code, "malformed-payload");
    let threw = false;
    try {
      jsonText({ n: 1n });
    } catch {
      threw = true;
    }
    assert(threw, "a BigInt throws");
  });

  test("any JSON value, with undefined, functions, non-finite numbers, toJSON and boxed values inside", () => {
    const odd = fc.constantFrom<unknown>(
      undefined,
      () => 1,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      -0,
      new Date(0),
      { toJSON: (key: string) => `key:${key}` },
      new Number(3),
      new String("s"),
      new Boolean(false),
      Symbol("s"),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small" },
        fc.jsonValue({ maxDepth: 2 }),
        odd,
        fc.array(tie("node"), { maxLength: 4 }),
        fc.dictionary(fc.string({ maxLength: 4 }), tie("node"), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (v) => assertEquals(objectJsonText(v), JSON.stringify(v))),
      { seed: 33, numRuns: 400 },
    );
  });

  test("a value shared many times that would write past 32 Mi characters is refused, not written", () => {
    // 64 references to one 1 Mi string, through 6 levels of two references to one array.
    let wide: unknown = "x".repeat(2 ** 20);
    for (let i = 0; i < 6; i++) wide = [wide, wide];
    let code: string | undefined;
    try {
      objectJsonText(wide);
    } catch (error) {
      code = (error as { code?: string }).code;
    }
    assertEquals(code, "malformed-payload");
  });
});
