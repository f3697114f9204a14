// Anthropic's `compaction` and `fallback` blocks through `/v1/responses` (issue 34): Responses has
// no item for them, so each is a reasoning item of its own, in its place, whose encrypted_content
// seals the block (worker/protocols/reasoning-state.ts), which Responses clients send back
// unchanged. A fake Anthropic streams a turn as the refusals-and-fallback guide and the SDK's types
// describe it: a compaction block, the first model's thinking, text and a call the refusal cut
// off, the fallback block, the fallback model's thinking, text and call. Every event is checked
// against the Open Responses schemas, and openai-node's next turn reaches Anthropic as the
// fallback Param doc asks: the blocks in place, the cut call left out, no tool_result for it
// (`withdrawnItems`, worker/protocols/openai-responses/withdrawn-calls.ts).
import type { BetaMessageParam } from "@anthropic-ai/sdk/resources/beta/messages/messages";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { readConformingStream } from "../support/open-responses.ts";
import { sharedData } from "../support/shared-data.ts";
import { anthropicSse, FALLBACK, textBlock, thinkingBlock, toolUseBlock } from "./anthropic-blocks.ts";
import { post, workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv, worker } from "./support.ts";

const env = testEnv({ ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "https://provider.test/v1", CLIENT_TOKEN: "t" });
const MODEL = "anthropic/claude-fable-5";
const AUTH = { headers: { authorization: "Bearer t" } };
const COMPACTION = { type: "compaction", content: "Earlier: the user owns hosts 1 to 3.", encrypted_content: "ENC1" };
const TOOLS = [
  { type: "function" as const, name: "run_scan", strict: false, parameters: { type: "object", properties: {} } },
  { type: "function" as const, name: "list_hosts", strict: false, parameters: { type: "object", properties: {} } },
];

/** The turn: compaction, then the refused model's thinking, text and cut call, the fallback, the fallback model's turn. */
const fallbackTurn = (): FakeUpstream =>
  new FakeUpstream({
    kind: "sse",
    chunks: anthropicSse(
      { type: "message_start", message: { id: "msg_fb", content: [], usage: { input_tokens: 50, output_tokens: 1 } } },
      { type: "content_block_start", index: 0, content_block: { type: "compaction", content: null } },
      { type: "content_block_delta", index: 0, delta: { ...COMPACTION, type: "compaction_delta" } },
      { type: "content_block_stop", index: 0 },
      ...thinkingBlock(1, "The user wants a port scan.", "EqA1sigA"),
      ...textBlock(2, "Scanning now. "),
      ...toolUseBlock(3, "toolu_cut", "run_scan", '{"target": "10.0.0.'),
      { type: "content_block_start", index: 4, content_block: FALLBACK },
      { type: "content_block_stop", index: 4 },
      ...thinkingBlock(5, "Check what the user owns first.", "EqB2sigB"),
      ...textBlock(6, "Let me check the inventory."),
      ...toolUseBlock(7, "toolu_ok", "list_hosts", '{"owner": "me"}'),
      { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 40 } },
      { type: "message_stop" },
    ),
  });

type Item = Record<string, unknown> & { type: string };

/** The output of a streamed response's `response.completed` (its `data:` line). */
const completedOutput = (text: string): Item[] => {
  const data = text
    .split("\n")
    .filter((line) => line.startsWith('data: {"type":"response.completed"'))
    .at(-1);
  return (JSON.parse(data!.slice("data: ".length)) as { response: { output: Item[] } }).response.output;
};

describe("Anthropic's compaction and fallback blocks through /v1/responses", () => {
  it.skipIf(!sharedData["open-responses"].available)(
    "each is a reasoning item in its place, its encrypted_content sealing it; every event conforms",
    async () => {
      const answer = await worker(fallbackTurn()).call(
        post(
          "/v1/responses",
          { model: MODEL, input: "Scan my network.", tools: TOOLS, stream: true },
          {
            headers: { authorization: "Bearer t" },
          },
        ),
        env,
      );
      const { issues, response } = await readConformingStream(answer);
      expect(issues).toEqual([]);
      expect(response?.["status"]).toBe("completed");
      const output = response!["output"] as Item[];
      expect(
        output.map((item) => [item.type, item["name"] ?? (item["summary"] as unknown[] | undefined)?.length]),
      ).toEqual([
        ["reasoning", 0], // the compaction block
        ["reasoning", 1], // the refused model's thinking
        ["message", undefined],
        // The cut call began before the fallback withdrew it: Responses cannot take an item back.
        ["function_call", "run_scan"],
        ["reasoning", 0], // the fallback block
        ["reasoning", 1], // the fallback model's thinking
        ["message", undefined],
        ["function_call", "list_hosts"],
      ]);
      for (const item of output.filter((item) => item.type === "reasoning"))
        expect(String(item["encrypted_content"])).toMatch(/^tcs1\./);
    },
  );

  it("parallel_tool_calls false: the call the fallback withdrew leaves its place to the fallback model's call", async () => {
    for (const stream of [true, false]) {
      const body = { model: MODEL, input: "Scan my network.", tools: TOOLS, parallel_tool_calls: false, stream };
      const answer = await worker(fallbackTurn()).call(post("/v1/responses", body, AUTH), env);
      const output = stream
        ? completedOutput(await answer.text())
        : ((await answer.json()) as { output: Item[] }).output;
      // The cut call was shown (it began), the one to run is the fallback model's.
      expect(output.filter((item) => item.type === "function_call").map((item) => item["name"])).toEqual([
        "run_scan",
        "list_hosts",
      ]);
    }
  });

  it("openai-node's next turn brings them back: Anthropic gets them in place, the cut call and its output left out", async () => {
    const upstream = fallbackTurn();
    const openai = new OpenAI({
      baseURL: "http://localhost:8787/v1",
      apiKey: "t",
      fetch: workerFetch({ env, upstream }),
      maxRetries: 0,
    });
    const request = { model: MODEL, tools: TOOLS, store: false, include: ["reasoning.encrypted_content" as const] };
    const first = await openai.responses.stream({ ...request, input: "Scan my network." }).finalResponse();
    const echoed = first.output.map((item) => {
      const { parsed_arguments: _parsed, ...rest } = item as typeof item & { parsed_arguments?: unknown };
      return rest as OpenAI.Responses.ResponseInputItem;
    });
    const calls = first.output.filter((item) => item.type === "function_call");
    expect(calls.map((item) => item.name)).toEqual(["run_scan", "list_hosts"]);
    upstream.answer = { kind: "sse", chunks: anthropicSse({ type: "message_stop" }) };
    // A client that ran every call it got, the withdrawn one too, and answers them all.
    await openai.responses
      .create({
        ...request,
        input: [
          { role: "user", content: "Scan my network." },
          ...echoed,
          ...calls.map((item) => ({ type: "function_call_output" as const, call_id: item.call_id, output: "host-1" })),
        ],
      })
      .catch(() => undefined);
    const sent = upstream.requests[1]!.body as { messages: BetaMessageParam[] };
    expect(sent.messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: [
          COMPACTION,
          { type: "thinking", thinking: "The user wants a port scan.", signature: "EqA1sigA" },
          // In the order the client's items came: the first model's text before the fallback.
          { type: "text", text: "Scanning now. " },
          FALLBACK,
          { type: "thinking", thinking: "Check what the user owns first.", signature: "EqB2sigB" },
          { type: "text", text: "Let me check the inventory." },
          { type: "tool_use", id: "toolu_ok", name: "list_hosts", input: { owner: "me" } },
        ],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_ok", content: "host-1" }] },
    ]);
  });
});
