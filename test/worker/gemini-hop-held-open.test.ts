// Gemini's automatic continuation behind a proxy that keeps each connection open after the hop's
// last chunk (its `CONTINUATION` finish with the token, and the usage; real Gemini closes there):
// the Worker opens the next hop at that chunk, cancelling the hop's body, rather than waiting for
// a close that does not come, and the last hop's own end (a `STOP` with the usage, or a `CONTINUATION`
// that opens no next hop) ends the answer.
// The fake's clock is never moved, so a wait for the idle timeout is a hang here. A hop whose
// finish came without the usage waits for the usage chunk after it.
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { createFetchHandler } from "../../worker/app.ts";
import { readChatStream } from "../support/openai-chat-stream.ts";
import { settled, testEnv, ManualTimers } from "./support.ts";

const env = testEnv({
  GEMINI_API_KEY: "k",
  GEMINI_BASE_URL: "https://provider.test/v1beta",
  CLIENT_TOKEN: "t",
  WRITE_WINDOW_MS: "0",
});
const usage = (prompt: number, output: number) => ({
  promptTokenCount: prompt,
  candidatesTokenCount: output,
  totalTokenCount: prompt + output,
});
const chunk = (text: string, extra: Record<string, unknown> = {}, usageMetadata?: object) => ({
  candidates: [{ content: { role: "model", parts: [{ text }] }, index: 0, ...extra }],
  ...(usageMetadata && { usageMetadata }),
});

/** A fake Gemini API whose request n gets `hops[n]`'s chunks, its connection then held open; each cancel counted. */
function heldGemini(hops: readonly object[][]) {
  let requests = 0;
  let cancelled = 0;
  const encoder = new TextEncoder();
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    const request = new Request(url, init);
    const hop = hops[Math.min(requests++, hops.length - 1)]!;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(hop.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`).join("")));
        request.signal.addEventListener("abort", () => controller.error(request.signal.reason));
      },
      cancel() {
        cancelled++;
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  };
  const handler = createFetchHandler({ fetch, timers: new ManualTimers() });
  const clientFetch = (async (input: RequestInfo | URL, init?: RequestInit) =>
    handler(new Request(input, init), env)) as typeof globalThis.fetch;
  return { clientFetch, requests: () => requests, cancelled: () => cancelled };
}

/** The streamed Chat answer, if it ended within the turns (no clock moves). */
async function answer(fake: ReturnType<typeof heldGemini>) {
  const openai = new OpenAI({
    baseURL: "http://localhost:8787/v1",
    apiKey: "t",
    maxRetries: 0,
    fetch: fake.clientFetch,
  });
  let read: Awaited<ReturnType<typeof readChatStream>> | undefined;
  const reading = readChatStream(openai, {
    model: "gemini/gemini-3-pro-preview",
    messages: [{ role: "user", content: "Weather?" }],
    stream: true,
  }).then((r) => (read = r));
  for (let turn = 0; turn < 300 && read === undefined; turn++) await settled();
  if (read !== undefined) await reading;
  return read;
}

describe("Gemini's CONTINUATION hops, each connection held open after its last chunk", () => {
  it("the next hop opens at the hop's last chunk, each held body cancelled, and the answer ends", async () => {
    const fake = heldGemini([
      [
        chunk("It is ", {}, usage(10, 2)),
        chunk("sunny ", { finishReason: "CONTINUATION", continuationToken: "t1" }, usage(10, 4)),
      ],
      [chunk("in Paris.", { finishReason: "STOP" }, usage(20, 3))],
    ]);
    const read = await answer(fake);
    expect(read, "the answer ended").toBeDefined();
    expect([read!.text, read!.finish]).toEqual(["It is sunny in Paris.", "stop"]);
    expect([fake.requests(), fake.cancelled()]).toEqual([2, 2]);
  });

  it("a CONTINUATION finish without the usage waits for the usage chunk after it, then the next hop opens", async () => {
    const fake = heldGemini([
      [chunk("It is ", { finishReason: "CONTINUATION", continuationToken: "t1" }), { usageMetadata: usage(10, 2) }],
      [chunk("sunny.", { finishReason: "STOP" }, usage(20, 1))],
    ]);
    const read = await answer(fake);
    expect([read?.text, read?.finish]).toEqual(["It is sunny.", "stop"]);
    expect(fake.requests()).toBe(2);
  });

  // The hop that gets no next one (the eighth allowed, or its token again) ends at its last chunk too
  // (review 76: it waited for its body's close).
  it("the 8th hop ends CONTINUATION (no hop after it): the answer ends with `length`", async () => {
    const hops = Array.from({ length: 8 }, (_, i) => [
      chunk(`part ${i} `, { finishReason: "CONTINUATION", continuationToken: `t${i + 1}` }, usage(10, 2)),
    ]);
    const fake = heldGemini(hops);
    const read = await answer(fake);
    expect(fake.requests(), "the eight hops were opened").toBe(8);
    expect(read, "the answer ended").toBeDefined();
    expect(read!.finish).toBe("length");
  });

  it("control: 7 CONTINUATION hops then a STOP, each held open: the answer ends (the harness takes 8 hops)", async () => {
    const hops = Array.from({ length: 7 }, (_, i) => [
      chunk(`part ${i} `, { finishReason: "CONTINUATION", continuationToken: `t${i + 1}` }, usage(10, 2)),
    ]);
    const fake = heldGemini([...hops, [chunk("end.", { finishReason: "STOP" }, usage(10, 1))]]);
    const read = await answer(fake);
    expect(fake.requests()).toBe(8);
    expect(read?.finish).toBe("stop");
  });

  it("a hop whose token repeats the one it was opened with: the answer ends there with `length`", async () => {
    const fake = heldGemini([
      [chunk("It is ", { finishReason: "CONTINUATION", continuationToken: "t1" }, usage(10, 2))],
      [chunk("sunny ", { finishReason: "CONTINUATION", continuationToken: "t1" }, usage(20, 2))],
    ]);
    const read = await answer(fake);
    expect(fake.requests()).toBe(2);
    expect(read, "the answer ended").toBeDefined();
    expect(read!.finish).toBe("length");
  });
});
