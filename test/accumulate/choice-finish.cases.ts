// With several choices (`n > 1`; Gemini's `candidateCount`), each choice's finish completes its own
// calls, and only the first choice's finish is the response's: the `finish` event's reason, raw reason
// and continuation token are its, as its `text` and `reasoning` are. Before, the last choice to
// finish set them: choice 0 cut at its token limit (`length`) was reported `stop` when choice 1
// stopped after it, and candidate 1's `continuationToken` replaced candidate 0's, so the next request
// went on from the wrong answer. OpenAI Chat's chunks (`choices[].index`, `finish_reason`, the
// `chat.completion.chunk` of openai's `ChatCompletionChunk`) and Gemini's (`candidates[].index`,
// `finishReason`, `continuationToken` of @google/genai's `Candidate`), built by hand in those shapes.
import { streamToolCalls, type Provider, type ToolCallEvent } from "../../src/index.ts";
import { assertEquals, group } from "../support/harness.ts";
import { assertEventInvariants, assertFinished } from "../support/invariants.ts";
import { bytes, collect, fromChunks } from "../support/streams.ts";

const sse = (chunks: object[]): string => chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join("");

async function run(provider: Provider, body: string): Promise<ToolCallEvent[]> {
  const events = await collect(streamToolCalls(fromChunks([bytes(body)]), { provider }));
  assertEventInvariants(events);
  return events;
}

const chat = (index: number, delta: object, finish: string | null = null) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  choices: [{ index, delta, finish_reason: finish }],
});
const candidate = (index: number, text: string, extra: object = {}) => ({
  candidates: [{ content: { parts: [{ text }], role: "model" }, index, ...extra }],
});

group("Another choice's finish is never the response's", (test) => {
  test("OpenAI Chat: choice 0 cut at its limit stays `length` when choice 1 stops after it", async () => {
    const body = sse([
      chat(0, { role: "assistant", content: "Once upon" }),
      chat(1, { role: "assistant", content: "Hello." }),
      chat(0, {}, "length"),
      chat(1, {}, "stop"),
      {
        id: "chatcmpl-1",
        object: "chat.completion.chunk",
        choices: [],
        usage: { prompt_tokens: 5, completion_tokens: 7 },
      },
    ]);
    const finish = assertFinished(await run("openai", `${body}data: [DONE]\n\n`));
    assertEquals([finish.reason, finish.rawReason, finish.text], ["length", "length", "Once upon"]);
  });

  test("OpenAI Chat: a call of choice 1 completes at its own finish, choice 0's reason kept", async () => {
    const body = sse([
      chat(0, { role: "assistant", content: "No tool needed." }, "stop"),
      chat(1, {
        role: "assistant",
        tool_calls: [{ index: 0, id: "call_b", function: { name: "f", arguments: "{}" } }],
      }),
      chat(1, {}, "tool_calls"),
    ]);
    const events = await run("openai", `${body}data: [DONE]\n\n`);
    const finish = assertFinished(events);
    assertEquals([finish.reason, finish.rawReason], ["stop", "stop"]);
    assertEquals(
      finish.toolCalls.map((call) => [call.choice, call.id, call.arguments]),
      [[1, "call_b", {}]],
    );
  });

  test("Gemini: candidate 1's continuationToken and reason do not replace candidate 0's", async () => {
    const body = sse([
      candidate(0, "Chapter one"),
      candidate(1, "Short"),
      candidate(0, ", in which", { finishReason: "CONTINUATION", continuationToken: "Q2FuZDA=" }),
      candidate(1, " answer.", { finishReason: "CONTINUATION", continuationToken: "Q2FuZDE=" }),
    ]);
    const finish = assertFinished(await run("gemini", body));
    assertEquals([finish.reason, finish.rawReason, finish.continuationToken], ["length", "CONTINUATION", "Q2FuZDA="]);
    const stopped = sse([
      candidate(0, "a", { finishReason: "CONTINUATION", continuationToken: "Q2FuZDA=" }),
      candidate(1, "b", { finishReason: "STOP" }),
    ]);
    assertEquals(
      [assertFinished(await run("gemini", stopped))].map((f) => [f.reason, f.rawReason, f.continuationToken]),
      [["length", "CONTINUATION", "Q2FuZDA="]],
    );
  });
});
