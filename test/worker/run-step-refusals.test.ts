// A tool loop's later model call that the provider refuses (429, 401, 529) is reported with the
// Worker's own words for that refusal, as the first step's would be answered (the HTTP error
// before the stream), on /v1/run and the client protocols' run mode: what to do about it, and the
// wait a rate limit names. Never the name of the Worker's error class, never the provider's body.
import { describe, expect, it } from "vitest";
import { createFetchHandler } from "../../worker/app.ts";
import { post } from "./client-support.ts";
import { chatChunk, liveOpenAI, ManualTimers, openAIChunks, testEnv } from "./support.ts";

const env = testEnv({ ...liveOpenAI, CLIENT_TOKEN: "t" });
const SSE = { "content-type": "text/event-stream" };

/** Step 1 calls `calculate`; step 2 is refused with `status`, `headers` and a body that must not show. */
function model(status: number, headers: Record<string, string> = {}) {
  let calls = 0;
  return async (_url: string, _init: RequestInit): Promise<Response> => {
    if (++calls === 1)
      return new Response(
        openAIChunks([
          chatChunk({
            tool_calls: [
              { index: 0, id: "call_a", function: { name: "calculate", arguments: '{"expression":"2+2"}' } },
            ],
          }),
          chatChunk({}, "tool_calls"),
        ]).join(""),
        { headers: SSE },
      );
    const body = '{"error":{"message":"provider detail for key sk-test"}}';
    return new Response(body, { status, headers: { "content-type": "application/json", ...headers } });
  };
}

const BODIES: Record<string, [string, unknown]> = {
  "/v1/run": [
    "/v1/run",
    { provider: "openai", model: "gpt-4o-mini", messages: [{ role: "user", content: "2+2?" }], tools: ["calculate"] },
  ],
  "/v1/ui (run)": [
    "/v1/ui",
    {
      id: "c1",
      trigger: "submit-message",
      model: "openai/gpt-4o-mini",
      run: true,
      tools: ["calculate"],
      messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "2+2?" }] }],
    },
  ],
  "/v1/ag-ui (run)": [
    "/v1/ag-ui",
    {
      threadId: "t1",
      runId: "r1",
      state: {},
      messages: [{ id: "m1", role: "user", content: "2+2?" }],
      tools: [],
      context: [],
      forwardedProps: { model: "openai/gpt-4o-mini", run: true, tools: ["calculate"] },
    },
  ],
};

async function answer(path: string, body: unknown, status: number, headers?: Record<string, string>) {
  const handler = createFetchHandler({ fetch: model(status, headers), timers: new ManualTimers() });
  const response = await handler(post(path, body, { headers: { authorization: "Bearer t" } }), env);
  expect(response.status).toBe(200);
  return response.text();
}

const REFUSALS: [number, Record<string, string>, string][] = [
  [
    429,
    { "retry-after": "7" },
    "The request of step 2 failed before a response: The provider is rate limiting requests; retry later. (upstream_rate_limited, retry after 7 s)",
  ],
  [
    401,
    {},
    "The request of step 2 failed before a response: The provider refused the Worker's API key; check the `OPENAI_API_KEY` secret. (upstream_auth_failed)",
  ],
  [
    529,
    {},
    "The request of step 2 failed before a response: The provider is overloaded or unavailable for now; retry later. (upstream_overloaded)",
  ],
];

describe("a tool loop's step 2 refused by the provider", () => {
  for (const [name, [path, body]] of Object.entries(BODIES)) {
    it(`${name}: the Worker's words for the refusal, no class name, no provider body`, async () => {
      for (const [status, headers, message] of REFUSALS) {
        const text = await answer(path, body, status, headers);
        // Each protocol carries the message as it carries any error (JSON-escaped in its frames).
        expect(text).toContain(JSON.stringify(message).slice(1, -1));
        expect(text).not.toContain("HttpError");
        expect(text).not.toContain("provider detail");
      }
    });
  }

  it("/v1/run: still the error event of a failed call and the loop's call-failed finish", async () => {
    const text = await answer("/v1/run", BODIES["/v1/run"]![1], 429, { "retry-after": "7" });
    const frames = text.split("\n\n").filter((frame) => frame.includes("data: "));
    const events = frames.map((frame) => JSON.parse(frame.slice(frame.indexOf("data: ") + 6)));
    expect(events.slice(-2)).toEqual([
      { type: "error", step: 2, error: { code: "stream-failed", message: REFUSALS[0]![2] } },
      { type: "loop-finish", steps: 2, reason: "call-failed" },
    ]);
  });
});
