/**
 * Whether a provider takes a file, asked of its own request builder once per kind of file
 * (provider, media type, a URL's scheme and whether its host is Gemini's Files API), never once per file: what a builder refuses
 * never depends on a file's bytes, name or detail. A request's kinds are counted and bounded
 * ({@link MAX_REQUEST_FILE_KINDS}), and a few are remembered across requests.
 *
 * @module
 */
import { type Provider, providerKit, type RequestFilePart, ToolCallStreamError } from "../../src/index.ts";
import { invalidField } from "../response/json-error.ts";
import { fileChecks } from "./request-settings.ts";

/**
 * The most kinds of file (provider, media type, a URL's scheme) one request may hold:
 * each new kind builds one small provider request to ask whether the provider takes it, so past
 * it a 400 naming the file, before that build. 256: a build is one small request body, and no real
 * request holds files of as many media types.
 */
export const MAX_REQUEST_FILE_KINDS = 256;

// Refusals already asked, by provider, source and media type (and a URL's scheme and host): what
// a request builder refuses never depends on a file's bytes, name or detail, so one small request
// is built per kind of file, not one per file, however many a client sends. Few are kept, of short keys.
const refusals = new Map<string, { refusal: string | undefined }>();
const REFUSALS_KEPT = 64;
const REFUSAL_KEY_CHARS = 512;
// The hosts a request builder tells apart (Gemini's Files API, src/providers/gemini/gemini-files.ts).
const FILES_API_HOSTS = new Set(["generativelanguage.googleapis.com"]);
let refusalBuilds = 0;

/** How many provider requests the refusal check has built in this isolate (tests read it: one per kind of file, not per file). */
export function refusalChecks(): number {
  return refusalBuilds;
}

/**
 * Why `provider` cannot take `part`, in its request builder's words, or undefined when it takes it;
 * a 400 naming `path` when the request already holds files of {@link MAX_REQUEST_FILE_KINDS} other kinds.
 *
 * @example
 * ```ts
 * const refusal = providerRefusal("bedrock", part, "messages[0].content[1]");
 * ```
 */
export function providerRefusal(provider: string, part: RequestFilePart, path: string): string | undefined {
  const { source } = part;
  // Of a URL a builder reads only its scheme (Bedrock's `s3://`, Gemini's `gs://`) and whether it
  // opens with Gemini's Files API host: any other host is one kind, so images from many hosts are
  // not many kinds. Its userinfo (`user:secret@`) is kept only as a mark that there was one, so no
  // credential outlives the request in the cache.
  const written = source.type === "url" ? /^([^:/?#]*:\/\/)([^/?#]*@)?([^/?#]*)/.exec(source.url) : null;
  const host = written && FILES_API_HOSTS.has(written[3] ?? "") ? written[3] : "host.invalid";
  const probe: RequestFilePart["source"] =
    source.type === "url"
      ? { type: "url", url: written ? `${written[1]}${written[2] ? "userinfo@" : ""}${host}/` : source.url }
      : { type: "base64", data: "" };
  const key = `${provider}\n${part.mediaType}\n${probe.type === "url" ? probe.url : ""}`;
  const { kinds } = fileChecks();
  if (kinds.has(key)) return kinds.get(key);
  if (kinds.size >= MAX_REQUEST_FILE_KINDS)
    throw invalidField(
      path,
      `\`${path}\`: the request holds files of more than ${MAX_REQUEST_FILE_KINDS} kinds (media type, URL scheme); a request may hold at most that many.`,
    );
  const refusal = refusals.has(key)
    ? refusals.get(key)?.refusal
    : buildRefusal(provider, { type: "file", mediaType: part.mediaType, source: probe });
  kinds.set(key, refusal);
  if (key.length <= REFUSAL_KEY_CHARS && !refusals.has(key)) {
    if (refusals.size >= REFUSALS_KEPT) refusals.delete(refusals.keys().next().value as string);
    refusals.set(key, { refusal });
  }
  return refusal;
}

function buildRefusal(provider: string, part: RequestFilePart): string | undefined {
  refusalBuilds++;
  try {
    providerKit(provider as Provider).requestBody({
      model: "model",
      messages: [{ role: "user", content: "", parts: [part] }],
      tools: [],
    });
  } catch (error) {
    if (error instanceof ToolCallStreamError && error.code === "invalid-request") return error.message;
    throw error;
  }
  return undefined;
}
