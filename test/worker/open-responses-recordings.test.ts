// Open Responses conformance of POST /v1/responses on every recorded provider stream of
// ../shared/fixtures (reasoning, parallel calls, a call cut by max tokens, errors mid-stream, a
// length finish, Responses-compatible servers, ...): each answered by a fake of its provider,
// streamed and not, every event and response object checked against the spec's schemas and
// the stream against the rules of its text (test/support/open-responses.ts); the streamed
// terminal response and the JSON one agree on the status and the items.
import { describe, expect, it } from "vitest";
import type { Provider } from "../../src/index.ts";
import { allFixtures, type Fixture, recordingsAvailable } from "../support/fixtures.ts";
import { readConformingResponse, readConformingStream } from "../support/open-responses.ts";
import { sharedData } from "../support/shared-data.ts";
import { post } from "./client-support.ts";
import { AUTH, live } from "./open-responses-support.ts";
import { FakeUpstream, worker } from "./support.ts";

/** The folders of servers that speak OpenAI Chat Completions (or, for `responses-*`, Responses). */
const CHAT = new Set([
  "azure",
  "deepseek",
  "groq",
  "lmstudio",
  "mistral",
  "openai",
  "openrouter",
  "qwen",
  "vllm",
  "xai",
]);

/** The provider of the Worker that reads a recording; none for a framing it never asks for. */
function providerOf({ provider, name, format }: Fixture): Provider | undefined {
  // OpenAI's MCP items (an approval request, a call it ran) are OpenAI's own, not the spec's items.
  if (name.startsWith("mcp-")) return undefined;
  if (name.startsWith("responses")) return "openai-responses";
  if (CHAT.has(provider) || (provider === "ollama" && format === "sse")) return "openai";
  // Bedrock InvokeModel and Gemini's JSON array are answers to requests this Worker does not send.
  if ((provider === "bedrock" && !name.startsWith("converse")) || format === "json-array") return undefined;
  return provider as Provider;
}
const CONTENT_TYPES: Record<string, string> = {
  sse: "text/event-stream",
  ndjson: "application/x-ndjson",
  "event-stream": "application/vnd.amazon.eventstream",
};
/** Every tool name the recordings call. */
const TOOLS = [...new Set(allFixtures.flatMap((fixture) => fixture.expected.toolCalls.map((call) => call.name)))].map(
  (name) => ({ type: "function", name, parameters: { type: "object" } }),
);

async function answer(fixture: Fixture, provider: Provider, stream: boolean): Promise<Response> {
  const upstream = new FakeUpstream({
    kind: "sse",
    chunks: [fixture.body],
    headers: { "content-type": CONTENT_TYPES[fixture.format]! },
  });
  const body = { model: `${provider}/test-model`, input: "Hi", tools: TOOLS, stream, reasoning: { summary: "auto" } };
  return worker(upstream).call(post("/v1/responses", body, AUTH), live(provider));
}

/** A failed answer's status by its error's code: a provider's overload 503, rate limit or quota 429, overflow or invalid request 400, else 502. */
const FAILED_STATUS: Record<string, number> = {
  server_error: 503,
  rate_limit_exceeded: 429,
  insufficient_quota: 429,
  invalid_prompt: 400,
  context_length_exceeded: 400,
};
const errorCode = (response: Record<string, unknown>): string =>
  String((response["error"] as { code?: unknown } | null)?.code);

const types = (response: Record<string, unknown> | undefined) =>
  ((response?.["output"] ?? []) as { type: string }[]).map((item) => item.type);

describe.skipIf(!recordingsAvailable || !sharedData["open-responses"].available)(
  "Open Responses conformance of /v1/responses on every recorded stream",
  () => {
    for (const fixture of allFixtures) {
      const provider = providerOf(fixture);
      if (provider === undefined) continue;
      it(`${fixture.provider}/${fixture.name} (${provider}): streamed and not, every event and response conforms`, async () => {
        const streamed = await readConformingStream(await answer(fixture, provider, true));
        expect(streamed.issues).toEqual([]);
        const whole = await answer(fixture, provider, false);
        const { issues, response } = await readConformingResponse(whole);
        expect(issues).toEqual([]);
        expect([whole.status, response["status"], types(response)]).toEqual([
          response["status"] === "failed" ? (FAILED_STATUS[errorCode(response)] ?? 502) : 200,
          streamed.response?.["status"],
          types(streamed.response),
        ]);
      });
    }
  },
);
