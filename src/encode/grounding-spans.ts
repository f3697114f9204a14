import type { ReasoningPart } from "../shared/deltas.ts";
import type { JsonValue } from "../shared/json.ts";
import { isRecord } from "../shared/values.ts";
import { utf16Offsets } from "../shared/utf8-offsets.ts";
import { findText, type Work } from "./text-search.ts";

/** Where a cited text sits in the text shown, in UTF-16 code units (as JavaScript strings index it). */
export interface Span {
  readonly citations: readonly JsonValue[];
  readonly start: number;
  readonly end: number;
}

/** Gemini's grounding metadata of a `{ groundingMetadata }` part, or undefined for any other part. */
const groundingOf = (part: ReasoningPart): Record<string, unknown> | undefined => {
  const grounding = part.type === "block" ? part.block["groundingMetadata"] : undefined;
  return isRecord(grounding) ? grounding : undefined;
};

/** Each grounding chunk (by its place) as `{ url, title }` when it is a web page, else undefined (a map place, a retrieved context). */
function chunkPages(grounding: Record<string, unknown> | undefined): (JsonValue | undefined)[] {
  const chunks = grounding?.["groundingChunks"];
  return (Array.isArray(chunks) ? chunks : []).map((chunk) => {
    const web = isRecord(chunk) ? chunk["web"] : undefined;
    return isRecord(web) ? ({ url: web["uri"] ?? null, title: web["title"] ?? null } as JsonValue) : undefined;
  });
}

/**
 * Gemini's grounding chunks (a `{ groundingMetadata }` part), each web page as `{ url, title }`.
 *
 * @example
 * ```ts
 * groundingPages(part); // [{ url: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbC1", title: "uefa.com" }]
 * ```
 */
export const groundingPages = (part: ReasoningPart): JsonValue[] =>
  chunkPages(groundingOf(part)).filter((page) => page !== undefined);

/**
 * The spans of `text`'s first `at` code units (the response's text shown when the part came) that
 * Gemini's grounding supports (`groundingSupports`: a `segment` and the `groundingChunkIndices`
 * that back it) cite, each with the web pages of its chunks as `{ url, title }`. A segment's
 * `startIndex` / `endIndex` count UTF-8 bytes ("measured in bytes", `GroundingSupportSegment`;
 * proto3 JSON leaves a 0 out), so they become UTF-16 code units here, in one pass over the text;
 * its `text` is where the span must be: a segment whose bytes do not hold it (bytes counted in one
 * part of a candidate of several, say) is where the last such segment's text was found, as far
 * from its bytes, or else that text's first place from there on (or before), and one whose text is
 * nowhere is left out, as is a support of no web page. The pass and the searches are `work`'s to
 * allow ({@link findText}): a segment it cannot look for is left out.
 *
 * @example
 * ```ts
 * const text = "Spain won Euro 2024, defeating England.";
 * groundingSpans(part, text, text.length, new Work(4 * text.length)); // [{ citations: [{ url, title }], start: 0, end: 20 }, ...]
 * ```
 */
export function groundingSpans(part: ReasoningPart, text: string, at: number, work: Work): Span[] {
  const grounding = groundingOf(part);
  const supports = grounding?.["groundingSupports"];
  if (!Array.isArray(supports) || at === 0 || !work.spend(at)) return [];
  const pages = chunkPages(grounding);
  const segments = supports.map((support) => {
    const segment = isRecord(support) && isRecord(support["segment"]) ? support["segment"] : {};
    const { startIndex = 0, endIndex, text: cited } = segment;
    return { startIndex, endIndex, cited, indices: isRecord(support) ? support["groundingChunkIndices"] : undefined };
  });
  const units = utf16Offsets(
    text,
    at,
    segments.flatMap(({ startIndex, endIndex }) => [startIndex, endIndex]),
  );
  // How far from its bytes the last segment placed by its text was: the next one of its part is as far.
  let shift = 0;
  return segments.flatMap(({ startIndex, endIndex, cited, indices }): Span[] => {
    const citations = (Array.isArray(indices) ? indices : []).flatMap((i) =>
      typeof i === "number" && pages[i] !== undefined ? [pages[i]] : [],
    );
    if (citations.length === 0) return [];
    let start = units.get(startIndex);
    let end = units.get(endIndex);
    if (
      typeof cited === "string" &&
      cited !== "" &&
      (start === undefined || end !== start + cited.length || !text.startsWith(cited, start))
    ) {
      const from = start ?? 0;
      const guess = from + shift;
      let found =
        shift !== 0 && guess + cited.length <= at && text.startsWith(cited, guess)
          ? guess
          : findText(text, cited, from, at, false, work);
      if (found < 0 && from > 0) found = findText(text, cited, 0, Math.min(at, from + cited.length - 1), false, work);
      if (found >= 0) shift = found - from;
      start = found;
      end = found + cited.length;
    }
    return start !== undefined && start >= 0 && end !== undefined && end > start && end <= at
      ? [{ citations, start, end }]
      : [];
  });
}
