// Anthropic's `usage.iterations` (@anthropic-ai/sdk 1.17.0, src/resources/beta/messages/
// messages.ts `BetaIterationsUsage` on `BetaUsage` and `BetaMessageDeltaUsage`): one entry per
// sampling iteration, by `type`. "A `compaction` entry reports the token usage of the compaction
// operation itself ... A `compaction` entry's tokens are not included in the top-level `usage`
// fields", though Anthropic bills them; an `advisor_message` entry (`BetaAdvisorMessageIterationUsage`,
// "an advisor sub-inference iteration") is billed at the advisor model's rates and left out of the
// top level as well; `message` entries are the turn's own sampling, which the top level counts.
// The usage counts the compaction's tokens (input, output, cache reads and writes), so that what a
// compacting turn cost is its usage; an advisor's, another model's, stays in `raw` only.
//
// Provenance: the numbers are the compaction guide's example response (top level 23,000 input and
// 1,000 output tokens; a compaction iteration of 180,000 and 3,500); the stream is built by hand in
// the shape Anthropic streams a message (`message_start` with its usage, `iterations` null, the
// text, the `message_delta` carrying the final usage with `iterations`, `message_stop`); ids made up.
import { streamToolCalls, type Usage } from "../../../src/index.ts";
import { assertEquals, group } from "../../support/harness.ts";
import { assertFinished } from "../../support/invariants.ts";
import { bytes, collect, fromChunks } from "../../support/streams.ts";
import { anthropicSse } from "./turn-blocks-recordings.ts";

const COMPACTION = {
  type: "compaction",
  input_tokens: 180_000,
  output_tokens: 3_500,
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 0,
  cache_creation: null,
};
const TURN = { ...COMPACTION, type: "message", input_tokens: 23_000, output_tokens: 1_000, model: "claude-fable-5" };
const ADVISOR = { ...TURN, type: "advisor_message", input_tokens: 900, output_tokens: 120, model: "claude-advisor-5" };
const TOP = { input_tokens: 23_000, output_tokens: 1_000, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };

const MESSAGE = { id: "msg_compacted", type: "message", role: "assistant", model: "claude-fable-5" };

function compacted(iterations: unknown[], top: Record<string, number> = TOP): string {
  return anthropicSse(
    {
      type: "message_start",
      message: { ...MESSAGE, content: [], usage: { ...top, output_tokens: 1, iterations: null } },
    },
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Based on our conversation" } },
    { type: "content_block_stop", index: 0 },
    { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { ...top, iterations } },
    { type: "message_stop" },
  );
}

const counts = ({ raw: _raw, ...usage }: Usage): Omit<Usage, "raw"> => usage;
const usageOf = async (body: string): Promise<Usage | undefined> =>
  assertFinished(await collect(streamToolCalls(fromChunks([bytes(body)]), { provider: "anthropic" }))).usage;

group("Anthropic usage.iterations: a compaction's tokens", (test) => {
  test("a compaction iteration's tokens, left out of the top level, are counted", async () => {
    const usage = (await usageOf(compacted([COMPACTION, TURN])))!;
    assertEquals(counts(usage), {
      inputTokens: 203_000,
      outputTokens: 4_500,
      totalTokens: 207_500,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
  });

  test("its cache reads and writes are input it read and wrote", async () => {
    const cached = {
      ...COMPACTION,
      input_tokens: 2_000,
      cache_read_input_tokens: 150_000,
      cache_creation_input_tokens: 28_000,
    };
    const top = { ...TOP, input_tokens: 3_000, cache_read_input_tokens: 20_000 };
    const usage = (await usageOf(compacted([cached, TURN], top)))!;
    assertEquals(
      [usage.inputTokens, usage.cacheReadTokens, usage.cacheWriteTokens, usage.outputTokens],
      [3_000 + 20_000 + 2_000 + 150_000 + 28_000, 170_000, 28_000, 4_500],
    );
  });

  test("a whole Message's usage counts them too", async () => {
    const content = [{ type: "text", text: "Based on our conversation" }];
    const usage0 = { ...TOP, iterations: [COMPACTION, TURN] };
    const whole = { ...MESSAGE, content, stop_reason: "end_turn", stop_sequence: null, usage: usage0 };
    const usage = (await usageOf(JSON.stringify(whole)))!;
    assertEquals([usage.inputTokens, usage.outputTokens], [203_000, 4_500]);
  });

  test("message and advisor iterations add nothing; the raw usage is Anthropic's", async () => {
    const usage = (await usageOf(compacted([TURN, ADVISOR])))!;
    assertEquals([usage.inputTokens, usage.outputTokens, usage.totalTokens], [23_000, 1_000, 24_000]);
    assertEquals((usage.raw as { iterations: unknown }).iterations, [TURN, ADVISOR]);
  });
});
