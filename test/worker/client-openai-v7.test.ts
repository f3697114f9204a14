// openai-node 7 (npm alias `openai-v7`) beside openai-node 6 against the Worker in workerd, their
// `fetch` pointed at its handler: POST /v1/responses (`responses.stream().finalResponse()`,
// `create({stream: true})`, `create()`) and POST /v1/chat/completions (streamed with usage, and
// whole) give the calls and text of /v1/stream for every recording of every provider, and a
// response that fails mid-stream is the error event both majors throw.
import OpenAI6 from "openai";
import OpenAI7 from "openai-v7";
import { describe, expect, it } from "vitest";
import { post, referenceCalls, replays, streamCalls, TOOL, workerFetch } from "./client-support.ts";
import { AUTH, live, scripted } from "./open-responses-support.ts";
import { worker } from "./support.ts";

const MAJORS = { 6: OpenAI6, 7: OpenAI7 } as const;
const responsesTool = { type: "function" as const, strict: false, ...TOOL };
const chatTool = { type: "function" as const, function: TOOL };

for (const [major, OpenAI] of Object.entries(MAJORS)) {
  // Typed as openai-node 6 (a union of both majors' overloads is not callable); each runs as itself.
  const client = (fetch: typeof globalThis.fetch = workerFetch(), apiKey = "anything-on-localhost"): OpenAI6 =>
    new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey, fetch, maxRetries: 0 }) as unknown as OpenAI6;

  describe(`openai-node ${major} against the Worker, every recording of every provider`, () => {
    for (const { provider, recording, prompt, tools } of replays) {
      it(`${provider} (${recording.name}): /v1/responses and /v1/chat/completions give the calls of /v1/stream`, async () => {
        const reference = await streamCalls(provider, prompt, tools);
        const expected = referenceCalls(reference.finish).map((call) => [call.name, call.rawArguments]);
        const model = `${provider}/test-model`;

        const request = { model, input: prompt, tools: tools.map((tool) => ({ ...responsesTool, ...tool })) };
        const final = await client().responses.stream(request).finalResponse();
        expect([final.status, final.model, final.output_text]).toEqual(["completed", model, reference.finish.text]);
        const calls = final.output.flatMap((item) => (item.type === "function_call" ? [item] : []));
        expect(calls.map((call) => [call.name, call.arguments])).toEqual(expected);
        const done: string[] = [];
        for await (const event of await client().responses.create({ ...request, stream: true }))
          if (event.type === "response.output_item.done" && event.item.type === "function_call")
            done.push(event.item.name);
        expect(done).toEqual(expected.map(([name]) => name));
        const whole = await client().responses.create(request);
        expect(whole.output.flatMap((item) => (item.type === "function_call" ? [item.name] : []))).toEqual(done);

        const chat = {
          model,
          messages: [{ role: "user" as const, content: prompt }],
          tools: tools.map((tool) => ({ ...chatTool, function: tool })),
        };
        const names: string[] = [];
        let usage: unknown;
        for await (const chunk of await client().chat.completions.create({
          ...chat,
          stream: true,
          stream_options: { include_usage: true },
        })) {
          for (const call of chunk.choices[0]?.delta.tool_calls ?? [])
            if (call.function?.name) names.push(call.function.name);
          usage = chunk.usage ?? usage;
        }
        expect(names).toEqual(expected.map(([name]) => name));
        const reported = reference.finish.usage?.totalTokens;
        expect((usage as { total_tokens?: number } | undefined)?.total_tokens).toBe(reported);
        const completion = await client().chat.completions.create(chat);
        expect(
          (completion.choices[0]!.message.tool_calls ?? []).map(
            (call) => call.type === "function" && call.function.name,
          ),
        ).toEqual(names);
      });
    }

    it("a Responses stream cut mid-answer is the error event, thrown", async () => {
      const fetch = (async (input: RequestInfo | URL, init?: RequestInit) =>
        worker(scripted("anthropic", { text: "Ahoy there, friend! ".repeat(20) }, true)).call(
          new Request(input, init),
          live("anthropic"),
        )) as typeof globalThis.fetch;
      await expect(
        client(fetch, AUTH.headers.authorization.slice("Bearer ".length))
          .responses.stream({ model: "anthropic/m", input: "Hi" })
          .finalResponse(),
      ).rejects.toMatchObject({ type: "server_error", code: expect.stringMatching(/^[a-z-]+$/) });
    });
  });
}

// The two majors read one request alike: what the Worker answered is not what differs.
describe("openai-node 6 and 7 send the same Responses request", () => {
  it("the bodies the Worker receives are equal", async () => {
    const bodies: unknown[] = [];
    for (const OpenAI of Object.values(MAJORS)) {
      const fetch = (async (_input: RequestInfo | URL, init?: RequestInit) => {
        bodies.push(JSON.parse(String(init?.body)));
        return worker().call(post("/v1/responses", JSON.parse(String(init?.body))));
      }) as typeof globalThis.fetch;
      const sdk = new OpenAI({
        baseURL: "http://localhost:8787/v1",
        apiKey: "k",
        fetch,
        maxRetries: 0,
      }) as unknown as OpenAI6;
      await sdk.responses.create({
        model: "openai/test-model",
        input: "Tell me about Paris",
        tools: [responsesTool],
      });
    }
    expect(bodies[1]).toEqual(bodies[0]);
  });
});
