// The Worker resumes a Gemini Interactions stream whose connection drops mid-stream, after its last
// event_id (GET /interactions/{id}?stream=true&last_event_id=..., as @google/genai's
// interactions.get(id, { stream: true, last_event_id }) does), against a fake Interactions server
// on 127.0.0.1 that cuts the socket in the middle of an event. The stream is
// test/recordings/gemini-interactions/sdk-calls-signed-after-start, one of its events without an
// event_id (so the resumed stream sends it again and the Worker must not pass it twice).
import { timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { createFetchHandler } from "../../worker/app.ts";
import type { Env } from "../../worker/env.ts";
import { callIdOf } from "../../worker/protocols/thought-signatures.ts";
import { platformRuntime } from "../../worker/runtime.ts";
import { readChatStream } from "../support/openai-chat-stream.ts";

// workerd's crypto.subtle.timingSafeEqual, which the Worker's client-token check uses, from Node's
// (the Workers types declare it; Node has none).
const subtle: Omit<SubtleCrypto, "timingSafeEqual"> & { timingSafeEqual?: SubtleCrypto["timingSafeEqual"] } =
  crypto.subtle;
const bytesOf = (data: ArrayBuffer | ArrayBufferView): Uint8Array =>
  ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);
subtle.timingSafeEqual ??= (a, b) => timingSafeEqual(bytesOf(a), bytesOf(b));

// A path, not the URL: the global URL here is the Workers one, which Node's readFileSync does not take.
const path = fileURLToPath(
  new URL("../recordings/gemini-interactions/sdk-calls-signed-after-start.sse", import.meta.url).href,
);
/** The recording's events, the sixth without its event_id. */
const EVENTS = readFileSync(path, "utf8")
  .split(/(?<=\n\n)/)
  .map((event, i) => (i === 5 ? event.replace(/,"event_id":"evt_006"/, "") : event));
/** An event's own event_id: its data's top-level field. */
const idOf = (event: string): string | undefined => {
  const data = event.split("\n").find((line) => line.startsWith("data: "));
  try {
    return (JSON.parse(data?.slice(6) ?? "") as { event_id?: string }).event_id;
  } catch {
    return undefined;
  }
};

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/**
 * A fake Interactions API: each answer (the POST, then each GET) sends the events after the one
 * its last_event_id names, and `cuts[n]` says after how many of them the n-th answer is cut in
 * the middle of the next event (the socket destroyed); undefined: the answer ends normally.
 */
async function fakeInteractions(cuts: readonly (number | undefined)[], events: readonly string[] = EVENTS) {
  const gets: string[] = [];
  let answers = 0;
  server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    let from = 0;
    if (request.method === "GET") {
      expect(url.pathname).toBe("/v1beta/interactions/v1_late");
      expect(url.searchParams.get("stream")).toBe("true");
      expect(request.headers["x-goog-api-key"]).toBe("AIza-test-0123456789");
      const last = url.searchParams.get("last_event_id") ?? "";
      gets.push(last);
      from = events.findIndex((event) => idOf(event) === last) + 1;
    }
    const cut = cuts[answers++];
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.write(events.slice(from, cut === undefined ? undefined : from + cut).join(""));
    if (cut === undefined) return void response.end();
    const next = events[from + cut] ?? "";
    response.write(next.slice(0, Math.floor(next.length / 2)), () => response.socket?.destroy());
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const env = {
    GEMINI_API_KEY: "AIza-test-0123456789",
    GEMINI_BASE_URL: `http://127.0.0.1:${port}/v1beta`,
    CLIENT_TOKEN: "t",
  } as Env;
  const handler = createFetchHandler(platformRuntime);
  const openai = new OpenAI({
    baseURL: "http://localhost:8787/v1",
    apiKey: "t",
    maxRetries: 0,
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) =>
      handler(new Request(input, init), env)) as typeof fetch,
  });
  return { openai, gets };
}

const request = {
  model: "gemini-interactions/gemini-3-flash-preview",
  messages: [{ role: "user" as const, content: "Weather in Paris and Oslo?" }],
  tools: [{ type: "function" as const, function: { name: "get_weather", parameters: { type: "object" } } }],
  stream: true as const,
};

const read = (openai: OpenAI) => readChatStream(openai, request);

describe("Gemini Interactions upstream resume (a fake server on 127.0.0.1 that drops the connection)", () => {
  it("cut twice mid-event: resumed after the last event_id each time; every event once, the calls whole", async () => {
    // The POST is cut inside the 7th event (after the 6th, which has no id: the GET after evt_005 sends it
    // again, and it is skipped); the first GET inside its 4th event (after evt_008).
    const { openai, gets } = await fakeInteractions([6, 3, undefined]);
    const { text, calls, finish, error } = await read(openai);
    expect([gets, error]).toEqual([["evt_005", "evt_008"], undefined]);
    expect(text).toBe("Checking both cities.");
    expect(calls.map((call) => [callIdOf(call.id, "gemini-interactions"), call.args])).toEqual([
      ["fc_a1", '{"location":"Paris"}'],
      ["fc_b2", '{"location":"Oslo"}'],
    ]);
    expect(finish).toBe("tool_calls");
  });

  it("an event_id inside an event's data (a call's arguments) is not the event's: the resume point is its own", async () => {
    // The call step carries an argument named event_id ahead of the event's own field.
    const events = EVENTS.map((event, i) =>
      i === 4 ? event.replace('"arguments":{}', '"arguments":{},"meta":{"event_id":"cal_77"}') : event,
    );
    expect(events[4]).toContain('"event_id":"cal_77"');
    const { openai, gets } = await fakeInteractions([6, 3, undefined], events);
    const { text, calls, error } = await read(openai);
    expect([gets, error, text]).toEqual([["evt_005", "evt_008"], undefined, "Checking both cities."]);
    expect(calls.map((call) => call.args)).toEqual(['{"location":"Paris"}', '{"location":"Oslo"}']);
  });

  it("a connection that keeps dropping: resumed at most 3 times, then a stream error after the text, the cut call never finished", async () => {
    const { openai, gets } = await fakeInteractions([6, 0, 0, 0, 0]);
    const { text, calls, finish, error } = await read(openai);
    expect(gets).toEqual(["evt_005", "evt_005", "evt_005"]);
    // The text before the cut arrives; the stream then fails (never a finish that says the calls
    // are whole), and the cut call's arguments stay the fragment they were: no call to run.
    expect(text).toBe("Checking both cities.");
    expect(finish).toBeNull();
    expect(error).toMatch(/failed before the response finished/);
    expect(calls.map((call) => call.args)).toEqual(['{"location":"Par']);
  });
});
