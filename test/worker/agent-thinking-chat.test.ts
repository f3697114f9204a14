// A thinking model on Chat Completions (DeepSeek, Kimi, GLM) refuses a tool loop whose assistant
// turn lacks its `reasoning_content` ("the reasoning_content must be fully passed back to the API in
// all subsequent requests ... the API will return a 400 error"). A fake of such a provider, strict
// as DeepSeek is, behind the Worker's `openai` upstream: each client protocol's own SDK runs a tool
// loop of two turns, echoing turn 1 as its protocol has it, and turn 2 reaches the provider with the
// reasoning in its field. A client that drops it (the Worker cannot make it up) gets the provider's
// refusal as a 400 `reasoning_required` in its protocol's error shape, so the fake can fail.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { createFetchHandler } from "../../worker/app.ts";
import type { FinishEvent } from "../../src/index.ts";
import { ManualTimers, readSSE, streamRequest } from "./support.ts";
import {
  ANSWER,
  ask,
  clientFetch,
  DeepSeekFake,
  env,
  expectedTurn,
  MODEL,
  RESULT,
  schema,
  THINKING,
} from "./deepseek-fake.ts";

describe("a DeepSeek-style thinking provider's tool loop through every client protocol", () => {
  it("/v1/chat/completions: the client's reasoning_content reaches the provider; without it, the provider's 400", async () => {
    const fake = new DeepSeekFake();
    const openai = new OpenAI({
      baseURL: "http://localhost:8787/v1",
      apiKey: "t",
      fetch: clientFetch(fake),
      maxRetries: 0,
    });
    const tools = [{ type: "function" as const, function: { name: "lookup", parameters: schema } }];
    const stream = await openai.chat.completions.create({
      model: MODEL,
      stream: true,
      tools,
      messages: [{ role: "user", content: ask }],
    });
    let reasoning = "";
    const calls: { id: string; name: string; arguments: string }[] = [];
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as { reasoning_content?: string } & (typeof chunk.choices)[0]["delta"];
      reasoning += delta?.reasoning_content ?? "";
      for (const call of delta?.tool_calls ?? [])
        if (call.id) calls.push({ id: call.id, name: call.function!.name!, arguments: call.function!.arguments ?? "" });
        else calls.at(-1)!.arguments += call.function?.arguments ?? "";
    }
    expect(reasoning).toBe(THINKING);
    const assistant = {
      role: "assistant" as const,
      content: null,
      tool_calls: calls.map((call) => ({
        id: call.id,
        type: "function" as const,
        function: { name: call.name, arguments: call.arguments },
      })),
    };
    const next = (turn: Record<string, unknown>) =>
      openai.chat.completions.create({
        model: MODEL,
        tools,
        messages: [
          { role: "user", content: ask },
          turn as unknown as OpenAI.Chat.ChatCompletionAssistantMessageParam,
          { role: "tool", tool_call_id: calls[0]!.id, content: RESULT },
        ],
      });
    const answer = await next({ ...assistant, reasoning_content: reasoning });
    expect(answer.choices[0]!.message.content).toBe(ANSWER);
    expect(fake.lastAssistant()).toEqual(expectedTurn);
    const refused = await next(assistant).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect(refused).toMatchObject({ status: 400, code: "reasoning_required", type: "invalid_request_error" });
    expect(fake.lastAssistant()).not.toHaveProperty("reasoning_content");
  });

  it("/v1/messages (Claude Code's protocol): the thinking block's sealed signature carries the reasoning_content back", async () => {
    const fake = new DeepSeekFake();
    const anthropic = new Anthropic({
      baseURL: "http://localhost:8787",
      apiKey: "t",
      fetch: clientFetch(fake),
      maxRetries: 0,
    });
    const request = {
      model: MODEL,
      max_tokens: 32_000,
      thinking: { type: "enabled" as const, budget_tokens: 16_000 },
      tools: [{ name: "lookup", input_schema: schema }],
    };
    const first = await anthropic.messages
      .stream({ ...request, messages: [{ role: "user", content: ask }] })
      .finalMessage();
    expect(first.content.map((block) => block.type)).toEqual(["thinking", "tool_use"]);
    const thinking = first.content[0] as Anthropic.ThinkingBlock;
    expect(thinking.thinking).toBe(THINKING);
    expect(thinking.signature).not.toBe("");
    const call = first.content[1] as Anthropic.ToolUseBlock;
    const next = (content: Anthropic.ContentBlockParam[]) =>
      anthropic.messages
        .stream({
          ...request,
          messages: [
            { role: "user", content: ask },
            { role: "assistant", content },
            { role: "user", content: [{ type: "tool_result", tool_use_id: call.id, content: RESULT }] },
          ],
        })
        .finalMessage();
    const second = await next(first.content);
    expect(second.content.find((block) => block.type === "text")).toMatchObject({ text: ANSWER });
    expect(fake.lastAssistant()).toEqual(expectedTurn);
    const refused = await next([call]).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
    expect((refused as Error).message).toContain("reasoning");
  });

  it("/v1/responses (Codex's protocol): the reasoning item's sealed encrypted_content carries the reasoning_content back", async () => {
    const fake = new DeepSeekFake();
    const openai = new OpenAI({
      baseURL: "http://localhost:8787/v1",
      apiKey: "t",
      fetch: clientFetch(fake),
      maxRetries: 0,
    });
    const request = {
      model: MODEL,
      reasoning: { effort: "medium" as const },
      include: ["reasoning.encrypted_content" as const],
      store: false,
      tools: [{ type: "function" as const, name: "lookup", strict: false, parameters: schema }],
    };
    const first = await openai.responses.stream({ ...request, input: ask }).finalResponse();
    expect(first.output.map((item) => item.type)).toEqual(["reasoning", "function_call"]);
    const call = first.output[1] as OpenAI.Responses.ResponseFunctionToolCall;
    const echoed = first.output.map((item) => {
      const { parsed_arguments: _parsed, ...rest } = item as typeof item & { parsed_arguments?: unknown };
      return rest as OpenAI.Responses.ResponseInputItem;
    });
    const next = (items: OpenAI.Responses.ResponseInputItem[]) =>
      openai.responses
        .stream({
          ...request,
          input: [
            { role: "user", content: ask },
            ...items,
            { type: "function_call_output", call_id: call.call_id, output: RESULT },
          ],
        })
        .finalResponse();
    const second = await next(echoed);
    expect(second.output_text).toBe(ANSWER);
    expect(fake.lastAssistant()).toEqual(expectedTurn);
    const refused = await next(echoed.slice(1)).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 400, code: "reasoning_required" });
  });

  it("/v1/stream (the Worker's own events): finish.reasoningParts sent back as reasoning_parts", async () => {
    const fake = new DeepSeekFake();
    const handler = createFetchHandler({ fetch: fake.fetch, timers: new ManualTimers() });
    const body = {
      provider: "openai",
      model: "deepseek-reasoner",
      tools: [{ name: "lookup", parameters: schema }],
      messages: [{ role: "user", content: ask }],
    };
    const first = await readSSE(await handler(streamRequest(body, { headers: { authorization: "Bearer t" } }), env));
    const finish = first.events.at(-1) as FinishEvent;
    expect(finish.reasoningParts).toEqual([{ type: "field", field: "reasoning_content", value: THINKING }]);
    const turn = (parts: unknown) => ({
      ...body,
      messages: [
        { role: "user", content: ask },
        {
          role: "assistant",
          content: "",
          ...(parts ? { reasoning_parts: parts } : {}),
          tool_calls: finish.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })),
        },
        { role: "tool", tool_call_id: finish.toolCalls[0]!.id, content: RESULT },
      ],
    });
    const second = await readSSE(
      await handler(streamRequest(turn(finish.reasoningParts), { headers: { authorization: "Bearer t" } }), env),
    );
    expect((second.events.at(-1) as FinishEvent).text).toBe(ANSWER);
    expect(fake.lastAssistant()).toEqual(expectedTurn);
  });
});
