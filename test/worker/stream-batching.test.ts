// The Worker writes the events that are ready together as one chunk of its answer, and never holds
// one back for the next upstream chunk: with an upstream that sends a chunk and then stalls, the
// client gets that chunk's events (a held event would leave these reads waiting forever).
import { describe, expect, it } from "vitest";
import { encodeEvents, formatToolCallEvent, OpenAIChatEncoder, streamToolCalls, type ToolCallEvent } from "../../src/index.ts";
import { fixturesOf } from "../support/fixtures.ts";
import { collect, fromChunks, bytes } from "../support/streams.ts";
import { post } from "./client-support.ts";
import { FakeUpstream, streamRequest, testEnv, validBody, worker } from "./support.ts";

const fixture = fixturesOf("openai").find((f) => f.name === "chat-parallel-tool-calls-two-functions")!;
const env = testEnv({ OPENAI_API_KEY: "sk-test-0123456789abcdef", CLIENT_TOKEN: "t" });
const auth = { headers: { authorization: "Bearer t" } };
const frames = fixture.text.split("\n\n").filter((frame) => frame !== "");
/** The first half of the recording, whole SSE events. */
const head = frames.slice(0, Math.floor(frames.length / 2)).join("\n\n") + "\n\n";
const terminal = new Set(["abort", "finish", "error"]);

/** Reads the body until `want` characters came, and returns them with the number of chunks they took. */
async function readUntil(body: ReadableStream<Uint8Array>, want: number): Promise<{ text: string; chunks: number; reader: ReadableStreamDefaultReader<Uint8Array> }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let chunks = 0;
  while (text.length < want) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    chunks++;
  }
  return { text, chunks, reader };
}

describe("the Worker's answers are written by the batch", () => {
  it("/v1/stream: an upstream chunk's events reach the client while the upstream stalls, in fewer chunks than events", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: [head], then: "stall" });
    const response = await worker(upstream).call(streamRequest(validBody(), auth), env);
    const events: ToolCallEvent[] = (await collect(streamToolCalls(fromChunks([bytes(head)])))).filter((e) => !terminal.has(e.type));
    expect(events.length).toBeGreaterThan(4);
    const want = events.map((event, id) => formatToolCallEvent(event, id)).join("");
    const { text, chunks, reader } = await readUntil(response.body!, want.length);
    expect(text).toBe(want);
    // The first message's events alone, then the rest of the chunk together.
    expect(chunks).toBeLessThan(events.length);
    await reader.cancel();
  });

  it("/v1/chat/completions: the same, in the OpenAI protocol", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: [head], then: "stall" });
    const response = await worker(upstream).call(post("/v1/chat/completions", { model: "openai/gpt-4o-mini", stream: true, messages: [{ role: "user", content: "Weather?" }] }, auth), env);
    expect(response.status).toBe(200);
    // As many frames as the OpenAI encoder makes of the first half's events, before the upstream sends more.
    const events = (await collect(streamToolCalls(fromChunks([bytes(head)])))).filter((e) => !terminal.has(e.type));
    const want = encodeEvents(new OpenAIChatEncoder({ model: "gpt-4o-mini" }), events).split("\n\n").filter((frame) => frame !== "").length;
    expect(want).toBeGreaterThan(4);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (text.split("\n\n").length - 1 < want) text += decoder.decode((await reader.read()).value, { stream: true });
    expect(text).toContain('"tool_calls"');
    await reader.cancel();
  });
});
