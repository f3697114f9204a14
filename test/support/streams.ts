// Stream helpers built on plain WHATWG streams, so they run in every runtime.
import type { ProviderDelta, SSEMessage, ToolCallAccumulatorOptions, ToolCallEvent } from "../../src/index.ts";
import {
  OpenAIChatDeltaStream,
  type Provider,
  SSEDecoderStream,
  streamToolCalls,
  ToolCallAccumulatorStream,
} from "../../src/index.ts";

/** A stream that yields the given chunks, then closes. */
export function fromChunks<T>(chunks: readonly T[]): ReadableStream<T> {
  let i = 0;
  return new ReadableStream<T>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else controller.close();
    },
  });
}

/** Reads a stream to the end. */
export async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(value);
  }
}

/** The text of UTF-8 chunks, decoded as one stream (a character split between two chunks included). */
export function textOf(parts: readonly Uint8Array[]): string {
  const decoder = new TextDecoder();
  return parts.map((part) => decoder.decode(part, { stream: true })).join("") + decoder.decode();
}

/** UTF-8 bytes of a string. */
export function bytes(text: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(text) as Uint8Array<ArrayBuffer>;
}

/** Splits bytes at the given offsets (sorted, deduplicated, within range). */
export function splitAt(data: Uint8Array, offsets: readonly number[]): Uint8Array[] {
  const cuts = [...new Set(offsets.filter((o) => o > 0 && o < data.length))].sort((a, b) => a - b);
  const parts: Uint8Array[] = [];
  let start = 0;
  for (const cut of cuts) {
    parts.push(data.slice(start, cut));
    start = cut;
  }
  parts.push(data.slice(start));
  return parts;
}

/** SSE text of OpenAI-style chunks: one `data:` event per payload, then `[DONE]`. */
export function openAISSE(payloads: readonly unknown[], done = true): string {
  return payloads.map((p) => `data: ${JSON.stringify(p)}\n\n`).join("") + (done ? "data: [DONE]\n\n" : "");
}

/** A Chat Completions chunk with one choice. */
export function chatChunk(
  delta: Record<string, unknown>,
  finishReason: string | null = null,
  extra: Record<string, unknown> = {},
): unknown {
  return {
    id: "chatcmpl-test",
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta, finish_reason: finishReason }],
    ...extra,
  };
}

/** Runs the three-stage OpenAI chain over byte chunks and collects the events. */
export function runOpenAIChain(
  chunks: readonly Uint8Array[],
  options?: ToolCallAccumulatorOptions,
): Promise<ToolCallEvent[]> {
  return collect(
    fromChunks(chunks)
      .pipeThrough(new SSEDecoderStream())
      .pipeThrough(new OpenAIChatDeltaStream())
      .pipeThrough(new ToolCallAccumulatorStream(options)),
  );
}

/** Runs the accumulator alone over normalized deltas. */
export function accumulate(deltas: readonly ProviderDelta[]): Promise<ToolCallEvent[]> {
  return collect(fromChunks(deltas).pipeThrough(new ToolCallAccumulatorStream()));
}

/** Runs the SSE stage alone. */
export function decodeSSE(chunks: readonly Uint8Array[]): Promise<SSEMessage[]> {
  return collect(fromChunks(chunks).pipeThrough(new SSEDecoderStream()));
}

/**
 * A gateway's Chat Completions stream (OpenWebUI in front of vLLM) that sends `finish_reason:
 * "stop"` after each of a `bash` call's four argument fragments (`{"cmd":"rm -rf /tmp/foo"}`),
 * without `[DONE]`: each finish is held until it proves final.
 */
export const STOP_AFTER_EACH_FRAGMENT: string = openAISSE(
  ['{"cmd":', '"rm -rf ', "/tmp/foo", '"}'].flatMap((args, i) => [
    chatChunk({
      tool_calls: [
        {
          index: 0,
          ...(i ? {} : { id: "call_1", type: "function" }),
          function: { ...(i ? {} : { name: "bash" }), arguments: args },
        },
      ],
    }),
    chatChunk({}, "stop"),
  ]),
  false,
);

/** Two calls and text, one SSE event per chunk, then the finish. */
export function twoCallsChunks(): Uint8Array[] {
  const payloads = [
    chatChunk({ tool_calls: [{ index: 0, id: "call_1", function: { name: "f", arguments: '{"a":' } }] }),
    chatChunk({ tool_calls: [{ index: 0, function: { arguments: "1}" } }] }),
    chatChunk({ content: "between" }),
    chatChunk({ tool_calls: [{ index: 1, id: "call_2", function: { name: "g", arguments: '{"b":[1,' } }] }),
    chatChunk({ tool_calls: [{ index: 1, function: { arguments: "2]}" } }] }),
    chatChunk({}, "tool_calls"),
  ];
  return [...payloads.map((payload) => bytes(openAISSE([payload], false))), bytes("data: [DONE]\n\n")];
}

/**
 * `streamToolCalls` over `messages` (one read each), then a body that neither sends nor closes (a
 * proxy holding the connection): the events if the chain ended within as many microtask turns as
 * it may take (`undefined`: it waited on), and the reason the body was cancelled with.
 */
export async function readHeldOpen(provider: Provider, messages: readonly string[]) {
  let next = 0;
  let cancelled: unknown;
  const body = new ReadableStream<Uint8Array>(
    {
      pull: (controller) =>
        next < messages.length ? controller.enqueue(bytes(messages[next++]!)) : new Promise<void>(() => {}),
      cancel: (reason) => void (cancelled = reason),
    },
    { highWaterMark: 0 },
  );
  const abort = new AbortController();
  let events: ToolCallEvent[] | undefined;
  const read = collect(streamToolCalls(body, { provider, signal: abort.signal }));
  void read.then((all) => (events = all));
  for (let turn = 0; turn < 5000 && events === undefined; turn++) await Promise.resolve();
  const result = { events, cancelled };
  abort.abort(); // a chain still waiting is stopped, so that no test leaves one behind
  await read;
  return result;
}
