// The fakes of the Open Responses tests: each provider live against a fake upstream that answers
// one scripted turn in the provider's own wire format (the scripted model's writers).
import type { Provider } from "../../src/index.ts";
import type { Env } from "../../worker/env.ts";
import { Dice } from "../../worker/upstream/replay/scripted/pieces.ts";
import type { ScriptedTurn } from "../../worker/upstream/replay/scripted/script.ts";
import { scriptWriters } from "../../worker/upstream/replay/scripted/writers/index.ts";
import { FakeUpstream, testEnv } from "./support.ts";

/** Each provider live, against the fake upstream. */
export const LIVE: Record<Provider, Partial<Env>> = {
  openai: { OPENAI_API_KEY: "k", OPENAI_BASE_URL: "https://provider.test/v1" },
  "openai-responses": { OPENAI_API_KEY: "k", OPENAI_BASE_URL: "https://provider.test/v1" },
  anthropic: { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "https://provider.test/v1" },
  gemini: { GEMINI_API_KEY: "k", GEMINI_BASE_URL: "https://provider.test/v1beta" },
  bedrock: { AWS_ACCESS_KEY_ID: "AKIDEXAMPLE", AWS_SECRET_ACCESS_KEY: "secret", AWS_REGION: "us-west-2" },
  cohere: { COHERE_API_KEY: "k", COHERE_BASE_URL: "https://provider.test/v2" },
  ollama: { OLLAMA_BASE_URL: "https://provider.test" },
  "gemini-interactions": { GEMINI_API_KEY: "k", GEMINI_BASE_URL: "https://provider.test/v1beta" },
};
/** The Worker's settings with `provider` live (a key set ends the open mode: a client token is needed). */
export const live = (provider: Provider): Env => testEnv({ ...LIVE[provider], CLIENT_TOKEN: "t" });
/** The client token of {@link live}. */
export const AUTH = { headers: { authorization: "Bearer t" } };

/** The function tool of the spec's compliance suite. */
export const WEATHER = {
  type: "function",
  name: "get_weather",
  description: "Get the current weather for a location",
  parameters: {
    type: "object",
    properties: { location: { type: "string", description: "The city and state" } },
    required: ["location"],
  },
};

/** The request of an AG-UI run (`POST /v1/ag-ui`) asking "Count." with `forwardedProps`, with {@link AUTH}'s token. */
export const agUIRun = (forwardedProps: Record<string, unknown>): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", authorization: "Bearer t" },
  body: JSON.stringify({
    threadId: "t1",
    runId: "r1",
    state: {},
    messages: [{ id: "m1", role: "user", content: "Count." }],
    tools: [],
    context: [],
    forwardedProps,
  }),
});

/**
 * The fake provider's answer: one scripted turn in `provider`'s wire format, or cut short by a
 * broken connection (after its first two messages, or before its last `cut` ones).
 */
export function scripted(
  provider: Provider,
  turn: Partial<ScriptedTurn>,
  cut: boolean | { last: number } = false,
): FakeUpstream {
  const wire = scriptWriters[provider](
    { model: "test-model", text: "", plan: "", calls: [], inputTokens: 12, tools: [], now: 1_700_000_000_000, ...turn },
    new Dice(7),
  );
  return new FakeUpstream({
    kind: "sse",
    chunks: cut ? wire.chunks.slice(0, cut === true ? 2 : -cut.last) : wire.chunks,
    headers: { "content-type": wire.contentType },
    ...(cut ? { then: "fail" as const } : {}),
  });
}

/** A fake of `provider` answering each request with the next of `script`'s turns (the last one again after). */
export function turns(provider: Provider, script: Partial<ScriptedTurn>[]): FakeUpstream {
  const answers = script.map((turn) => scripted(provider, turn).answer);
  const upstream = new FakeUpstream(answers[0]!);
  const fetch = upstream.fetch;
  let next = 0;
  (upstream as { fetch: typeof fetch }).fetch = (url, init) => {
    upstream.answer = answers[Math.min(next++, answers.length - 1)]!;
    return fetch(url, init);
  };
  return upstream;
}
