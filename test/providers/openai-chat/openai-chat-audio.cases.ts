import fc from "fast-check";
import type { ChatCompletion, ChatCompletionChunk } from "openai-v7/resources/chat/completions/completions";
import { streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants, assertFinished } from "../../support/invariants.ts";
import { bytes, collect, fromChunks, openAISSE, splitAt } from "../../support/streams.ts";

// Chat Completions with audio output (`modalities: ["text", "audio"]`, gpt-audio and
// gpt-4o-audio-preview): the answer's words come as `delta.audio.transcript`, `delta.content`
// staying null. Built by hand (no real capture) from openai 7.59.0 (openai-v7)'s
// resources/chat/completions/completions.d.ts, `ChatCompletionChunk.Choice.Delta.Audio`
// (`{ id?, data?, expires_at?, transcript? }`), and the OpenAPI spec's
// ChatCompletionStreamResponseDeltaAudio: "Audio chunks may carry an ID, base64 data, or transcript
// text; the final audio update contains only its expiry timestamp". A whole completion carries
// `message.audio` (`ChatCompletionAudio`: `{ id, data, expires_at, transcript }`) and `content: null`.
const MODEL = "gpt-audio-2025-08-28";
const chunk = (delta: ChatCompletionChunk.Choice.Delta, finish: "stop" | null = null): ChatCompletionChunk => ({
  id: "chatcmpl-audio",
  object: "chat.completion.chunk",
  created: 1764892800,
  model: MODEL,
  choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
});
const spoken = openAISSE([
  chunk({ role: "assistant", content: null, refusal: null }),
  chunk({ audio: { id: "audio_6930ab", transcript: "It is sunny" } }),
  chunk({ audio: { data: "UklGRiQAAABXQVZFZm10IBAAAAABAAEA" } }),
  chunk({ audio: { transcript: " in Paris." } }),
  chunk({ audio: { expires_at: 1764896400 } }),
  chunk({}, "stop"),
]);

const read = async (body: string, cuts: number[] = []): Promise<ToolCallEvent[]> => {
  const events = await collect(streamToolCalls(fromChunks(splitAt(bytes(body), cuts)), { provider: "openai" }));
  assertEventInvariants(events, true);
  return events;
};

group("OpenAI Chat audio output (delta.audio.transcript)", (test) => {
  test("the transcript is the answer's text, at any split", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: bytes(spoken).length - 1 }), { maxLength: 5 }),
        async (cuts) => {
          const finish = assertFinished(await read(spoken, cuts));
          assertEquals([finish.text, finish.reason], ["It is sunny in Paris.", "stop"]);
        },
      ),
      { numRuns: 20 },
    );
  });

  test("a whole completion's message.audio.transcript is its text", async () => {
    const completion: ChatCompletion = {
      id: "chatcmpl-audio",
      object: "chat.completion",
      created: 1764892800,
      model: MODEL,
      choices: [
        {
          index: 0,
          finish_reason: "stop",
          logprobs: null,
          message: {
            role: "assistant",
            content: null,
            refusal: null,
            audio: { id: "audio_6930ab", data: "UklGRg==", expires_at: 1764896400, transcript: "It is sunny." },
          },
        },
      ],
    };
    const finish = assertFinished(await read(openAISSE([completion], false)));
    assertEquals(finish.text, "It is sunny.");
  });
});
