// The input tokens written to the provider's cache (the usage's `cacheWriteTokens`, billed at
// 1.25x) through the OpenAI encoders: Chat Completions writes them as
// `usage.prompt_tokens_details.cache_write_tokens` and Responses as
// `usage.input_tokens_details.cache_write_tokens`, beside `cached_tokens`, where openai 6.49.0's
// `CompletionUsage.PromptTokensDetails` and `ResponseUsage.InputTokensDetails` have them, streamed
// and whole. A usage without them is written as before, without the field. The stream is the
// Anthropic recording thinking-then-tool-use (13,993 input tokens read from the cache, 22 written).
import { readOpenAIChatCompletion, readOpenAIResponse, type EncodableEvent, type Usage } from "../../src/index.ts";
import { readResponsesEvents } from "../support/agent-protocol-readers.ts";
import { ENCODERS, encodeAll, fixtureEvents } from "../support/encoders.ts";
import { recording } from "../support/fixtures.ts";
import { assertEquals, group } from "../support/harness.ts";
import { readChatChunks } from "../support/protocol-readers.ts";
import { fromChunks } from "../support/streams.ts";

const recorded = (): Promise<EncodableEvent[]> => fixtureEvents(recording("anthropic", "thinking-then-tool-use"));
/** The recording with `usage` in place of what the provider reported. */
const reported = async (usage: Usage): Promise<EncodableEvent[]> =>
  (await recorded()).map((event) => ("usage" in event && event.usage ? { ...event, usage } : event));

/** The usage both encoders write, streamed and whole: Chat's, then Responses'. */
async function written(events: EncodableEvent[]): Promise<[unknown, unknown]> {
  const chat = readChatChunks(encodeAll(ENCODERS.openai(), events)).usage;
  const completion = await readOpenAIChatCompletion(fromChunks(events), { model: "m", created: 1 });
  assertEquals(completion.type === "completion" && completion.completion.usage, chat, "whole = streamed (Chat)");
  const responses = readResponsesEvents(encodeAll(ENCODERS.responses(), events)).response["usage"];
  const whole = await readOpenAIResponse(fromChunks(events), { model: "m" });
  assertEquals(whole.response.usage, responses, "whole = streamed (Responses)");
  return [chat, responses];
}

group(
  "the cache writes through the OpenAI Chat and Responses encoders (cache_write_tokens)",
  (test) => {
    test("Anthropic's cache_creation_input_tokens is cache_write_tokens beside cached_tokens", async () => {
      const [chat, responses] = await written(await recorded());
      assertEquals(chat, {
        prompt_tokens: 14017,
        completion_tokens: 61,
        total_tokens: 14078,
        prompt_tokens_details: { cached_tokens: 13993, cache_write_tokens: 22 },
      });
      assertEquals(responses, {
        input_tokens: 14017,
        input_tokens_details: { cached_tokens: 13993, cache_write_tokens: 22 },
        output_tokens: 61,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 14078,
      });
    });

    test("writes without reads: Chat's details are written with 0 read, as Responses' always are", async () => {
      const usage: Usage = { inputTokens: 30, outputTokens: 2, cacheWriteTokens: 25, raw: {} };
      const [chat, responses] = await written(await reported(usage));
      const details = { cached_tokens: 0, cache_write_tokens: 25 };
      assertEquals((chat as { prompt_tokens_details: unknown }).prompt_tokens_details, details);
      assertEquals((responses as { input_tokens_details: unknown }).input_tokens_details, details);
    });

    test("a usage without cache writes: Chat writes no cache_write_tokens, Responses writes 0 (as OpenAI sends it)", async () => {
      for (const read of [40, undefined]) {
        const usage: Usage = {
          inputTokens: 50,
          outputTokens: 3,
          raw: {},
          ...(read !== undefined && { cacheReadTokens: read }),
        };
        const [chat, responses] = await written(await reported(usage));
        const details = read === undefined ? undefined : { cached_tokens: read };
        assertEquals((chat as { prompt_tokens_details?: unknown }).prompt_tokens_details, details);
        assertEquals((responses as { input_tokens_details: unknown }).input_tokens_details, {
          cached_tokens: read ?? 0,
          cache_write_tokens: 0,
        });
      }
    });
  },
  { needs: ["recordings"] },
);
