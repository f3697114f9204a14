// Gemini's long decodes: a response that reached the per-request token limit before the model was done ends with
// `finishReason: "CONTINUATION"` and the candidate's `continuationToken`, which the next request sends back (its
// `continuationToken`) to go on from there. From @google/genai 3.3.0 (dist/genai.d.ts): `Candidate.continuationToken`
// ("An optional opaque continuation token returned when `finish_reason` is `CONTINUATION`. Clients can pass this
// token in a subsequent `GenerateContentRequest` to continue generation", base64), `FinishReason.CONTINUATION`, and
// the SDK's own streaming continuation (dist/index.mjs, `StreamContinuation.observe`): a chunk without a finish may
// carry a token too (a checkpoint), the latest token is the one to resume from, and a finish that cannot be resumed
// (any but CONTINUATION) drops it. Before, the finish said `length` and the token was lost: nothing could go on.
// Provenance: BUILT BY HAND in those types' shapes (no recording of a CONTINUATION exists); the tokens are made up.
import { GeminiGrounding } from "../../../src/gemini.ts";
import { GeminiDecoder, type ProviderDelta, streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants, assertFinished } from "../../support/invariants.ts";
import { bytes, collect, fromChunks } from "../../support/streams.ts";

const sse = (chunks: object[]): string => chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join("");
const text = (value: string, extra: object = {}) => ({
  candidates: [{ content: { parts: [{ text: value }], role: "model" }, index: 0, ...extra }],
});

async function run(chunks: object[]): Promise<ToolCallEvent[]> {
  const events = await collect(streamToolCalls(fromChunks([bytes(sse(chunks))]), { provider: "gemini" }));
  assertEventInvariants(events);
  return events;
}

group("Gemini: a long decode's continuationToken (finishReason CONTINUATION)", (test) => {
  test("the finish of a CONTINUATION carries its token, the reason length", async () => {
    const finish = assertFinished(
      await run([
        text("Chapter one"),
        text(", in which", { finishReason: "CONTINUATION", continuationToken: "Q2hrMg==" }),
      ]),
    );
    assertEquals([finish.reason, finish.rawReason, finish.text], ["length", "CONTINUATION", "Chapter one, in which"]);
    assertEquals(finish.continuationToken, "Q2hrMg==");
  });

  test("the latest token counts: a checkpoint's, when the CONTINUATION chunk has none of its own", async () => {
    const checkpoints = [text("a", { continuationToken: "Q2hrMQ==" }), text("b", { continuationToken: "Q2hrMg==" })];
    const newer = await run([
      ...checkpoints,
      text("c", { finishReason: "CONTINUATION", continuationToken: "Q2hrMw==" }),
    ]);
    assertEquals(assertFinished(newer).continuationToken, "Q2hrMw==");
    const none = await run([...checkpoints, text("c", { finishReason: "CONTINUATION" })]);
    assertEquals(assertFinished(none).continuationToken, "Q2hrMg==");
  });

  test("a finish that cannot be continued has none, though a checkpoint had one", async () => {
    for (const reason of ["STOP", "MAX_TOKENS", "SAFETY"]) {
      const finish = assertFinished(
        await run([text("a", { continuationToken: "Q2hrMQ==" }), text("b", { finishReason: reason })]),
      );
      assertEquals([finish.rawReason, "continuationToken" in finish], [reason, false], reason);
    }
  });

  test("each candidate keeps its own token, on its own finish", () => {
    const deltas: ProviderDelta[] = [];
    const decoder = new GeminiDecoder((delta) => deltas.push(delta));
    const chunk = (index: number, continuationToken: string, finishReason?: string) => ({
      data: JSON.stringify({
        candidates: [
          {
            content: { parts: [{ text: `${index}` }] },
            index,
            continuationToken,
            ...(finishReason && { finishReason }),
          },
        ],
      }),
    });
    for (const message of [
      chunk(1, "b25l"),
      chunk(0, "emVybw=="),
      chunk(1, "b25lMg==", "CONTINUATION"),
      chunk(0, "", "CONTINUATION"),
    ])
      decoder.decode(message);
    decoder.end();
    const finishes = deltas.flatMap((delta) =>
      delta.type === "finish" ? [[delta.choice, delta.continuationToken]] : [],
    );
    assertEquals(finishes, [
      [1, "b25lMg=="],
      [undefined, "emVybw=="],
    ]);
  });

  test("the grounding so far goes out before a CONTINUATION finish: a continuation's chunks (read by the same decoder) give their own", () => {
    const deltas: ProviderDelta[] = [];
    const decoder = new GeminiDecoder((delta) => deltas.push(delta), {}, new GeminiGrounding());
    const grounded = (uri: string, extra: object) => ({
      data: JSON.stringify(text(uri, { groundingMetadata: { groundingChunks: [{ web: { uri } }] }, ...extra })),
    });
    decoder.decode(grounded("a", { finishReason: "CONTINUATION", continuationToken: "Q2hrMQ==" }));
    decoder.decode(grounded("b", { finishReason: "STOP" }));
    decoder.end();
    const kinds = deltas.flatMap((delta) =>
      delta.type === "finish"
        ? [delta.rawReason]
        : delta.type === "reasoning-part" && delta.part.type === "block"
          ? [JSON.stringify(delta.part.block)]
          : [],
    );
    const block = (uri: string) => JSON.stringify({ groundingMetadata: { groundingChunks: [{ web: { uri } }] } });
    assertEquals(kinds, [block("a"), "CONTINUATION", "STOP", block("b")]);
  });
});
