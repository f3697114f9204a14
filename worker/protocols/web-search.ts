/**
 * Web search a client asks for in its own protocol, as OpenAI Chat's `web_search_options`
 * (`ChatCompletionCreateParams.WebSearchOptions`: `search_context_size` low, medium or high;
 * `user_location: {type: "approximate", approximate: {city, country, region, timezone}}`), which
 * the Worker sends an OpenAI Chat upstream (`StreamRequest.openaiWebSearch`): from Chat
 * Completions' own `web_search_options`, and from an OpenAI Responses `web_search` /
 * `web_search_preview` tool, whose `user_location` is flat. An OpenAI Responses upstream is sent
 * the Responses tool itself ({@link responsesWebSearchToolOf}). A Messages client's Anthropic web
 * search tool becomes either where it can say the same ({@link messagesWebSearchOf}).
 *
 * @module
 */
import { type HttpError, invalidField } from "../response/json-error.ts";
import { own } from "../request/json-fields.ts";
import { isChatSearchModel } from "../request/search-models.ts";
import type { JsonObject, StreamRequest } from "../request/stream-request.ts";
import { arrayAt, objectAt, stringAt, type WireTool } from "./client-request.ts";

/** The Responses tool types that ask for web search. */
export const WEB_SEARCH_TOOLS: ReadonlySet<string> = new Set([
  "web_search",
  "web_search_2025_08_26",
  "web_search_preview",
  "web_search_preview_2025_03_11",
]);

const PLACE = ["city", "country", "region", "timezone"] as const;

/** The `/v1/stream` tool a web search of `name` stands for among the client's tools, for an OpenAI Responses upstream. */
export const searchTool = (name: string): WireTool => ({
  name,
  description: "Search the web.",
  parameters: { type: "object" },
});

/**
 * A Responses web search tool for an OpenAI Responses upstream, which runs it: sent as the client
 * gave it (kept in `builtIns` by its type, as a tool search is), its `web_search_call` items and
 * the `url_citation` annotations of the answer coming back as the other tools OpenAI ran do. Null
 * (dropped: clients offer it by default) for another provider, undefined for another type.
 *
 * @example
 * ```ts
 * responsesWebSearchToolOf("web_search", { type: "web_search" }, builtIns, "openai-responses"); // { name: "web_search", ... }
 * ```
 */
export function responsesWebSearchToolOf(
  type: unknown,
  fields: Record<string, unknown>,
  builtIns: Map<string, Record<string, unknown>>,
  provider: string,
): WireTool | null | undefined {
  if (typeof type !== "string" || !WEB_SEARCH_TOOLS.has(type)) return undefined;
  if (provider !== "openai-responses") return null;
  builtIns.set(type, fields);
  return searchTool(type);
}

/**
 * Chat Completions' `web_search_options` as sent on, checked field by field (a 400 naming the
 * first at fault, or a field OpenAI does not document, as the Chat route answers any parameter).
 *
 * @example
 * ```ts
 * chatWebSearchAt({ search_context_size: "low" }, "web_search_options"); // { search_context_size: "low" }
 * ```
 */
export function chatWebSearchAt(value: unknown, path: string): JsonObject {
  const fields = objectAt(value, path);
  known(fields, path, ["search_context_size", "user_location"]);
  const location = own(fields, "user_location");
  if (location === undefined || location === null) return sized(fields, path);
  const at = `${path}.user_location`;
  const given = objectAt(location, at);
  known(given, at, ["type", "approximate"]);
  approximate(given, at);
  const place = objectAt(own(given, "approximate"), `${at}.approximate`);
  known(place, `${at}.approximate`, PLACE);
  return { ...sized(fields, path), user_location: placeOf(place, `${at}.approximate`) };
}

/**
 * A Chat client's `web_search_options` ({@link chatWebSearchAt}) for an OpenAI Chat upstream, when
 * `OPENAI_SERVER_TOOLS` lists `web_search` (`listed`): OpenAI's search bills the operator's key.
 * Unlisted, they are checked and dropped: a search model, which searches without them, was refused
 * at `model` already (../request/search-models.ts), and no other Chat model searches. With another
 * provider a 400: none has such a field.
 *
 * @example
 * ```ts
 * chatWebSearchOf({ search_context_size: "low" }, "openai", new Set(["web_search"])); // { search_context_size: "low" }
 * ```
 */
export function chatWebSearchOf(value: unknown, provider: string, listed: ReadonlySet<string>): JsonObject | undefined {
  if (value === undefined) return undefined;
  if (provider !== "openai")
    throw invalidField(
      "web_search_options",
      "`web_search_options` is supported only with an OpenAI Chat model (openai/...).",
    );
  const options = chatWebSearchAt(value, "web_search_options");
  return listed.has("web_search") ? options : undefined;
}

/**
 * A 400 for a Responses web search tool (at `path`) that limits the search in a way an OpenAI Chat
 * search model cannot keep: `external_web_access: false` (no live fetch: Open Responses' offline
 * search) or `filters.allowed_domains` (Chat has no place for them). Such a model searches the live
 * web on every request, `web_search_options` or not (OpenAI's web search guide: with Chat
 * Completions the model "always retrieves information from the web before responding"), and even
 * with `tool_choice` none (which names the client's tools, not the search), so dropping the limit,
 * or the tool, would search everywhere. Nothing for a tool without such a limit.
 *
 * @example
 * ```ts
 * checkChatSearchLimits({ type: "web_search", filters: { allowed_domains: ["ruby-lang.org"] } }, "tools[0]"); // throws at tools[0].filters.allowed_domains
 * ```
 */
export function checkChatSearchLimits(tool: Record<string, unknown>, path: string): void {
  if (own(tool, "external_web_access") === false)
    throw unlimited(`${path}.external_web_access`, "asks for no live web search");
  if (searchFiltersAt(tool, path).length > 0)
    throw unlimited(`${path}.filters.allowed_domains`, "limits the search to some domains");
}

/**
 * The `filters.allowed_domains` of a Responses web search tool (at `path`), empty when absent; a
 * 400 naming the field when `filters` is no object or the list is not one of strings (openai 6's
 * `WebSearchTool.Filters`), whatever the upstream: read as no limit, a Chat search model would
 * search the whole web, and a tool dropped or sent on would go unchecked.
 *
 * @example
 * ```ts
 * searchFiltersAt({ type: "web_search", filters: { allowed_domains: ["ruby-lang.org"] } }, "tools[0]"); // ["ruby-lang.org"]
 * ```
 */
export function searchFiltersAt(tool: Record<string, unknown>, path: string): string[] {
  const filters = own(tool, "filters");
  if (filters === undefined || filters === null) return [];
  return domainsAt(objectAt(filters, `${path}.filters`), "allowed_domains", `${path}.filters`);
}

/** The 400 at `field`, a limit of the search (`asks`: what it asks for) that an OpenAI Chat search model cannot keep. */
const unlimited = (field: string, asks: string): HttpError =>
  invalidField(
    field,
    `\`${field}\` ${asks}, but an OpenAI Chat search model searches the whole web on every request, which nothing sent to it can limit: use an OpenAI Responses model (openai-responses/...), or drop the limit.`,
  );

/**
 * A Responses web search tool as Chat's `web_search_options`, for an OpenAI Chat search model; a
 * 400 when the tool limits the search in a way Chat cannot say ({@link checkChatSearchLimits}).
 * Its other fields Chat lacks (`search_content_types`) are left out.
 *
 * @example
 * ```ts
 * responsesWebSearchAt({ type: "web_search", user_location: { city: "Paris" } }, "tools[0]"); // { user_location: { type: "approximate", approximate: { city: "Paris" } } }
 * ```
 */
export function responsesWebSearchAt(tool: Record<string, unknown>, path: string): JsonObject {
  checkChatSearchLimits(tool, path);
  const location = own(tool, "user_location");
  if (location === undefined || location === null) return sized(tool, path);
  const at = `${path}.user_location`;
  const place = objectAt(location, at);
  if (own(place, "type") !== undefined) approximate(place, at);
  return { ...sized(tool, path), user_location: placeOf(place, at) };
}

/** The `search_context_size` of `fields`, when it has one. */
function sized(fields: Record<string, unknown>, path: string): JsonObject {
  const size = own(fields, "search_context_size");
  if (size === undefined || size === null) return {};
  if (size !== "low" && size !== "medium" && size !== "high")
    throw invalidField(`${path}.search_context_size`, `\`${path}.search_context_size\` must be low, medium or high.`);
  return { search_context_size: size };
}

/** Chat's `user_location` of a place's `city`, `country`, `region` and `timezone` (null: absent). */
function placeOf(place: Record<string, unknown>, path: string): JsonObject {
  const approximate: JsonObject = {};
  for (const key of PLACE) {
    const value = own(place, key);
    if (value !== undefined && value !== null) approximate[key] = stringAt(value, `${path}.${key}`);
  }
  return { type: "approximate", approximate };
}

function approximate(location: Record<string, unknown>, path: string): void {
  if (own(location, "type") !== "approximate")
    throw invalidField(`${path}.type`, `\`${path}.type\` must be approximate.`);
}

/** A 400 naming the first field of `fields` not among `names`. */
function known(fields: Record<string, unknown>, path: string, names: readonly string[]): void {
  const other = Object.keys(fields).find((key) => !names.includes(key) && fields[key] !== null);
  if (other === undefined) return;
  const name = /^[A-Za-z0-9_-]{1,64}$/.test(other) ? other : "(unprintable)";
  throw invalidField(`${path}.${name}`, `\`${path}\` has a field OpenAI does not document there.`);
}

/** Anthropic's web search server tool types: `web_search_20250305`, `web_search_20260209`, ... */
const ANTHROPIC_SEARCH = /^web_search_\d{8}$/;

/** A Messages client's web search, as an OpenAI upstream takes it ({@link messagesWebSearchOf}). */
export interface MappedSearch {
  /** The tool's name, which the client's `tool_choice` may name. */
  name: string;
  /** `web_search_options`, for an OpenAI Chat search model. */
  chat?: JsonObject;
  /** The `web_search` tool, for an OpenAI Responses model. */
  responses?: JsonObject;
}

/**
 * A Messages client's Anthropic web search tool (`web_search_20250305` and later) as the web search
 * of an OpenAI upstream: an OpenAI Chat search model's `web_search_options` (`user_location` nested),
 * an OpenAI Responses model's `web_search` tool (the location flat, `allowed_domains` as
 * `filters.allowed_domains`). Undefined for another type or provider, and for a Responses model
 * given `blocked_domains` (OpenAI has no counterpart): no search rather than an unlimited one. A
 * limit a Chat search model cannot keep is a 400 ({@link checkMessagesSearchLimits}); `max_uses`,
 * with no counterpart either, is left out (OpenAI decides how often).
 *
 * @example
 * ```ts
 * messagesWebSearchOf({ type: "web_search_20250305", name: "web_search", allowed_domains: ["ruby-lang.org"] }, "tools[0]", "openai-responses", "gpt-5");
 * // { name: "web_search", responses: { type: "web_search", filters: { allowed_domains: ["ruby-lang.org"] } } }
 * ```
 */
export function messagesWebSearchOf(
  tool: Record<string, unknown>,
  path: string,
  provider: string,
  model: string,
): MappedSearch | undefined {
  if (!ANTHROPIC_SEARCH.test(String(own(tool, "type")))) return undefined;
  const chat = isChatSearchModel(provider, model);
  if (!chat && provider !== "openai-responses") return undefined;
  checkMessagesSearchLimits(tool, path, provider, model);
  const allowed = domainsAt(tool, "allowed_domains", path);
  if (domainsAt(tool, "blocked_domains", path).length > 0) return undefined;
  const name = stringAt(own(tool, "name"), `${path}.name`);
  const location = own(tool, "user_location");
  const at = `${path}.user_location`;
  const place = location === undefined || location === null ? undefined : objectAt(location, at);
  if (place) approximate(place, at);
  const user = place && placeOf(place, at);
  if (chat) return { name, chat: user ? { user_location: user } : {} };
  const search: JsonObject = { type: "web_search" };
  if (user) search["user_location"] = { type: "approximate", ...(user["approximate"] as JsonObject) };
  if (allowed.length > 0) search["filters"] = { allowed_domains: allowed };
  return { name, responses: search };
}

/**
 * A 400 for a Messages web search tool (at `path`) limited to or off some domains, to an OpenAI
 * Chat search model: it searches the whole web on every request, whether the tool is mapped, is
 * dropped (`ANTHROPIC_SERVER_TOOLS` without `web_search`) or comes after the first search tool.
 * To any upstream (Anthropic's, which is sent the tool as given, too), a 400 naming a domain list
 * that is not one of strings (@anthropic-ai/sdk's `WebSearchTool20250305`), or `blocked_domains`
 * beside `allowed_domains`, which Anthropic refuses ("cannot be used alongside"), both non-empty.
 *
 * @example
 * ```ts
 * checkMessagesSearchLimits({ type: "web_search_20250305", name: "web_search", blocked_domains: ["a.org"] }, "tools[0]", "openai", "gpt-4o-search-preview"); // throws at tools[0].blocked_domains
 * ```
 */
export function checkMessagesSearchLimits(
  tool: Record<string, unknown>,
  path: string,
  provider: string,
  model: string,
): void {
  if (!ANTHROPIC_SEARCH.test(String(own(tool, "type")))) return;
  const [allowed, blocked] = [domainsAt(tool, "allowed_domains", path), domainsAt(tool, "blocked_domains", path)];
  const [allow, block] = [`${path}.allowed_domains`, `${path}.blocked_domains`];
  if (allowed.length > 0 && blocked.length > 0)
    throw invalidField(block, `\`${block}\` is given beside \`${allow}\`: a web search takes one list or the other.`);
  if (!isChatSearchModel(provider, model)) return;
  if (allowed.length > 0) throw unlimited(allow, "limits the search to some domains");
  if (blocked.length > 0) throw unlimited(block, "keeps the search off some domains");
}

/** Marks the parsed request's web search ({@link messagesWebSearchOf}) for the upstream it was mapped for. */
export function withWebSearch(request: StreamRequest, search: MappedSearch): void {
  if (search.chat) request.openaiWebSearch = search.chat;
  const tool = search.responses;
  if (tool)
    request.tools = request.tools.map((entry) =>
      entry.name === search.name ? { ...entry, openAIResponsesTool: tool } : entry,
    );
}

/** A list of domains of a Messages web search tool (empty when absent). */
function domainsAt(tool: Record<string, unknown>, key: string, path: string): string[] {
  const value = own(tool, key);
  if (value === undefined || value === null) return [];
  return arrayAt(value, `${path}.${key}`).map((domain, i) => stringAt(domain, `${path}.${key}[${i}]`));
}
