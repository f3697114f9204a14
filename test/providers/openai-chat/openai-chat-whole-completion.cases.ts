// A whole `chat.completion` (a request without `stream: true`, or a compatible server that ignored
// it) read as the stream of the same answer. Each recorded Chat Completions stream's expected answer
// is written as openai 6's `ChatCompletion` (resources/chat/completions/completions.d.ts:
// `choices[].message` with `content`, `refusal` and `tool_calls` of `{ id, type: "function",
// function: { name, arguments } }`, no `index`; `finish_reason`; `usage`), and that one JSON body
// must give the recording's own text, calls and finish reason. Before, it gave a `finish` (of
// reason `tool-calls` for a call) with no text and no call.
import fc from "fast-check";
import { streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { chatFixtures } from "../../support/chat-fixtures.ts";
import { summarize, type Expected } from "../../support/fixtures.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { bytes, collect, fromChunks, splitAt } from "../../support/streams.ts";

/** The recordings whose answer is whole (a finish, no error) and whose calls are all valid. */
const answered = chatFixtures.filter(
  (f) =>
    f.expected.finishReason !== null &&
    f.expected.error === undefined &&
    f.expected.toolCalls.every((call) => !(call.arguments as { invalid?: true } | null)?.invalid),
);

/** The recording's answer as the one body a request without `stream: true` gets. */
function wholeCompletion(expected: Expected): string {
  const calls = expected.toolCalls.map((call) => ({
    id: call.id,
    type: "function",
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
  return JSON.stringify({
    id: "chatcmpl-whole",
    object: "chat.completion",
    created: 1_767_000_000,
    model: "gpt-4o-2024-08-06",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: expected.text === "" ? null : expected.text,
          refusal: null,
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
        },
        logprobs: null,
        finish_reason: expected.finishReason,
      },
    ],
    usage: { prompt_tokens: 149, completion_tokens: 60, total_tokens: 209 },
  });
}

/**
 * A MiniMax stream: its deltas, then a last SSE frame that is a whole `chat.completion` (`message`,
 * not `delta`) repeating the answer, with the only real usage (the chunks before carry
 * `{"total_tokens":0}`). BUILT BY HAND from two reports of the frame on the wire:
 * GCWing/OpenBitFun PR 793 (captured from MiniMax-M2.7-highspeed: "the last SSE frame uses
 * non-streaming `chat.completion` shape (object string + `message` field)"; "earlier chunks already
 * streamed it") and ENTERPILOT/GoModel PR 1068 ("MiniMax M3 ends a reasoning stream with a full
 * chat.completion object - the complete message plus the real usage"). The chunks' fields are
 * those MiniMax-AI/MiniMax-M2.5 issue 2 shows of a chunk (no `id`, no `model`). Texts made up.
 */
function miniMaxStream(): string {
  const base = {
    created: 1_767_000_000,
    object: "chat.completion.chunk",
    input_sensitive: false,
    output_sensitive: false,
  };
  const call = {
    id: "call_function_1",
    type: "function",
    function: { name: "get_weather", arguments: '{"city":"Paris"}' },
  };
  const placeholder = { total_tokens: 0 };
  return [
    { ...base, choices: [{ index: 0, delta: { role: "assistant", content: "Let me check." } }], usage: placeholder },
    { ...base, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, ...call }] } }], usage: placeholder },
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }], usage: placeholder },
    {
      ...base,
      object: "chat.completion",
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: "Let me check.", tool_calls: [call] },
          finish_reason: "tool_calls",
        },
      ],
      usage: { prompt_tokens: 58, completion_tokens: 21, total_tokens: 79 },
    },
  ]
    .map((frame) => `data: ${JSON.stringify(frame)}\n\n`)
    .concat("data: [DONE]\n\n")
    .join("");
}

const read = async (chunks: Uint8Array[]): Promise<ToolCallEvent[]> =>
  collect(
    streamToolCalls(new Response(fromChunks(chunks), { headers: { "content-type": "application/json" } }), {
      provider: "openai",
    }),
  );

group("OpenAI Chat: a whole chat.completion read as its stream", (test) => {
  test("each recording's answer, as one non-streamed body, gives the recording's text, calls and finish", async () => {
    assert(answered.length >= 10, `${answered.length} recordings`);
    for (const fixture of answered) {
      const events = await read([bytes(wholeCompletion(fixture.expected))]);
      assertEquals(summarize(events), fixture.expected, fixture.name);
      const finish = events.find((event) => event.type === "finish");
      assertEquals(finish?.type === "finish" && finish.usage?.inputTokens, 149, `${fixture.name}: usage`);
      assertEquals(events.at(-1)?.type, "finish", `${fixture.name}: it ends as a stream does`);
    }
  }).needs("recordings");

  test("a stream that ends with a whole chat.completion repeating its answer (MiniMax) gives the answer once", async () => {
    const events = await collect(streamToolCalls(fromChunks([bytes(miniMaxStream())]), { provider: "openai" }));
    const finish = events.at(-1);
    assert(finish?.type === "finish", JSON.stringify(finish));
    assertEquals(
      [finish.text, finish.toolCalls.map((call) => [call.id, call.name, call.arguments]), finish.invalidToolCalls],
      ["Let me check.", [["call_function_1", "get_weather", { city: "Paris" }]], []],
    );
    assertEquals(finish.usage?.inputTokens, 58, "the last frame's usage");
  });

  test("any split of the body gives the same events", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: Math.max(0, answered.length - 1) }),
        fc.array(fc.nat(), { maxLength: 12 }),
        async (which, offsets) => {
          const body = bytes(wholeCompletion(answered[which]!.expected));
          const whole = await read([body]);
          const split = await read(
            splitAt(
              body,
              offsets.map((offset) => offset % body.byteLength),
            ),
          );
          assertEquals(split, whole);
        },
      ),
      { seed: 46, numRuns: 40 },
    );
  }).needs("recordings");
});
