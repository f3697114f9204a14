// An upstream that answers a whole (non-streamed) response, as an OpenAI-compatible server that
// ignores `stream: true` does (application/json, pretty-printed, in a few network chunks): the
// Worker's clients get what the same answer streamed gives them. OpenAI Chat's chat.completion,
// Anthropic's Message, OpenAI Responses' Response and Cohere v2's ChatResponse, each built from an
// in-repo recording's events,
// through /v1/chat/completions (openai-node), and Anthropic's through /v1/messages (@anthropic-ai/sdk);
// and /v1/run's steps, each a model call of its own, answered whole.
import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { externalBodies, externalFixtures } from "../support/external-fixtures.ts";
import { anthropicWhole, chatWhole, cohereWhole, payloadsOf, responsesWhole } from "../support/whole-responses.ts";
import { SSEDecoderStream } from "../../src/index.ts";
import { OPENAI_ANTHROPIC_ENV, openAIClient, workerFetch } from "./client-support.ts";
import { FakeUpstream, ManualTimers, testEnv } from "./support.ts";
import { runRoute } from "../../worker/protocols/tool-call-events/run-route.ts";
import { demoTools } from "../../worker/demo-tools/index.ts";

const ENV = testEnv({ ...OPENAI_ANTHROPIC_ENV, COHERE_API_KEY: "k", COHERE_BASE_URL: "https://provider.test/v2" });

const CASES = [
  { provider: "openai", name: "dashscope-empty-id-continuations", whole: chatWhole },
  { provider: "anthropic", name: "anthropic-redacted-thinking-tool-use", whole: anthropicWhole },
  { provider: "openai-responses", name: "completed-output-without-item-done", whole: responsesWhole },
  { provider: "cohere", name: "cohere-tool-use-streaming-calls", whole: cohereWhole },
] as const;

/** A recording's streamed body, and the whole response it stands for, pretty-printed. */
async function answersOf(provider: string, name: string, whole: (payloads: Record<string, unknown>[]) => unknown) {
  const fixture = externalFixtures.find((f) => f.provider === provider && f.name === name && f.inRepo);
  const [body] = externalBodies(fixture!);
  const messages = [];
  for await (const message of new Response(body).body!.pipeThrough(new SSEDecoderStream())) messages.push(message);
  const payloads = payloadsOf(messages);
  return { streamed: new TextDecoder().decode(body), whole: JSON.stringify(whole(payloads), null, 2) };
}

/** The upstream answering the stream, or the whole response as application/json in three chunks. */
function upstream(answer: string, json: boolean): FakeUpstream {
  if (!json) return new FakeUpstream({ kind: "sse", chunks: [answer] });
  const third = Math.ceil(answer.length / 3);
  const chunks = [answer.slice(0, third), answer.slice(third, 2 * third), answer.slice(2 * third)];
  return new FakeUpstream({ kind: "sse", chunks, headers: { "content-type": "application/json" } });
}

const tools = ["get_weather", "weather"].map((name) => ({
  type: "function" as const,
  function: { name, parameters: { type: "object" } },
}));

describe("an upstream's whole (non-streamed) answer reaches the Worker's clients as its stream does", () => {
  for (const { provider, name, whole } of CASES)
    it(`${provider} (${name}): /v1/chat/completions gets the streamed answer's calls, text and finish`, async () => {
      const answers = await answersOf(provider, name, whole);
      const complete = async (json: boolean) => {
        const completion = await openAIClient(
          upstream(json ? answers.whole : answers.streamed, json),
          ENV,
        ).chat.completions.create({
          model: `${provider}/some-model`,
          messages: [{ role: "user", content: "Go." }],
          tools,
        });
        const { finish_reason, message } = completion.choices[0]!;
        // Arguments as JSON: a whole answer holds them as an object, written without the stream's white space.
        const calls = (message.tool_calls ?? []).flatMap((call) =>
          call.type === "function"
            ? [{ ...call, function: { ...call.function, arguments: JSON.parse(call.function.arguments) } }]
            : [],
        );
        return { finish_reason, content: message.content, calls };
      };
      const streamed = await complete(false);
      expect(streamed.calls.length).toBeGreaterThan(0);
      expect(await complete(true)).toEqual(streamed);
    });

  it("Anthropic: Claude Code's /v1/messages gets the streamed answer's blocks, stop and usage", async () => {
    const answers = await answersOf("anthropic", "anthropic-redacted-thinking-tool-use", anthropicWhole);
    const message = async (json: boolean) => {
      const client = new Anthropic({
        baseURL: "http://localhost:8787",
        apiKey: "t",
        fetch: workerFetch({ env: ENV, upstream: upstream(json ? answers.whole : answers.streamed, json) }),
        maxRetries: 0,
      });
      const { content, stop_reason, usage } = await client.messages
        .stream({
          model: "anthropic/claude-sonnet-4-5",
          max_tokens: 1024,
          tools: tools.map(({ function: { name } }) => ({ name, input_schema: { type: "object" as const } })),
          messages: [{ role: "user", content: "Go." }],
        })
        .finalMessage();
      return { content, stop_reason, usage };
    };
    const streamed = await message(false);
    expect(streamed.content.some((block) => "type" in block && block.type === "tool_use")).toBe(true);
    expect(await message(true)).toEqual(streamed);
  });
});

/** Cohere v2's whole `ChatResponse`s of a /v1/run: a call to the `calculate` demo tool, then the answer. */
const RUN_STEPS = [
  {
    id: "m1",
    finish_reason: "TOOL_CALL",
    message: {
      role: "assistant",
      tool_calls: [
        { id: "calc_1", type: "function", function: { name: "calculate", arguments: '{"expression":"0.17 * 230"}' } },
      ],
    },
  },
  { id: "m2", finish_reason: "COMPLETE", message: { role: "assistant", content: [{ type: "text", text: "39.1." }] } },
];

describe("POST /v1/run with an upstream that answers each step whole", () => {
  for (const early of [false, true])
    it(`runs the first step's call and reads the second step's text (each body read as one message; early_validation: ${early})`, async () => {
      let step = 0;
      const fetch = async (url: string, init: RequestInit): Promise<Response> => {
        const request = new Request(url, init);
        await request.text();
        const answer = JSON.stringify(RUN_STEPS[Math.min(step++, 1)], null, 2);
        return new Response(answer, { headers: { "content-type": "application/json" } });
      };
      const response = await runRoute(
        new Request("http://localhost:8787/v1/run", {
          method: "POST",
          headers: { "content-type": "application/json", authorization: "Bearer t" },
          body: JSON.stringify({
            provider: "cohere",
            model: "command-a-03-2025",
            messages: [{ role: "user", content: "What is 17% of 230?" }],
            tools: ["calculate"],
            early_validation: early,
          }),
        }),
        testEnv({ COHERE_API_KEY: "k", CLIENT_TOKEN: "t" }),
        { fetch, timers: new ManualTimers() },
        demoTools(),
      );
      const events = (await response.text())
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
      expect(events.find((e) => e["type"] === "tool-result")).toMatchObject({ step: 1, result: { result: 39.1 } });
      expect(events.find((e) => e["type"] === "finish" && e["step"] === 2)).toMatchObject({ text: "39.1." });
      expect(events.at(-1)).toEqual({ type: "loop-finish", steps: 2, reason: "no-tool-calls" });
    });
});
