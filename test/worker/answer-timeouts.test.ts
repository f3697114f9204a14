// A provider that times out after its stream began, for a client that did not stream: it went
// silent for IDLE_TIMEOUT_MS, or streamed past MAX_RESPONSE_MS. The client's answer is the 504 a
// provider that sent no headers in time gets (upstream_timeout, Anthropic's `timeout_error`), in
// its protocol's shape, not the 502 of a provider that broke the connection; a streamed
// /v1/messages says `timeout_error` in its `event: error` too.
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/env.ts";
import { endpoints } from "./endpoint-bodies.ts";
import { chatChunk, FakeUpstream, liveOpenAI, ManualTimers, settled, testEnv, worker } from "./support.ts";

const auth = { authorization: "Bearer t" };
const frame = (text: string) => `data: ${JSON.stringify(chatChunk({ content: text }))}\n\n`;
const [first, steady] = [[frame("Checking. ")], frame("more ")];

/** What timed out: a provider that stalls after one chunk, or one that streams on past the deadline. */
const TIMEOUTS: { label: string; code: string; says: RegExp; env: Partial<Env>; steady: boolean }[] = [
  {
    label: "silent past IDLE_TIMEOUT_MS",
    code: "idle-timeout",
    says: /^The provider sent no event for 30000 ms/,
    env: { IDLE_TIMEOUT_MS: "30000" },
    steady: false,
  },
  {
    label: "streaming past MAX_RESPONSE_MS",
    code: "deadline-exceeded",
    says: /^The response took longer than 45000 ms/,
    env: { IDLE_TIMEOUT_MS: "15000", MAX_RESPONSE_MS: "45000" },
    steady: true,
  },
];

/** The answer to `path` (not streamed unless `stream`), time passing (the timer due first fires) until the body ends. */
async function timedOut(timeout: (typeof TIMEOUTS)[number], name: string, stream = false) {
  const timers = new ManualTimers();
  const upstream = new FakeUpstream(
    timeout.steady
      ? { kind: "sse", chunks: first, then: "keep-alive", keepAlive: steady, keepAliveMs: 10_000 }
      : { kind: "sse", chunks: first, then: "stall" },
    timers,
  );
  const endpoint = endpoints[name]!;
  const request = new Request(`http://localhost:8787${endpoint.path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...auth },
    body: JSON.stringify({ ...endpoint.valid(), stream }),
  });
  let text: string | undefined;
  const answer = worker(upstream, timers)
    .call(request, testEnv({ ...liveOpenAI, CLIENT_TOKEN: "t", ...timeout.env }))
    .then(async (response) => ({ response, text: (text = await response.text()) }));
  for (let turn = 0; turn < 500 && text === undefined; turn++) {
    await settled();
    if (text === undefined && !timers.fireNext()) break;
  }
  const { response } = await answer;
  expect(upstream.requests[0]!.signal.aborted).toBe(true);
  return { status: response.status, text: text! };
}

describe.each(TIMEOUTS)("a provider $label, the client not streaming", (timeout) => {
  it("/v1/chat/completions: 504 with OpenAI's error object, its code the timeout's", async () => {
    const { status, text } = await timedOut(timeout, "chat");
    expect([status, JSON.parse(text)]).toEqual([
      504,
      { error: { message: expect.any(String), type: "server_error", param: null, code: timeout.code } },
    ]);
  });

  it("/v1/responses: 504 with the failed response, its error the timeout's", async () => {
    const { status, text } = await timedOut(timeout, "responses");
    expect([status, JSON.parse(text)]).toMatchObject([504, { status: "failed", error: { code: timeout.code } }]);
  });

  it("/v1/messages: 504 timeout_error, as Anthropic answers a request that timed out", async () => {
    const { status, text } = await timedOut(timeout, "messages");
    expect([status, JSON.parse(text)]).toEqual([
      504,
      { type: "error", error: { type: "timeout_error", message: expect.stringMatching(timeout.says) } },
    ]);
    // The Worker's sentence alone: not the library's code after it.
    expect(text).not.toContain(timeout.code);
  });

  it("/v1/messages streamed: the stream's event: error is timeout_error too", async () => {
    const { status, text } = await timedOut(timeout, "messages", true);
    expect(status).toBe(200);
    expect(text).toMatch(/event: error\ndata: \{"type":"error","error":\{"type":"timeout_error"/);
  });
});
