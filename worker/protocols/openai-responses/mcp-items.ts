/**
 * OpenAI's remote MCP tools through `POST /v1/responses`, for an OpenAI Responses model only (they
 * run on OpenAI's servers; no other provider has them): an `mcp` tool goes to OpenAI as the client
 * gave it, and the items of its turns come back in place. An `mcp_approval_request` (a tool OpenAI
 * runs only once the client approves it) joins the assistant turn as a call carrying its item
 * (`providerMetadata.responsesItem`), and the client's `mcp_approval_response` answers it as that
 * call's result, which the request kit sends as the `mcp_approval_response` item; an `mcp_call`
 * (OpenAI ran it) goes back as it came, and so does an `mcp_list_tools` item, in its place (a kept
 * block of the assistant turn, as the library keeps OpenAI's: with it in the conversation OpenAI does
 * not call the server to list its tools again). For any other provider each is a 400 naming it. The tool goes only when
 * `OPENAI_SERVER_TOOLS` lists `mcp` (OpenAI calls the server on the operator's key: ../openai-server-tools.ts).
 *
 * @module
 */
import type { JsonValue } from "../../../src/index.ts";
import { invalidField } from "../../response/json-error.ts";
import { own } from "../../request/json-fields.ts";
import { argumentsOf, idAt, stringAt, type WireMessage, type WireTool } from "../client-request.ts";
import { withoutWorkerId } from "./stored-ids.ts";

type Assistant = Extract<WireMessage, { role: "assistant" }>;

/** The only provider that runs remote MCP tools. */
const MCP_PROVIDER = "openai-responses";

/**
 * An `mcp` tool as the tool an OpenAI Responses upstream is sent as the client gave it (named
 * `mcp_<server_label>`, its definition kept in `builtIns` by that name); undefined for another
 * type, and a 400 at `at` for another provider.
 */
export function mcpToolOf(
  type: unknown,
  fields: Record<string, unknown>,
  at: string,
  builtIns: Map<string, Record<string, unknown>>,
  provider: string,
): WireTool | undefined {
  if (type !== "mcp") return undefined;
  if (provider !== MCP_PROVIDER)
    throw invalidField(
      `${at}.type`,
      "`mcp` tools run on OpenAI's servers: only an `openai-responses/...` model takes them.",
    );
  const label = stringAt(own(fields, "server_label"), `${at}.server_label`);
  const name = mcpToolName(label);
  builtIns.set(name, fields);
  return { name, description: `The MCP server ${label}.`, parameters: { type: "object" } };
}

/** The name an `mcp` tool of `server_label` goes by among the request's tools. */
export const mcpToolName = (label: string): string => `mcp_${label.replace(/[^A-Za-z0-9_-]/g, "_")}`.slice(0, 64);

/** The item types of remote MCP tools a turn holds. */
const MCP_ITEMS = new Set(["mcp_approval_request", "mcp_approval_response", "mcp_call", "mcp_list_tools"]);

/**
 * An MCP item of the client's input into the conversation; false when the item is of another
 * type. A request or a call joins the assistant turn; an answer names a request of an earlier
 * item (a 400 at its `approval_request_id` otherwise).
 */
export function addMcpItem(
  type: unknown,
  item: Record<string, unknown>,
  path: string,
  assistant: () => Assistant,
  messages: WireMessage[],
  calls: Set<string>,
  provider: string,
): boolean {
  if (typeof type !== "string" || !MCP_ITEMS.has(type)) return false;
  if (provider !== MCP_PROVIDER)
    throw invalidField(
      `${path}.type`,
      `\`${type}\` items are OpenAI's remote MCP tools: only an \`openai-responses/...\` model takes them.`,
    );
  if (type === "mcp_list_tools") {
    (assistant().reasoning_parts ??= []).push({
      type: "block",
      block: withoutWorkerId(item) as { [key: string]: JsonValue },
    });
    return true;
  }
  if (type === "mcp_approval_response") {
    const id = idAt(own(item, "approval_request_id"), `${path}.approval_request_id`);
    if (!calls.has(requestKey(id)))
      throw invalidField(
        `${path}.approval_request_id`,
        "`approval_request_id` names no `mcp_approval_request` of an earlier input item.",
      );
    const approve = own(item, "approve");
    if (typeof approve !== "boolean") throw invalidField(`${path}.approve`, "`approve` must be true or false.");
    const reason = own(item, "reason");
    const answer = typeof reason === "string" ? { approve, reason } : { approve };
    messages.push({ role: "tool", tool_call_id: id, content: JSON.stringify(answer) });
    return true;
  }
  const id = idAt(own(item, "id"), `${path}.id`);
  const name = stringAt(own(item, "name"), `${path}.name`);
  const args = stringAt(own(item, "arguments") ?? "", `${path}.arguments`);
  const responsesItem: { [key: string]: JsonValue } = { type, id };
  for (const key of ["server_label", "output", "error", "status", "approval_request_id"]) {
    const value = own(item, key);
    if (value !== undefined && value !== null) responsesItem[key] = value as JsonValue;
  }
  // Kept apart from the calls' ids: an answer names a request, an output a call, never the other.
  if (type === "mcp_approval_request") calls.add(requestKey(id));
  // The arguments as the item gave them (JSON text), parsed when they parse, as a function call's
  // are (argumentsOf: nested too deep, or of member names V8 parses in quadratic time, a 400).
  const value = args.trim() === "" ? {} : argumentsOf(args, `${path}.arguments`);
  assistant().tool_calls.push({ id, name, arguments: value, providerMetadata: { responsesItem } });
  return true;
}

/** How an approval request's id is kept among the calls' ids, apart from any of them (a NUL first). */
const requestKey = (id: string): string => `\0mcp:${id}`;
