// OpenAI's bookkeeping fields (`prompt_cache_key`, `prompt_cache_retention`, `prompt_cache_options`,
// `safety_identifier`, `store`, `metadata`, `service_tier`, `user`) on /v1/chat/completions and /v1/responses, one code
// for both (worker/protocols/openai-keys.ts): checked as OpenAI checks them (a wrong type is a 400
// naming the field), sent to an OpenAI upstream that takes them (OpenAI Chat at api.openai.com,
// OpenAI Responses: all of them in openai-node's create params, `user` deprecated but taken), never
// to a compatible server nor another provider. OpenAI Chat takes `metadata` with `store: true`
// alone, OpenAI Responses with any. `service_tier` bills the operator's key: sent nowhere.
import { describe, expect, it } from "vitest";
import { FakeUpstream, testEnv, worker } from "./support.ts";

const env = testEnv({
  CLIENT_TOKEN: "t",
  OPENAI_API_KEY: "k",
  OPENAI_BASE_URL: "https://api.openai.com/v1",
  ANTHROPIC_API_KEY: "k",
  ANTHROPIC_BASE_URL: "https://anthropic.test/v1",
});
const compatible = { ...env, OPENAI_BASE_URL: "https://llm.internal/v1" };
const KEYS = {
  prompt_cache_key: "thread-42",
  prompt_cache_retention: "24h",
  prompt_cache_options: { mode: "implicit", ttl: "30m" },
  safety_identifier: "user-7f3a",
  store: true,
  metadata: { team: "docs" },
  user: "u-1",
};
const FIELDS = { ...KEYS, service_tier: "priority" };
const NAMES = Object.keys(FIELDS);
const ROUTES = {
  "/v1/chat/completions": { messages: [{ role: "user", content: "Hi" }] },
  "/v1/responses": { input: "Hi" },
};

for (const [path, prompt] of Object.entries(ROUTES))
  describe(`${path}: OpenAI's bookkeeping fields`, () => {
    /** What the upstream was sent for a body with `extra`, or the error answered. */
    async function send(model: string, extra: Record<string, unknown>, at = env) {
      const upstream = new FakeUpstream({ kind: "response", status: 400, body: '{"error":{"message":"no"}}' });
      const response = await worker(upstream).call(
        new Request(`http://localhost:8787${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: "Bearer t" },
          body: JSON.stringify({ model, ...prompt, stream: true, ...extra }),
        }),
        at,
      );
      const text = await response.text();
      return { status: response.status, text, body: upstream.requests[0]?.body };
    }
    const picked = (body: Record<string, unknown> | undefined) =>
      Object.fromEntries(NAMES.filter((name) => body && name in body).map((name) => [name, body![name]]));

    it("OpenAI Chat at api.openai.com and OpenAI Responses: sent as given, but service_tier", async () => {
      for (const model of ["openai/gpt-x", "openai-responses/gpt-x"])
        expect(picked((await send(model, FIELDS)).body), model).toEqual(KEYS);
    });

    it("metadata without store: to OpenAI Responses, which keeps it with every response; not to OpenAI Chat", async () => {
      const { store: _store, ...rest } = KEYS;
      const { metadata: _metadata, ...chat } = rest;
      expect(picked((await send("openai/gpt-x", rest)).body)).toEqual(chat);
      expect(picked((await send("openai-responses/gpt-x", rest)).body)).toEqual(rest);
    });

    it("a compatible server and the other providers: none of them, and the request goes on", async () => {
      expect(picked((await send("openai/m", FIELDS, compatible)).body)).toEqual({});
      expect(picked((await send("anthropic/claude-x", FIELDS)).body)).toEqual({});
    });

    it("Gemini Interactions, which has a `store` of its own: that alone, as the client sent it", async () => {
      const interactions = { ...env, GEMINI_API_KEY: "k", GEMINI_BASE_URL: "https://gemini.test/v1beta" };
      for (const store of [false, true])
        expect(picked((await send("gemini-interactions/gemini-x", { ...FIELDS, store }, interactions)).body)).toEqual({
          store,
        });
    });

    it("`prompt_cache_options.mode: explicit`: sent without it, as the breakpoints it needs are not carried", async () => {
      // OpenAI caches nothing in explicit mode without a `prompt_cache_breakpoint`, and the Worker
      // keeps none (a message's parts become one text): implicit, OpenAI's default, caches the prefix.
      for (const model of ["openai/gpt-x", "openai-responses/gpt-x"]) {
        const explicit = { mode: "explicit", ttl: "30m" };
        expect((await send(model, { prompt_cache_options: explicit })).body?.["prompt_cache_options"], model).toEqual({
          ttl: "30m",
        });
        const alone = (await send(model, { prompt_cache_options: { mode: "explicit" } })).body;
        expect(alone && "prompt_cache_options" in alone, model).toBe(false);
      }
    });

    it("`prompt_cache_options`' own fields are checked, each named", async () => {
      for (const [options, field] of [
        [{ mode: "always" }, "prompt_cache_options.mode"],
        [{ ttl: "1h" }, "prompt_cache_options.ttl"],
        [{ mode: "implicit", breakpoints: 2 }, "prompt_cache_options.breakpoints"],
      ] as const) {
        const { status, text, body } = await send("openai-responses/gpt-x", { prompt_cache_options: options });
        expect([status, JSON.parse(text).error.param], field).toEqual([400, field]);
        expect(body).toBeUndefined();
      }
    });

    it("a wrong type or value is a 400 naming the field, and nothing reaches the provider", async () => {
      const wrong: Record<string, unknown> = {
        prompt_cache_key: 7,
        prompt_cache_retention: "1w",
        prompt_cache_options: "30m",
        safety_identifier: "x".repeat(65),
        store: "yes",
        metadata: { a: 1 },
        service_tier: "gold",
        user: ["u"],
      };
      for (const model of ["anthropic/claude-x", "openai-responses/gpt-x"])
        for (const [field, value] of Object.entries(wrong)) {
          const { status, text, body } = await send(model, { [field]: value });
          expect([status, JSON.parse(text).error.param], `${model} ${field}`).toEqual([400, field]);
          expect(body).toBeUndefined();
        }
    });
  });
