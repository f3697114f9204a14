/**
 * What the client protocols share to read their images and files into the Worker's one file part
 * (worker/request/file-parts.ts): media types from a file's name, text as base64, and the 400 of
 * a file named by an id, since the Worker keeps no files.
 *
 * @module
 */
import { invalidField, type HttpError } from "../response/json-error.ts";
import { checkedWireFile, fileFromUrl, isDataUrl, type WireFilePart } from "../request/file-parts.ts";

const BY_EXTENSION: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  pdf: "application/pdf",
  txt: "text/plain",
  md: "text/markdown",
  csv: "text/csv",
  html: "text/html",
  json: "application/json",
};

const EXTENSION = /^[A-Za-z0-9]+$/;

/**
 * A file's media type from its name's extension, `fallback` for one it does not tell (a file's
 * name has no query or fragment: "Invoice #12.pdf" is a PDF). Read by index: a regular expression
 * anchored at the end retried from every `.` of a name of many `.a#` and a line break (quadratic:
 * a 1.5 MB URL held workerd a minute). Only the table's own keys: a name ending `.constructor` is
 * no media type.
 */
export function mediaTypeOfName(name: string | undefined, fallback: string): string {
  const text = name ?? "";
  const dot = text.lastIndexOf(".");
  const extension = dot < 0 ? "" : text.slice(dot + 1).toLowerCase();
  if (!EXTENSION.test(extension) || !Object.hasOwn(BY_EXTENSION, extension)) return fallback;
  return BY_EXTENSION[extension] as string;
}

/** A URL's media type from its path's extension, before its query or fragment (see {@link mediaTypeOfName}). */
export function mediaTypeOfUrl(url: string, fallback: string): string {
  let end = url.length;
  for (const mark of ["?", "#"]) {
    const at = url.indexOf(mark);
    if (at >= 0 && at < end) end = at;
  }
  return mediaTypeOfName(url.slice(0, end), fallback);
}

/** Text as the base64 of its UTF-8 bytes (a plain-text document a client sent as text). */
export function base64OfText(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The 400 of a file named by an id: the Worker keeps no files, so the bytes or a URL must come in the request. */
export function fileIdError(path: string): HttpError {
  return invalidField(
    path,
    `\`${path}\` names a stored file: this Worker keeps no files; send the file's bytes (base64) or a URL instead.`,
  );
}

/**
 * A file at a URL or in a `data:` URL (OpenAI's `image_url`, the AI SDK's `url`), checked for
 * `provider`: `mediaType` is its type when the client gave one, else the data URL's, else the
 * URL's extension's, else `fallback`.
 */
export function fileOfUrl(
  url: string,
  path: string,
  provider: string,
  fallback: string,
  extra: Partial<Pick<WireFilePart, "media_type" | "filename" | "detail">> = {},
): WireFilePart {
  const source = fileFromUrl(url, path, mediaTypeOfUrl(isDataUrl(url) ? "" : url, fallback));
  return checkedWireFile({ type: "file", ...source, ...extra }, path, provider);
}

/**
 * A `file_data` field (OpenAI's Chat and Responses file parts): a `data:` URL, read as `fetch`
 * reads one, or bare base64, taken as canonical base64 only, as every bare base64 field is: no
 * URL's fragment or `%` escapes read into it, so a `#` in it is a 400, not a file cut short there.
 */
export function fileOfData(
  data: string,
  path: string,
  provider: string,
  mediaType: string,
  extra: Partial<Pick<WireFilePart, "filename">> = {},
): WireFilePart {
  if (isDataUrl(data)) return fileOfUrl(data, path, provider, mediaType, extra);
  return checkedWireFile({ type: "file", media_type: mediaType, data, ...extra }, path, provider);
}
