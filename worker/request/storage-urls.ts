/**
 * The deployment's own storage in a client's file URL: `s3://`, which Bedrock reads with the
 * Worker's AWS key, and `gs://` and Gemini's Files API's URLs, which Gemini reads with the
 * Worker's project. A client may name only what the operator lists in `ALLOWED_STORAGE_URLS`
 * (URL prefixes such as `s3://my-bucket/docs/`); any other such URL is a 400 naming the part.
 *
 * The request parsers are synchronous and every file check is deep inside them: the listed
 * prefixes are those `withRequestSettings` (./request-settings.ts) holds for the parse, which
 * checks them; outside one (and by default) none is listed, so a parser called without it refuses
 * them all.
 *
 * @module
 */
import { requestSettings } from "./request-settings.ts";

/**
 * The rest of a client's URL past its prefix: segments of printable ASCII (no space) without `%`
 * (an encoded `.` or `/` a provider may decode), `\`, `?` or `#`, none empty, `.` or `..` (checked
 * apart), so that the file is inside the listed folder however the provider reads its path.
 */
const REST = /^[!-~]+$/;
const UNSAFE = /[%\\?#]/;

/**
 * True when `url`, as the client wrote it (what goes to the provider), starts with a listed prefix
 * and names a file inside it: see {@link REST}. Compared as written, case and all.
 */
export function listedStorageUrl(url: string): boolean {
  const prefix = requestSettings().storagePrefixes.find((candidate) => url.startsWith(candidate));
  if (prefix === undefined) return false;
  const rest = url.slice(prefix.length);
  return (
    REST.test(rest) &&
    !UNSAFE.test(rest) &&
    rest.split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..")
  );
}
