// A client of /v1/messages or /v1/responses that goes away cancels the provider request, as the
// Worker's README promises for every endpoint that answers in one connection: a stored
// /v1/responses response (`store` unset, the RESPONSES binding set) included, since nothing can
// resume it. Streamed (the answer's body cancelled) and not (the request's signal aborted).
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/env.ts";
import { post } from "./client-support.ts";
import {
  eventually,
  FakeUpstream,
  liveOpenAI,
  openAIChunks,
  responses,
  testEnv,
  weatherCall,
  worker,
} from "./support.ts";

const headers = { authorization: "Bearer t" };
const PARAMETERS = { type: "object", properties: { city: { type: "string" } } };
/** An OpenAI provider that sends half a call, then nothing more. */
const stalled = () =>
  new FakeUpstream({
    kind: "sse",
    chunks: openAIChunks([weatherCall(0, "call_1", '{"city":'), weatherCall(0, "call_1", '"Par')]).slice(0, 2),
    then: "stall",
  });
const plain = testEnv({ ...liveOpenAI, CLIENT_TOKEN: "t" });
const withObjects: Env = { ...plain, RESPONSES: responses };

const routes: { name: string; path: string; body: Record<string, unknown>; env: Env; first: string }[] = [
  {
    name: "/v1/messages",
    path: "/v1/messages",
    body: {
      model: "openai/gpt-4o-mini",
      max_tokens: 100,
      messages: [{ role: "user", content: "hi" }],
      tools: [{ name: "get_weather", input_schema: PARAMETERS }],
    },
    env: plain,
    first: "message_start",
  },
  {
    name: "/v1/responses, store: false",
    path: "/v1/responses",
    body: {
      model: "openai/gpt-4o-mini",
      store: false,
      input: "hi",
      tools: [{ type: "function", name: "get_weather", parameters: PARAMETERS }],
    },
    env: withObjects,
    first: "response.created",
  },
  {
    name: "/v1/responses, stored",
    path: "/v1/responses",
    body: {
      model: "openai/gpt-4o-mini",
      input: "hi",
      tools: [{ type: "function", name: "get_weather", parameters: PARAMETERS }],
    },
    env: withObjects,
    first: "response.created",
  },
];

describe("a client of /v1/messages or /v1/responses that goes away cancels the provider request", () => {
  for (const route of routes) {
    it(`${route.name}, streamed: cancelling the answer's body cancels the upstream body and aborts its request`, async () => {
      const upstream = stalled();
      const response = await worker(upstream).call(
        post(route.path, { ...route.body, stream: true }, { headers }),
        route.env,
      );
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      let text = "";
      while (!text.includes(route.first)) text += new TextDecoder().decode((await reader.read()).value);
      await reader.cancel("client went away");
      expect(await eventually(() => upstream.cancelled !== undefined)).toBe(true);
      expect(upstream.requests[0]?.signal.aborted).toBe(true);
    });

    it(`${route.name}, not streamed: the request's signal aborting aborts the upstream request`, async () => {
      const upstream = stalled();
      const client = new AbortController();
      const request = new Request(post(route.path, route.body, { headers }), { signal: client.signal });
      const arrived = upstream.nextRequest();
      const pending = worker(upstream).call(request, route.env);
      await arrived;
      client.abort();
      const response = await pending;
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(upstream.requests[0]?.signal.aborted).toBe(true);
      expect(await eventually(() => upstream.cancelled !== undefined)).toBe(true);
    });
  }
});
