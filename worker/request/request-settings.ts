/**
 * The settings a request parser holds a request to deep inside, where no setting is passed: the
 * storage a file URL may name (`ALLOWED_STORAGE_URLS`, ./storage-urls.ts) and whether an OpenAI
 * search model may be called (`OPENAI_SERVER_TOOLS`' `web_search`, ./search-models.ts).
 *
 * @module
 */
import type { Settings } from "../env.ts";
import { withSearchModels } from "./search-models.ts";
import { withStorageUrls } from "./storage-urls.ts";

/**
 * Runs `parse` (a synchronous request parser) with the deployment's `settings` in force for that
 * call alone, and returns what it returns; every route runs its parser so.
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
  return withStorageUrls(settings.allowedStorageUrls, () => withSearchModels(settings.openaiServerTools, parse));
}
