// Gemini Interactions' text annotations kept on the turn's text. A model_output step's citations
// come as `text_annotation_delta`s after the text they cite ("citation annotations for previously
// streamed text"), as `annotations` on a `text` content (its step.start) or delta, or in the legacy
// spelling as a `text_annotation` delta; each `url_citation`'s `start_index` / `end_index` count
// UTF-8 bytes ("measured in bytes"). On vercel/ai's recording of a grounded
// answer (test/recordings/external/vercel-ai/gemini-interactions/interactions-google-search); the
// built ones and their provenance: citations-recordings.ts.
import fc from "fast-check";
import { assistantMessage, streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { streamToolCalls as interactionsStreamToolCalls } from "../../../src/gemini-interactions.ts";
import { readResponsesEvents } from "../../support/agent-protocol-readers.ts";
import { ENCODERS, encodeAll } from "../../support/encoders.ts";
import { externalBodies, externalFixtures } from "../../support/external-fixtures.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { uiSourceChunks } from "../../support/protocol-readers.ts";
import { assertEventInvariants, assertFinished } from "../../support/invariants.ts";
import { bytes, collect, fromChunks, splitAt } from "../../support/streams.ts";
import {
  completed,
  delta,
  flat,
  type Payload,
  sse,
  start,
  stop,
  TOKYO_PLACE,
  TOKYO_TEXT,
  tokyo,
  url,
} from "./citations-recordings.ts";

const run = async (body: string, cuts: number[] = [], maxToolCalls?: number): Promise<ToolCallEvent[]> => {
  const events = await collect(
    streamToolCalls(fromChunks(splitAt(bytes(body), cuts)), { provider: "gemini-interactions", maxToolCalls }),
  );
  assertEventInvariants(events, true);
  return events;
};
const cited = (events: ToolCallEvent[]) =>
  (assertFinished(events).reasoningParts ?? []).filter(
    (part) => part.type === "block" && part.block["type"] === "text",
  );
const part = (text: string, annotations: Payload[]) => ({ type: "block", block: { type: "text", text, annotations } });

group("Gemini Interactions text annotations", (test) => {
  test("vercel/ai's grounded answer: its url_citation is kept on the model_output step's text", async () => {
    const fixture = externalFixtures.find((f) => f.provider === "gemini-interactions" && f.name.includes("search"));
    assert(fixture !== undefined, "the rebuilt interactions-google-search recording");
    const [body] = externalBodies(fixture);
    const events = await collect(streamToolCalls(fromChunks([body!]), { provider: "gemini-interactions" }));
    const text = "Here's a notable AI development from this past week:\n\n**Meta's Llama 4 Release** (May 2026)";
    const annotation = flat(0, 50, "AUZIYQHH", "coaio.com");
    assertEquals(cited(events), [part(text, [annotation])]);
  });

  test("byte offsets become UTF-16 units of the step's text; one sent again is kept once; a place with a url is a url_citation", async () => {
    const body = tokyo([[url(0, 15)], [url(27, 42, "b"), url(0, 15)], [TOKYO_PLACE]]);
    const expected = part(TOKYO_TEXT, [
      flat(0, 5),
      flat(9, 16, "b"),
      { type: "url_citation", url: TOKYO_PLACE.url, title: "Tokyo Tower", start_index: 18, end_index: 20 },
    ]);
    assertEquals(TOKYO_TEXT.slice(9, 16), "333メートル");
    assertEquals(TOKYO_TEXT.slice(18, 20), "🗼");
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: bytes(body).length - 1 }), { maxLength: 6 }),
        async (cuts) => {
          const events = await run(body, cuts);
          assertEquals(cited(events), [expected]);
          // After the text it cites: the encoders place it at the text's end.
          const at = events.findIndex((event) => event.type === "reasoning-part");
          assert(at > events.map((event) => event.type).lastIndexOf("text-delta"), "after the text");
        },
      ),
      { numRuns: 15 },
    );
  });

  test("an offset inside a character or past the step's text, a url_citation without a url and a file_citation are left out", async () => {
    const file = { type: "file_citation", file_name: "tower.pdf", document_uri: "fileSearchStores/s/d", end_index: 9 };
    const body = tokyo([[url(0, 16), url(0, 99, "b"), { type: "url_citation", end_index: 3 }, file]]);
    assertEquals(cited(await run(body)), []);
  });

  test("annotations on a step.start's text content and on a text delta, and the legacy text_annotation delta, count in their step's text", async () => {
    const steps = sse([
      start(0, { type: "model_output", content: [{ type: "text", text: "Tokyo ", annotations: [url(0, 5)] }] }),
      delta(0, { type: "text", text: "Tower", annotations: [url(6, 11, "b")] }),
      stop(0),
      start(1, { type: "google_search_call", id: "s1", arguments: { queries: ["tower"] } }),
      stop(1),
      start(2, { type: "model_output" }),
      delta(2, { type: "text", text: " is 333 m." }),
      { event_type: "content.delta", index: 2, delta: { type: "text_annotation", annotations: [url(1, 9, "c")] } },
      stop(2),
      completed,
    ]);
    const events = await run(steps);
    assertEquals(assertFinished(events).text, "Tokyo Tower is 333 m.");
    assertEquals(cited(events), [
      part("Tokyo Tower", [flat(0, 5), flat(6, 11, "b")]),
      part(" is 333 m.", [flat(1, 9, "c")]),
    ]);
  });

  test("a stream cut before its step.stop keeps them; the next turn sends the text once, without them", async () => {
    const cut = tokyo([[url(0, 15)]]).split("event: step.stop")[0]!;
    const events = await collect(streamToolCalls(fromChunks([bytes(cut)]), { provider: "gemini-interactions" }));
    const parts = events.flatMap((event) => (event.type === "reasoning-part" ? [event.part] : []));
    assertEquals(parts, [part(TOKYO_TEXT, [flat(0, 5)])]);
    const finish = assertFinished(await run(tokyo([[url(0, 15)]])));
    assertEquals(assistantMessage("gemini-interactions", finish), [
      { type: "model_output", content: [{ type: "text", text: TOKYO_TEXT }] },
    ]);
  });

  test("they count against maxToolCalls: past it the stream ends too-many-tool-calls", async () => {
    const events = await collect(
      streamToolCalls(fromChunks([bytes(tokyo([[url(0, 15), url(27, 42, "b")]]))]), {
        provider: "gemini-interactions",
        maxToolCalls: 1,
      }),
    );
    const last = events.at(-1);
    assert(last?.type === "abort" && last.error?.code === "too-many-tool-calls", `ended ${last?.type}`);
    assert(/annotations/.test(last.error.message), last.error.message);
    // The same one sent again fits a limit of 1 (kept once, counted once).
    assertEquals(cited(await run(tokyo([[url(0, 15)], [url(0, 15)]]), [], 1)).length, 1);
  });

  test("a Responses client gets them as the output_text's annotations, a UI stream as sources; tool-call-stream/gemini-interactions keeps none", async () => {
    const body = encodeAll(ENCODERS.responses(), await run(tokyo([[url(27, 42)]])));
    const parts = readResponsesEvents(body).items.flatMap((item) => (item["content"] as Payload[] | undefined) ?? []);
    assertEquals(parts, [{ type: "output_text", text: TOKYO_TEXT, annotations: [flat(9, 16)], logprobs: [] }]);
    const sources = uiSourceChunks(encodeAll(ENCODERS.ui(), await run(tokyo([[url(27, 42)], [TOKYO_PLACE]]))));
    assertEquals(sources, [
      { type: "source-url", sourceId: "source-1", url: flat(0, 1)["url"], title: "a.example" },
      { type: "source-url", sourceId: "source-2", url: TOKYO_PLACE.url, title: "Tokyo Tower" },
    ]);
    const lean = assertFinished(await collect(interactionsStreamToolCalls(fromChunks([bytes(tokyo([[url(0, 15)]]))]))));
    assertEquals([lean.text, lean.reasoningParts ?? []], [TOKYO_TEXT, []]);
  });
});
