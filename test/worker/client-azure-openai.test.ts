// openai-node's AzureOpenAI (majors 6 and 7) against the Worker, on the paths it sends: Chat
// Completions is deployment-scoped (`{endpoint}/openai/deployments/{deployment}/chat/completions
// ?api-version=...`, the deployment the `deployment` option or else the body's `model`: openai-node
// 6 puts it in the path as it is, 7 percent-encoded), and the Worker routes the deployment as the
// model; Responses is not (`{endpoint}/openai/responses?api-version=...`, the model in the body),
// nor are its stored responses (`/openai/responses/{id}`) and `models.list()` (`/openai/models`).
// The key goes in `api-key`. What the provider is asked and what the client reads are checked.
import { AzureOpenAI as Azure6 } from "openai";
import { AzureOpenAI as Azure7 } from "openai-v7";
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/env.ts";
import { recordingFetch } from "./client-support.ts";
import { live, scripted, WEATHER } from "./open-responses-support.ts";
import { responses, testEnv, worker } from "./support.ts";

const MAJORS = { 6: Azure6, 7: Azure7 } as const;
const API_VERSION = "2025-04-01-preview";
const CALL = { text: "Checking.", calls: [{ name: "get_weather", arguments: { location: "Paris" } }] };
const chatTools = [{ type: "function" as const, function: WEATHER }];
const messages = [{ role: "user" as const, content: "Weather in Paris?" }];

for (const [major, AzureOpenAI] of Object.entries(MAJORS)) {
  // Typed as openai-node 6's (a union of both majors' overloads is not callable); each runs as itself.
  // `baseURL: null` where `endpoint` is given: its default reads OPENAI_BASE_URL, which workerd's
  // process.env holds (a binding of wrangler.toml), and the client refuses both.
  const azure = (options: Record<string, unknown>): Azure6 =>
    new AzureOpenAI({
      apiKey: "t",
      apiVersion: API_VERSION,
      maxRetries: 0,
      ...("endpoint" in options ? { baseURL: null } : {}),
      ...options,
    }) as unknown as Azure6;

  describe(`openai-node ${major}'s AzureOpenAI against the Worker`, () => {
    it("endpoint + deployment: a streamed chat with tools, the deployment routed as the model", async () => {
      const upstream = scripted("anthropic", CALL);
      const { fetch, paths } = recordingFetch(upstream, live("anthropic"));
      const client = azure({ endpoint: "http://localhost:8787/", deployment: "anthropic/claude-test", fetch });
      const calls: string[] = [];
      let text = "";
      for await (const chunk of await client.chat.completions.create({
        model: "what-azure-ignores",
        messages,
        tools: chatTools,
        stream: true,
      })) {
        text += chunk.choices[0]?.delta.content ?? "";
        for (const call of chunk.choices[0]?.delta.tool_calls ?? [])
          calls.push(call.function?.name ?? "", call.function?.arguments ?? "");
      }
      expect(text).toBe("Checking.");
      expect(calls.join("")).toBe('get_weather{"location":"Paris"}');
      const deployment = major === "6" ? "anthropic/claude-test" : "anthropic%2Fclaude-test";
      expect(paths).toEqual([`/openai/deployments/${deployment}/chat/completions?api-version=${API_VERSION}`]);
      expect(upstream.requests.map(({ body }) => body.model)).toEqual(["claude-test"]);
    });

    it("baseURL {endpoint}/openai without a deployment: the body's model is the path's deployment; a whole chat", async () => {
      const upstream = scripted("openai", CALL);
      const { fetch, paths } = recordingFetch(upstream, live("openai"));
      const client = azure({ baseURL: "http://localhost:8787/openai", fetch });
      const completion = await client.chat.completions.create({ model: "openai/gpt-test", messages, tools: chatTools });
      const message = completion.choices[0]!.message;
      expect(message.tool_calls?.map((call) => call.type === "function" && call.function.name)).toEqual([
        "get_weather",
      ]);
      expect(completion.model).toBe("openai/gpt-test");
      expect(paths[0]).toMatch(/^\/openai\/deployments\/openai(?:\/|%2F)gpt-test\/chat\/completions\?/);
      expect(upstream.requests.map(({ body }) => body.model)).toEqual(["gpt-test"]);
    });

    it("responses.create, streamed and not, goes to /openai/responses with the model in the body", async () => {
      const upstream = scripted("anthropic", CALL);
      const { fetch, paths } = recordingFetch(upstream, live("anthropic"));
      const client = azure({ endpoint: "http://localhost:8787", deployment: "not-used-by-responses", fetch });
      const request = {
        model: "anthropic/claude-test",
        input: "Weather in Paris?",
        tools: [{ ...WEATHER, strict: false, type: "function" as const }],
      };
      const whole = await client.responses.create(request);
      expect(whole.output.flatMap((item) => (item.type === "function_call" ? [item.arguments] : []))).toEqual([
        '{"location":"Paris"}',
      ]);
      const done: string[] = [];
      for await (const event of await client.responses.create({ ...request, stream: true }))
        if (event.type === "response.output_item.done" && event.item.type === "function_call")
          done.push(event.item.name);
      expect(done).toEqual(["get_weather"]);
      expect(paths).toEqual([
        `/openai/responses?api-version=${API_VERSION}`,
        `/openai/responses?api-version=${API_VERSION}`,
      ]);
      expect(upstream.requests.map(({ body }) => body.model)).toEqual(["claude-test", "claude-test"]);
    });

    it("a stored response is read back at /openai/responses/{id}, and models.list() at /openai/models", async () => {
      const env = { ...live("anthropic"), RESPONSES: responses };
      const { fetch, paths } = recordingFetch(scripted("anthropic", { text: "Sunny." }), env);
      const client = azure({ endpoint: "http://localhost:8787", fetch });
      const created = await client.responses.create({ model: "anthropic/claude-test", input: "Weather?" });
      const read = await client.responses.retrieve(created.id);
      expect([read.id, read.output_text]).toEqual([created.id, "Sunny."]);
      expect(Array.isArray((await client.models.list()).data)).toBe(true);
      expect(paths.slice(1).map((path) => path.replace(/\?.*/, ""))).toEqual([
        `/openai/responses/${created.id}`,
        "/openai/models",
      ]);
    });

    it("an unknown deployment is the SDK's NotFoundError of code DeploymentNotFound", async () => {
      const { fetch } = recordingFetch(scripted("openai", CALL), live("openai"));
      const failure = await azure({ endpoint: "http://localhost:8787", deployment: "nowhere/gpt-test", fetch })
        .chat.completions.create({ model: "x", messages })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(major === "6" ? Azure6.NotFoundError : Azure7.NotFoundError);
      expect(failure).toMatchObject({ status: 404, code: "DeploymentNotFound" });
    });

    it("a deployment-scoped endpoint the Worker does not serve is a 404 in OpenAI's shape (NotFoundError)", async () => {
      const { fetch } = recordingFetch(scripted("openai", CALL), live("openai"));
      const failure = await azure({ endpoint: "http://localhost:8787", deployment: "openai/gpt-test", fetch })
        .embeddings.create({ model: "x", input: "hi" })
        .catch((error: unknown) => error);
      expect(failure).toMatchObject({ status: 404, type: "invalid_request_error" });
    });
  });
}

describe("Azure's deployment path, sent by hand", () => {
  const chat = (path: string, body: unknown = { model: "x", messages }) =>
    worker(scripted("openai", CALL)).call(
      new Request(`http://localhost:8787${path}?api-version=${API_VERSION}`, {
        method: "POST",
        headers: { "api-key": "t", "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
      live("openai"),
    );

  it("a deployment that is not valid percent-encoding is a 400 in OpenAI's shape, never a 500", async () => {
    const response = await chat("/openai/deployments/gpt%zz/chat/completions");
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { type: "invalid_request_error", code: "invalid_request" } });
  });

  it("a deployment the Worker cannot route is Azure's 404 DeploymentNotFound, though the body names no model", async () => {
    for (const deployment of ["nowhere%2Fgpt-test", "nowhere/gpt-test"]) {
      const response = await chat(`/openai/deployments/${deployment}/chat/completions`, { messages });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: "DeploymentNotFound", param: null } });
    }
  });

  // An Azure deployment is a name its operator chose: `MODEL_ALIASES` maps it, as the README says.
  it("a deployment MODEL_ALIASES maps goes where it maps, before a name alone goes to OpenAI", async () => {
    const aliased = (env: Env) => {
      const upstream = scripted("anthropic", { text: "Sunny." });
      const answer = worker(upstream).call(
        new Request(`http://localhost:8787/openai/deployments/fast/chat/completions?api-version=${API_VERSION}`, {
          method: "POST",
          headers: { "api-key": "t", "content-type": "application/json" },
          body: JSON.stringify({ messages }),
        }),
        testEnv({ ...env, MODEL_ALIASES: "fast=anthropic/claude-test" }),
      );
      return { upstream, answer };
    };
    // Failed before: with other providers' keys only, a 404 DeploymentNotFound; with OpenAI's, sent
    // to OpenAI as the model `fast`.
    for (const env of [live("anthropic"), { ...live("openai"), ...live("anthropic") }]) {
      const { upstream, answer } = aliased(env);
      const response = await answer;
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ choices: [{ message: { content: "Sunny." } }] });
      expect(upstream.requests.map((request) => request.url)).toEqual([expect.stringMatching(/\/v1\/messages$/)]);
      expect(upstream.requests[0]!.body).toMatchObject({ model: "claude-test" });
    }
  });

  it("a deployment name alone is OpenAI's model when OpenAI has its key, else a 404 DeploymentNotFound", async () => {
    const bare = (env: Env) =>
      worker(scripted("openai", { text: "Sunny." })).call(
        new Request(`http://localhost:8787/openai/deployments/gpt-4o/chat/completions?api-version=${API_VERSION}`, {
          method: "POST",
          headers: { "api-key": "t", "content-type": "application/json" },
          body: JSON.stringify({ messages }),
        }),
        env,
      );
    const served = await bare(live("openai"));
    expect(served.status).toBe(200);
    expect(await served.json()).toMatchObject({ model: "gpt-4o", choices: [{ message: { content: "Sunny." } }] });
    const refused = await bare(live("anthropic"));
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ error: { code: "DeploymentNotFound" } });
  });

  it("a body that is no object is the 400 of Chat Completions, whatever the deployment", async () => {
    const response = await chat("/openai/deployments/openai%2Fgpt-test/chat/completions", ["not", "an", "object"]);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { type: "invalid_request_error" } });
  });
});
