import { gemini, parts } from "./doc-shapes-recordings.ts";

// A Gemini answer grounded with Google Search, shared by gemini-grounding.cases.ts and the next
// turns' check against @google/genai's types (test/node/next-turn-sdk-types.test.ts).
//
// Provenance: BUILT BY HAND (no real capture) from the shapes of @google/genai 3.3.0's
// `Candidate.groundingMetadata` (`GroundingMetadata`: webSearchQueries, searchEntryPoint
// {renderedContent}, groundingChunks [{web: {uri, title}}], groundingSupports [{segment: {startIndex,
// endIndex, text}, groundingChunkIndices}]) and `Candidate.citationMetadata` (`CitationMetadata`:
// citations [{startIndex, endIndex, uri}]), laid out as the Gemini API's "Grounding with Google
// Search" page shows a response; on a stream each chunk that carries the metadata carries all of it
// so far (the first chunk here only the queries), and a trailing chunk may carry usage alone. Urls,
// titles and offsets made up.

/** The grounding of the last chunk that had one: the whole of it. */
export const GROUNDING = {
  webSearchQueries: ["euro 2024 winner"],
  searchEntryPoint: { renderedContent: "<style>.container{}</style><div class='container'>euro 2024 winner</div>" },
  groundingChunks: [
    { web: { uri: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbC1", title: "uefa.com" } },
    { web: { uri: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/DeF2", title: "bbc.co.uk" } },
  ],
  groundingSupports: [
    {
      segment: { startIndex: 0, endIndex: 20, text: "Spain won Euro 2024," },
      groundingChunkIndices: [0],
    },
    {
      segment: { startIndex: 21, endIndex: 56, text: "defeating England 2-1 in the final." },
      groundingChunkIndices: [0, 1],
    },
  ],
};
/** The answer's recitation of a page. */
export const CITATIONS = { citations: [{ startIndex: 21, endIndex: 56, uri: "https://www.uefa.com/euro2024/" }] };
/** The answer's text. */
export const GROUNDED_TEXT = "Spain won Euro 2024, defeating England 2-1 in the final.";

export const grounded: string = gemini(
  parts([{ text: "Spain won Euro 2024, " }], { groundingMetadata: { webSearchQueries: GROUNDING.webSearchQueries } }),
  parts([{ text: "defeating England 2-1 in the final." }], {
    finishReason: "STOP",
    groundingMetadata: GROUNDING,
    citationMetadata: CITATIONS,
  }),
  {
    usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 14, totalTokenCount: 26 },
    modelVersion: "gemini-2.5-flash",
  },
);
