/**
 * A Messages body's `tools` and `tool_choice`: the client's tools (`custom`, or no `type`) as
 * `/v1/stream` tools, Anthropic's tools of its own schema that the client runs (`bash_20250124`, the
 * text editors, memory) as the function tools they stand for, marked to go to Anthropic in its own
 * form (./defined-tools.ts), and Anthropic's
 * server tools (a `type` such as `web_search_20250305`,
 * `code_execution_20250825`, `web_fetch_20250910`: server tools, which run on Anthropic's side and
 * bill the key that calls them) forwarded as given to an Anthropic upstream when the deployment
 * lists their kind (the type without its date) in `ANTHROPIC_SERVER_TOOLS`, else dropped, as no
 * other provider has them; but web search, when listed, reaches an OpenAI search model or
 * Responses model as its own (../web-search.ts), a `tool_choice` naming it as `required` (Responses
 * takes no choice of `web_search` by name) or none (a search model always searches: `tool_choice`
 * none beside one, or one forcing another tool, is a 400; `any`, which the search itself answers,
 * leaves the client's tools to the model, `auto`). A
 * `tool_choice` naming a dropped one is a 400 that says so: Claude Code's WebSearch forces its
 * `web_search` tool that way, and would otherwise get an answer that never searched.
 *
 * @module
 */
import { invalidField } from "../../response/json-error.ts";
import { isObject, misnamedSchema, own } from "../../request/json-fields.ts";
import type { JsonObject, StreamRequest } from "../../request/stream-request.ts";
import type { AnthropicClientTool } from "../../../src/anthropic.ts";
import { upstreamProviders } from "../../upstream/providers/index.ts";
import { isChatSearchModel, searchNotRefusable } from "../../request/search-models.ts";
import { arrayAt, chosenToolAt, objectAt, type WireTool } from "../client-request.ts";
import { toolNameIn } from "../tool-names.ts";
import { definedTool, nativeTool } from "./defined-tools.ts";
import { checkMessagesSearchLimits, type MappedSearch, messagesWebSearchOf, searchTool } from "../web-search.ts";

/** The tool names Anthropic takes, which a Messages client may send. */
const NAMES = upstreamProviders.anthropic.toolNames;

/** What a Messages body's tools give. */
export interface MessagesTools {
  /** The client's tools, as `/v1/stream` takes them. */
  tools: WireTool[] | undefined;
  /** `tool_choice` as `/v1/stream` takes it (absent when it names a forwarded server tool). */
  toolChoice: unknown;
  /** `tool_choice.disable_parallel_tool_use: true` with a choice other than `none` (which has no such field). */
  oneCall: boolean;
  /** The server tools forwarded, and the one `tool_choice` names; none when nothing is forwarded. */
  server: StreamRequest["anthropicServerTools"];
  /** The web search mapped to an OpenAI upstream's own, when there is one. */
  webSearch?: MappedSearch;
  /** Anthropic's client-run tools by name, as an Anthropic upstream is sent them (./defined-tools.ts). */
  native: Map<string, AnthropicClientTool>;
}

/**
 * Reads `tools` and `tool_choice`; `forwarded` holds the server tool kinds that go to the
 * upstream (empty unless it is Anthropic and `ANTHROPIC_SERVER_TOOLS` lists them); `searchTo`, an
 * upstream other than Anthropic, a web search mapped to it when `listed` (the list has `web_search`).
 */
export function messagesTools(
  fields: Record<string, unknown>,
  forwarded: ReadonlySet<string>,
  searchTo?: { provider: string; model: string; listed: boolean },
): MessagesTools {
  const given = own(fields, "tools") ?? undefined;
  checkNoMcpServers(own(fields, "mcp_servers"));
  const server: JsonObject[] = [];
  /** Every server tool by name, with its type: what `tool_choice` may name. */
  const named = new Map<string, string>();
  let search: MappedSearch | undefined;
  const native = new Map<string, AnthropicClientTool>();
  const tools =
    given === undefined
      ? undefined
      : arrayAt(given, "tools").flatMap((tool, i): WireTool[] => {
          const fields = objectAt(tool, `tools[${i}]`);
          const type = own(fields, "type");
          if (type === undefined || type === null || type === "custom") return [clientTool(fields, i)];
          // No server tool's type: another API's function tool, which would be dropped as one unseen.
          if (type === "function")
            throw invalidField(
              `tools[${i}].type`,
              "A Messages tool is `{name, description?, input_schema}`, with no `type` (or `custom`): `function` is Chat Completions' and Responses' form.",
            );
          // Run by the client, of a schema Anthropic fixes: its own form to Anthropic, a function
          // tool to every other provider (./defined-tools.ts).
          const defined = definedTool(type, i);
          if (defined) {
            const name = toolNameIn(own(fields, "name"), `tools[${i}].name`, NAMES);
            const anthropic = nativeTool(String(type), fields, name, i);
            if (anthropic) native.set(name, anthropic);
            return [{ name, ...defined }];
          }
          checkToolType(type, `tools[${i}].type`);
          const name = own(fields, "name");
          if (typeof name === "string") named.set(name, String(type));
          // Every search tool's domain lists, forwarded, mapped or dropped; its limits when a Chat
          // search model, which searches regardless, is the upstream.
          checkMessagesSearchLimits(fields, `tools[${i}]`, searchTo?.provider ?? "anthropic", searchTo?.model ?? "");
          if (forwarded.has(String(type).replace(/_\d{8}$/, ""))) server.push(fields as JsonObject);
          else if (searchTo) {
            if (searchTo.listed && !search)
              search = messagesWebSearchOf(fields, `tools[${i}]`, searchTo.provider, searchTo.model);
          }
          return [];
        });
  const choice = own(fields, "tool_choice");
  // No search when the client says no tool (as for a Chat or Responses client); a Chat search
  // model, which searches on every request, cannot say none to one it was offered, nor force another tool.
  const searchFirst =
    searchTo &&
    isChatSearchModel(searchTo.provider, searchTo.model) &&
    [...named.values()].some((type) => /^web_search_\d{8}$/.test(type));
  if (isObject(choice) && own(choice, "type") === "none") {
    if (searchFirst) throw searchNotRefusable("tool_choice.type");
    search = undefined;
  }
  const forced = isObject(choice) && own(choice, "type") === "tool" ? named.get(String(own(choice, "name"))) : "";
  if (searchFirst && forced !== "" && !/^web_search_\d{8}$/.test(forced ?? ""))
    throw searchNotRefusable("tool_choice.name", "forces another tool than the web search offered");
  const chosen = serverChoice(choice, tools, named, server, search?.name);
  const oneCall = oneCallOf(choice);
  // `any` asks for a call of one of the tools, the search among them: a Chat search model makes
  // that one on every request, so the client's tools are its to call or not (`required` would ask
  // for a function call beside the search), as Responses' allowed tools of the search in mode required.
  const anySearched = searchFirst && isObject(choice) && own(choice, "type") === "any";
  const choiceFor = (offered: readonly WireTool[] | undefined): unknown =>
    anySearched ? (offered?.length ? "auto" : undefined) : toolChoice(choice, offered);
  if (search) {
    // Responses: the tool among the client's (a choice of it `required`: Responses names no
    // `web_search` choice); Chat: `web_search_options` alone (a search model always searches).
    const all = search.responses ? [...(tools ?? []), searchTool(search.name)] : tools;
    const forced = chosen === search.name;
    return {
      tools: all,
      toolChoice: forced ? (search.responses ? "required" : undefined) : choiceFor(all),
      server: undefined,
      webSearch: search,
      oneCall,
      native,
    };
  }
  return {
    tools,
    toolChoice: chosen === undefined ? choiceFor(tools) : undefined,
    oneCall,
    native,
    server: server.length > 0 ? { tools: server, ...(chosen !== undefined ? { toolChoice: chosen } : {}) } : undefined,
  };
}

/**
 * A 400 for a tool `type` Anthropic has not got: each of its own tools' types but `mcp_toolset`
 * carries a date (`web_search_20250305`), and an undated one would otherwise be dropped unseen.
 * `mcp_toolset` (the MCP connector) is Anthropic's, but this Worker forwards no MCP server.
 */
function checkToolType(type: unknown, path: string): void {
  if (type === "mcp_toolset")
    throw invalidField(
      path,
      `\`mcp_toolset\` tools (Anthropic's MCP connector) are not forwarded by this Worker: ${MCP}`,
    );
  if (typeof type !== "string" || !/^[a-z][a-z0-9_]*_\d{8}$/.test(type))
    throw invalidField(path, "A tool's `type` must be custom, or one of Anthropic's own tools' (a type with a date).");
}

/** What a client of Anthropic's MCP connector is told to do instead. */
const MCP = "run the MCP server's tools as client tools (`custom`), or call Anthropic directly.";

/** `mcp_servers` (the MCP connector's servers), which this Worker forwards to no upstream: a 400 unless absent or empty. */
function checkNoMcpServers(value: unknown): void {
  if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) return;
  throw invalidField(
    "mcp_servers",
    `\`mcp_servers\` (Anthropic's MCP connector) is not forwarded by this Worker: ${MCP}`,
  );
}

/** A client tool as a `/v1/stream` tool. */
function clientTool(fields: Record<string, unknown>, i: number): WireTool {
  misnamedSchema(fields, `tools[${i}]`, "input_schema");
  const description = own(fields, "description");
  // Claude Code's fine-grained tool streaming, per tool: Anthropic takes it, the others ignore it.
  const eager = own(fields, "eager_input_streaming");
  return {
    name: toolNameIn(own(fields, "name"), `tools[${i}].name`, NAMES),
    ...(typeof description === "string" ? { description } : {}),
    parameters: own(fields, "input_schema") ?? { type: "object" },
    ...(typeof eager === "boolean" ? { eager_input_streaming: eager } : {}),
  };
}

/**
 * The server tool a `tool_choice` of type `tool` names, when it names one and no client tool:
 * its name when that tool is forwarded, a 400 when it is not; undefined for any other choice.
 */
function serverChoice(
  value: unknown,
  tools: readonly WireTool[] | undefined,
  named: ReadonlyMap<string, string>,
  server: readonly JsonObject[],
  mapped: string | undefined,
): string | undefined {
  if (value === null || typeof value !== "object" || own(value as Record<string, unknown>, "type") !== "tool")
    return undefined;
  const name = own(value as Record<string, unknown>, "name");
  const type = typeof name === "string" ? named.get(name) : undefined;
  if (type === undefined || tools?.some((tool) => tool.name === name)) return undefined;
  if (name === mapped || server.some((tool) => tool["name"] === name)) return name as string;
  throw invalidField(
    "tool_choice.name",
    `\`tool_choice.name\` names \`${String(name).slice(0, 64)}\`, a server tool (\`${type.slice(0, 64)}\`) Anthropic runs: this Worker sends it only to an Anthropic upstream (web search also to an OpenAI search or Responses model, as far as they can limit it as asked), and only when its ANTHROPIC_SERVER_TOOLS setting lists it.`,
  );
}

/**
 * Whether `tool_choice` asks for one call at a time (`disable_parallel_tool_use: true`, a boolean
 * when given): told to the providers with a field for it, held to by the route (../../services/call-rules.ts).
 * A choice of `none` calls no tool, and the field means nothing there.
 */
function oneCallOf(choice: unknown): boolean {
  if (!isObject(choice)) return false;
  const disable = own(choice, "disable_parallel_tool_use") ?? undefined;
  if (disable !== undefined && typeof disable !== "boolean")
    throw invalidField(
      "tool_choice.disable_parallel_tool_use",
      "`tool_choice.disable_parallel_tool_use` must be a boolean.",
    );
  return disable === true && own(choice, "type") !== "none";
}

/** Anthropic's `tool_choice` as `/v1/stream`'s (`disable_parallel_tool_use`: {@link oneCallOf}). */
function toolChoice(value: unknown, tools: readonly WireTool[] | undefined): unknown {
  if (value === undefined || value === null) return undefined;
  const choice = objectAt(value, "tool_choice");
  const type = own(choice, "type");
  if (type === "auto" || type === "none") return type;
  if (type === "any") return "required";
  if (type === "tool")
    return chosenToolAt(toolNameIn(own(choice, "name"), "tool_choice.name", NAMES), tools, "tool_choice.name");
  throw invalidField("tool_choice.type", "`tool_choice.type` must be auto, any, tool or none.");
}
