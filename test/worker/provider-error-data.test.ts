// A provider's error payload inside the stream (`error.data` of the library's events) can quote
// internals: no endpoint passes it on. The library's typed code and its own message stay.
import { describe, expect, it } from "vitest";
import { endpoints } from "./endpoint-bodies.ts";
import { post } from "./client-support.ts";
import { chatChunk, FakeUpstream, liveOpenAI, openAIChunks, testEnv, worker } from "./support.ts";

const SECRET = "internal-host-17.corp sk-live-abcdef123456";
/** OpenAI chunks: some text, then an error object with internals in it. */
const leakyStream = () =>
  new FakeUpstream({
    kind: "sse",
    chunks: [
      ...openAIChunks([chatChunk({ content: "Hel" })]).slice(0, 1),
      `data: ${JSON.stringify({ error: { message: `Failed at ${SECRET}`, type: "server_error", request_id: SECRET } })}\n\n`,
      "data: [DONE]\n\n",
    ],
  });

describe("a provider's error payload inside the stream is not passed on", () => {
  const cases: [string, string, (body: Record<string, unknown>) => void][] = [
    ["stream", "/v1/stream", () => {}],
    ["run", "/v1/run", () => {}],
    ["chat", "/v1/chat/completions (stream: true)", (body) => (body.stream = true)],
    ["chat", "/v1/chat/completions (stream: false)", () => {}],
    ["ui", "/v1/ui", () => {}],
    ["ui", "/v1/ui (run: true)", (body) => Object.assign(body, { run: true, tools: ["calculate"] })],
    ["agui", "/v1/ag-ui", () => {}],
    [
      "agui",
      "/v1/ag-ui (run: true)",
      (body) =>
        Object.assign(body, {
          tools: [],
          forwardedProps: { model: "openai/gpt-4o-mini", run: true, tools: ["calculate"] },
        }),
    ],
  ];
  for (const [name, label, change] of cases) {
    it(`${label}: the error is reported with the library's message, without the provider's payload`, async () => {
      const endpoint = endpoints[name]!;
      const body = endpoint.valid();
      change(body);
      const upstream = leakyStream();
      const response = await worker(upstream).call(
        post(endpoint.path, body, { headers: { authorization: "Bearer t" } }),
        testEnv({ ...liveOpenAI, CLIENT_TOKEN: "t" }),
      );
      const text = await response.text();
      expect(upstream.requests).toHaveLength(1);
      expect(text).toContain("The provider reported an error inside the stream.");
      expect(text).not.toContain("internal-host-17");
      expect(text).not.toContain("sk-live");
      expect(text).not.toContain("Failed at");
    });
  }
});

it("a provider-error message that is not one of the library's sentences is replaced by the Worker's, its kind told", async () => {
  const { withoutProviderData } = await import("../../worker/services/without-provider-data.ts");
  const list = [
    {
      type: "error",
      error: {
        code: "provider-error",
        message: "The provider reported sk-live-123 at host-7 inside the stream.",
        data: { secret: 1 },
      },
    },
    {
      type: "error",
      error: { code: "provider-error", message: "The provider reported throttlingException inside the stream." },
    },
    {
      type: "abort",
      reason: "provider-error",
      discarded: [],
      error: {
        code: "provider-error",
        message: "The provider reported that the response failed.",
        data: { id: "resp_1" },
      },
    },
    { type: "error", error: { code: "malformed-payload", message: "A payload is not JSON; it was skipped." } },
  ];
  const events = new ReadableStream<{ type: string }>({
    start: (controller) => (list.forEach((event) => controller.enqueue(event)), controller.close()),
  });
  const out: unknown[] = [];
  for await (const event of withoutProviderData(events)) out.push(event);
  const other = { code: "provider-error", kind: "other" };
  expect(out).toEqual([
    { type: "error", error: { ...other, message: "The provider reported an error inside the stream." } },
    { type: "error", error: { ...other, message: "The provider reported throttlingException inside the stream." } },
    {
      type: "abort",
      reason: "provider-error",
      discarded: [],
      error: { ...other, message: "The provider reported that the response failed." },
    },
    { type: "error", error: { code: "malformed-payload", message: "A payload is not JSON; it was skipped." } },
  ]);
});
