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

// The same shapes over a text that is not ASCII (Japanese, 3 UTF-8 bytes a character, and emoji, 4
// bytes and 2 UTF-16 code units): the segments' offsets count UTF-8 bytes of the response's text,
// as GroundingSupportSegment says ("measured in bytes"), the first one's `startIndex` left out as
// proto3 JSON leaves out a 0. The last support counts within the second chunk's part (`partIndex`),
// so its bytes do not hold its text: its `text` tells where it is. Made up, as above.
const bytesOf = (text: string): number => new TextEncoder().encode(text).length;
const FIRST = "🗼 東京タワーの高さは333メートルです。";
const SECOND = "1958年に完成しました 😀, 赤と白です。";
/** The cited texts of {@link groundedWide}, in the order of its supports. */
export const WIDE_SEGMENTS = [
  "🗼 東京タワー",
  "高さは333メートルです。",
  "1958年に完成しました",
  "赤と白です。",
] as const;
/** The answer's text. */
export const WIDE_TEXT: string = FIRST + SECOND;
const at = (segment: string, from = 0): { startIndex?: number; endIndex: number; text: string } => {
  const start = bytesOf(WIDE_TEXT.slice(0, WIDE_TEXT.indexOf(segment))) - from;
  return { ...(start === 0 ? {} : { startIndex: start }), endIndex: start + bytesOf(segment), text: segment };
};
/** Its grounding: two pages, four supports. */
export const WIDE_GROUNDING = {
  webSearchQueries: ["東京タワー 高さ"],
  groundingChunks: [
    { web: { uri: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/GhI3", title: "tokyotower.co.jp" } },
    { web: { uri: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/JkL4", title: "ja.wikipedia.org" } },
  ],
  groundingSupports: [
    { segment: at(WIDE_SEGMENTS[0]), groundingChunkIndices: [0] },
    { segment: at(WIDE_SEGMENTS[1]), groundingChunkIndices: [0, 1] },
    { segment: at(WIDE_SEGMENTS[2]), groundingChunkIndices: [1] },
    { segment: { partIndex: 1, ...at(WIDE_SEGMENTS[3], bytesOf(FIRST)) }, groundingChunkIndices: [1] },
  ],
};

/** The Japanese answer with `grounding` on its last chunk. */
export const groundedWideWith = (grounding: unknown): string =>
  gemini(parts([{ text: FIRST }]), parts([{ text: SECOND }], { finishReason: "STOP", groundingMetadata: grounding }));
export const groundedWide: string = groundedWideWith(WIDE_GROUNDING);

// An answer read with the URL context tool (`tools: [{ urlContext: {} }]`). Provenance: BUILT BY
// HAND (no real capture) from @google/genai's `Candidate.urlContextMetadata` ("Metadata returned
// when the model uses the `url_context` tool to get information from a user-provided URL":
// `UrlContextMetadata { urlMetadata: UrlMetadata[] }`, `UrlMetadata { retrievedUrl,
// urlRetrievalStatus }`, the status one of `UrlRetrievalStatus`'s `URL_RETRIEVAL_STATUS_*`), on
// each chunk as grounding is; urls made up.
/** The URL context metadata of the last chunk that had it. */
export const URL_CONTEXT = {
  urlMetadata: [
    { retrievedUrl: "https://example.com/recipe", urlRetrievalStatus: "URL_RETRIEVAL_STATUS_SUCCESS" },
    { retrievedUrl: "https://example.com/paywalled", urlRetrievalStatus: "URL_RETRIEVAL_STATUS_PAYWALL" },
  ],
};
/** The answer's text. */
export const URL_CONTEXT_TEXT = "The recipe needs 200 g of flour.";
export const urlContext: string = gemini(
  parts([{ text: "The recipe needs " }], { urlContextMetadata: { urlMetadata: URL_CONTEXT.urlMetadata.slice(0, 1) } }),
  parts([{ text: "200 g of flour." }], { finishReason: "STOP", urlContextMetadata: URL_CONTEXT }),
  {
    usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 8, totalTokenCount: 17 },
    modelVersion: "gemini-2.5-flash",
  },
);
