/**
 * The tools of `POST /v1/responses` as `/v1/stream`'s (./request.ts reads the rest): function and
 * `custom` tools, the built-in tools the client runs (./built-in-tools.ts), an OpenAI model's
 * remote `mcp` tools (./mcp-items.ts), and its `tool_choice`.
 *
 * @module
 */
import { PatternBudget } from "../../../src/index.ts";
import { type HttpError, invalidField } from "../../response/json-error.ts";
import { checkParameters, isObject, misnamedSchema, own } from "../../request/json-fields.ts";
import { upstreamProviders } from "../../upstream/providers/index.ts";
import type { JsonObject } from "../../request/stream-request.ts";
import { AGENT_BOUNDS } from "../../request/parse-stream-request.ts";
import { arrayAt, chosenToolAt, objectAt, stringAt, type WireTool } from "../client-request.ts";
import { toolNameIn } from "../tool-names.ts";
import { customFormatAt, customParameters, responsesCustomTool } from "../custom-calls.ts";
import { allowsSearch } from "./allowed-calls.ts";
import { builtInToolOf, chosenBuiltIn } from "./built-in-tools.ts";
import { mcpToolName, mcpToolOf } from "./mcp-items.ts";
import { toolCallingToolOf } from "./program-items.ts";
import { isChatSearchModel, searchNotRefusable } from "../../request/search-models.ts";
import {
  checkChatSearchLimits,
  responsesWebSearchAt,
  responsesWebSearchToolOf,
  searchFiltersAt,
  WEB_SEARCH_TOOLS,
} from "../web-search.ts";
import { droppedHosted, type HostedGate, unlistedChoice } from "../openai-server-tools.ts";

/** The tool names OpenAI takes, which a Responses client may send. */
const NAMES = upstreamProviders["openai-responses"].toolNames;

/**
 * Tools dropped rather than refused, because clients send them by default: `namespace` groups of
 * functions (Codex's sub-agent tools), whose calls carry a `namespace` this Worker does not return.
 * So is `web_search` (Codex, the Agents SDK) for a provider that has none: an OpenAI Responses model
 * gets it as it came (../web-search.ts), an OpenAI Chat search model as `web_search_options`
 * ({@link webSearchOf}), each only when `OPENAI_SERVER_TOOLS` lists it (../openai-server-tools.ts).
 */
const DROPPED_TOOLS = new Set(["namespace"]);

/**
 * Function, custom and the client's built-in tools as `/v1/stream` tools; `web_search` to an OpenAI
 * Responses model, dropped for the others; other built-in tools refused by path. A tool OpenAI
 * runs goes to it only when `OPENAI_SERVER_TOOLS` lists its kind (`gate`: ../openai-server-tools.ts).
 */
export function toolsOf(
  value: unknown,
  customTools: Map<string, JsonObject>,
  builtIns: Map<string, Record<string, unknown>>,
  gate: HostedGate,
  patterns: PatternBudget,
  path = "tools",
): WireTool[] {
  const { provider } = gate;
  return arrayAt(value, path).flatMap((tool, i) => {
    const at = `${path}[${i}]`;
    const fields = objectAt(tool, at);
    const type = own(fields, "type");
    const description = own(fields, "description") ?? undefined;
    if (description !== undefined && typeof description !== "string" && (type === "function" || type === "custom"))
      throw invalidField(`${at}.description`, "`description` must be a string.");
    const described = typeof description === "string" ? { description } : {};
    if (type === "function") {
      // Chat Completions' form, which would otherwise be told its `name` is no tool name.
      if (own(fields, "name") === undefined && isObject(own(fields, "function")))
        throw invalidField(
          `${at}.function`,
          "A Responses function tool has its `name` and `parameters` at its top level, not under `function` (Chat Completions' form).",
        );
      misnamedSchema(fields, at, "parameters");
      // A boolean or null (the SDK's FunctionTool): "true" would otherwise reach no provider as strict.
      const strict = own(fields, "strict") ?? false;
      if (typeof strict !== "boolean") throw invalidField(`${at}.strict`, "`strict` must be true, false or null.");
      // Checked here, at the client's index: dropped tools shift the indexes of the translated body.
      const parameters = own(fields, "parameters") ?? { type: "object" };
      if (isObject(parameters)) checkParameters(parameters, `${at}.parameters`, patterns);
      return [{ name: toolNameIn(own(fields, "name"), `${at}.name`, NAMES), ...described, parameters }];
    }
    if (type === "custom") {
      const name = toolNameIn(own(fields, "name"), `${at}.name`, NAMES);
      const format = customFormatAt(own(fields, "format"), `${at}.format`, false);
      customTools.set(name, responsesCustomTool(fields, format)); // for an OpenAI Responses upstream
      return [{ name, ...described, parameters: customParameters() }];
    }
    // One OpenAI would run, of a kind not listed, is checked as a listed one (a malformed tool is a
    // 400 either way), then dropped, its definition kept nowhere.
    const dropped = droppedHosted(gate, type, fields);
    const kept = dropped ? new Map<string, Record<string, unknown>>() : builtIns;
    const keep = (tool: WireTool | null): WireTool[] => (tool && !dropped ? [tool] : []);
    // A programmatic tool calling, server search or web search tool is dropped (null) for a provider without it.
    if (WEB_SEARCH_TOOLS.has(String(type))) searchFiltersAt(fields, at); // malformed: a 400 to any upstream
    const search = responsesWebSearchToolOf(type, fields, kept, provider);
    if (search !== undefined) return keep(search);
    const calling = toolCallingToolOf(type, fields, at, kept, provider);
    if (calling !== undefined) return keep(calling);
    const builtIn = builtInToolOf(type, fields, kept) ?? mcpToolOf(type, fields, at, kept, provider);
    if (builtIn || (typeof type === "string" && DROPPED_TOOLS.has(type))) return keep(builtIn ?? null);
    throw invalidField(
      `${at}.type`,
      "Only `function`, `custom`, `apply_patch`, `shell` and `local_shell` tools are supported (other built-in tools run on OpenAI's servers).",
    );
  });
}

/**
 * The request's tools: `tools`, then those of its `additional_tools` input items (`added`, each
 * list with its path: Codex sends one first, "tools made available at this item"), checked as
 * `tools` are; one of a name offered before is left out, and leaves the kind of the tool offered
 * first as it was (a custom tool of that name does not make the function's calls custom). Every
 * provider gets them among the request's tools (OpenAI too: a tool offered from the start is one
 * the model may call where the item stood). More than the agent bound of tools in all is a 400 at
 * the item that goes over; the names are a set, so a body of many items costs linear work.
 */
export function offeredTools(
  given: unknown,
  added: readonly (readonly [unknown, string])[],
  customTools: Map<string, JsonObject>,
  builtIns: Map<string, Record<string, unknown>>,
  gate: HostedGate,
): WireTool[] | undefined {
  if (given === undefined && added.length === 0) return undefined;
  const patterns = new PatternBudget(); // one for `tools` and every `additional_tools` together
  const tools = given === undefined ? [] : toolsOf(given, customTools, builtIns, gate, patterns);
  if (added.length === 0) return tools;
  const names = new Set(tools.map((tool) => tool.name));
  for (const [value, path] of added) {
    if (Array.isArray(value) && value.length > AGENT_BOUNDS.tools) throw tooManyTools(path);
    // Each item's kinds apart, then kept only for the names it adds.
    const [custom, kept] = [new Map<string, JsonObject>(), new Map<string, Record<string, unknown>>()];
    for (const tool of toolsOf(value, custom, kept, gate, patterns, path)) {
      if (names.has(tool.name)) continue;
      if (names.size >= AGENT_BOUNDS.tools) throw tooManyTools(path);
      names.add(tool.name);
      tools.push(tool);
      if (custom.has(tool.name)) customTools.set(tool.name, custom.get(tool.name)!);
      if (kept.has(tool.name)) builtIns.set(tool.name, kept.get(tool.name)!);
    }
  }
  return tools;
}

/** The 400 for an `additional_tools` item that takes the request over the agent bound of tools. */
const tooManyTools = (path: string): HttpError =>
  invalidField(path, `\`${path}\` takes the request's tools over ${AGENT_BOUNDS.tools}.`);

/**
 * The first `web_search` / `web_search_preview` tool of `tools` (checked by {@link toolsOf}) as
 * OpenAI Chat's `web_search_options`, for an OpenAI Chat search model (its id names `search`:
 * `gpt-4o-search-preview`, `gpt-5-search-api`), which searches with them; OpenAI refuses them
 * with its other models, and every other provider has none, so the tool is dropped there, as
 * clients send it by default. Not unless `OPENAI_SERVER_TOOLS` lists `web_search` (`listed`);
 * `tool_choice` none beside a search tool, `allowed_tools` that leave it out, or a forced tool other
 * than the search, is a 400 ({@link searchNotRefusable}): the model would search all the same.
 * A search tool limiting the search in a way Chat cannot say (`external_web_access: false`,
 * `filters.allowed_domains`) is a 400 naming it, whatever the choice ({@link checkChatSearchLimits}):
 * a search model searches the whole live web on every request, `tool_choice` none included.
 */
export function webSearchOf(
  tools: unknown,
  { provider, listed }: HostedGate,
  model: string,
  choice: unknown,
): JsonObject | undefined {
  if (!isChatSearchModel(provider, model) || !listed.has("web_search") || !Array.isArray(tools)) return undefined;
  const searches = (tool: unknown) => isObject(tool) && WEB_SEARCH_TOOLS.has(String(own(tool, "type")));
  tools.forEach((tool, i) => searches(tool) && checkChatSearchLimits(tool as Record<string, unknown>, `tools[${i}]`));
  if (choice === "none" && tools.some(searches)) throw searchNotRefusable("tool_choice");
  // Allowed tools that leave the offered search out (or allow none) ask for no search, as none does.
  if (isObject(choice) && own(choice, "type") === "allowed_tools" && !allowsSearch(choice))
    if (tools.some(searches)) throw searchNotRefusable("tool_choice.tools", "leaves out the web search tool offered");
    else return undefined;
  // A forced function (or custom, built-in) tool asks for that call instead of a search: the search would run first.
  const type = isObject(choice) ? own(choice, "type") : undefined;
  if (typeof type === "string" && type !== "allowed_tools" && !WEB_SEARCH_TOOLS.has(type) && tools.some(searches))
    throw searchNotRefusable(
      own(choice as Record<string, unknown>, "name") === undefined ? "tool_choice.type" : "tool_choice.name",
      "forces another tool than the web search offered",
    );
  const at = tools.findIndex(searches);
  return at < 0 ? undefined : responsesWebSearchAt(tools[at] as Record<string, unknown>, `tools[${at}]`);
}

/** The web search types `tools` gives (`web_search`, ...): what an `allowed_tools` choice may list of them. */
export const searchTypesOf = (tools: unknown): Set<string> =>
  new Set(
    (Array.isArray(tools) ? tools : [])
      .map((tool) => (isObject(tool) ? own(tool, "type") : undefined))
      .filter((type): type is string => typeof type === "string" && WEB_SEARCH_TOOLS.has(type)),
  );

/**
 * A `tool_choice` of a tool OpenAI runs, as an OpenAI Responses upstream is sent it (checked by
 * {@link toolChoice} first, which gives the other fields `required`): an MCP server's as given
 * (`{type: "mcp", server_label, name?}`: openai 6's ToolChoiceMcp), a forced web search as the
 * offered search tools allowed and one required (`{type: "allowed_tools", mode: "required",
 * tools: [{type: "web_search"}]}`: ToolChoiceTypes names no `web_search`, and `required` alone
 * would let the model call a function offered beside it). Undefined for any other choice or provider.
 */
export function hostedToolChoice(
  value: unknown,
  provider: string,
  tools: readonly WireTool[] | undefined,
): JsonObject | undefined {
  if (provider !== "openai-responses" || !isObject(value)) return undefined;
  const type = own(value, "type");
  if (typeof type === "string" && WEB_SEARCH_TOOLS.has(type)) {
    const searches = (tools ?? []).filter((tool) => WEB_SEARCH_TOOLS.has(tool.name));
    return { type: "allowed_tools", mode: "required", tools: searches.map((tool) => ({ type: tool.name })) };
  }
  if (type !== "mcp") return undefined;
  const name = own(value, "name") ?? undefined;
  if (name !== undefined && typeof name !== "string")
    throw invalidField("tool_choice.name", "`tool_choice.name` must be the name of a tool of the MCP server.");
  return { type, server_label: own(value, "server_label") as string, ...(name === undefined ? {} : { name }) };
}

/**
 * The Responses `tool_choice` as `/v1/stream`'s. A forced web search (`{type: "web_search_preview"}`,
 * `{type: "web_search"}`: the AI SDK's choice of its OpenAI web search tool) is `required` to an
 * OpenAI Responses model offered the search (which is sent the choice itself: {@link hostedToolChoice}), no choice
 * to an OpenAI Chat search model (`chatSearch`: it always searches, which answers `required` too:
 * `auto` beside other tools), and a 400 where the search
 * was dropped (another provider, or `OPENAI_SERVER_TOOLS` does not list it): an answer that never
 * searched is not what was asked. So is a choice of a hosted tool `dropped` for want of a listing.
 */
export function toolChoice(
  value: unknown,
  tools: readonly WireTool[] | undefined,
  chatSearch = false,
  dropped: ReadonlySet<string> = new Set(),
): unknown {
  if (value === undefined || value === null) return undefined;
  // A Chat search model's search is the call `required` asks for, made on every request (as with allowed tools below).
  if (value === "required" && chatSearch) return tools?.length ? "auto" : undefined;
  if (value === "auto" || value === "none" || value === "required") return value;
  const choice = objectAt(value, "tool_choice", "auto, none, required or an object");
  const type = own(choice, "type");
  if (typeof type === "string" && WEB_SEARCH_TOOLS.has(type)) {
    if (tools?.some((tool) => WEB_SEARCH_TOOLS.has(tool.name))) return "required";
    if (chatSearch) return undefined;
    throw invalidField(
      "tool_choice.type",
      "`tool_choice` forces a web search, which this Worker sends only to an OpenAI Responses model (openai-responses/...) or an OpenAI Chat search model, with a web_search tool in `tools`, and only when its OPENAI_SERVER_TOOLS setting lists web_search.",
    );
  }
  if (type === "function" || type === "custom")
    return chosenToolAt(toolNameIn(own(choice, "name"), "tool_choice.name", NAMES), tools, "tool_choice.name");
  // A hosted shell or an MCP server left out for want of a listing: the setting named.
  if ((type === "shell" || type === "mcp") && dropped.has(type)) throw unlistedChoice("tool_choice.type", type);
  if (chosenBuiltIn(type)) return chosenToolAt(chosenBuiltIn(type)!, tools, "tool_choice.type");
  // An MCP server's tool (`{type: "mcp", server_label}`): `required`, with the server's tools among those offered.
  if (type === "mcp") {
    const label = stringAt(own(choice, "server_label"), "tool_choice.server_label");
    chosenToolAt(mcpToolName(label), tools, "tool_choice.server_label");
    return "required";
  }
  if (type === "allowed_tools") {
    const mode = own(choice, "mode") ?? "auto";
    if (mode !== "auto" && mode !== "required" && mode !== "none")
      throw invalidField("tool_choice.mode", "`tool_choice.mode` must be auto, required or none.");
    // A Chat search model's search is among the allowed (else a 400: webSearchOf), and it runs on
    // every request: that is the call `required` asks for, so the other tools are the model's to call.
    if (chatSearch && mode !== "none") return tools?.length ? "auto" : undefined;
    return mode;
  }
  throw invalidField(
    "tool_choice.type",
    "`tool_choice.type` must be function, custom, apply_patch, shell, mcp, allowed_tools or a web search.",
  );
}
