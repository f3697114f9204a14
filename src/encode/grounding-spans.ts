import type { ReasoningPart } from "../shared/deltas.ts";
import type { JsonValue } from "../shared/json.ts";
import { isRecord } from "../shared/values.ts";

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
 * The spans of `text` (the response's text shown so far) that Gemini's grounding supports
 * (`groundingSupports`: a `segment` and the `groundingChunkIndices` that back it) cite, each with
 * the web pages of its chunks as `{ url, title }`. A segment's `startIndex` / `endIndex` count UTF-8
 * bytes ("measured in bytes", `GroundingSupportSegment`; proto3 JSON leaves a 0 out), so they become
 * UTF-16 code units here; its `text` is where the span must be: a segment whose bytes do not hold
 * it (bytes counted in one part of a candidate of several, say) is that text's first place from
 * there on, and one whose text is nowhere in `text` is left out, as is a support of no web page.
 *
 * @example
 * ```ts
 * groundingSpans(part, "Spain won Euro 2024, defeating England."); // [{ citations: [{ url, title }], start: 0, end: 20 }, ...]
 * ```
 */
export function groundingSpans(part: ReasoningPart, text: string): Span[] {
  const grounding = groundingOf(part);
  const supports = grounding?.["groundingSupports"];
  if (!Array.isArray(supports) || text === "") return [];
  const pages = chunkPages(grounding);
  const segments = supports.map((support) => {
    const segment = isRecord(support) && isRecord(support["segment"]) ? support["segment"] : {};
    const { startIndex = 0, endIndex, text: cited } = segment;
    return { startIndex, endIndex, cited, indices: isRecord(support) ? support["groundingChunkIndices"] : undefined };
  });
  const units = utf16Offsets(
    text,
    segments.flatMap(({ startIndex, endIndex }) => [startIndex, endIndex]),
  );
  return segments.flatMap(({ startIndex, endIndex, cited, indices }): Span[] => {
    const citations = (Array.isArray(indices) ? indices : []).flatMap((i) =>
      typeof i === "number" && pages[i] !== undefined ? [pages[i]] : [],
    );
    let start = units.get(startIndex);
    let end = units.get(endIndex);
    if (typeof cited === "string" && cited !== "" && (start === undefined || text.slice(start, end) !== cited)) {
      const at = text.indexOf(cited, start ?? 0);
      start = at >= 0 ? at : text.indexOf(cited);
      end = start + cited.length;
    }
    return citations.length > 0 && start !== undefined && start >= 0 && end !== undefined && end > start
      ? [{ citations, start, end }]
      : [];
  });
}

/**
 * The UTF-16 offset in `text` of each UTF-8 byte offset of `bytes` that starts a character (or
 * ends the text): one pass over the text for all of them. An offset inside a character, past the
 * end, or not a number has none.
 */
function utf16Offsets(text: string, bytes: readonly unknown[]): Map<unknown, number> {
  const wanted = [...new Set(bytes.filter((b): b is number => typeof b === "number" && b >= 0))].sort((a, b) => a - b);
  const found = new Map<unknown, number>();
  let byte = 0;
  let unit = 0;
  for (const target of wanted) {
    while (byte < target && unit < text.length) {
      const code = text.charCodeAt(unit);
      const pair = code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(unit + 1) & 0xfc00) === 0xdc00;
      // UTF-8 takes 1 byte below U+0080, 2 below U+0800, 4 for a surrogate pair, else 3 (a lone surrogate as U+FFFD).
      byte += code < 0x80 ? 1 : code < 0x800 ? 2 : pair ? 4 : 3;
      unit += pair ? 2 : 1;
    }
    if (byte === target) found.set(target, unit);
  }
  return found;
}
