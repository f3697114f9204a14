/**
 * The tools OpenAI runs on its own side for a Responses or Chat client, which bill the key that
 * calls them (the operator's), reach OpenAI only when the deployment lists their kind in
 * `OPENAI_SERVER_TOOLS`, as Anthropic's server tools need `ANTHROPIC_SERVER_TOOLS`
 * (./anthropic-messages/tools.ts): `web_search` (every web search tool type, a Chat client's
 * `web_search_options`), `mcp` (a remote MCP server OpenAI calls), `tool_search` (a search OpenAI
 * runs: not `execution: "client"`), `programmatic_tool_calling` (code OpenAI runs) and `shell` (a
 * hosted shell: an `environment` other than `local`, a container OpenAI provisions). Any other is
 * dropped, as clients offer them by default (Codex its `web_search`), and a `tool_choice` naming
 * one is a 400 naming the setting: an answer that never ran the tool is not what was asked.
 *
 * @module
 */
import { type HttpError, invalidField } from "../response/json-error.ts";
import { isObject, own } from "../request/json-fields.ts";
import { WEB_SEARCH_TOOLS } from "./web-search.ts";

/** The one provider that runs them. */
const OPENAI = "openai-responses";

/** What a request's hosted tools are held to: its provider, the kinds listed, and those it dropped. */
export interface HostedGate {
  provider: string;
  /** `OPENAI_SERVER_TOOLS`. */
  listed: ReadonlySet<string>;
  /** The kinds of the tools left out for want of a listing, which a `tool_choice` may not name. */
  dropped: Set<string>;
}

/**
 * The kind of a Responses tool OpenAI would run (`web_search`, `mcp`, `tool_search`,
 * `programmatic_tool_calling`, `shell`), as `OPENAI_SERVER_TOOLS` lists it; undefined for a tool
 * the client runs (a function, a custom tool, `apply_patch`, a local shell, a client tool search).
 *
 * @example
 * ```ts
 * openaiServerKind("web_search_preview", {}); // "web_search"
 * openaiServerKind("shell", { environment: { type: "local" } }); // undefined
 * ```
 */
export function openaiServerKind(type: unknown, fields: Record<string, unknown>): string | undefined {
  if (typeof type !== "string") return undefined;
  if (WEB_SEARCH_TOOLS.has(type)) return "web_search";
  if (type === "mcp" || type === "programmatic_tool_calling") return type;
  if (type === "tool_search") return own(fields, "execution") === "client" ? undefined : type;
  if (type !== "shell") return undefined;
  const environment = own(fields, "environment");
  return isObject(environment) && own(environment, "type") !== "local" ? type : undefined;
}

/**
 * Whether the tool is left out: one OpenAI would run, to an OpenAI Responses upstream, of a kind
 * not listed (recorded in `gate.dropped`); the caller still checks it, so that a malformed tool is
 * a 400 listed or not. Another provider runs none of them: each protocol module maps or refuses
 * them there as before.
 *
 * @example
 * ```ts
 * const dropped = droppedHosted(gate, type, fields); // checked all the same, then left out
 * ```
 */
export function droppedHosted(gate: HostedGate, type: unknown, fields: Record<string, unknown>): boolean {
  const kind = gate.provider === OPENAI ? openaiServerKind(type, fields) : undefined;
  if (kind === undefined || gate.listed.has(kind)) return false;
  gate.dropped.add(kind);
  return true;
}

/**
 * The 400 of a `tool_choice` that names a hosted tool of `kind` left out for want of a listing.
 *
 * @example
 * ```ts
 * if (gate.dropped.has("mcp")) throw unlistedChoice("tool_choice.type", "mcp");
 * ```
 */
export const unlistedChoice = (path: string, kind: string): HttpError =>
  invalidField(
    path,
    `\`tool_choice\` names a \`${kind}\` tool, which OpenAI runs on this deployment's key: this Worker sends it only when its OPENAI_SERVER_TOOLS setting lists ${kind}.`,
  );
