// The Worker resumes a Gemini Interactions stream whose connection drops mid-stream, in workerd,
// through its injected network (worker/runtime.ts): a fake Interactions API answers the POST and
// each GET /interactions/{id}?stream=true&last_event_id=... with the events after the one it
// names, cut in the middle of an event. The stream is
// test/recordings/gemini-interactions/sdk-calls-signed-after-start, its sixth event without an
// event_id (the resumed stream sends it again, and the Worker must not pass it twice).
// test/node/interactions-upstream-resume.test.ts does the same over a real socket in Node.
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { joinDeltas, streamToolCalls } from "../../src/index.ts";
import { createFetchHandler } from "../../worker/app.ts";
import { callIdOf } from "../../worker/protocols/thought-signatures.ts";
import { allFixtures } from "../support/fixtures.ts";
import { readChatStream } from "../support/openai-chat-stream.ts";
import { collect, fromChunks } from "../support/streams.ts";
import { eventually, ManualTimers, readSSE, settled, streamRequest, testEnv, validBody } from "./support.ts";

const fixture = allFixtures.find(
  (f) => f.provider === "gemini-interactions" && f.name === "sdk-calls-signed-after-start",
);
if (!fixture) throw new Error("no documented stream sdk-calls-signed-after-start");
/** The recording's events, the sixth without its event_id. */
const EVENTS = fixture.text.split(/(?<=\n\n)/).map((e, i) => (i === 5 ? e.replace(/,"event_id":"evt_006"/, "") : e));
const idOf = (event: string): string | undefined => /"event_id":"([^"]+)"\}\n/.exec(event)?.[1];
const KEY = "AIza-test-0123456789";
const env = (overrides = {}) => testEnv({ GEMINI_API_KEY: KEY, CLIENT_TOKEN: "t", ...overrides });

/**
 * A fake Interactions API behind the Worker's injected fetch: answer n (the POST, then each GET)
 * sends the events after the one its last_event_id names; `cuts[n]` events in, it sends half of
 * the next and the connection drops (`stall`: it waits until the request is aborted, then fails
 * as a fetch body does); undefined: the answer is whole.
 */
function fakeInteractions(cuts: readonly (number | "stall" | undefined)[]) {
  const gets: string[] = [];
  const posts: Record<string, unknown>[] = [];
  const encoder = new TextEncoder();
  let answers = 0;
  let aborted = false;
  const fetch = async (input: string, init: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    let from = 0;
    if (request.method === "GET") {
      expect(url.pathname).toBe("/v1beta/interactions/v1_late");
      expect([url.searchParams.get("stream"), request.headers.get("x-goog-api-key")]).toEqual(["true", KEY]);
      const last = url.searchParams.get("last_event_id") ?? "";
      gets.push(last);
      from = EVENTS.findIndex((event) => idOf(event) === last) + 1;
    } else posts.push((await request.json()) as Record<string, unknown>);
    const cut = cuts[answers++];
    const count = cut === "stall" ? 3 : cut;
    const next = count === undefined ? "" : (EVENTS[from + count] ?? "");
    const text =
      EVENTS.slice(from, count === undefined ? undefined : from + count).join("") +
      (cut === "stall" ? "" : next.slice(0, Math.floor(next.length / 2)));
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) return void ((sent = true), controller.enqueue(encoder.encode(text)));
        if (count === undefined) return controller.close();
        if (cut !== "stall") return controller.error(new TypeError("Network connection lost."));
        return new Promise<void>((resolve) => {
          const fail = (): void => {
            aborted = true;
            controller.error(request.signal.reason);
            resolve();
          };
          if (request.signal.aborted) fail();
          else request.signal.addEventListener("abort", fail, { once: true });
        });
      },
      // The Worker's cancel of the body closes the connection, as its abort does over the network.
      cancel() {
        aborted = true;
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  };
  const handler = createFetchHandler({ fetch, timers: new ManualTimers() });
  return { handler, gets, posts, isAborted: () => aborted };
}

const chatRequest = {
  model: "gemini-interactions/gemini-3-flash-preview",
  messages: [{ role: "user" as const, content: "Weather in Paris and Oslo?" }],
  tools: [{ type: "function" as const, function: { name: "get_weather", parameters: { type: "object" } } }],
  stream: true as const,
};

/** What an OpenAI Chat client reads: its text, its calls by index, its finish, and the error that ended it. */
async function readChat(handler: ReturnType<typeof fakeInteractions>["handler"]) {
  const openai = new OpenAI({
    baseURL: "http://localhost:8787/v1",
    apiKey: "t",
    maxRetries: 0,
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) =>
      handler(new Request(input, init), env())) as typeof fetch,
  });
  return readChatStream(openai, chatRequest);
}

const streamBody = validBody({ provider: "gemini-interactions", model: "gemini-3-flash-preview" });
const auth = { headers: { authorization: "Bearer t" } };

describe("Gemini Interactions upstream resume in workerd (an injected fetch that drops the stream mid-event)", () => {
  it("cut twice mid-event: resumed after the last event_id each time, every event once (the events of the uncut stream)", async () => {
    const { handler, gets } = fakeInteractions([6, 3, undefined]);
    const response = await handler(streamRequest(streamBody, auth), env());
    expect(response.status).toBe(200);
    const { events } = await readSSE(response);
    expect(gets).toEqual(["evt_005", "evt_008"]);
    const uncut = await collect(
      streamToolCalls(fromChunks([new TextEncoder().encode(EVENTS.join(""))]), { provider: "gemini-interactions" }),
    );
    expect(joinDeltas(events)).toEqual(JSON.parse(JSON.stringify(joinDeltas(uncut))));
    expect(events.filter((e) => e.type === "tool-call").map((e) => e.type === "tool-call" && e.id)).toEqual([
      "fc_a1",
      "fc_b2",
    ]);
  });

  it("an OpenAI Chat client through the same cuts sees one whole answer: the text once, both calls whole, tool_calls", async () => {
    const { handler, gets } = fakeInteractions([6, 3, undefined]);
    const { text, calls, finish, error } = await readChat(handler);
    expect([gets, error]).toEqual([["evt_005", "evt_008"], undefined]);
    expect(text).toBe("Checking both cities.");
    expect(calls.map((call) => [callIdOf(call.id, "gemini-interactions"), call.args])).toEqual([
      ["fc_a1", '{"location":"Paris"}'],
      ["fc_b2", '{"location":"Oslo"}'],
    ]);
    expect(finish).toBe("tool_calls");
  });

  it("a connection that keeps dropping: at most 3 resumes, then a stream error after the text, the cut call never finished", async () => {
    const { handler, gets } = fakeInteractions([6, 0, 0, 0, 0, 0]);
    const { text, calls, finish, error } = await readChat(handler);
    expect(gets).toEqual(["evt_005", "evt_005", "evt_005"]);
    expect([text, finish]).toEqual(["Checking both cities.", null]);
    expect(error).toMatch(/failed before the response finished/);
    expect(calls.map((call) => call.args)).toEqual(['{"location":"Par']);
  });

  it("store: false (nothing kept upstream to read again) is never resumed", async () => {
    const { handler, gets, posts } = fakeInteractions([6, undefined]);
    const response = await handler(
      new Request("http://localhost:8787/v1/responses", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer t" },
        body: JSON.stringify({
          model: "gemini-interactions/gemini-3-flash-preview",
          input: "Weather in Paris and Oslo?",
          tools: [{ type: "function", name: "get_weather", parameters: { type: "object" } }],
          store: false,
          stream: true,
        }),
      }),
      env(),
    );
    const text = await response.text();
    expect(posts[0]?.["store"]).toBe(false);
    expect(gets).toEqual([]);
    expect(text).toContain("Checking both cities.");
    expect(text).not.toContain("response.completed");
  });

  it("a client that goes away is not resumed: the upstream request is aborted and no GET follows", async () => {
    const fake = fakeInteractions(["stall", undefined]);
    const response = await fake.handler(streamRequest(streamBody, auth), env());
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain("event:");
    await reader.cancel("client went away");
    expect(await eventually(fake.isAborted)).toBe(true);
    for (let i = 0; i < 5; i++) await settled();
    expect(fake.gets).toEqual([]);
  });
});
