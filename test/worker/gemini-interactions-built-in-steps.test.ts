// Gemini Interactions' built-in tool steps (google_search, code_execution, url_context, MCP)
// through the Worker's client protocols. The provider ran them: no client is shown a call to run
// for them, yet the Interactions API gets the conversation whole on the next turn (the Worker sends
// no previous_interaction_id), so the steps go back in their place. A Messages client carries each
// step in a thinking block's signature, a Responses client in a reasoning item's encrypted_content
// (worker/protocols/interactions-steps.ts); Chat Completions has no field its clients echo, so there
// the next turn goes without them. The real clients (@anthropic-ai/sdk as Claude Code, openai-node
// as Codex and as a Chat Completions app) against a fake Interactions API that streams the docs'
// example (test/recordings/gemini-interactions/docs-function-call-with-google-search) and the SDK's
// shapes of code_execution, url_context and MCP steps (sdk-server-tool-steps).
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { assistantMessage, streamToolCalls, type FinishEvent } from "../../src/index.ts";
import { allFixtures } from "../support/fixtures.ts";
import { collect, fromChunks } from "../support/streams.ts";
import { anthropicSse, textBlock } from "./anthropic-blocks.ts";
import { workerFetch } from "./client-support.ts";
import { readConformingResponse } from "../support/open-responses.ts";
import { sharedData } from "../support/shared-data.ts";
import { post } from "./client-support.ts";
import { FakeUpstream, responses, testEnv, worker } from "./support.ts";

const env = testEnv({ GEMINI_API_KEY: "AIza-test-0123456789", CLIENT_TOKEN: "t" });
const MODEL = "gemini-interactions/gemini-3-flash-preview";
const PROMPT = "What is the weather on Europe's largest mountain?";
const SCHEMA = { type: "object" as const, properties: { location: { type: "string" } } };

const documented = (name: string) => {
  const found = allFixtures.find((f) => f.provider === "gemini-interactions" && f.name === name);
  if (!found) throw new Error(`no documented stream ${name}`);
  return found;
};
const upstreamOf = (name: string): FakeUpstream =>
  new FakeUpstream({ kind: "sse", chunks: [documented(name).text], headers: { "content-type": "text/event-stream" } });

/** The turn as the library sends it back itself (assistantMessage): the steps the Worker must send after the prompt. */
async function libraryTurn(name: string): Promise<Record<string, unknown>[]> {
  const events = await collect(
    streamToolCalls(fromChunks([documented(name).body]), { provider: "gemini-interactions" }),
  );
  return assistantMessage("gemini-interactions", events.at(-1) as FinishEvent) as Record<string, unknown>[];
}

const userInput = { type: "user_input", content: [{ type: "text", text: PROMPT }] };
const result = { type: "function_result", call_id: "ktr5aysg", name: "get_weather", result: "-12 C" };

describe("Gemini Interactions built-in tool steps through the client protocols", () => {
  it("/v1/messages (@anthropic-ai/sdk): no tool_use for a built-in step (each is a thinking block); the next turn sends the steps back in place", async () => {
    const upstream = upstreamOf("docs-function-call-with-google-search");
    const client = new Anthropic({
      baseURL: "http://localhost:8787",
      apiKey: "t",
      fetch: workerFetch({ env, upstream }),
      maxRetries: 0,
    });
    const tools = [{ name: "get_weather", input_schema: SCHEMA }];
    const message = await client.messages
      .stream({ model: MODEL, max_tokens: 256, tools, messages: [{ role: "user", content: PROMPT }] })
      .finalMessage();
    // The search call and its result, then the thought: thinking blocks; the one call to run: get_weather.
    expect(message.content.map((block) => block.type)).toEqual(["thinking", "thinking", "thinking", "tool_use"]);
    expect(message.content.filter((block) => block.type === "tool_use").map((block) => block.name)).toEqual([
      "get_weather",
    ]);
    expect(message.stop_reason).toBe("tool_use");
    const call = message.content.find((block) => block.type === "tool_use")!;
    await client.messages
      .create({
        model: MODEL,
        max_tokens: 256,
        stream: true,
        tools,
        messages: [
          { role: "user", content: PROMPT },
          { role: "assistant", content: message.content },
          { role: "user", content: [{ type: "tool_result", tool_use_id: call.id, content: "-12 C" }] },
        ],
      })
      .catch(() => undefined);
    const turn = await libraryTurn("docs-function-call-with-google-search");
    expect(turn.map((step) => step["type"])).toEqual([
      "google_search_call",
      "google_search_result",
      "thought",
      "function_call",
    ]);
    expect(upstream.requests[1]?.body["input"]).toEqual([userInput, ...turn, result]);
  });

  it("/v1/responses (openai-node, as Codex): reasoning items carry the steps, no function_call for them; the next turn sends them back in place", async () => {
    const upstream = upstreamOf("docs-function-call-with-google-search");
    const client = new OpenAI({
      baseURL: "http://localhost:8787/v1",
      apiKey: "t",
      fetch: workerFetch({ env, upstream }),
      maxRetries: 0,
    });
    const tools = [{ type: "function" as const, name: "get_weather", parameters: SCHEMA, strict: false as const }];
    const response = await client.responses
      .stream({ model: MODEL, input: PROMPT, tools, store: false, include: ["reasoning.encrypted_content"] })
      .finalResponse();
    expect(response.output.map((item) => item.type)).toEqual(["reasoning", "reasoning", "reasoning", "function_call"]);
    const call = response.output.find((item) => item.type === "function_call")!;
    expect(call.name).toBe("get_weather");
    await client.responses
      .create({
        model: MODEL,
        stream: true,
        store: false,
        tools,
        input: [
          { role: "user", content: PROMPT },
          ...response.output.map((item) => ({ ...item }) as OpenAI.Responses.ResponseInputItem),
          { type: "function_call_output", call_id: call.call_id, output: "-12 C" },
        ],
      })
      .catch(() => undefined);
    const turn = await libraryTurn("docs-function-call-with-google-search");
    expect(upstream.requests[1]?.body["input"]).toEqual([userInput, ...turn, result]);
  });

  it("/v1/responses stored (previous_response_id): the stored reasoning items carry the steps to the next turn; the items conform to Open Responses", async () => {
    const upstream = upstreamOf("docs-function-call-with-google-search");
    const app = worker(upstream);
    const stored = { ...env, RESPONSES: responses };
    const tools = [{ type: "function", name: "get_weather", parameters: SCHEMA }];
    const send = (body: Record<string, unknown>) =>
      app.call(
        post("/v1/responses", { model: MODEL, tools, ...body }, { headers: { authorization: "Bearer t" } }),
        stored,
      );
    const answer = await send({ input: PROMPT });
    let first: Record<string, unknown>;
    if (sharedData["open-responses"].available) {
      const { issues, response } = await readConformingResponse(answer);
      expect(issues).toEqual([]);
      first = response!;
    } else first = (await answer.json()) as Record<string, unknown>;
    const output = first["output"] as { type: string; call_id?: string }[];
    expect(output.map((item) => item.type)).toEqual(["reasoning", "reasoning", "reasoning", "function_call"]);
    const call = output.find((item) => item.type === "function_call")!;
    await (
      await send({
        previous_response_id: first["id"],
        input: [{ type: "function_call_output", call_id: call.call_id, output: "-12 C" }],
      })
    ).text();
    const turn = await libraryTurn("docs-function-call-with-google-search");
    expect(upstream.requests[1]?.body["input"]).toEqual([userInput, ...turn, result]);
  });

  it("code_execution, url_context and MCP steps: each carried through /v1/responses and /v1/messages and sent back as it streamed", async () => {
    const turn = await libraryTurn("sdk-server-tool-steps");
    expect(turn.map((step) => step["type"])).toEqual([
      "code_execution_call",
      "code_execution_result",
      "url_context_call",
      "url_context_result",
      "mcp_server_tool_call",
      "mcp_server_tool_result",
      "model_output",
    ]);
    const prompt = { type: "user_input", content: [{ type: "text", text: "Run it." }] };
    const next = { type: "user_input", content: [{ type: "text", text: "Thanks." }] };

    const responses = upstreamOf("sdk-server-tool-steps");
    const openai = new OpenAI({
      baseURL: "http://localhost:8787/v1",
      apiKey: "t",
      fetch: workerFetch({ env, upstream: responses }),
      maxRetries: 0,
    });
    const response = await openai.responses.create({ model: MODEL, input: "Run it.", store: false });
    expect(response.output.map((item) => item.type)).toEqual([...Array(6).fill("reasoning"), "message"]);
    expect(response.output_text).toBe("2 ** 10 is 1024; the page loaded, and T-7 is open.");
    await openai.responses.create({
      model: MODEL,
      store: false,
      input: [
        { role: "user", content: "Run it." },
        ...response.output.map((item) => ({ ...item }) as OpenAI.Responses.ResponseInputItem),
        { role: "user", content: "Thanks." },
      ],
    });
    expect(responses.requests[1]?.body["input"]).toEqual([prompt, ...turn, next]);

    const messages = upstreamOf("sdk-server-tool-steps");
    const anthropic = new Anthropic({
      baseURL: "http://localhost:8787",
      apiKey: "t",
      fetch: workerFetch({ env, upstream: messages }),
      maxRetries: 0,
    });
    const message = await anthropic.messages.create({
      model: MODEL,
      max_tokens: 256,
      messages: [{ role: "user", content: "Run it." }],
    });
    expect(message.content.map((block) => block.type)).toEqual([...Array(6).fill("thinking"), "text"]);
    expect(message.stop_reason).toBe("end_turn");
    await anthropic.messages.create({
      model: MODEL,
      max_tokens: 256,
      messages: [
        { role: "user", content: "Run it." },
        { role: "assistant", content: message.content },
        { role: "user", content: "Thanks." },
      ],
    });
    expect(messages.requests[1]?.body["input"]).toEqual([prompt, ...turn, next]);
  });

  it("/v1/chat/completions (openai-node): no tool_calls entry for a built-in step; no field carries the steps, so the next turn goes without them", async () => {
    const upstream = upstreamOf("docs-function-call-with-google-search");
    const client = new OpenAI({
      baseURL: "http://localhost:8787/v1",
      apiKey: "t",
      fetch: workerFetch({ env, upstream }),
      maxRetries: 0,
    });
    const tools = [{ type: "function" as const, function: { name: "get_weather", parameters: SCHEMA } }];
    const completion = await client.chat.completions.create({
      model: MODEL,
      tools,
      messages: [{ role: "user", content: PROMPT }],
    });
    const message = completion.choices[0]!.message;
    expect(message.tool_calls?.map((call) => call.type === "function" && call.function.name)).toEqual(["get_weather"]);
    expect(completion.choices[0]!.finish_reason).toBe("tool_calls");
    await client.chat.completions.create({
      model: MODEL,
      tools,
      messages: [
        { role: "user", content: PROMPT },
        message,
        { role: "tool", tool_call_id: message.tool_calls![0]!.id, content: "-12 C" },
      ],
    });
    const input = upstream.requests[1]?.body["input"] as Record<string, unknown>[];
    expect(input.map((step) => step["type"])).toEqual(["user_input", "function_call", "function_result"]);
  });

  it("an Anthropic upstream never gets an Interactions step a client carried back: only its own kept blocks", async () => {
    const upstream = upstreamOf("docs-function-call-with-google-search");
    const client = new Anthropic({
      baseURL: "http://localhost:8787",
      apiKey: "t",
      fetch: workerFetch({ env, upstream }),
      maxRetries: 0,
    });
    const message = await client.messages.create({
      model: MODEL,
      max_tokens: 256,
      messages: [{ role: "user", content: PROMPT }],
    });
    const anthropicUpstream = new FakeUpstream({
      kind: "sse",
      chunks: anthropicSse(
        { type: "message_start", message: { id: "msg_1", content: [], usage: { input_tokens: 5, output_tokens: 1 } } },
        ...textBlock(0, "Cold."),
        { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 2 } },
        { type: "message_stop" },
      ),
    });
    const toAnthropic = new Anthropic({
      baseURL: "http://localhost:8787",
      apiKey: "t",
      fetch: workerFetch({ env: testEnv({ ANTHROPIC_API_KEY: "k", CLIENT_TOKEN: "t" }), upstream: anthropicUpstream }),
      maxRetries: 0,
    });
    const thinking = message.content.filter((block) => block.type === "thinking");
    expect(thinking).toHaveLength(3);
    await toAnthropic.messages.create({
      model: "anthropic/claude-sonnet-4-5",
      max_tokens: 256,
      messages: [
        { role: "user", content: PROMPT },
        { role: "assistant", content: [...thinking, { type: "text", text: "Checking." }] },
        { role: "user", content: "Go on." },
      ],
    });
    const { body } = anthropicUpstream.requests[0]!;
    const assistant = (body["messages"] as { role: string; content: { type: string }[] }[])[1]!;
    expect(assistant.content.map((block) => block.type)).not.toContain("google_search_call");
    expect(JSON.stringify(assistant.content)).not.toContain("google_search");
  });
});
