/**
 * OpenAI's Chat search models (`gpt-4o-search-preview`, `gpt-4o-mini-search-preview`,
 * `gpt-5-search-api`, ...) search the web on every request, asked or not (`web_search_options`
 * only tunes the search), and the search bills the key that calls them: the deployment's. So a
 * request for one, through any endpoint, reaches OpenAI only when `OPENAI_SERVER_TOOLS` lists
 * `web_search`, as every other tool OpenAI runs needs its kind listed
 * (worker/protocols/openai-server-tools.ts); otherwise it is a 400 naming `model` and the setting,
 * which each client protocol writes in its own shape, its own name for the field.
 *
 * The check sits in `/v1/stream`'s parser, which every protocol's request goes through, and the
 * parsers are synchronous: the listing is the one `withRequestSettings` (./request-settings.ts)
 * holds for the parse. Outside one (and by default) `web_search` is not listed, so a parser called
 * without it refuses every search model.
 *
 * @module
 */
import { type HttpError, invalidField } from "../response/json-error.ts";
import { requestSettings } from "./request-settings.ts";

/**
 * Whether `model` of `provider` is an OpenAI Chat search model (its id names `search`:
 * `gpt-4o-search-preview`, `gpt-5-search-api`), the only Chat models OpenAI takes
 * `web_search_options` with, and which search whatever the request says.
 *
 * @example
 * ```ts
 * isChatSearchModel("openai", "gpt-4o-search-preview"); // true
 * ```
 */
export const isChatSearchModel = (provider: string, model: string): boolean =>
  provider === "openai" && /search/i.test(model);

/**
 * A 400 at `model` for an OpenAI Chat search model when `OPENAI_SERVER_TOOLS` does not list
 * `web_search` (in the settings `withRequestSettings` holds); nothing for any other model.
 *
 * @example
 * ```ts
 * checkSearchModel("openai", "gpt-4o-mini"); // nothing: no search model
 * ```
 */
export function checkSearchModel(provider: string, model: string): void {
  if (requestSettings().searchModels || !isChatSearchModel(provider, model)) return;
  throw invalidField(
    "model",
    "`model` is an OpenAI search model, which searches the web on every request, billed to this deployment's key: this Worker sends one only when its OPENAI_SERVER_TOOLS setting lists web_search.",
  );
}

/**
 * The 400 at `field` for a choice of no search beside a web search tool (`tool_choice` none, or
 * allowed tools that leave it out: `asks`), to an OpenAI Chat search model: it searches the web on
 * every request, whatever the choice (OpenAI's web search guide: with Chat Completions the model
 * always retrieves from the web before it answers), so the search the client turned off would
 * run, billed to the deployment's key.
 *
 * @example
 * ```ts
 * throw searchNotRefusable("tool_choice");
 * ```
 */
export const searchNotRefusable = (field: string, asks = "is none beside a web search tool"): HttpError =>
  invalidField(
    field,
    `\`${field}\` ${asks}, but an OpenAI Chat search model searches the web on every request, which no tool_choice can stop: use a model that does not search, or leave the web search tool out.`,
  );
