import { streamToolCalls, type Provider, type ToolCallEvent } from "../../src/index.ts";
import { recording, summarize } from "../support/fixtures.ts";
import { assertEquals, group } from "../support/harness.ts";
import { collect, fromChunks } from "../support/streams.ts";

/** The content type each framing's recordings are served with by their provider. */
const CONTENT_TYPES: Record<string, string> = {
  sse: "text/event-stream",
  "event-stream": "application/vnd.amazon.eventstream",
  ndjson: "application/x-ndjson",
  "json-array": "application/json; charset=UTF-8",
};

const fixture = recording;

group("streamToolCalls: the framing from the provider, the content type and the first bytes", (test) => {
  test("each non-SSE recording, as a Response with its provider's content type, with and without the provider option", async () => {
    const cases: [string, string, Provider][] = [
      ["bedrock", "converse-nova-text-then-tool-use", "bedrock"],
      ["bedrock", "invoke-anthropic-parallel-tool-use", "bedrock"],
      ["ollama", "native-tool-call", "ollama"],
      ["gemini", "json-array-parallel-function-calls", "gemini"],
      ["cohere", "tool-plan-then-parallel-tool-calls", "cohere"],
    ];
    for (const [folder, name, provider] of cases) {
      const recording = fixture(folder, name);
      const response = (): Response =>
        new Response(recording.body, { headers: { "content-type": CONTENT_TYPES[recording.format]! } });
      const given = await collect(streamToolCalls(response(), { provider }));
      assertEquals(summarize(given), recording.expected, `${folder}/${name} with provider`);
      assertEquals(await collect(streamToolCalls(response())), given, `${folder}/${name} detected`);
    }
  });

  test("Gemini reads SSE and the JSON array alike; a mislabelled SSE body is still read as SSE", async () => {
    const sse = fixture("gemini", "parallel-function-calls-single-chunk");
    const array = fixture("gemini", "json-array-parallel-function-calls");
    const calls = (events: ToolCallEvent[]) => summarize(events).toolCalls;
    const fromSSE = await collect(
      streamToolCalls(new Response(sse.body, { headers: { "content-type": "application/json" } }), {
        provider: "gemini",
      }),
    );
    const fromArray = await collect(streamToolCalls(fromChunks([array.body]), { provider: "gemini" }));
    assertEquals(calls(fromSSE), calls(fromArray));
    assertEquals(calls(fromArray).length, 2);
  }).needs("recordings");

  test('a Gemini JSON array element {"error": ...} is a provider error', async () => {
    const body = new TextEncoder().encode(
      '[{"candidates":[{"content":{"parts":[{"text":"Hi"}]}}]}\r\n,\r\n{"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}\r\n]',
    );
    const events = await collect(
      streamToolCalls(new Response(body, { headers: { "content-type": "application/json" } }), { provider: "gemini" }),
    );
    assertEquals(
      events.map((e) => e.type),
      ["text-delta", "error", "abort"],
    );
    assertEquals(events[1]!.type === "error" && events[1]!.error.data, {
      code: 503,
      message: "The model is overloaded.",
      status: "UNAVAILABLE",
    });
  });

  test("a damaged event-stream body ends with an error of code malformed-frame and an abort, never a thrown error", async () => {
    const body = fixture("bedrock", "converse-nova-text").body.slice();
    body[200]! ^= 0xff;
    const events = await collect(
      streamToolCalls(new Response(body, { headers: { "content-type": "application/vnd.amazon.eventstream" } })),
    );
    const last = events.at(-1);
    assertEquals(
      [events.at(-2)?.type, last?.type === "abort" && last.reason, last?.type === "abort" && last.error?.code],
      ["error", "stream-failed", "malformed-frame"],
    );
  }).needs("recordings");
});
