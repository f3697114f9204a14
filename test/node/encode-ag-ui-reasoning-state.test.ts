// What AG-UI 1.0 gives a run beyond its messages, read by @ag-ui/client's HttpAgent (its event
// verifier on) from AGUIEncoderStream's bytes: the token usage on RUN_FINISHED with the parts of
// it AG-UI's `TokenUsage` names (cache reads and writes, reasoning), and each reasoning block's
// provider state as REASONING_ENCRYPTED_VALUE, which the agent keeps on the reasoning message it
// sends back on the next run. A fetch stub serves the bytes: no network.
import { HttpAgent, type Message } from "@ag-ui/client";
import { EventSchemas } from "@ag-ui/core/schemas";
import { describe, expect, it } from "vitest";
import {
  AGUIEncoderStream,
  streamToolCalls,
  type AGUIEncoderOptions,
  type EncodableEvent,
  type ReasoningPart,
} from "../../src/index.ts";
import { countingIds } from "../support/encoders.ts";
import { collect, fromChunks } from "../support/streams.ts";

const sse = (events: object[]): Uint8Array =>
  new TextEncoder().encode(
    events.map((event) => `event: ${(event as { type: string }).type}\ndata: ${JSON.stringify(event)}\n\n`).join(""),
  );

/** An Anthropic stream: a signed thinking block, a redacted one, text and a call, with cache and usage counts. */
const anthropic = sse([
  {
    type: "message_start",
    message: {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude",
      content: [],
      stop_reason: null,
      usage: { input_tokens: 10, cache_read_input_tokens: 90, cache_creation_input_tokens: 5, output_tokens: 1 },
    },
  },
  { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } },
  { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "Paris, so weather." } },
  { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "SIG_1" } },
  { type: "content_block_stop", index: 0 },
  { type: "content_block_start", index: 1, content_block: { type: "redacted_thinking", data: "REDACTED_1" } },
  { type: "content_block_stop", index: 1 },
  { type: "content_block_start", index: 2, content_block: { type: "text", text: "" } },
  { type: "content_block_delta", index: 2, delta: { type: "text_delta", text: "Checking." } },
  { type: "content_block_stop", index: 2 },
  {
    type: "content_block_start",
    index: 3,
    content_block: { type: "tool_use", id: "toolu_1", name: "weather", input: {} },
  },
  { type: "content_block_delta", index: 3, delta: { type: "input_json_delta", partial_json: '{"city":"Paris"}' } },
  { type: "content_block_stop", index: 3 },
  { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 42 } },
  { type: "message_stop" },
]);

/** Runs an agent whose endpoint answers with `events` encoded with `options`; its events and messages. */
async function run(events: readonly EncodableEvent[], options: Partial<AGUIEncoderOptions> = {}) {
  const seen: Record<string, unknown>[] = [];
  const agent = new HttpAgent({
    url: "http://127.0.0.1:9/agent",
    threadId: "thread_1",
    fetch: async () =>
      new Response(
        fromChunks(events).pipeThrough(
          new AGUIEncoderStream({ threadId: "thread_1", runId: "run_1", generateId: countingIds(), ...options }),
        ),
        { headers: { "content-type": "text/event-stream" } },
      ),
  });
  await agent.runAgent({ runId: "run_1" }, { onEvent: ({ event }) => void seen.push(event as never) });
  for (const event of seen) expect(EventSchemas.safeParse(event).error).toBeUndefined();
  return { seen, messages: agent.messages as (Message & { encryptedValue?: string })[] };
}

describe("@ag-ui/client reads what AG-UI 1.0 carries beside the messages", () => {
  it("RUN_FINISHED's usage has the cache reads and writes of the input, as TokenUsage names them", async () => {
    const events = await collect(streamToolCalls(fromChunks([anthropic]), { provider: "anthropic" }));
    const { seen } = await run(events);
    expect(seen.find((event) => event["type"] === "RUN_FINISHED")?.["usage"]).toEqual([
      { inputTokens: 105, outputTokens: 42, totalTokens: 147, cachedInputTokens: 90, cacheWriteInputTokens: 5 },
    ]);
  });

  it("and the reasoning tokens of the output", async () => {
    const usage = { inputTokens: 20, outputTokens: 50, totalTokens: 70, reasoningTokens: 30, raw: {} };
    const events: EncodableEvent[] = [
      { type: "text-delta", text: "Hi." },
      {
        type: "finish",
        reason: "stop",
        rawReason: "stop",
        toolCalls: [],
        invalidToolCalls: [],
        text: "Hi.",
        reasoning: "",
        usage,
      },
    ];
    const { seen } = await run(events);
    expect(seen.find((event) => event["type"] === "RUN_FINISHED")?.["usage"]).toEqual([
      { inputTokens: 20, outputTokens: 50, totalTokens: 70, reasoningTokens: 30 },
    ]);
  });

  it("with encryptedValue, each block's state is on its own reasoning message the agent keeps; without, none", async () => {
    const events = await collect(streamToolCalls(fromChunks([anthropic]), { provider: "anthropic" }));
    const encryptedValue = (part: ReasoningPart) =>
      part.type === "signed" ? part.signature : part.type === "redacted" ? part.data : undefined;
    const { messages } = await run(events, { encryptedValue });
    expect(messages.map((m) => [m.role, m.content, m.encryptedValue])).toEqual([
      ["reasoning", "Paris, so weather.", "SIG_1"],
      ["reasoning", "", "REDACTED_1"],
      ["assistant", "Checking.", undefined],
    ]);
    const plain = await run(events);
    expect(plain.messages.map((m) => [m.role, m.encryptedValue])).toEqual([
      ["reasoning", undefined],
      ["assistant", undefined],
    ]);
  });

  it("reasoning: false sends no reasoning message, and so no state", async () => {
    const events = await collect(streamToolCalls(fromChunks([anthropic]), { provider: "anthropic" }));
    const { seen } = await run(events, { reasoning: false, encryptedValue: () => "x" });
    expect(seen.filter((event) => String(event["type"]).startsWith("REASONING"))).toEqual([]);
  });
});
