import { fileRefused } from "../media.ts";
import type { Fields, RequestFilePart } from "../request.ts";

/**
 * The URIs Gemini reads a file from itself (`fileData.fileUri`): its Files API's and Cloud
 * Storage's (`gs://`, on Vertex AI). Any other URL would have to be fetched by the caller.
 */
const GEMINI_URI = /^(?:gs:\/\/|https:\/\/generativelanguage\.googleapis\.com\/)/;

/**
 * A file as a Gemini part: `inlineData` with its bytes, or `fileData` with a URI Gemini reads
 * itself (its Files API's, `gs://`).
 *
 * @example
 * ```ts
 * geminiFilePart({ type: "file", mediaType: "image/png", source: { type: "base64", data: "iVBORw0KGgo=" } }, "messages[0].parts[0]");
 * // { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } }
 * ```
 */
export function geminiFilePart(part: RequestFilePart, path: string): Fields {
  const { source } = part;
  if (source.type === "base64") return { inlineData: { mimeType: part.mediaType, data: source.data } };
  return { fileData: { mimeType: part.mediaType, fileUri: geminiFileUri(part, source.url, path, "Gemini") } };
}

/**
 * A file's URL when Gemini reads it itself (its Files API's, `gs://`; Gemini's Interactions API
 * takes the same), with its exact media type, which Gemini needs; any other is an
 * `invalid-request` error naming `provider`.
 *
 * @example
 * ```ts
 * geminiFileUri(part, "gs://bucket/cat.png", "messages[0].parts[0]", "Gemini"); // "gs://bucket/cat.png"
 * ```
 */
export function geminiFileUri(part: RequestFilePart, url: string, path: string, provider: string): string {
  if (!GEMINI_URI.test(url)) throw fileRefused(provider, path, "it reads files at URLs of its Files API or gs:// only");
  if (part.mediaType.endsWith("/*")) throw fileRefused(provider, path, "a file at a URL needs its exact media type");
  return url;
}
