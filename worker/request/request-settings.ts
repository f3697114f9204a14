/**
 * The deployment's settings a request parser checks deep inside, where no setting is passed: the
 * parsers are synchronous, so a route runs its parser inside {@link withRequestSettings}, which
 * holds the request's settings for that call alone, and each check reads them with
 * {@link requestSettings}. Outside one (and by default) nothing is listed, so a parser called
 * without it refuses whatever a setting must allow. A new setting is one field of
 * {@link RequestSettings}.
 *
 * @module
 */
import { type Settings, SettingsError } from "../env.ts";

/** The settings in force while a request is parsed. */
export interface RequestSettings {
  /** `OPENAI_SERVER_TOOLS` lists `web_search`: an OpenAI Chat search model may be called (./search-models.ts). */
  searchModels: boolean;
  /** `ALLOWED_STORAGE_URLS`, each prefix ending in `/`: the storage a file URL may name (./storage-urls.ts). */
  storagePrefixes: readonly string[];
}

const NONE: RequestSettings = { searchModels: false, storagePrefixes: [] };

let current = NONE;

/**
 * What one request's file checks have counted so far (./file-parts.ts): its files, and each kind
 * of file's refusal (provider, media type, a URL's scheme and host), so that the count and the
 * kinds bound the work however the client's protocol nests its files.
 */
export interface FileChecks {
  /** Files checked in this pass (the translation, then the `/v1/stream` parse, each counts its own). */
  files: number;
  /** Each kind of file seen in this request, and why the provider refuses it (undefined: it takes it). */
  kinds: Map<string, string | undefined>;
}

// Outside a parse there is no request to count for: `fileChecks()` then gives a fresh, unshared one.
// Inside one they are made at the request's first file (`parsing`): a request without files makes none.
let checks: FileChecks | undefined;
let parsing = false;

/**
 * Runs `parse` (a synchronous request parser) with the deployment's `settings` in force for that
 * call alone, and returns what it returns; every route runs its parser so. A malformed
 * `ALLOWED_STORAGE_URLS` prefix is a {@link SettingsError} naming the variable, as every setting's is.
 *
 * @example
 * ```ts
 * const request = withRequestSettings(settings, () => parseStreamRequest(body, providerNames));
 * ```
 */
export function withRequestSettings<T>(
  settings: Pick<Settings, "allowedStorageUrls" | "openaiServerTools">,
  parse: () => T,
): T {
  const outer = current;
  const outerChecks = checks;
  const outerParsing = parsing;
  current = ofSettings.get(settings) ?? readRequestSettings(settings);
  // This request's own file checks: set and cleared around `parse`, which is synchronous from its
  // start to its end (every route's translation and its /v1/stream parse: no await, no callback
  // after it returns), so no other request's parse can run while they are set.
  checks = undefined;
  parsing = true;
  try {
    const parsed = parse();
    if (parsed instanceof Promise) throw new TypeError("withRequestSettings runs synchronous parsers only.");
    return parsed;
  } finally {
    current = outer;
    checks = outerChecks;
    parsing = outerParsing;
  }
}

/**
 * The file checks of the request being parsed ({@link withRequestSettings}); outside a parse, a
 * fresh one each call (nothing counted across requests).
 *
 * @example
 * ```ts
 * if (++fileChecks().files > MAX_REQUEST_FILES) throw tooMany;
 * ```
 */
export function fileChecks(): FileChecks {
  if (!parsing) return { files: 0, kinds: new Map() };
  checks ??= { files: 0, kinds: new Map() };
  return checks;
}

/**
 * Counts the request's files again from none (the translation counted the client's files; the
 * `/v1/stream` parse checks the same files again), without making the checks of a request that has none.
 *
 * @example
 * ```ts
 * recountFiles();
 * ```
 */
export function recountFiles(): void {
  if (checks !== undefined) checks.files = 0;
}

/**
 * What each settings object holds for the parsers, read once: the Worker reads its settings once
 * per bindings object (../http/auth.ts), so this is once per isolate, not once per request. A
 * malformed prefix is not kept: every request still meets its `SettingsError`.
 */
const ofSettings = new WeakMap<object, RequestSettings>();

function readRequestSettings(settings: Pick<Settings, "allowedStorageUrls" | "openaiServerTools">): RequestSettings {
  const read = {
    searchModels: settings.openaiServerTools.has("web_search"),
    storagePrefixes: settings.allowedStorageUrls.map(storagePrefix),
  };
  ofSettings.set(settings, read);
  return read;
}

/**
 * The settings of the request being parsed ({@link withRequestSettings}); outside a parse, none listed.
 *
 * @example
 * ```ts
 * if (!requestSettings().searchModels) throw refusal;
 * ```
 */
export const requestSettings = (): RequestSettings => current;

/**
 * A prefix the operator may list: Bedrock's `s3://` with an S3 bucket name, Gemini's `gs://` with a
 * Cloud Storage bucket name, or its Files API's host; then a path whose segments start with no `.`
 * (so no `.` or `..`) and hold no `%`, each ending in `/`.
 */
const PREFIX =
  /^(?:s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]|gs:\/\/[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]|https:\/\/generativelanguage\.googleapis\.com)(?:\/(?:[\w!*'()-][\w.!*'()-]*\/)*)?$/;

/** A listed prefix ending in `/` (a bucket alone means its every file), so `s3://b` never matches `s3://b-evil/`. */
function storagePrefix(prefix: string): string {
  if (!PREFIX.test(prefix))
    throw new SettingsError(
      "ALLOWED_STORAGE_URLS",
      "must list URL prefixes such as s3://my-bucket/docs/ or gs://my-bucket/: s3://, gs:// or https://generativelanguage.googleapis.com, a bucket, and a path ending in / (no ., .., % or empty segment).",
    );
  return prefix.endsWith("/") ? prefix : `${prefix}/`;
}
