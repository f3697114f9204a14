import { anthropicOutputFormat } from "../../request/output-format.ts";
import { anthropicRecordings } from "../replay/recordings/anthropic.ts";
import { isObject } from "../../request/json-fields.ts";
import type { JsonObject, StreamRequest } from "../../request/stream-request.ts";
import { requestBody } from "./request-body.ts";
import type { ProviderHttpRequest, ProviderTarget, UpstreamProvider, ToolNameRule } from "./upstream-provider.ts";

// Anthropic's Messages API: `^[a-zA-Z0-9_-]{1,128}$` (its 400 quotes the pattern).
const ANTHROPIC_NAMES: ToolNameRule = { maxLength: 128, char: /[A-Za-z0-9_-]/, first: /[A-Za-z0-9_-]/ };

/** The Anthropic Messages API (`POST /v1/messages`). */
export const anthropic: UpstreamProvider<"anthropic"> = {
  protocol: "anthropic",
  keyVar: "ANTHROPIC_API_KEY",
  baseUrlVar: "ANTHROPIC_BASE_URL",
  defaultBaseUrl: "https://api.anthropic.com/v1",
  buildRequest: buildAnthropicRequest,
  toolNames: ANTHROPIC_NAMES,
  recordings: anthropicRecordings,
};

/** The streaming Messages request. */
export function buildAnthropicRequest(request: StreamRequest, target: ProviderTarget): ProviderHttpRequest {
  return {
    url: `${target.baseUrl}/messages`,
    headers: {
      "x-api-key": target.apiKey,
      // Fixed: a client's own version is not forwarded (the body is the Worker's, written for this one).
      "anthropic-version": "2023-06-01",
      // A Messages client's betas, those the deployment allows (`ANTHROPIC_BETAS`).
      ...(request.anthropicBetas && { "anthropic-beta": request.anthropicBetas.join(",") }),
      "content-type": "application/json",
      accept: "text/event-stream",
    },
    // A compatible server that ignores `stream: true` answers whole: read as its stream.
    wholeType: "application/json",
    body: withOneCall(
      withOutputFormat(
        withServerTools(
          withoutUnlistedRuns(requestBody("anthropic", request), request.anthropicServerTools),
          request.anthropicServerTools,
          request.promptCache !== undefined,
        ),
        request,
      ),
      request,
    ),
  };
}

/** The body with one call at a time (StreamRequest.parallelToolCalls) as `tool_choice.disable_parallel_tool_use` (none has no such field). */
function withOneCall(body: JsonObject, { parallelToolCalls }: StreamRequest): JsonObject {
  if (parallelToolCalls !== false || !Array.isArray(body["tools"]) || body["tools"].length === 0) return body;
  const choice = (body["tool_choice"] as JsonObject | undefined) ?? { type: "auto" };
  if (choice["type"] !== "none") body["tool_choice"] = { ...choice, disable_parallel_tool_use: true };
  return body;
}

/**
 * The body with a Messages client's structured output as `output_config.format` beside the effort
 * (the beta's `output_format` there too), or another protocol's JSON Schema there.
 */
function withOutputFormat(body: JsonObject, request: StreamRequest): JsonObject {
  const format = request.anthropicOutputFormat ?? (request.outputFormat && anthropicOutputFormat(request.outputFormat));
  if (format) body["output_config"] = { ...(body["output_config"] as JsonObject | undefined), format };
  return body;
}

/**
 * The body without a server call that would run now on the operator's key without its leave: a
 * `server_tool_use` or `mcp_tool_use` sent back without its result (which Anthropic runs when the
 * turn's client results come back) whose tool is not one of the server tools this request
 * forwards (`ANTHROPIC_SERVER_TOOLS`). A client's history then cannot make Anthropic search,
 * fetch or run code the deployment did not allow; a call with its result runs nothing and stays.
 */
function withoutUnlistedRuns(body: JsonObject, server: StreamRequest["anthropicServerTools"]): JsonObject {
  const allowed = new Set((server?.tools ?? []).map((tool) => tool["name"]));
  const messages = body["messages"];
  if (!Array.isArray(messages)) return body;
  for (const message of messages) {
    const content = isObject(message) ? message["content"] : undefined;
    if (!Array.isArray(content)) continue;
    const answered = new Set(content.map((block) => isObject(block) && block["tool_use_id"]));
    const keep = content.map(
      (block) =>
        !isObject(block) ||
        (block["type"] !== "server_tool_use" && block["type"] !== "mcp_tool_use") ||
        answered.has(block["id"] as string) ||
        (block["type"] === "server_tool_use" && allowed.has(block["name"])),
    );
    if (!keep.includes(false)) continue;
    const kept = content.filter((_, i) => keep[i]);
    (message as JsonObject)["content"] = kept;
    // The Worker's cache mark on a block left out goes to the last kept one before it that takes one.
    const marked = content.findIndex((block, i) => !keep[i] && isObject(block) && block["cache_control"]);
    if (marked !== -1) remark(content, keep, marked, kept);
  }
  return body;
}

/**
 * The mark of `content[marked]` (left out) on the last block before it that `keep` keeps and that
 * takes one (not thinking, not empty text), in `kept`; one pass by index, linear in the blocks.
 */
function remark(content: readonly unknown[], keep: readonly boolean[], marked: number, kept: unknown[]): void {
  const mark = (content[marked] as JsonObject)["cache_control"]!;
  let at = 0; // the kept blocks before the marked one
  for (let i = 0; i < marked; i++) if (keep[i]) at++;
  for (let i = marked - 1; i >= 0; i--) {
    if (!keep[i]) continue;
    at--;
    const block = content[i];
    if (!isObject(block) || /thinking$/.test(String(block["type"])) || block["text"] === "") continue;
    kept[at] = { ...block, cache_control: mark }; // a copy: a kept block is the client's own object
    return;
  }
}

/**
 * The body with what a Messages client sent for Anthropic's own side (`ANTHROPIC_SERVER_TOOLS`):
 * its server tools after the client's tools, the `tool_choice` that names one, its container's
 * `skills` (with the container's id when it names one).
 */
function withServerTools(body: JsonObject, server: StreamRequest["anthropicServerTools"], marked: boolean): JsonObject {
  if (!server) return body;
  const tools = Array.isArray(body["tools"]) ? body["tools"] : [];
  // With the Worker's own cache marks (the library's `promptCache`), theirs are taken off: 4 at most.
  const given = marked ? server.tools.map(({ cache_control: _, ...tool }) => tool) : server.tools;
  if (server.tools.length > 0) body["tools"] = [...tools, ...given];
  if (server.toolChoice !== undefined) body["tool_choice"] = { type: "tool", name: server.toolChoice };
  if (server.skills) {
    const id = body["container"];
    body["container"] = { ...(typeof id === "string" ? { id } : {}), skills: server.skills };
  }
  return body;
}
