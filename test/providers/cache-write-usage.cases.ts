// OpenAI's cache writes in the usage. With explicit cache breakpoints (GPT-5.6 and later), OpenAI
// bills the input tokens written to the cache at 1.25x and reports them as `cache_write_tokens`
// beside `cached_tokens` (the reads): in `usage.input_tokens_details` on Responses, in
// `usage.prompt_tokens_details` on Chat Completions (OpenAI's prompt caching guide; OpenRouter
// reports the same field there). Both are slices of the input count, which already holds them
// (18,014 = 3 + 18,011 written + 0 read on a first request): the usage's `inputTokens` stays the
// provider's count, `cacheWriteTokens` is the write. Before, the write was left in `raw` only: an
// application pricing the turn from `cacheReadTokens` and `cacheWriteTokens` billed it as plain input.
//
// Provenance: the Responses body is BUILT BY HAND in the shape of vercel/ai's recording of gpt-5.1
// (packages/openai/src/responses/__fixtures__/issue-19493-gpt-5.1-tool-call.chunks.txt at 81a6ad7:
// `input_tokens_details: { cache_write_tokens, cached_tokens }`), the Chat one in the shape of the
// guide's usage object, each with this project's own ids, tool and counts.
import fc from "fast-check";
import { streamToolCalls, type Provider, type ToolCallEvent, type Usage } from "../../src/index.ts";
import { assertEquals, group } from "../support/harness.ts";
import { assertEventInvariants, assertFinished } from "../support/invariants.ts";
import { bytes, collect, fromChunks, splitAt } from "../support/streams.ts";

const ARGS = '{"harbour":"Roscoff"}';

const responses = (usage: object): string =>
  [
    { type: "response.created", response: { id: "resp_1", status: "in_progress", output: [] } },
    {
      type: "response.output_item.added",
      item: {
        id: "fc_1",
        type: "function_call",
        status: "in_progress",
        arguments: "",
        call_id: "call_1",
        name: "tide_table",
      },
      output_index: 0,
    },
    { type: "response.function_call_arguments.delta", delta: ARGS, item_id: "fc_1", output_index: 0 },
    { type: "response.function_call_arguments.done", arguments: ARGS, item_id: "fc_1", output_index: 0 },
    { type: "response.completed", response: { id: "resp_1", status: "completed", output: [], usage } },
  ]
    .map((p, sequence_number) => `event: ${p.type}\ndata: ${JSON.stringify({ ...p, sequence_number })}\n\n`)
    .join("");

const chat = (usage: object): string =>
  [
    {
      id: "c1",
      object: "chat.completion.chunk",
      model: "gpt-5.6",
      choices: [
        {
          index: 0,
          delta: {
            role: "assistant",
            tool_calls: [
              { index: 0, id: "call_1", type: "function", function: { name: "tide_table", arguments: ARGS } },
            ],
          },
        },
      ],
    },
    {
      id: "c1",
      object: "chat.completion.chunk",
      model: "gpt-5.6",
      choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }],
    },
    { id: "c1", object: "chat.completion.chunk", model: "gpt-5.6", choices: [], usage },
  ]
    .map((p) => `data: ${JSON.stringify(p)}\n\n`)
    .concat("data: [DONE]\n\n")
    .join("");

const CASES: [Provider, string, Omit<Usage, "raw">][] = [
  [
    "openai-responses",
    responses({
      input_tokens: 18014,
      input_tokens_details: { cache_write_tokens: 18011, cached_tokens: 0 },
      output_tokens: 25,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 18039,
    }),
    {
      inputTokens: 18014,
      outputTokens: 25,
      totalTokens: 18039,
      cacheReadTokens: 0,
      cacheWriteTokens: 18011,
      reasoningTokens: 0,
    },
  ],
  [
    "openai",
    chat({
      prompt_tokens: 2406,
      completion_tokens: 30,
      total_tokens: 2436,
      prompt_tokens_details: { cached_tokens: 2000, cache_write_tokens: 400 },
      completion_tokens_details: { reasoning_tokens: 12 },
    }),
    {
      inputTokens: 2406,
      outputTokens: 30,
      totalTokens: 2436,
      cacheReadTokens: 2000,
      cacheWriteTokens: 400,
      reasoningTokens: 12,
    },
  ],
];

async function run(provider: Provider, chunks: Uint8Array[]): Promise<ToolCallEvent[]> {
  const events = await collect(streamToolCalls(fromChunks(chunks), { provider }));
  assertEventInvariants(events);
  return events;
}

group("OpenAI's cache writes in the usage (cache_write_tokens)", (test) => {
  for (const [provider, body, counts] of CASES) {
    test(`${provider}: the input tokens written to the cache are the usage's cacheWriteTokens`, async () => {
      const finish = assertFinished(await run(provider, [bytes(body)]));
      const { raw, ...usage } = finish.usage!;
      assertEquals(usage, counts);
      assertEquals(
        finish.toolCalls.map((call) => call.arguments),
        [{ harbour: "Roscoff" }],
      );
    });
  }

  test("any split of the bytes gives the same events", async () => {
    for (const [provider, body] of CASES) {
      const data = bytes(body);
      const whole = await run(provider, [data]);
      await fc.assert(
        fc.asyncProperty(fc.array(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 30 }), async (cuts) => {
          assertEquals(await run(provider, splitAt(data, cuts)), whole);
        }),
        { seed: 2026, numRuns: 8 },
      );
    }
  });
});
