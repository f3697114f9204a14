// The Worker writes the events that are ready together as one chunk of its answer, and never holds
// one back for the next upstream chunk: with an upstream that sends a chunk and then stalls, the
// client gets that chunk's events (a held event would leave these reads waiting forever).
import { describe, expect, it } from "vitest";
import { joinDeltas, streamToolCalls, type ToolCallEvent } from "../../src/index.ts";
import { recording, recordingsAvailable } from "../support/fixtures.ts";
import { dataFrames } from "../support/protocol-readers.ts";
import { collect, fromChunks, bytes } from "../support/streams.ts";
import { post } from "./client-support.ts";
import {
  eventually,
  FakeUpstream,
  ManualTimers,
  readSSE,
  settled,
  streamRequest,
  testEnv,
  validBody,
  worker,
} from "./support.ts";

const fixture = recording("openai", "chat-parallel-tool-calls-two-functions");
// Without a write window (WRITE_WINDOW_MS=0), each upstream chunk's events go out as they come;
// with one, those that come within the window after a write wait for it to close (the last case).
const env = testEnv({ OPENAI_API_KEY: "sk-test-0123456789abcdef", CLIENT_TOKEN: "t", WRITE_WINDOW_MS: "0" });
const auth = { headers: { authorization: "Bearer t" } };
const frames = fixture.text.split("\n\n").filter((frame) => frame !== "");
/** The first half of the recording, whole SSE events. */
const head = `${frames.slice(0, Math.floor(frames.length / 2)).join("\n\n")}\n\n`;
const terminal = new Set(["abort", "finish", "error"]);

/**
 * Reads the body until its events, fragments joined, are `want` (also joined), and returns them
 * with the number of chunks they took. Were an event held back, this would wait forever.
 */
async function readUntil(
  body: ReadableStream<Uint8Array>,
  want: readonly ToolCallEvent[],
): Promise<{ events: ToolCallEvent[]; chunks: number; reader: ReadableStreamDefaultReader<Uint8Array> }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const expected = JSON.stringify(joinDeltas(want));
  let text = "";
  let chunks = 0;
  for (;;) {
    const events = (await readSSE(new Response(text))).events;
    if (JSON.stringify(joinDeltas(events)) === expected) return { events, chunks, reader };
    const { value, done } = await reader.read();
    if (done) throw new Error(`the body ended with ${events.length} events`);
    text += decoder.decode(value, { stream: true });
    chunks++;
  }
}

describe.skipIf(!recordingsAvailable)("the Worker's answers are written by the batch", () => {
  it("/v1/stream: an upstream chunk's events reach the client while the upstream stalls, in fewer chunks than events", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: [head], then: "stall" });
    const response = await worker(upstream).call(streamRequest(validBody(), auth), env);
    const events: ToolCallEvent[] = (await collect(streamToolCalls(fromChunks([bytes(head)])))).filter(
      (e) => !terminal.has(e.type),
    );
    expect(events.length).toBeGreaterThan(4);
    const { events: received, chunks, reader } = await readUntil(response.body!, events);
    // The first message's events alone, then the rest of the chunk together, its fragments joined.
    expect(chunks).toBeLessThan(events.length);
    expect(received.length).toBeLessThan(events.length);
    await reader.cancel();
  });

  it("/v1/stream on a byte-stream upstream (as a fetch body is, read with large reads): pieces that came reach the client while it stalls", async () => {
    const pieces = Array.from({ length: 9 }, (_, i) => head.slice((i * head.length) / 9, ((i + 1) * head.length) / 9));
    const upstream = new FakeUpstream({ kind: "sse", chunks: pieces, then: "stall", bytes: true });
    const response = await worker(upstream).call(streamRequest(validBody(), auth), env);
    const events: ToolCallEvent[] = (await collect(streamToolCalls(fromChunks([bytes(head)])))).filter(
      (e) => !terminal.has(e.type),
    );
    const { reader } = await readUntil(response.body!, events);
    expect(upstream.pulled).toBe(pieces.length);
    await reader.cancel();
    expect(upstream.cancelled).toBeDefined();
  });

  it("/v1/chat/completions: the same, in the OpenAI protocol", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: [head], then: "stall" });
    const response = await worker(upstream).call(
      post(
        "/v1/chat/completions",
        { model: "openai/gpt-4o-mini", stream: true, messages: [{ role: "user", content: "Weather?" }] },
        auth,
      ),
      env,
    );
    expect(response.status).toBe(200);
    // Every argument fragment of the first half, before the upstream sends more.
    const events = (await collect(streamToolCalls(fromChunks([bytes(head)])))).filter((e) => !terminal.has(e.type));
    const want = events.flatMap((e) => (e.type === "tool-call-delta" ? [e.argumentsDelta] : [])).join("");
    expect(want.length).toBeGreaterThan(4);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    let chunks = 0;
    const argumentsSoFar = (): string =>
      dataFrames(text)
        .map(
          (data) =>
            JSON.parse(data) as { choices: { delta: { tool_calls?: { function: { arguments?: string } }[] } }[] },
        )
        .flatMap((chunk) =>
          chunk.choices.flatMap((choice) =>
            (choice.delta.tool_calls ?? []).map((call) => call.function.arguments ?? ""),
          ),
        )
        .join("");
    while (argumentsSoFar() !== want) {
      text += decoder.decode((await reader.read()).value, { stream: true });
      chunks++;
    }
    expect(chunks).toBeLessThan(events.length);
    await reader.cancel();
  });

  it("/v1/stream with a write window: what comes within it after the first write reaches the client in one chunk when it closes, while the upstream stalls", async () => {
    const pieces = Array.from({ length: 9 }, (_, i) => head.slice((i * head.length) / 9, ((i + 1) * head.length) / 9));
    const upstream = new FakeUpstream({ kind: "sse", chunks: pieces, then: "stall" });
    const clock = new ManualTimers();
    const response = await worker(upstream, clock).call(
      streamRequest(validBody(), auth),
      testEnv({ OPENAI_API_KEY: "sk-test-0123456789abcdef", CLIENT_TOKEN: "t", WRITE_WINDOW_MS: "25" }),
    );
    const events: ToolCallEvent[] = (await collect(streamToolCalls(fromChunks([bytes(head)])))).filter(
      (e) => !terminal.has(e.type),
    );
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value, { stream: true });
    const first = (await readSSE(new Response(text))).events.length;
    expect(first).toBeGreaterThan(0);
    // The rest came, and waits for the window (one timer for all of it).
    expect(await eventually(() => upstream.pulled === pieces.length)).toBe(true);
    await settled();
    expect(clock.pendingDelays.filter((ms) => ms === 25)).toHaveLength(1);
    let arrived = false;
    const next = reader.read().then((step) => ((arrived = true), step));
    await settled();
    expect(arrived).toBe(false);
    clock.fireWhere((ms) => ms === 25);
    text += decoder.decode((await next).value, { stream: true });
    const received = (await readSSE(new Response(text))).events;
    expect(JSON.stringify(joinDeltas(received))).toBe(JSON.stringify(joinDeltas(events)));
    // One frame per run of fragments of the window, not one per piece.
    expect(received.length).toBeLessThan(events.length);
    await reader.cancel();
    expect(upstream.cancelled).toBeDefined();
  });
});
