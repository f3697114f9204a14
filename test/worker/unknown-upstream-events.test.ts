// An event type a provider adds later, or a content kind of no release inside a known event
// (test/support/unknown-events.ts: each provider's real recording with them spliced in), changes
// nothing a client of the Worker gets: openai-node's /v1/chat/completions and /v1/responses and
// @anthropic-ai/sdk's /v1/messages read the same text, calls and finish as from the recording alone.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { type Provider, streamToolCalls } from "../../src/index.ts";
import { recordingsAvailable, summarize } from "../support/fixtures.ts";
import { collect, fromChunks } from "../support/streams.ts";
import { type UnknownEventCase, unknownEventCases, unknownKindCases } from "../support/unknown-events.ts";
import { EVERY_PROVIDER_ENV, workerFetch } from "./client-support.ts";
import { FakeUpstream } from "./support.ts";

const CONTENT_TYPE: Partial<Record<Provider, string>> = {
  bedrock: "application/vnd.amazon.eventstream",
  ollama: "application/x-ndjson",
};
const MODEL: Partial<Record<Provider, string>> = { bedrock: "bedrock/amazon.nova-micro-v1:0" };
const base = "http://localhost:8787";
const user = [{ role: "user" as const, content: "Go." }];

const fetchOf = (provider: Provider, body: Uint8Array) =>
  workerFetch({
    env: EVERY_PROVIDER_ENV,
    upstream: new FakeUpstream({
      kind: "sse",
      chunks: [body],
      headers: { "content-type": CONTENT_TYPE[provider] ?? "text/event-stream" },
    }),
  });

/** The tools the recording calls, each declared with an open schema (a call to an undeclared tool is invalid). */
async function toolNames(provider: Provider, body: Uint8Array): Promise<string[]> {
  const events = await collect(streamToolCalls(fromChunks([body]), { provider }));
  return [...new Set(summarize(events).toolCalls.map((call) => call.name))];
}

async function chat(provider: Provider, body: Uint8Array, names: string[]) {
  const client = new OpenAI({ baseURL: `${base}/v1`, apiKey: "t", fetch: fetchOf(provider, body), maxRetries: 0 });
  const completion = await client.chat.completions.create({
    model: MODEL[provider] ?? `${provider}/model-x`,
    messages: user,
    tools: names.map((name) => ({ type: "function" as const, function: { name, parameters: { type: "object" } } })),
  });
  const choice = completion.choices[0]!;
  return {
    text: choice.message.content,
    calls: choice.message.tool_calls?.map((call) =>
      call.type === "function" ? [call.function.name, JSON.parse(call.function.arguments)] : call,
    ),
    finish: choice.finish_reason,
  };
}

async function messages(provider: Provider, body: Uint8Array, names: string[]) {
  const client = new Anthropic({ baseURL: base, apiKey: "t", fetch: fetchOf(provider, body), maxRetries: 0 });
  const message = await client.messages
    .stream({
      model: MODEL[provider] ?? `${provider}/model-x`,
      max_tokens: 1024,
      tools: names.map((name) => ({ name, input_schema: { type: "object" as const, properties: {} } })),
      messages: user,
    })
    .finalMessage();
  return {
    text: message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join(""),
    calls: message.content.flatMap((block) => (block.type === "tool_use" ? [[block.name, block.input]] : [])),
    finish: message.stop_reason,
  };
}

async function responses(provider: Provider, body: Uint8Array, names: string[]) {
  const client = new OpenAI({ baseURL: `${base}/v1`, apiKey: "t", fetch: fetchOf(provider, body), maxRetries: 0 });
  const response = await client.responses
    .stream({
      model: MODEL[provider] ?? `${provider}/model-x`,
      input: "Go.",
      tools: names.map((name) => ({ type: "function" as const, name, parameters: { type: "object" }, strict: false })),
    })
    .finalResponse();
  return {
    text: response.output_text,
    calls: response.output.flatMap((item) =>
      item.type === "function_call" ? [[item.name, JSON.parse(item.arguments)]] : [],
    ),
    finish: [response.status, response.incomplete_details?.reason],
  };
}

const cases: UnknownEventCase[] = [...unknownEventCases, ...unknownKindCases];

describe.skipIf(!recordingsAvailable)("the Worker: events of no release inside a provider's real stream", () => {
  for (const [name, provider, fixture, spliced] of cases)
    describe(name, () => {
      for (const [client, read] of [
        ["/v1/chat/completions (openai-node)", chat],
        ["/v1/messages (@anthropic-ai/sdk)", messages],
        ["/v1/responses (openai-node)", responses],
      ] as const)
        it(client, async () => {
          const names = await toolNames(provider, fixture.body);
          const plain = await read(provider, fixture.body, names);
          expect(plain.text || plain.calls?.length).toBeTruthy();
          expect(await read(provider, spliced(fixture), names)).toEqual(plain);
        });
    });
});
