/**
 * The deployment's own storage in a client's file URL: `s3://`, which Bedrock reads with the
 * Worker's AWS key, and `gs://` and Gemini's Files API's URLs, which Gemini reads with the
 * Worker's project. A client may name only what the operator lists in `ALLOWED_STORAGE_URLS`
 * (URL prefixes such as `s3://my-bucket/docs/`); any other such URL is a 400 naming the part.
 *
 * The request parsers are synchronous and every file check is deep inside them, so a route runs
 * its parser inside {@link withStorageUrls} (through `withRequestSettings`, ./request-settings.ts),
 * which holds the listed prefixes for that call alone: outside one (and by default) none is
 * listed, so a parser called without it refuses them all.
 *
 * @module
 */
import { SettingsError } from "../env.ts";

/**
 * A prefix the operator may list: Bedrock's `s3://` with an S3 bucket name, Gemini's `gs://` with a
 * Cloud Storage bucket name, or its Files API's host; then a path whose segments start with no `.`
 * (so no `.` or `..`) and hold no `%`, each ending in `/`.
 */
const PREFIX =
  /^(?:s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]|gs:\/\/[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]|https:\/\/generativelanguage\.googleapis\.com)(?:\/(?:[\w!*'()-][\w.!*'()-]*\/)*)?$/;
/**
 * The rest of a client's URL past its prefix: segments of printable ASCII (no space) without `%`
 * (an encoded `.` or `/` a provider may decode), `\`, `?` or `#`, none empty, `.` or `..` (checked
 * apart), so that the file is inside the listed folder however the provider reads its path.
 */
const REST = /^[!-~]+$/;
const UNSAFE = /[%\\?#]/;

let listed: readonly string[] = [];

/**
 * Runs `parse` (a synchronous request parser) with the `ALLOWED_STORAGE_URLS` prefixes `prefixes`
 * in force, and returns what it returns; a malformed prefix is a {@link SettingsError} naming the
 * variable, as every setting's is.
 *
 * @example
 * ```ts
 * const request = withStorageUrls(settings.allowedStorageUrls, () => parseStreamRequest(body, providerNames));
 * ```
 */
export function withStorageUrls<T>(prefixes: readonly string[], parse: () => T): T {
  const outer = listed;
  listed = prefixes.map(storagePrefix);
  try {
    return parse();
  } finally {
    listed = outer;
  }
}

/** A listed prefix ending in `/` (a bucket alone means its every file), so `s3://b` never matches `s3://b-evil/`. */
function storagePrefix(prefix: string): string {
  if (!PREFIX.test(prefix))
    throw new SettingsError(
      "ALLOWED_STORAGE_URLS must list URL prefixes such as s3://my-bucket/docs/ or gs://my-bucket/: s3://, gs:// or https://generativelanguage.googleapis.com, a bucket, and a path ending in / (no ., .., % or empty segment).",
    );
  return prefix.endsWith("/") ? prefix : `${prefix}/`;
}

/**
 * True when `url`, as the client wrote it (what goes to the provider), starts with a listed prefix
 * and names a file inside it: see {@link REST}. Compared as written, case and all.
 */
export function listedStorageUrl(url: string): boolean {
  const prefix = listed.find((candidate) => url.startsWith(candidate));
  if (prefix === undefined) return false;
  const rest = url.slice(prefix.length);
  return (
    REST.test(rest) &&
    !UNSAFE.test(rest) &&
    rest.split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..")
  );
}
