// A provider's reasoning reaches an agent in the agent's own protocol, read by the real SDKs: a
// Messages client gets thinking blocks (Anthropic's signature as it is, an OpenAI reasoning item
// sealed into the signature) and redacted thinking; a Responses client gets reasoning items with
// their summary, the state sealed into `encrypted_content` (Anthropic's signed and redacted blocks,
// OpenAI's item with the id its encrypted content is bound to). Gemini's thoughts come as unsigned thinking and summaries.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/env.ts";
import { unsealPart } from "../../worker/protocols/reasoning-state.ts";
import { workerFetch } from "./client-support.ts";
import {
  anthropicThinkingStream,
  ENCRYPTED,
  geminiThoughtStream,
  REDACTED,
  responsesReasoningStream,
  SIGNATURE,
  THOUGHT,
} from "./reasoning-streams.ts";
import { type FakeUpstream, testEnv } from "./support.ts";

const ENV: Record<string, Partial<Env>> = {
  anthropic: { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "https://provider.test/v1" },
  "openai-responses": { OPENAI_API_KEY: "k", OPENAI_BASE_URL: "https://provider.test/v1" },
  gemini: { GEMINI_API_KEY: "k", GEMINI_BASE_URL: "https://provider.test/v1beta" },
};
const tool = { name: "lookup", input_schema: { type: "object" as const, properties: { query: { type: "string" } } } };

function clients(provider: string, upstream: () => FakeUpstream) {
  const env = testEnv({ ...ENV[provider]!, CLIENT_TOKEN: "t" });
  const options = () => ({ apiKey: "t", fetch: workerFetch({ env, upstream: upstream() }), maxRetries: 0 });
  const messages = {
    model: `${provider}/claude-x`,
    max_tokens: 20_000,
    thinking: { type: "enabled" as const, budget_tokens: 16_000 },
    tools: [tool],
    messages: [{ role: "user" as const, content: "Weather in Paris?" }],
  };
  const responses = {
    model: `${provider}/gpt-5`,
    reasoning: { effort: "low" as const, summary: "auto" as const },
    include: ["reasoning.encrypted_content" as const],
    tools: [{ type: "function" as const, name: "lookup", strict: false, parameters: tool.input_schema }],
    input: "Weather in Paris?",
  };
  return {
    /** The message, streamed (`finalMessage`) and not (`create`): both must be the same. */
    async message() {
      const streamed = await new Anthropic({ baseURL: "http://localhost:8787", ...options() }).messages
        .stream(messages)
        .finalMessage();
      const whole = await new Anthropic({ baseURL: "http://localhost:8787", ...options() }).messages.create(messages);
      // Gemini's calls have no ids: each answer makes its own.
      const withoutIds = (content: unknown[]) => content.map((block) => ({ ...(block as object), id: undefined }));
      expect(withoutIds(whole.content)).toEqual(withoutIds(streamed.content));
      return streamed;
    },
    /** The response's output, streamed (`finalResponse`) and not (`create`): both must be the same but for generated ids. */
    async output() {
      const streamed = await new OpenAI({ baseURL: "http://localhost:8787/v1", ...options() }).responses
        .stream(responses)
        .finalResponse();
      const whole = await new OpenAI({ baseURL: "http://localhost:8787/v1", ...options() }).responses.create(responses);
      // `finalResponse` adds `parsed_arguments` to calls; Gemini's calls have no ids of their own.
      const withoutIds = (output: unknown[]) =>
        output.map((item) => ({ ...(item as object), id: undefined, call_id: undefined, parsed_arguments: undefined }));
      expect(withoutIds(whole.output)).toEqual(withoutIds(streamed.output));
      return streamed.output;
    },
  };
}

describe("a provider's reasoning in the agent's protocol", () => {
  it("Anthropic: Messages reads the signed and redacted thinking as they came; Responses reads them sealed", async () => {
    const { message, output } = clients("anthropic", anthropicThinkingStream);
    expect((await message()).content).toEqual([
      { type: "thinking", thinking: THOUGHT, signature: SIGNATURE },
      { type: "redacted_thinking", data: REDACTED },
      { type: "tool_use", id: "toolu_1", name: "lookup", input: { query: "Paris" } },
    ]);
    const items = await output();
    expect(items.map((item) => item.type)).toEqual(["reasoning", "reasoning", "function_call"]);
    const [signed, redacted] = items as OpenAI.Responses.ResponseReasoningItem[];
    expect(signed!.summary).toEqual([{ type: "summary_text", text: THOUGHT }]);
    expect(unsealPart(signed!.encrypted_content!)).toEqual({ type: "signed", text: THOUGHT, signature: SIGNATURE });
    expect(unsealPart(redacted!.encrypted_content!)).toEqual({ type: "redacted", data: REDACTED });
  });

  it("OpenAI Responses: both read the item sealed, with the provider's id its encrypted content is bound to", async () => {
    const { message, output } = clients("openai-responses", responsesReasoningStream);
    const items = await output();
    expect(items[0]).toMatchObject({ type: "reasoning", summary: [{ type: "summary_text", text: THOUGHT }] });
    expect(unsealPart((items[0] as OpenAI.Responses.ResponseReasoningItem).encrypted_content!)).toEqual({
      type: "item",
      id: "rs_1",
      encryptedContent: ENCRYPTED,
      summary: [{ type: "summary_text", text: THOUGHT }],
    });
    expect(items[1]).toMatchObject({ type: "function_call", call_id: "call_1", arguments: '{"query":"Paris"}' });
    const [thinking, call] = (await message()).content;
    expect(thinking).toMatchObject({ type: "thinking", thinking: THOUGHT });
    expect(unsealPart((thinking as Anthropic.ThinkingBlock).signature)).toEqual({
      type: "item",
      id: "rs_1",
      encryptedContent: ENCRYPTED,
      summary: [{ type: "summary_text", text: THOUGHT }],
    });
    expect(call).toMatchObject({ type: "tool_use", id: "call_1", input: { query: "Paris" } });
  });

  it("Gemini: its thoughts are unsigned thinking and a summary without encrypted content", async () => {
    const { message, output } = clients("gemini", geminiThoughtStream);
    const [thinking, call] = (await message()).content;
    expect(thinking).toEqual({ type: "thinking", thinking: THOUGHT, signature: "" });
    expect(call).toMatchObject({ type: "tool_use", name: "lookup", input: { query: "Paris" } });
    const [item] = await output();
    expect(item).toMatchObject({ type: "reasoning", summary: [{ type: "summary_text", text: THOUGHT }] });
    expect(item).not.toHaveProperty("encrypted_content");
  });
});
