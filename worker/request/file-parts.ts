/**
 * Images and files in a request: the one part type every client protocol's images and files are
 * read into (the library's `RequestFilePart`), its form in the `/v1/stream` body, and the checks
 * every file passes wherever it came from: its media type, its base64, its size, and whether the
 * provider takes it (asked of the provider's own request builder, so the Worker keeps no second
 * table of what each provider takes). The Worker never fetches a URL: a URL goes to a provider
 * that reads it itself (OpenAI, Anthropic, Cohere), and is a 400 for one that needs the bytes.
 * A URL of the deployment's own storage (`s3://`, `gs://`, Gemini's Files API) is a 400 too: the
 * provider would read it with the operator's credentials, whatever the client may see; the
 * operator lets clients name its folders by listing them (`ALLOWED_STORAGE_URLS`: ./storage-urls.ts).
 *
 * @module
 */
import type { RequestContentPart, RequestFilePart } from "../../src/index.ts";
import { HttpError, invalidField } from "../response/json-error.ts";
import { isObject, own } from "./json-fields.ts";
import { providerRefusal } from "./file-refusals.ts";
import { canonicalBase64 } from "./forgiving-base64.ts";
import { fileChecks } from "./request-settings.ts";
import { listedStorageUrl } from "./storage-urls.ts";

/**
 * The most bytes one file may hold, decoded (Anthropic takes images up to 5 MB and PDFs up to
 * 32 MB a request, Bedrock documents up to 4.5 MB, Gemini 20 MB inline a request): a larger
 * part is a 413 naming it, before any provider is called.
 */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** The most bytes of files one request may hold, decoded: past it, a 413 naming `messages`. */
export const MAX_REQUEST_FILE_BYTES = 20 * 1024 * 1024;

/**
 * The most files (images, documents, audio) one request may hold: past it, a 400 naming the file
 * one too many (`messages` when counted after parsing). The most any provider documents: Gemini
 * takes up to 3,000 images a prompt (Vertex AI), OpenAI 500 images or files a request, Anthropic
 * 100 images; a provider refuses its own lower limit. It bounds what one request costs the isolate
 * (a body of tiny data URLs holds 100,000s of parts): the file past it is refused before it is checked.
 */
export const MAX_REQUEST_FILES = 3000;

/** A file in the `/v1/stream` body: its media type and its base64 `data` or a `url`. */
export interface WireFilePart {
  type: "file";
  media_type: string;
  data?: string;
  url?: string;
  filename?: string;
  detail?: ImageDetail;
}

/** An image's detail: OpenAI's `auto`, `low`, `high`, and OpenAI Responses' `original` (Codex's `view_image`). */
type ImageDetail = "auto" | "low" | "high" | "original";

/** A part of a user message's `content` in the `/v1/stream` body. */
export type WirePart = { type: "text"; text: string } | WireFilePart;

// RFC 6838: a type and a subtype of at most 127 characters each.
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/(?:[a-z0-9][a-z0-9!#$&^_.+-]{0,126}|\*)$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
// The schemes a provider reads itself; a provider that does not read one refuses it by name.
const URL_SCHEMES = new Set(["https:", "http:"]);
/**
 * Where a provider reads with the deployment's own credentials (Bedrock `s3://` with its AWS key,
 * Gemini `gs://` and its Files API's URLs with its project's): a client naming one there would
 * read the operator's storage, so these are refused as a stored file's id is, unless listed.
 */
const STORAGE_SCHEMES = new Set(["s3:", "gs:"]);
const STORAGE_HOSTS = new Set(["generativelanguage.googleapis.com", "generativelanguage.googleapis.com."]);
const DETAILS = new Set(["auto", "low", "high", "original"]);
const FILE_FIELDS = new Set(["type", "media_type", "data", "url", "filename", "detail"]);

/** The decoded size of base64 text. */
export function decodedBytes(base64: string): number {
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  return (base64.length / 4) * 3 - padding;
}

/**
 * A file a client sent, as the Worker's part, once checked: a media type `type/subtype` (`image/*`
 * for an image at a URL of unknown type), base64 of at most {@link MAX_FILE_BYTES} decoded bytes or
 * a URL of a scheme some provider reads, and one `provider` takes; else a 400 (413 for its size)
 * naming `path`, the client's own path of the part.
 */
export function checkedFile(file: WireFilePart, path: string, provider: string): RequestFilePart {
  // Counted before it is checked: the file past the limit costs no check.
  if (++fileChecks().files > MAX_REQUEST_FILES)
    throw invalidField(
      path,
      `\`${path}\`: the request holds more than ${MAX_REQUEST_FILES} files (images, documents, audio); a request may hold at most that many.`,
    );
  const mediaType = file.media_type.toLowerCase();
  if (!MEDIA_TYPE.test(mediaType))
    throw invalidField(
      path,
      `\`${path}\` needs a media type such as image/png or application/pdf (a type and a subtype of at most 127 characters each).`,
    );
  const source = sourceOf(file, path);
  const part: RequestFilePart = {
    type: "file",
    mediaType,
    source,
    ...(file.filename !== undefined ? { filename: file.filename } : {}),
    // `original` is OpenAI Responses' alone: the kits send OpenAI Chat and Cohere `high`, their closest.
    ...(file.detail !== undefined ? { detail: file.detail } : {}),
  };
  const refusal = providerRefusal(provider, part, path);
  if (refusal !== undefined) throw invalidField(path, `The provider ${provider} cannot take \`${path}\`: ${refusal}`);
  return part;
}

/** A client's file in the `/v1/stream` body's form, once {@link checkedFile} took it: the same file, or a 400 naming `path`. */
export function checkedWireFile(file: WireFilePart, path: string, provider: string): WireFilePart {
  checkedFile(file, path, provider);
  return file;
}

function sourceOf(file: WireFilePart, path: string): RequestFilePart["source"] {
  if ((file.data === undefined) === (file.url === undefined))
    throw invalidField(path, `\`${path}\` needs its bytes as base64 or a URL, not both.`);
  if (file.url !== undefined) {
    let url: URL;
    try {
      url = new URL(file.url);
    } catch {
      throw invalidField(path, `\`${path}\` has a URL that is not one.`);
    }
    const storage = STORAGE_SCHEMES.has(url.protocol) || STORAGE_HOSTS.has(url.hostname);
    if (storage && !listedStorageUrl(file.url))
      throw invalidField(
        path,
        `\`${path}\` names a file in the deployment's own storage (s3://, gs://, Gemini's Files API), which the provider would read with the Worker's credentials, and not under a prefix the operator lists in ALLOWED_STORAGE_URLS: send the file's bytes (base64) or a public https URL instead, or have the operator list its folder.`,
      );
    if (!storage && !URL_SCHEMES.has(url.protocol))
      throw invalidField(path, `\`${path}\` has a URL no provider reads: http(s) only.`);
    return { type: "url", url: file.url };
  }
  const data = file.data ?? "";
  if (data.length % 4 !== 0 || !BASE64.test(data)) throw invalidField(path, `\`${path}\` has data that is not base64.`);
  if (decodedBytes(data) > MAX_FILE_BYTES)
    throw new HttpError(413, {
      code: "file_too_large",
      message: `\`${path}\` holds more than ${MAX_FILE_BYTES} bytes; a file may hold at most that many.`,
      field: path,
    });
  return { type: "base64", data };
}

/**
 * A file part of a `/v1/stream` body (`{type: "file", media_type, data | url, filename?, detail?}`),
 * checked by {@link checkedFile}.
 */
export function wireFileAt(value: unknown, path: string, provider: string): RequestFilePart {
  if (!isObject(value) || own(value, "type") !== "file") throw invalidField(path, `\`${path}\` must be a file part.`);
  for (const key of Object.keys(value))
    if (!FILE_FIELDS.has(key)) throw invalidField(path, `\`${path}\` has a field a file part does not have.`);
  const [mediaType, data, url, filename, detail] = ["media_type", "data", "url", "filename", "detail"].map((key) =>
    own(value, key),
  );
  if (typeof mediaType !== "string") throw invalidField(`${path}.media_type`, "`media_type` must be a string.");
  for (const [key, field] of [
    ["data", data],
    ["url", url],
    ["filename", filename],
  ] as const)
    if (field !== undefined && typeof field !== "string")
      throw invalidField(`${path}.${key}`, `\`${key}\` must be a string.`);
  if (detail !== undefined && !DETAILS.has(detail as string))
    throw invalidField(`${path}.detail`, "`detail` must be auto, low, high or original.");
  const file: WireFilePart = { type: "file", media_type: mediaType };
  if (data !== undefined) file.data = data as string;
  if (url !== undefined) file.url = url as string;
  if (filename !== undefined) file.filename = filename as string;
  if (detail !== undefined) file.detail = detail as ImageDetail;
  return checkedFile(file, path, provider);
}

/**
 * A user message's `content` of the `/v1/stream` body as parts (text and files), or a 400 naming
 * the part at fault.
 */
export function wirePartsAt(value: unknown[], path: string, provider: string): RequestContentPart[] {
  return value.map((part, i): RequestContentPart => {
    const at = `${path}[${i}]`;
    if (isObject(part) && own(part, "type") === "text") {
      const text = own(part, "text");
      if (typeof text !== "string") throw invalidField(`${at}.text`, "`text` must be a string.");
      return { type: "text", text };
    }
    return wireFileAt(part, at, provider);
  });
}

/** The text of parts, joined: what the message's `content` holds for whatever reads text alone. */
export function partsText(parts: readonly RequestContentPart[]): string {
  return parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
}

/** The files of a request so far: their count and decoded bytes. */
export interface FileTally {
  files: number;
  bytes: number;
}

/**
 * Adds the files of `parts` to `tally`, or a 400 naming `messages` past {@link MAX_REQUEST_FILES}
 * files, a 413 past {@link MAX_REQUEST_FILE_BYTES}.
 */
export function addFiles(tally: FileTally, parts: readonly RequestContentPart[] | undefined): void {
  for (const part of parts ?? []) {
    if (part.type !== "file") continue;
    tally.files++;
    if (part.source.type === "base64") tally.bytes += decodedBytes(part.source.data);
  }
  if (tally.files > MAX_REQUEST_FILES)
    throw invalidField(
      "messages",
      `\`messages\` hold more than ${MAX_REQUEST_FILES} files (images, documents, audio); a request may hold at most that many.`,
    );
  if (tally.bytes > MAX_REQUEST_FILE_BYTES)
    throw new HttpError(413, {
      code: "file_too_large",
      message: `\`messages\` hold more than ${MAX_REQUEST_FILE_BYTES} bytes of files; a request may hold at most that many.`,
      field: "messages",
    });
}

const BASE64_MARK = /; *base64$/i;

/**
 * `text` without spaces at its ends, by index: a regular expression's ` +$` tries again from each
 * space of an inner run, quadratic in a client's header. (Tabs and line breaks are gone before, and
 * a form feed stays: the URL parser percent-encodes it, so the processor never sees one to trim.)
 */
function trimSpaces(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) === 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) === 0x20) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

const TABS_AND_BREAKS = /[\t\n\r]/g;

/** Whether `url` is a `data:` URL, its scheme in any case (`DATA:`), as URL schemes are. */
export function isDataUrl(url: string): boolean {
  return url.length >= 5 && url.slice(0, 5).toLowerCase() === "data:";
}

/**
 * A `data:` URL (`data:image/png;base64,...`) as a file's media type and canonical base64, a URL as
 * itself (its media type `fallback`), or a 400 naming `path` for a `data:` URL that is not base64.
 */
export function fileFromUrl(
  url: string,
  path: string,
  fallback: string,
): Pick<WireFilePart, "media_type" | "data" | "url"> {
  if (!isDataUrl(url)) return { media_type: fallback, url };
  const comma = url.indexOf(",");
  // Much as the fetch spec's data: URL processor reads it: the header trimmed, `;` then spaces then
  // `base64` in any case. Linear: each space is looked at from one `;` only.
  // The URL parser drops every tab and line break before the processor reads the header.
  const header = comma < 0 ? "" : trimSpaces(url.slice(5, comma).replace(TABS_AND_BREAKS, ""));
  const base64 = BASE64_MARK.exec(header);
  if (base64 === null)
    throw invalidField(path, `\`${path}\` must be a base64 data URL (data:<media type>;base64,...) or an https URL.`);
  // checkedFile lowercases the media type.
  const mediaType = trimSpaces(header.slice(0, base64.index).split(";")[0] ?? "");
  // Decoded as fetch decodes it (wrapped, spaced or unpadded base64), sent on as canonical base64.
  const data = canonicalBase64(url.slice(comma + 1));
  if (data === undefined)
    throw invalidField(
      path,
      `\`${path}\` has a data: URL whose body is not base64 (letters, digits, + and /, white space, and = padding only at the end).`,
    );
  return { media_type: mediaType === "" ? fallback : mediaType, data };
}
