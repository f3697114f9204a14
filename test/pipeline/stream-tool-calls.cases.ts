import {
  OpenAIChatDeltaStream,
  SSEDecoderStream,
  streamToolCalls,
  ToolCallAccumulatorStream,
  type ToolCallEvent,
} from "../../src/index.ts";
import { summarize } from "../support/fixtures.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { assertEventInvariants } from "../support/invariants.ts";
import { eventually, recordingSource } from "../support/sources.ts";
import { bytes, chatChunk, collect, fromChunks, openAISSE } from "../support/streams.ts";

/** One SSE event per chunk: a complete call, text, then a call left open. */
function partialCallChunks(): Uint8Array[] {
  return [
    chatChunk({ tool_calls: [{ index: 0, id: "done_1", function: { name: "f", arguments: '{"a":1}' } }] }),
    chatChunk({ content: "hello" }),
    chatChunk({ tool_calls: [{ index: 1, id: "open_2", function: { name: "g", arguments: '{"b":' } }] }),
    chatChunk({ tool_calls: [{ index: 1, function: { arguments: "2" } }] }),
  ].map((payload) => bytes(`data: ${JSON.stringify(payload)}\n\n`));
}

const types = (events: ToolCallEvent[]): string[] => events.map((e) => e.type);

group("streamToolCalls cancellation, faults and limits", (test) => {
  test("the signal ends the stream with abort: the call a later index followed is delivered, the open one discarded, the source cancelled", async () => {
    const source = recordingSource([...partialCallChunks(), ...partialCallChunks()]);
    const controller = new AbortController();
    const reader = streamToolCalls(source.stream, { signal: controller.signal }).getReader();
    const seen: ToolCallEvent[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      seen.push(value);
      if (value.type === "tool-call-delta" && value.index === 1) controller.abort(new Error("user left"));
    }
    assertEventInvariants(seen, false);
    const final = seen.at(-1);
    assert(final?.type === "abort" && final.reason === "cancelled", "abort: cancelled");
    // Chat Completions calls complete at the finish, but index 1 began: call 0 was sent whole, as at a cut.
    assertEquals(
      final.discarded.map((c) => [c.id, c.rawArguments]),
      [["open_2", '{"b":']],
    );
    assertEquals(
      seen.flatMap((e) => (e.type === "tool-call" ? [[e.id, e.arguments]] : [])),
      [["done_1", { a: 1 }]],
    );
    await eventually(() => source.cancelled !== undefined, "the source saw the cancel");
    assert(source.pulled < 8, "reading stopped");
  });

  test("a signal that already fired gives an abort at once and cancels the source", async () => {
    const source = recordingSource(partialCallChunks());
    const events = await collect(streamToolCalls(source.stream, { signal: AbortSignal.abort() }));
    assertEquals(types(events), ["abort"]);
    await eventually(() => source.cancelled !== undefined, "the source saw the cancel");
  });

  test("cancelling the reader cancels the source (the fetch stops)", async () => {
    const source = recordingSource(partialCallChunks());
    const reader = streamToolCalls(source.stream).getReader();
    await reader.read();
    await reader.cancel("client went away");
    await eventually(() => source.cancelled !== undefined, "the source saw the cancel");
    assertEquals(source.cancelled?.reason, "client went away");
  });

  test("a body that fails mid-stream ends with error and abort, after everything read before", async () => {
    const source = recordingSource(partialCallChunks(), new TypeError("network connection lost"));
    const events = await collect(streamToolCalls(source.stream));
    assertEquals(types(events).slice(-2), ["error", "abort"]);
    const final = events.at(-1);
    assert(
      final?.type === "abort" && final.reason === "stream-failed" && final.error?.code === "stream-failed",
      "stream-failed",
    );
    assert(!final.error.message.includes("network connection lost"), "internal messages are not passed on");
    assertEquals(summarize(events).text, "hello");
    // done_1 was sent whole (index 1 followed it): it is delivered; only the call still streaming is discarded.
    assertEquals(
      events.flatMap((e) => (e.type === "tool-call" ? [e.id] : [])),
      ["done_1"],
    );
    assertEquals(
      final.discarded.map((c) => c.id),
      ["open_2"],
    );
  });

  test("the bare pipeThrough chain errors when its input errors, as WHATWG streams do", async () => {
    const failing = new ReadableStream({ start: (c) => c.error(new Error("boom")) });
    let rejected = false;
    await collect(failing.pipeThrough(new ToolCallAccumulatorStream())).catch(() => (rejected = true));
    assert(rejected, "the chain rejects");
  });

  test("a bare SSE chain whose body fails ends with the body's own error, its open call unlisted; streamToolCalls lists it", async () => {
    const failure = new TypeError("terminated"); // what undici's fetch body throws when the socket drops
    const [first, second] = partialCallChunks();
    const body = () =>
      new ReadableStream<Uint8Array>({
        start: (c) => (c.enqueue(first!), c.enqueue(second!)),
        pull: (c) => c.error(failure),
      });
    const seen: string[] = [];
    const chain = body().pipeThrough(new SSEDecoderStream()).pipeThrough(new OpenAIChatDeltaStream());
    const tap = new TransformStream<ToolCallEvent, ToolCallEvent>({
      transform: (e, c) => (seen.push(e.type), c.enqueue(e)),
    });
    const thrown = await collect(chain.pipeThrough(new ToolCallAccumulatorStream()).pipeThrough(tap)).catch((e) => e);
    assert(thrown === failure, `the body's own error, not a ToolCallStreamError: ${String(thrown)}`);
    // done_1 is still open (an OpenAI Chat call completes at the next call or the finish): lost,
    // never completed. How many of the events before the fault get through is the streams' race, not
    // the chain's: a pipe's error empties the queues of the stages after it (Chromium dropped the
    // text delta once), so the events are a prefix of those the body's bytes make.
    const made = ["tool-call-start", "tool-call-delta", "text-delta"];
    assertEquals(seen, made.slice(0, seen.length));
    const abort = (await collect(streamToolCalls(body(), { provider: "openai" }))).at(-1);
    assert(abort?.type === "abort" && abort.reason === "stream-failed", JSON.stringify(abort));
    assertEquals(
      abort.discarded.map((call) => call.id),
      ["done_1"],
    );
  });

  test("a non-2xx Response becomes an http-error event with the provider's error object, then abort", async () => {
    const body = JSON.stringify({
      error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" },
    });
    const events = await collect(streamToolCalls(new Response(body, { status: 429 })));
    assertEquals(types(events), ["error", "abort"]);
    const error = events[0];
    assert(
      error?.type === "error" && error.error.code === "http-error" && error.error.status === 429,
      `http-error 429: ${JSON.stringify(events)}`,
    );
    assertEquals(error.error.data, JSON.parse(body));
    assert(events[1]?.type === "abort" && events[1].reason === "provider-error", "abort: provider-error");
  });

  test("a non-JSON error body is not passed on", async () => {
    const events = await collect(streamToolCalls(new Response("<html>internal trace</html>", { status: 502 })));
    assert(events[0]?.type === "error" && events[0].error.data === undefined, "no data");
  });

  test("maxArgumentsLength: error and abort with the call discarded, and the source is cancelled", async () => {
    const big = "x".repeat(50);
    const chunks = [
      chatChunk({ content: "before" }),
      chatChunk({ tool_calls: [{ index: 0, id: "a", function: { name: "f", arguments: `{"s":"${big}` } }] }),
      chatChunk({ tool_calls: [{ index: 0, function: { arguments: `${big}"}` } }] }),
      chatChunk({}, "tool_calls"),
    ].map((p) => bytes(`data: ${JSON.stringify(p)}\n\n`));
    const source = recordingSource(chunks);
    const events = await collect(streamToolCalls(source.stream, { maxArgumentsLength: 80 }));
    assertEquals(types(events), ["text-delta", "tool-call-start", "tool-call-delta", "error", "abort"]);
    const final = events.at(-1);
    assert(
      final?.type === "abort" && final.reason === "limit-exceeded" && final.error?.code === "arguments-too-large",
      "arguments-too-large",
    );
    assertEquals(
      final.discarded.map((c) => c.id),
      ["a"],
    );
    await eventually(() => source.cancelled !== undefined, "the source saw the cancel");
  });

  test("maxArgumentsLength counts characters (UTF-16 code units), the unit of maxEventLength", async () => {
    // 12 code units (杭 and 州 one each, 𝄞 two); in UTF-8 it would be 18 bytes.
    const sse = openAISSE([
      chatChunk(
        { tool_calls: [{ index: 0, id: "a", function: { name: "f", arguments: '{"c":"杭州𝄞"}' } }] },
        "tool_calls",
      ),
    ]);
    const fits = await collect(streamToolCalls(fromChunks([bytes(sse)]), { maxArgumentsLength: 12 }));
    assertEquals(types(fits).at(-1), "finish");
    const over = await collect(streamToolCalls(fromChunks([bytes(sse)]), { maxArgumentsLength: 11 }));
    assertEquals(types(over).at(-1), "abort");
  });

  test("maxToolCalls: the call past the limit stops the stream with a clear error, after the calls before it", async () => {
    const sse = openAISSE(
      [0, 1, 2].map((i) =>
        chatChunk({ tool_calls: [{ index: i, id: `c${i}`, function: { name: "f", arguments: "{}" } }] }),
      ),
    );
    const events = await collect(streamToolCalls(fromChunks([bytes(sse)]), { maxToolCalls: 2 }));
    const final = events.at(-1);
    assert(final?.type === "abort" && final.error?.code === "too-many-tool-calls", "too-many-tool-calls");
    // Index 2 began: calls 0 and 1 were sent whole, so they are delivered before the error, not discarded.
    assertEquals(types(events).slice(-4), ["tool-call", "tool-call", "error", "abort"]);
    assertEquals(
      events.flatMap((e) => (e.type === "tool-call" ? [e.id] : [])),
      ["c0", "c1"],
    );
    assertEquals(final.discarded, []);
  });

  test("maxToolCalls bounds the reasoning parts too, counted apart from the calls: the part past it stops the stream", async () => {
    // Kimi-style reasoning between text and calls: each stretch a reasoning part where it ends.
    const call = (i: number) =>
      chatChunk({ tool_calls: [{ index: i, id: `c${i}`, function: { name: "f", arguments: "{}" } }] });
    const sse = openAISSE([
      chatChunk({ role: "assistant", reasoning_content: "First." }),
      chatChunk({ content: "Checking." }),
      chatChunk({ reasoning_content: "Second." }),
      call(0),
      call(1),
      chatChunk({ reasoning_content: "Third." }),
      chatChunk({ content: "Done." }),
      chatChunk({}, "tool_calls"),
    ]);
    const within = (await collect(streamToolCalls(fromChunks([bytes(sse)]), { maxToolCalls: 3 }))).at(-1);
    assert(within?.type === "finish", JSON.stringify(within));
    assertEquals([within.toolCalls.length, within.reasoningParts?.length], [2, 3]);
    const events = await collect(streamToolCalls(fromChunks([bytes(sse)]), { maxToolCalls: 2 }));
    assertEquals(
      events.filter((event) => event.type === "reasoning-part").length,
      2,
      "the parts within the limit are delivered",
    );
    const [error, final] = events.slice(-2);
    assert(error?.type === "error" && error.error.message.includes("reasoning parts"), JSON.stringify(error));
    assert(final?.type === "abort" && final.reason === "limit-exceeded", JSON.stringify(final));
    assertEquals(final.error?.code, "too-many-tool-calls");
    // Call 1 began after call 0, which is delivered; call 1 was still open.
    assertEquals(
      [events.flatMap((e) => (e.type === "tool-call" ? [e.id] : [])), final.discarded.map((c) => c.id)],
      [["c0"], ["c1"]],
    );
  });

  test("maxEventLength: an oversized SSE line ends with error and abort, after the events before it", async () => {
    const sse = `${openAISSE([chatChunk({ content: "ok" })], false)}data: ${JSON.stringify(chatChunk({ content: "y".repeat(5000) }))}\n\n`;
    const events = await collect(streamToolCalls(fromChunks([bytes(sse)]), { maxEventLength: 1000 }));
    assertEquals(types(events), ["text-delta", "error", "abort"]);
    const final = events.at(-1);
    assert(
      final?.type === "abort" && final.reason === "limit-exceeded" && final.error?.code === "event-too-large",
      "event-too-large, limit-exceeded",
    );
  });

  test("1,000 parallel calls interleaved by index all complete, in index order", async () => {
    const n = 1000;
    const payloads: unknown[] = [];
    for (let i = 0; i < n; i++)
      payloads.push(
        chatChunk({ tool_calls: [{ index: i, id: `c${i}`, function: { name: "f", arguments: '{"i":' } }] }),
      );
    for (let i = n - 1; i >= 0; i--)
      payloads.push(chatChunk({ tool_calls: [{ index: i, function: { arguments: `${i}}` } }] }));
    payloads.push(chatChunk({}, "tool_calls"));
    const events = await collect(streamToolCalls(fromChunks([bytes(openAISSE(payloads))])));
    assertEventInvariants(events);
    const final = events.at(-1);
    assert(final?.type === "finish" && final.toolCalls.length === n, "all complete");
    assert(
      final.toolCalls.every((c, i) => c.index === i && (c.arguments as { i: number }).i === i),
      "in index order, not mixed",
    );
  });

  test("an index reused after its call completed starts a new call with a fresh index", async () => {
    const events = await collect(
      streamToolCalls(
        fromChunks([
          bytes(
            openAISSE([
              chatChunk(
                { tool_calls: [{ index: 0, id: "a", function: { name: "f", arguments: "{}" } }] },
                "tool_calls",
              ),
              chatChunk(
                { tool_calls: [{ index: 0, id: "b", function: { name: "g", arguments: "{}" } }] },
                "tool_calls",
              ),
            ]),
          ),
        ]),
      ),
    );
    assertEventInvariants(events);
    assertEquals(
      events
        .filter((e) => e.type === "tool-call")
        .map((e) => [(e as { id: string }).id, (e as { index: number }).index]),
      [
        ["a", 0],
        ["b", 1],
      ],
    );
  });

  test("a provider error event mid-call, then the end of input: error delivered, the call discarded", async () => {
    const sse = `${openAISSE([chatChunk({ tool_calls: [{ index: 0, id: "a", function: { name: "f", arguments: '{"x"' } }] })], false)}event: error\ndata: {"error":{"message":"tool_use_failed"}}\n\n`;
    const events = await collect(streamToolCalls(fromChunks([bytes(sse)])));
    assertEquals(types(events), ["tool-call-start", "tool-call-delta", "error", "abort"]);
    const final = events.at(-1);
    assert(
      final?.type === "abort" && final.reason === "provider-error" && final.discarded.length === 1,
      "provider-error abort",
    );
  });
});
