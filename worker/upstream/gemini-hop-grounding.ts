/**
 * Gemini's grounding over the hops of a continued answer (./gemini-continuation.ts): each request
 * grounds its own output, its `groundingSupports` pointing into its own `groundingChunks` and its
 * segments' byte offsets into its own text. `@google/genai` 3.3.0 merges the hops' candidates
 * into its whole answer (`mergeContinuationResponses`, `mergeResponseObjects`; its stream yields
 * each hop's chunks as they came): arrays joined (the chunks, the supports, the queries, the citations),
 * objects merged, a later scalar winning, a later hop's `groundingChunkIndices` shifted by the
 * earlier hops' chunks (and its `segment.partIndex` by their parts: the SDK keeps the parts apart).
 * The Worker's answer is one text, so a later hop's segment (and citation) offsets are shifted by
 * the earlier hops' text, in UTF-8 bytes as Gemini counts them; the client protocols' citations
 * are then placed in the one text as for an answer of one request.
 *
 * @module
 */
import type { JsonValue } from "../../src/index.ts";

/** A JSON object. */
type Json = { [key: string]: JsonValue };

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `a` and `b` as the SDK merges two hops' values: arrays joined, objects merged, counts summed, else `b` (or `a` where `b` is null). */
function merged(a: JsonValue, b: JsonValue, key: string): JsonValue {
  if (b === null) return a;
  if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
  if (typeof a === "number" && typeof b === "number" && /(Count|Sum)$/.test(key)) return a + b;
  if (!isObject(a) || !isObject(b)) return b;
  const out: Json = { ...a };
  for (const [k, value] of Object.entries(b)) out[k] = Object.hasOwn(a, k) ? merged(a[k]!, value, k) : value;
  return out;
}

/** `range` (a segment, a citation) with its byte offsets counted from `bytes` earlier (proto3 JSON leaves a 0 out). */
function shifted(range: JsonValue | undefined, bytes: number): JsonValue | undefined {
  if (!isObject(range) || bytes === 0) return range;
  const { startIndex = 0, endIndex } = range;
  return {
    ...range,
    ...(typeof startIndex === "number" && { startIndex: startIndex + bytes }),
    ...(typeof endIndex === "number" && { endIndex: endIndex + bytes }),
  };
}

/** A later hop's `groundingMetadata`, its supports' chunks after `chunks` earlier ones and their segments after `bytes` of text. */
function shiftedGrounding(grounding: Json, chunks: number, bytes: number): Json {
  const supports = grounding["groundingSupports"];
  if (!Array.isArray(supports)) return grounding;
  const moved = supports.map((support) => {
    if (!isObject(support)) return support;
    const { groundingChunkIndices: indices, segment } = support;
    const out: Json = { ...support };
    if (Array.isArray(indices))
      out["groundingChunkIndices"] = indices.map((i) => (typeof i === "number" ? i + chunks : i));
    const at = shifted(segment, bytes);
    if (at !== undefined) out["segment"] = at;
    return out;
  });
  return { ...grounding, groundingSupports: moved };
}

/** A later hop's `citationMetadata`, its citations' offsets after `bytes` of text. */
function shiftedCitations(metadata: Json, bytes: number): Json {
  const citations = metadata["citations"];
  return Array.isArray(citations)
    ? { ...metadata, citations: citations.map((citation) => shifted(citation, bytes) ?? citation) }
    : metadata;
}

/**
 * Holds `block` in `held` (each key's metadata of the hops so far) when it is a `{ groundingMetadata }`
 * or `{ citationMetadata }` block of a hop whose text starts `bytes` UTF-8 bytes into the answer:
 * merged into the earlier hops' metadata of its key, its indexes shifted past theirs. False for any
 * other block (nothing held).
 */
export function holdGrounding(held: Json, block: Json, bytes: number): boolean {
  const [key, ...rest] = Object.keys(block);
  const value = key === undefined ? undefined : block[key];
  if (rest.length > 0 || (key !== "groundingMetadata" && key !== "citationMetadata") || !isObject(value)) return false;
  const before = held[key];
  const chunks = isObject(before) && Array.isArray(before["groundingChunks"]) ? before["groundingChunks"].length : 0;
  const later = key === "groundingMetadata" ? shiftedGrounding(value, chunks, bytes) : shiftedCitations(value, bytes);
  held[key] = before === undefined ? later : merged(before, later, key);
  return true;
}
