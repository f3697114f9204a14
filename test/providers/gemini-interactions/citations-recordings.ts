// Gemini Interactions answers with text annotations, shared by gemini-interactions-citations.cases.ts
// and the Worker's test/worker/client-interactions-citations.test.ts.
//
// Provenance: BUILT BY HAND (no real capture) from @google/genai 3.3.0's types: `StepDelta`
// (`index`, `delta`), `TextDelta` (`text`, and `annotations` in older revisions), `TextAnnotationDelta`
// (`type: "text_annotation_delta"`, `annotations`: "Citation information for model-generated
// content"), `URLCitation` (`url`, `title`, `start_index` "measured in bytes", `end_index`
// "exclusive"), `PlaceCitation` (`name`, `url`), `FileCitation` (`file_name`, `document_uri`), laid
// out as vercel/ai's recording of a grounded answer streams them (the annotations after the text they
// cite, in the step, before its step.stop: test/recordings/external/vercel-ai/gemini-interactions/
// interactions-google-search). Urls, titles and offsets made up; proto3 JSON leaves a 0 out.

export type Payload = Record<string, unknown>;
export const sse = (payloads: Payload[]): string =>
  payloads.map((p) => `event: ${String(p["event_type"])}\ndata: ${JSON.stringify(p)}\n\n`).join("") +
  "event: done\ndata: [DONE]\n\n";
export const start = (index: number, step: Payload): Payload => ({ event_type: "step.start", index, step });
export const delta = (index: number, body: Payload): Payload => ({ event_type: "step.delta", index, delta: body });
export const stop = (index: number): Payload => ({ event_type: "step.stop", index });
export const completed = { event_type: "interaction.completed", interaction: { id: "v1_c", status: "completed" } };
export const url = (start_index: number, end_index: number, page = "a"): Payload => ({
  type: "url_citation",
  url: `https://vertexaisearch.cloud.google.com/grounding-api-redirect/${page}`,
  title: `${page}.example`,
  ...(start_index === 0 ? {} : { start_index }), // proto3 JSON leaves a 0 out
  end_index,
});
export const flat = (start_index: number, end_index: number, page = "a", title = `${page}.example`): Payload => ({
  type: "url_citation",
  url: `https://vertexaisearch.cloud.google.com/grounding-api-redirect/${page}`,
  title,
  start_index,
  end_index,
});

/** Japanese with an emoji: 3 bytes a kana or kanji, 4 the emoji (2 UTF-16 units). */
export const TOKYO = ["東京タワーの高さは", "333メートルです🗼。"];
export const TOKYO_TEXT = TOKYO.join("");
/** A Maps place citation of the emoji (bytes 48 to 52). */
export const TOKYO_PLACE = {
  type: "place_citation",
  name: "Tokyo Tower",
  url: "https://maps.google.com/?cid=1",
  start_index: 48,
  end_index: 52,
};
export const tokyo = (annotations: Payload[][]): string =>
  sse([
    { event_type: "interaction.created", interaction: { id: "v1_c", status: "in_progress" } },
    start(0, { type: "model_output" }),
    ...TOKYO.map((text) => delta(0, { type: "text", text })),
    ...annotations.map((list) => delta(0, { type: "text_annotation_delta", annotations: list })),
    stop(0),
    completed,
  ]);
