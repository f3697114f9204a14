// What a body, an SDK or a tool handler fails with may be any value, one whose prototype cannot
// even be read (a revoked Proxy): the fault is still a typed `error` and `abort` after everything
// before it, a half-received call discarded, never the TypeError of asking what the value is.
import { geminiInteractionsResumingBody } from "../../src/gemini-interactions.ts";
import {
  streamToolCallBatches,
  streamToolCalls,
  ToolRunnerStream,
  type ToolCallEvent,
  type ToolRunnerEvent,
} from "../../src/index.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { bytes, chatChunk, collect, openAISSE } from "../support/streams.ts";

/** A value every question about which throws: `instanceof` reads its prototype. */
function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

const TEXT = chatChunk({ content: "Hi" });
const WHOLE = chatChunk({ tool_calls: [{ index: 0, id: "call_a", function: { name: "f", arguments: '{"a":1}' } }] });
const HALF = chatChunk({ tool_calls: [{ index: 1, id: "call_b", function: { name: "g", arguments: '{"b":' } }] });

/**
 * A body whose reader gives the chunks of `payloads`, one per read, then rejects with `reason`.
 * Its own reader, not a platform stream errored with `reason`: Deno's streams ask what such a
 * value is themselves, and throw where no one can catch it.
 */
function failingBody(payloads: readonly unknown[], reason: unknown): ReadableStream<Uint8Array> {
  const chunks = payloads.map((payload) => bytes(openAISSE([payload], false)));
  let next = 0;
  const reader = {
    read: async () => {
      if (next < chunks.length) return { done: false, value: chunks[next++]! };
      throw reason;
    },
    cancel: async () => {},
    releaseLock: () => {},
  };
  // Not a byte stream: a BYOB reader is refused, as a default stream refuses it.
  const getReader = (options?: { mode?: string }) => {
    if (options?.mode === "byob") throw new TypeError("not a byte stream");
    return reader;
  };
  return { locked: false, getReader } as unknown as ReadableStream<Uint8Array>;
}

/** The events' types, with the code of an `error` and the reason and discarded ids of an `abort`. */
const shape = (events: readonly ToolCallEvent[]): string[] =>
  events
    .filter((event) => event.type !== "tool-call-start" && event.type !== "tool-call-delta")
    .map((event) =>
      event.type === "error"
        ? `error ${event.error.code}`
        : event.type === "abort"
          ? `abort ${event.reason} [${event.discarded.map((call) => call.id).join(",")}]`
          : event.type === "tool-call"
            ? `tool-call ${event.id}`
            : event.type,
    );

const EXPECTED = ["text-delta", "tool-call call_a", "error stream-failed", "abort stream-failed [call_b]"];

group("A fault that is a value whose prototype cannot be read (a revoked Proxy)", (test) => {
  test("a body whose read rejects with it: the text and the whole call, then stream-failed, the half call discarded", async () => {
    const events = await collect(streamToolCalls(failingBody([TEXT, WHOLE, HALF], revoked()), { provider: "openai" }));
    assertEquals(shape(events), EXPECTED);
  });

  test("the same through streamToolCallBatches and for await", async () => {
    const batches = await collect(
      streamToolCallBatches(failingBody([TEXT, WHOLE, HALF], revoked()), { provider: "openai" }),
    );
    assertEquals(shape(batches.flat()), EXPECTED);
    const iterated: ToolCallEvent[] = [];
    const events = streamToolCalls(failingBody([TEXT, WHOLE, HALF], revoked()), { provider: "openai" });
    // The stream is an async iterable in every runtime (the test project's types leave that out).
    for await (const event of events as unknown as AsyncIterable<ToolCallEvent>) iterated.push(event);
    assertEquals(shape(iterated), EXPECTED);
  });

  test("an SDK's iterator that rejects with it, or a chunk whose getter throws it", async () => {
    async function* rejecting(): AsyncGenerator<object> {
      yield TEXT as object;
      yield WHOLE as object;
      yield HALF as object;
      throw revoked();
    }
    assertEquals(shape(await collect(streamToolCalls(rejecting(), { provider: "openai" }))), EXPECTED);
    const getter = {
      get choices(): never {
        throw revoked();
      },
    };
    const events = await collect(streamToolCalls([TEXT as object, getter], { provider: "openai" }));
    assertEquals(shape(events), ["text-delta", "error malformed-payload", "abort stream-failed []"]);
  });

  test("a tool handler that throws it, or rejects with it: the call's handler-failed error, and the stream ends", async () => {
    const calls = openAISSE([WHOLE, chatChunk({}, "tool_calls")]);
    for (const run of [
      (): never => {
        throw revoked();
      },
      (): Promise<never> => Promise.reject(revoked()),
    ]) {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes(calls));
          controller.close();
        },
      });
      const events: ToolRunnerEvent[] = await collect(
        streamToolCalls(body, { provider: "openai" }).pipeThrough(new ToolRunnerStream({ tools: { f: { run } } })),
      );
      const error = events.find((event) => event.type === "tool-error");
      assert(error?.type === "tool-error", "the call's error");
      assertEquals([error.id, error.error.code], ["call_a", "handler-failed"]);
      assertEquals(events.at(-1)?.type, "finish");
    }
  });

  test("geminiInteractionsResumingBody: a read that rejects with it is a drop like any other, resumed", async () => {
    const created =
      'event: interaction.created\ndata: {"event_type":"interaction.created","interaction":{"id":"v1_a"},"event_id":"e1"}\n\n';
    let reopened = 0;
    let read = 0;
    const first: AsyncIterator<Uint8Array> = {
      next: async () => {
        if (read++ === 0) return { done: false, value: bytes(created) };
        throw revoked();
      },
    };
    const body = geminiInteractionsResumingBody(first, {
      reopen: async () => {
        reopened++;
        return new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
      },
      maxResumes: 1,
    });
    const seen: Uint8Array[] = [];
    for await (const chunk of body) seen.push(chunk);
    assertEquals(reopened, 1);
    assertEquals(new TextDecoder().decode(seen[0]), created);
  });
});
