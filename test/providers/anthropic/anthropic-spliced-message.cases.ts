// An Anthropic body with a second generation spliced into the first: an intermediary that lost its
// upstream mid-generation and retried wrote the retry's events into the same HTTP body, so a
// `message_start` with a new message id arrives while the first message is still open (its
// `tool_use` cut mid `input_json_delta`, never stopped). Reported in production behind Vertex AI
// (vercel/ai issue 18331). The two generations are not one answer: the first's call is cut off, and
// a turn holding both generations' signed thinking blocks is refused by Anthropic when sent back.
// So the response fails (an in-band `provider-error`, then an `abort`): no call is delivered and no
// finish builds that turn (the error's `data` is the second `message_start`). A gateway that repeats
// the open message's own `message_start` (the same id) is another matter: the repeat is ignored, as
// vercel/ai's issue-18331-duplicate-message-start expects (the finish's input tokens are the first's).
//
// Provenance: the spliced body is vercel/ai's
// packages/anthropic/src/__fixtures__/issue-18331-spliced-message-start.chunks.txt (commit
// a8386b984fa64382b5b45f2715ca5d258bfe6ab8), line for line, as one SSE body; vercel/ai's test
// (packages/anthropic/src/issue-18331.test.ts) expects an error, no tool call and no finish. This
// library delivered both generations' calls, the cut one repaired into `{"value":"Spark"}`, and
// finished `tool-calls`.
import fc from "fast-check";
import { streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { bytes, collect, fromChunks, splitAt } from "../../support/streams.ts";
import { anthropicSse } from "./turn-blocks-recordings.ts";

const start = (id: string, inputTokens: number): Record<string, unknown> => ({
  type: "message_start",
  message: { id, model: "claude-sonnet-4-20250514", usage: { input_tokens: inputTokens, output_tokens: 1 } },
});
const thinking = (text: string, signature: string): Record<string, unknown>[] => [
  { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "" } },
  { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: text } },
  { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature } },
  { type: "content_block_stop", index: 0 },
];
const lookup = (id: string, json: string): Record<string, unknown>[] => [
  { type: "content_block_start", index: 1, content_block: { type: "tool_use", id, name: "lookup", input: {} } },
  { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: json } },
];
const stop = [
  { type: "content_block_stop", index: 1 },
  { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 20 } },
  { type: "message_stop" },
];

/** vercel/ai's issue-18331-spliced-message-start recording, as one body. */
const spliced = anthropicSse(
  start("msg_first", 10),
  ...thinking("first reasoning", "sig_first"),
  ...lookup("toolu_first", '{"value":"Spark'),
  start("msg_second", 99),
  ...thinking("second reasoning", "sig_second"),
  ...lookup("toolu_second", '{"value":"Spark"}'),
  ...stop,
);

/** One message whose `message_start` a gateway sent twice, the repeat with other counts (vercel/ai's issue-18331-duplicate-message-start). */
const repeated = anthropicSse(
  start("msg_one", 10),
  start("msg_one", 99),
  ...thinking("reasoning", "sig_one"),
  ...lookup("toolu_one", '{"value":"Spark"}'),
  ...stop,
);

const run = (body: string): Promise<ToolCallEvent[]> =>
  collect(streamToolCalls(fromChunks([bytes(body)]), { provider: "anthropic" }));

group("AnthropicDeltaStream: a second message spliced into an open one", (test) => {
  test("vercel/ai's issue-18331 recording fails: an in-band provider-error, an abort, no call and no finish", async () => {
    const events = await run(spliced);
    const types = events.map((event) => event.type);
    assert(!types.includes("tool-call") && !types.includes("finish"), `got ${types.join(", ")}`);
    const error = events.find((event) => event.type === "error");
    assertEquals(error?.type === "error" && error.error.code, "provider-error");
    // Says what happened, not the default of an error the provider reported.
    assertEquals(
      error?.type === "error" && error.error.message,
      "A second message started inside the open one (a retry spliced in).",
    );
    const last = events.at(-1);
    assertEquals(last?.type === "abort" && last.reason, "provider-error");
    // The first generation's reasoning streamed before the splice showed; nothing of the second does.
    assertEquals(
      events.flatMap((event) => (event.type === "reasoning-delta" ? [event.text] : [])),
      ["first reasoning"],
    );
  });

  test("a message_start repeated for the open message (its id) is ignored: one call, the first's usage", async () => {
    const events = await run(repeated);
    const finish = events.at(-1);
    assert(finish?.type === "finish", "the message finishes");
    assertEquals(
      finish.toolCalls.map((call) => [call.id, call.arguments]),
      [["toolu_one", { value: "Spark" }]],
    );
    assertEquals(finish.usage?.inputTokens, 10);
    assert(!events.some((event) => event.type === "error"), "no error");
  });

  test("any split of the spliced body gives the same events", async () => {
    const body = bytes(spliced);
    const whole = await run(spliced);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: body.length - 1 }), { maxLength: 20 }), async (cuts) => {
        assertEquals(await collect(streamToolCalls(fromChunks(splitAt(body, cuts)), { provider: "anthropic" })), whole);
      }),
      { seed: 20261205, numRuns: 20 },
    );
  });
});
