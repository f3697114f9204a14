// Issue reports' streams (test/recordings/external/issues: a gateway's `finish_reason: "stop"`
// between a call's fragments, empty ids on continuations, a new id on every fragment, parallel
// calls all at index 0, a tool_use's whole input at its block start, a Responses call ended only by
// `response.completed`, ...) through the Worker, as an OpenAI Chat, Anthropic or OpenAI Responses
// upstream: Claude Code's `/v1/messages` (the real Anthropic SDK), an OpenAI client's
// `/v1/chat/completions` and Codex's `/v1/responses` (the real OpenAI SDK) get the calls each
// report says a client must run, their names and arguments, no more and no fewer, with the reason
// that asks the client to run them.
import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { externalBodies, externalFixtures } from "../support/external-fixtures.ts";
import { OPENAI_ANTHROPIC_ENV, openAIClient, workerFetch } from "./client-support.ts";
import { FakeUpstream } from "./support.ts";

const cases = externalFixtures.filter(
  (fixture) =>
    fixture.inRepo &&
    fixture.source === "issues" &&
    ["openai", "anthropic", "openai-responses"].includes(fixture.provider) &&
    fixture.expected.toolCalls?.length,
);

/** The upstream's body, whole, as the fixture's test support builds it. */
const upstreamOf = (body: Uint8Array): FakeUpstream =>
  new FakeUpstream({ kind: "sse", chunks: [new TextDecoder().decode(body)] });

/** The calls a case expects, as name and arguments, and a tool declared for each name. */
function expectedCalls(fixture: (typeof cases)[number]) {
  const calls = (fixture.expected.toolCalls ?? []).map((call) => ({ name: call.name, arguments: call.arguments }));
  const names = [...new Set(calls.map((call) => String(call.name)))];
  return { calls, names };
}

describe("issue reports' OpenAI- and Anthropic-compatible streams through the Worker", () => {
  it("there are cases to run", () => {
    expect(cases.length).toBeGreaterThanOrEqual(8);
  });

  for (const fixture of cases) {
    const [body] = externalBodies(fixture);
    const { calls, names } = expectedCalls(fixture);

    it(`${fixture.name}: Claude Code's /v1/messages gets the calls as tool_use blocks, stop_reason tool_use`, async () => {
      const anthropic = new Anthropic({
        baseURL: "http://localhost:8787",
        apiKey: "t",
        fetch: workerFetch({ env: OPENAI_ANTHROPIC_ENV, upstream: upstreamOf(body!) }),
        maxRetries: 0,
      });
      const message = await anthropic.messages
        .stream({
          model: `${fixture.provider}/gateway-model`,
          max_tokens: 1024,
          tools: names.map((name) => ({ name, input_schema: { type: "object" as const, properties: {} } })),
          messages: [{ role: "user", content: "Go." }],
        })
        .finalMessage();
      const uses = message.content.filter((block) => block.type === "tool_use");
      expect(uses.map((use) => ({ name: use.name, arguments: use.input }))).toEqual(calls);
      expect(new Set(uses.map((use) => use.id)).size).toBe(uses.length);
      expect(message.stop_reason).toBe("tool_use");
    });

    it(`${fixture.name}: /v1/chat/completions gets the calls, finish_reason tool_calls`, async () => {
      const completion = await openAIClient(upstreamOf(body!)).chat.completions.create({
        model: `${fixture.provider}/gateway-model`,
        messages: [{ role: "user", content: "Go." }],
        tools: names.map((name) => ({ type: "function" as const, function: { name, parameters: { type: "object" } } })),
      });
      const choice = completion.choices[0]!;
      const toolCalls = (choice.message.tool_calls ?? []).flatMap((call) => (call.type === "function" ? [call] : []));
      expect(
        toolCalls.map((call) => ({ name: call.function.name, arguments: JSON.parse(call.function.arguments) })),
      ).toEqual(calls);
      expect(choice.finish_reason).toBe("tool_calls");
    });

    it(`${fixture.name}: Codex's /v1/responses gets the calls as function_call items`, async () => {
      const response = await openAIClient(upstreamOf(body!)).responses.create({
        model: `${fixture.provider}/gateway-model`,
        input: "Go.",
        tools: names.map((name) => ({
          type: "function" as const,
          name,
          parameters: { type: "object" },
          strict: false,
        })),
      });
      const items = response.output.flatMap((item) => (item.type === "function_call" ? [item] : []));
      expect(items.map((item) => ({ name: item.name, arguments: JSON.parse(item.arguments) }))).toEqual(calls);
      expect(new Set(items.map((item) => item.call_id)).size).toBe(items.length);
    });
  }
});
