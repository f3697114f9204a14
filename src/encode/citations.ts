import type { ReasoningPart } from "../shared/deltas.ts";
import type { JsonValue } from "../shared/json.ts";
import { isRecord, nonEmptyString } from "../shared/values.ts";
import { groundingPages, groundingSpans, type Span } from "./grounding-spans.ts";
import { findText, Work } from "./text-search.ts";

/**
 * A cited text block (Anthropic's citations, kept as a `block` reasoning part `{type: "text", text,
 * citations}`, or OpenAI Responses' annotated `output_text`, `{type: "text", text, annotations}`):
 * its text and citations (the annotations), or undefined for any other part.
 *
 * @example
 * ```ts
 * citedText({ type: "block", block: { type: "text", text: "green", citations: [citation] } }); // { text: "green", citations: [citation] }
 * ```
 */
export function citedText(part: ReasoningPart): { text: string; citations: readonly JsonValue[] } | undefined {
  if (part.type !== "block" || part.block["type"] !== "text") return undefined;
  const { text, citations = part.block["annotations"] } = part.block;
  return typeof text === "string" && Array.isArray(citations) ? { text, citations } : undefined;
}

/**
 * A cited text the Chat and UI encoders show the sources of: {@link citedText}'s, or Bedrock
 * Converse's `citationsContent` block (ConverseCitations: its whole text as `content`, its
 * citations), which the agent protocols' encoders keep whole for the next turn instead.
 */
function sourcedText(part: ReasoningPart): { text: string; citations: readonly JsonValue[] } | undefined {
  const cited = part.type === "block" ? part.block["citationsContent"] : undefined;
  const { content, citations } = isRecord(cited) ? cited : {};
  return Array.isArray(content) && Array.isArray(citations)
    ? { text: content.map((piece) => (isRecord(piece) ? piece["text"] : "")).join(""), citations }
    : citedText(part);
}

/**
 * OpenAI Responses' own annotation types (`ResponseOutputText`'s): passed on as they came, their
 * positions counted from the start of the text shown, and never an Anthropic citation.
 *
 * @example
 * ```ts
 * isOpenAIAnnotation({ type: "url_citation", url, title, start_index: 0, end_index: 5 }); // true
 * ```
 */
export const isOpenAIAnnotation = (citation: JsonValue): boolean =>
  isRecord(citation) &&
  /^(url_citation|file_citation|container_file_citation|file_path)$/.test(String(citation["type"]));

/**
 * Gemini's grounding and citations (a `{ groundingMetadata }`, `{ citationMetadata }` or
 * `{ urlContextMetadata }` part, kept for the app alone): no next turn takes them, so the agent protocols' encoders write no block a
 * client would carry back for them; the grounding's supports are spans of the text ({@link citedSpans}).
 *
 * @example
 * ```ts
 * isGrounding({ type: "block", block: { groundingMetadata: { webSearchQueries: ["tides"] } } }); // true
 * ```
 */
export const isGrounding = (part: ReasoningPart): boolean =>
  part.type === "block" &&
  part.block["type"] === undefined &&
  ("groundingMetadata" in part.block || "citationMetadata" in part.block || "urlContextMetadata" in part.block);

/** What a citation points at, as the client protocols can name it: a web page, or a document. */
type Source =
  | { kind: "url"; url: string; title: string | undefined }
  | { kind: "document"; title: string; mediaType: string; fileId: string | undefined; filename?: string | undefined };

/**
 * The media type of the document each document citation points into: Anthropic's citation types,
 * and Bedrock Converse's location members (`CitationLocation`).
 */
const DOCUMENT_TYPES: Readonly<Record<string, string>> = {
  char_location: "text/plain",
  page_location: "application/pdf",
  content_block_location: "text/plain",
  documentChar: "text/plain",
  documentPage: "application/pdf",
  documentChunk: "text/plain",
};

/**
 * What a citation points at: of Anthropic's (and Bedrock Converse's, the same kinds), a web search
 * result's page (`web_search_result_location`, Converse's `web`), a search result whose `source` is
 * a web address, or a document of the request (by its title, or its place among the documents); of
 * OpenAI's annotations, a page (`url_citation`) or a stored file (`file_citation`,
 * `container_file_citation`: OpenAI names no media type, so `text/plain`, as the AI SDK's own
 * OpenAI provider says) or a file the model made (`file_path`: by its id, of the media type
 * `application/octet-stream`, as that provider says too); of Cohere's sources, {@link cohereSource}'s;
 * undefined for a type it does not know.
 */
function sourceOf(citation: JsonValue): Source | undefined {
  if (!isRecord(citation)) return undefined;
  // Converse names a citation's kind by its `location`'s one member: `{ web: { url } }`, `{ documentChar: { documentIndex, start, end } }`.
  const location = citation["location"];
  const [member, at] = isRecord(location) ? (Object.entries(location)[0] ?? []) : [];
  const where = isRecord(at) ? at : citation;
  const type = String(member ?? citation["type"]);
  if (isCohereSource(citation)) return cohereSource(type, citation);
  const search = /^search_?result/i.test(type);
  const filename = nonEmptyString(citation["filename"]);
  const fileId = nonEmptyString(citation["file_id"]);
  if (type.endsWith("file_citation"))
    return { kind: "document", title: filename ?? fileId ?? "File", mediaType: "text/plain", fileId, filename };
  // A file the model made (a code interpreter's): OpenAI names it by its id alone, of no known type.
  if (type === "file_path" && fileId)
    return { kind: "document", title: fileId, mediaType: "application/octet-stream", fileId, filename: fileId };
  const title = nonEmptyString(citation["title"]) ?? nonEmptyString(citation["document_title"]);
  const url = nonEmptyString(search ? citation["source"] : where["url"]);
  if (url !== undefined && /^https?:\/\//i.test(url)) return { kind: "url", url, title };
  const mediaType = Object.hasOwn(DOCUMENT_TYPES, type) ? DOCUMENT_TYPES[type] : undefined;
  if (mediaType === undefined && !search) return undefined;
  const index = [
    where["document_index"],
    where["search_result_index"],
    where["documentIndex"],
    where["searchResultIndex"],
  ].find((value) => typeof value === "number");
  return {
    kind: "document",
    title: title ?? url ?? `Document ${typeof index === "number" ? index + 1 : ""}`.trim(),
    mediaType: mediaType ?? "text/plain",
    fileId,
  };
}

/**
 * A Cohere citation's source (`{ type: "document" | "tool", id, ... }`, kept as a cited text's
 * citation): no Anthropic citation says as much, so the Messages encoder leaves it out.
 *
 * @example
 * ```ts
 * isCohereSource({ type: "document", id: "doc:0", document: { title: "Tall penguins" } }); // true
 * ```
 */
export const isCohereSource = (citation: JsonValue): citation is Record<string, JsonValue> =>
  isRecord(citation) && /^(document|tool)$/.test(String(citation["type"])) && "id" in citation;

/**
 * What a Cohere source (`{ type: "document" | "tool", id, document }`) points at: a document's page
 * (its `url`), else the document by its title (else its id), or a tool's result by its id.
 */
function cohereSource(type: string, source: Record<string, JsonValue>): Source {
  const document = isRecord(source["document"]) ? source["document"] : {};
  const title = nonEmptyString(document["title"]);
  const url = nonEmptyString(document["url"]);
  if (url !== undefined && /^https?:\/\//i.test(url)) return { kind: "url", url, title };
  const id = nonEmptyString(document["id"]) ?? nonEmptyString(source["id"]);
  if (type === "tool")
    return { kind: "document", title: id ?? "Tool result", mediaType: "application/json", fileId: undefined };
  return { kind: "document", title: title ?? id ?? "Document", mediaType: "text/plain", fileId: undefined };
}

/** A part that cites the text shown, and the text's length when it came, in UTF-16 code units. */
export interface Citing {
  readonly part: ReasoningPart;
  readonly at: number;
}

/**
 * Whether `part` cites the text shown: a cited text block ({@link citedText}, Bedrock's) or
 * Gemini's grounding ({@link isGrounding}), whose spans {@link citedSpans} places.
 *
 * @example
 * ```ts
 * if (cites(part)) citing.push({ part, at: length }); // placed once the text is complete
 * ```
 */
export const cites = (part: ReasoningPart): boolean => sourcedText(part) !== undefined || isGrounding(part);

/** Work a placing may take beyond what it needs, per code unit of the text: see {@link Work}. */
const WORK_PER_UNIT = 4;

/**
 * The spans of `text` that the parts of `citing` cite, each over the text's first `at` code units
 * (what was shown when it came): a cited text block's, which comes at the stop of its block, so its
 * text ends what was shown (one that does not is at its last place there; one that is not there at
 * all has no span; one that says where it starts, Cohere's, is at its first place from there), or Gemini's grounding supports' ({@link groundingSpans}); none for another
 * part. The encoders keep the parts and place them once the text is complete (at the finish, at the
 * close of its block), so that thousands of cited blocks cost one join of the text, not one each;
 * any search past the check that a cited text ends its place is `work`'s to allow (by default a
 * few units a unit of `text`): one it does not allow leaves its citation out.
 *
 * @example
 * ```ts
 * citedSpans([{ part, at: text.length }], text); // [{ citations, start: text.length - part.block.text.length, end: text.length }]
 * ```
 */
export function citedSpans(
  citing: readonly Citing[],
  text: string,
  work: Work = new Work(WORK_PER_UNIT * text.length),
): Span[] {
  return citing.flatMap(({ part, at }): Span[] => {
    const cited = sourcedText(part);
    if (!cited) return isGrounding(part) ? groundingSpans(part, text, at, work) : [];
    const size = cited.text.length;
    if (size === 0 || size > at) return [];
    // Cohere's says where it starts, in characters: never more units than UTF-16's, so look from there.
    const from = part.type === "block" ? part.block["start"] : undefined;
    let start = typeof from === "number" && from >= 0 ? findText(text, cited.text, from, at, false, work) : -1;
    if (start < 0)
      start = text.startsWith(cited.text, at - size) ? at - size : findText(text, cited.text, 0, at, true, work);
    return start >= 0 ? [{ citations: cited.citations, start, end: start + size }] : [];
  });
}

/**
 * The annotations of an OpenAI Responses `output_text` for its cited spans: OpenAI's own
 * annotations (an OpenAI Responses upstream's) as they came, their positions moved to where the
 * span starts; of Anthropic's citations, a web page as a `url_citation` over the cited text
 * (`start_index`, `end_index`), a document stored as a file (a citation with a `file_id`) as a
 * `file_citation` at the cited text's end; a document sent in the request itself has no Responses
 * annotation, and is left out.
 *
 * @example
 * ```ts
 * responsesAnnotations([{ citations: [webCitation], start: 0, end: 21 }]); // [{ type: "url_citation", url, title, start_index: 0, end_index: 21 }]
 * ```
 */
export function responsesAnnotations(spans: readonly Span[]): Record<string, JsonValue>[] {
  return spans.flatMap(({ citations, start, end }) =>
    citations.flatMap((citation): Record<string, JsonValue>[] => {
      if (isOpenAIAnnotation(citation)) return [shifted(citation as Record<string, JsonValue>, start)];
      const source = sourceOf(citation);
      if (source?.kind === "url")
        return [
          { type: "url_citation", url: source.url, title: source.title ?? "", start_index: start, end_index: end },
        ];
      if (source?.fileId === undefined) return [];
      return [{ type: "file_citation", file_id: source.fileId, filename: source.title, index: end }];
    }),
  );
}

/** An OpenAI annotation of a text that starts at `start` of the text shown, its positions moved there. */
function shifted(annotation: Record<string, JsonValue>, start: number): Record<string, JsonValue> {
  const moved = { ...annotation };
  for (const key of ["start_index", "end_index", "index"])
    if (typeof moved[key] === "number") moved[key] = (moved[key] as number) + start;
  return moved;
}

/**
 * The `annotations` of a Chat Completions message for its cited spans: web pages as `url_citation`s
 * over the cited text, as OpenAI's search models send them; Chat has no document annotation.
 *
 * @example
 * ```ts
 * chatAnnotations([{ citations: [webCitation], start: 0, end: 21 }]); // [{ type: "url_citation", url_citation: { url, title, start_index: 0, end_index: 21 } }]
 * ```
 */
export function chatAnnotations(spans: readonly Span[]): Record<string, JsonValue>[] {
  return responsesAnnotations(spans).flatMap(({ type, url, title, start_index, end_index }) =>
    type === "url_citation" ? [{ type, url_citation: { url, title, start_index, end_index } as JsonValue }] : [],
  );
}

/**
 * The AI SDK UI message stream's sources of a response's citations: each web page once as a
 * `source-url`, each document once as a `source-document` (its title and media type), with ids
 * `source-1`, `source-2`, ...
 *
 * @example
 * ```ts
 * const sources = new UISources();
 * sources.chunks(part); // [{ type: "source-url", sourceId: "source-1", url, title }]
 * ```
 */
export class UISources {
  readonly #seen = new Set<string>();

  /**
   * The source chunks of a reasoning part's citations not shown yet (Gemini's grounding: its web
   * grounding chunks' pages, as the AI SDK's Google provider gives them as sources); none for any other part.
   */
  chunks(part: ReasoningPart): Record<string, string>[] {
    return (sourcedText(part)?.citations ?? groundingPages(part)).flatMap((citation): Record<string, string>[] => {
      const source = sourceOf(citation);
      const key = source && (source.kind === "url" ? `u ${source.url}` : `d ${source.fileId ?? source.title}`);
      if (!source || this.#seen.has(key!)) return [];
      this.#seen.add(key!);
      const sourceId = `source-${this.#seen.size}`;
      if (source.kind === "document") {
        const { mediaType, title, filename } = source;
        return [{ type: "source-document", sourceId, mediaType, title, ...(filename && { filename }) }];
      }
      return [
        {
          type: "source-url",
          sourceId,
          url: source.url,
          ...(source.title === undefined ? {} : { title: source.title }),
        },
      ];
    });
  }
}
