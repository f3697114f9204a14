// Azure OpenAI's v1 API (GA since August 2025) against the Worker: the plain `OpenAI` client of
// openai-node 6 and 7 with `baseURL: "{endpoint}/openai/v1/"` (no `api-version`, no deployment in
// the path: the model in the body), so Chat Completions, Responses, its stored responses and
// `models.list()` go to `/openai/v1/...`, each served as the Worker's `/v1/...`.
import OpenAI6 from "openai";
import OpenAI7 from "openai-v7";
import { describe, expect, it } from "vitest";
import { recordingFetch } from "./client-support.ts";
import { live, scripted, WEATHER } from "./open-responses-support.ts";
import { responses } from "./support.ts";

const MAJORS = { 6: OpenAI6, 7: OpenAI7 } as const;
const CALL = { text: "Checking.", calls: [{ name: "get_weather", arguments: { location: "Paris" } }] };
const messages = [{ role: "user" as const, content: "Weather in Paris?" }];

for (const [major, OpenAI] of Object.entries(MAJORS)) {
  // Typed as openai-node 6's (a union of both majors' overloads is not callable); each runs as itself.
  const client = (fetch: typeof globalThis.fetch): OpenAI6 =>
    new OpenAI({
      apiKey: "t",
      baseURL: "http://localhost:8787/openai/v1/",
      maxRetries: 0,
      fetch,
    }) as unknown as OpenAI6;

  describe(`openai-node ${major}'s OpenAI at Azure's v1 base URL ({endpoint}/openai/v1/)`, () => {
    it("a streamed chat with tools goes to /openai/v1/chat/completions, the body's model routed", async () => {
      const upstream = scripted("anthropic", CALL);
      const { fetch, paths } = recordingFetch(upstream, live("anthropic"));
      const calls: string[] = [];
      let text = "";
      for await (const chunk of await client(fetch).chat.completions.create({
        model: "anthropic/claude-test",
        messages,
        tools: [{ type: "function", function: WEATHER }],
        stream: true,
      })) {
        text += chunk.choices[0]?.delta.content ?? "";
        for (const call of chunk.choices[0]?.delta.tool_calls ?? [])
          calls.push(call.function?.name ?? "", call.function?.arguments ?? "");
      }
      expect([text, calls.join("")]).toEqual(["Checking.", 'get_weather{"location":"Paris"}']);
      expect(paths).toEqual(["/openai/v1/chat/completions"]);
      expect(upstream.requests.map(({ body }) => body.model)).toEqual(["claude-test"]);
    });

    it("responses.create, its stored response and models.list() go to /openai/v1/...", async () => {
      const env = { ...live("anthropic"), RESPONSES: responses };
      const upstream = scripted("anthropic", CALL);
      const { fetch, paths } = recordingFetch(upstream, env);
      const openai = client(fetch);
      const created = await openai.responses.create({
        model: "anthropic/claude-test",
        input: "Weather in Paris?",
        tools: [{ ...WEATHER, strict: false, type: "function" as const }],
      });
      expect(created.output.flatMap((item) => (item.type === "function_call" ? [item.name] : []))).toEqual([
        "get_weather",
      ]);
      const read = await openai.responses.retrieve(created.id);
      expect(read.id).toBe(created.id);
      expect(Array.isArray((await openai.models.list()).data)).toBe(true);
      expect(paths).toEqual(["/openai/v1/responses", `/openai/v1/responses/${created.id}`, "/openai/v1/models"]);
    });

    it("an endpoint the Worker does not serve under /openai/v1 is a 404 in OpenAI's shape (NotFoundError)", async () => {
      const { fetch } = recordingFetch(scripted("openai", CALL), live("openai"));
      const failure = await client(fetch)
        .embeddings.create({ model: "openai/text-embedding-3-small", input: "hi" })
        .catch((error: unknown) => error);
      expect(failure).toMatchObject({ status: 404, type: "invalid_request_error" });
    });
  });
}
