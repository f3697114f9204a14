/**
 * The request of `POST /v1/responses`: OpenAI's Responses body, with `model` as
 * `<provider>/<model>` or a `MODEL_ALIASES` name:
 *
 * ```jsonc
 * {
 *   "model": "anthropic/claude-sonnet-4-6",
 *   "instructions": "Be brief.",
 *   "input": [                                                  // or a string: one user message
 *     { "role": "user", "content": [{ "type": "input_text", "text": "Weather in Paris?" }] },
 *     { "type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": "{\"city\":\"Paris\"}" },
 *     { "type": "function_call_output", "call_id": "call_1", "output": "18 °C" }
 *   ],
 *   "tools": [{ "type": "function", "name": "get_weather", "parameters": { ... } }, { "type": "custom", "name": "apply_patch" }],
 *   "tool_choice": "auto",
 *   "stream": true
 * }
 * ```
 *
 * A `custom` tool (free text, such as Codex's `apply_patch`) goes to an OpenAI Responses upstream
 * as it came, with the conversation's `custom_tool_call(_output)` items, and to every other
 * provider as a function with one string parameter, `input` (../custom-calls.ts); its calls come
 * back as `custom_tool_call` items with the text. `reasoning.effort` becomes the provider's reasoning knob
 * (worker/protocols/client-reasoning.ts), and the `encrypted_content` of earlier `reasoning`
 * items goes back to the provider that takes it (worker/protocols/reasoning-state.ts); `store`
 * goes to an OpenAI Responses upstream. What the response repeats of the request (`metadata`,
 * `text`, `top_p`, ...: ./settings.ts) is checked; the rest the official clients send that
 * changes nothing here (`user`, ...) is accepted; `include`, `stream_options` and `background`
 * are checked (./request-options.ts). `tool_choice: {type:
 * "allowed_tools"}` sends the provider only the listed tools (../../services/call-rules.ts drops a call of
 * another). `apply_patch`, `shell` and `local_shell`, which the client runs, go to every provider
 * (./built-in-tools.ts); `web_search` tools go to an OpenAI Responses model as they came, and are
 * dropped for the others (Codex offers them by default; an OpenAI Chat search model is sent web
 * search as `web_search_options`: ../web-search.ts), `namespace` groups are dropped (an
 * `additional_tools` item's tools, Codex's first item, join `tools`); an `mcp` tool and the MCP items of its turns (`mcp_approval_request` and the client's
 * `mcp_approval_response`) go to an OpenAI Responses model as they came (./mcp-items.ts);
 * programmatic tool calling and tool search (`program`, a call's `caller`, `program_output`,
 * `tool_search_call` / `tool_search_output`, and their tools) go to OpenAI as they came and are
 * mapped or left out for the others (./program-items.ts);
 * the other built-in tools (`file_search`, `computer_use_preview`, `code_interpreter`,
 * `image_generation`, and `mcp` for another provider) are a 400 naming them. What OpenAI would run
 * (web search, `mcp`, a server tool search, programmatic tool calling, a hosted shell) goes to it
 * only when `OPENAI_SERVER_TOOLS` lists its kind, and is dropped otherwise (../openai-server-tools.ts). `previous_response_id`
 * and `item_reference` items are read from the stored responses before (./conversation.ts): the
 * parser takes the previous response's items (and, for Bedrock, its tools) and refuses them without it.
 * `input_image` and `input_file` parts of user messages and call outputs go to the provider in
 * its own form (./input-files.ts).
 *
 * @module
 */
import { invalidField } from "../../response/json-error.ts";
import { AGENT_BOUNDS } from "../../request/parse-stream-request.ts";
import { own, tooDeep, tooDeepError } from "../../request/json-fields.ts";
import type { JsonObject, StreamRequest } from "../../request/stream-request.ts";
import { agentModel } from "../agent-model.ts";
import { responsesReasoning } from "../client-reasoning.ts";
import { withdrawnItems } from "./withdrawn-calls.ts";
import { arrayAt, clientRequest, objectAt, type WireMessage } from "../client-request.ts";
import { noteTurn, turnMark } from "../turn-order.ts";
import { allowedToolsOf, callRulesOf } from "./allowed-calls.ts";
import type { CallRules } from "../../services/call-rules.ts";
import { withBuiltInTools } from "./built-in-tools.ts";
import { withNativeCustomTools } from "../custom-calls.ts";
import type { Programs } from "./program-items.ts";
import { hostedToolChoice, offeredTools, searchTypesOf, toolChoice, webSearchOf } from "./request-tools.ts";
import { addItem } from "./input-items.ts";
import { openAIFieldsOf, type ResponseSettings, responsesSampling, settingsOf } from "./settings.ts";
import { checkRequestOptions, contextManagementOf } from "./request-options.ts";
import { withModeration } from "../moderation.ts";
import { type Conversation, withEarlierTools } from "./conversation.ts";
import { withResponsesText } from "../output-format.ts";

/** A validated `POST /v1/responses` request, with the rules its answer's calls are held to (../../services/call-rules.ts). */
export interface ResponsesRequest extends CallRules {
  request: StreamRequest;
  /** The `model` as the client sent it, echoed in the response. */
  model: string;
  stream: boolean;
  /** The `custom` tools by name, whose calls go back as `custom_tool_call` items. */
  customTools: ReadonlyMap<string, JsonObject>;
  /** The built-in tools the client runs (`apply_patch`, `shell`, `local_shell`), whose calls go back as their items. */
  builtInTools: ReadonlySet<string>;
  /** What the response repeats of the request. */
  settings: ResponseSettings;
}

/** Validates a parsed Responses body; throws a 400 `HttpError` naming the field at fault by its path. */
export function parseResponsesRequest(
  body: unknown,
  providers: readonly string[],
  aliases: Parameters<typeof agentModel>[2],
  bare?: string,
  conversation?: Pick<Conversation, "earlier" | "earlierTools" | "referenced">,
  serverTools: ReadonlySet<string> = new Set(),
): ResponsesRequest {
  const sent = objectAt(body, "", "a JSON object");
  const deep = tooDeep(sent);
  if (deep !== undefined) throw tooDeepError(deep);
  const earlier = conversation?.earlier;
  for (const key of earlier ? ["conversation"] : ["previous_response_id", "conversation"])
    if (own(sent, key) !== undefined && own(sent, key) !== null)
      throw invalidField(
        key,
        `\`${key}\` is not supported${key === "conversation" ? "" : " without stored responses (the `RESPONSES` binding)"}: send the whole conversation in \`input\`.`,
      );
  checkRequestOptions(sent);
  const { provider, model } = agentModel(own(sent, "model"), providers, aliases, bare);
  // To Bedrock, a turn after calls that lists no tools is offered the previous response's (./conversation.ts).
  const fields = withEarlierTools(sent, provider, conversation);
  const stream = own(fields, "stream") ?? false;
  if (typeof stream !== "boolean") throw invalidField("stream", "`stream` must be true or false.");
  const messages: WireMessage[] = [];
  const instructions = own(fields, "instructions");
  if (typeof instructions === "string" && instructions !== "") messages.push({ role: "system", content: instructions });
  const input = own(fields, "input") ?? undefined;
  // Open Responses types `input` optional and nullable: `previous_response_id` may then give the whole conversation.
  if (input === undefined && !earlier)
    throw invalidField("input", "`input` is needed: a string or an array of items (or `previous_response_id`).");
  const items = typeof input === "string" || input === undefined ? [] : arrayAt(input, "input");
  const calls = new Set<string>();
  // The stored input and output of `previous_response_id` (./conversation.ts), before this turn's;
  // a call Anthropic's fallback withdrew is left out, with its output (./withdrawn-calls.ts).
  const [leftBefore, left] = withdrawnItems(earlier ?? [], items);
  const context = { provider, programs: new Map() as Programs, added: [] as [unknown, string][] };
  // Each item in its place in its turn's `order` (../turn-order.ts).
  // A stored item (an output an upstream gave) is not checked against today's enums: only what the client wrote.
  const read = (item: unknown, path: string, stored: boolean, before = false): void => {
    const mark = turnMark(messages);
    addItem(messages, item, path, calls, { ...context, stored, earlier: before });
    noteTurn(messages, mark);
  };
  earlier?.forEach((item, i) => leftBefore.has(i) || read(item, "previous_response_id", true, true));
  if (typeof input === "string") messages.push({ role: "user", content: input });
  else items.forEach((item, i) => left.has(i) || read(item, `input[${i}]`, !!conversation?.referenced?.has(i)));
  const [customTools, builtIns] = [new Map<string, JsonObject>(), new Map<string, Record<string, unknown>>()];
  const given = own(fields, "tools") ?? undefined;
  // The tools OpenAI would run go to it only as `OPENAI_SERVER_TOOLS` lists them (../openai-server-tools.ts).
  const gate = { provider, listed: serverTools, dropped: new Set<string>() };
  const offered = offeredTools(given, context.added, customTools, builtIns, gate);
  const allowedTools = allowedToolsOf(own(fields, "tool_choice"), offered, searchTypesOf(given));
  const tools = allowedTools ? offered?.filter((tool) => allowedTools.has(tool.name)) : offered;
  const webSearch = webSearchOf(given, gate, model, own(fields, "tool_choice"));
  const { request } = clientRequest(
    {
      provider,
      model,
      messages,
      tools,
      tool_choice: toolChoice(own(fields, "tool_choice"), tools, webSearch !== undefined, gate.dropped),
      max_tokens: own(fields, "max_output_tokens") ?? undefined,
      temperature: own(fields, "temperature") ?? undefined,
      sampling: responsesSampling(fields, provider),
      reasoning: responsesReasoning(own(fields, "reasoning")),
    },
    undefined,
    providers,
    {},
    (field) =>
      field === "provider"
        ? "model"
        : field === "max_tokens"
          ? "max_output_tokens"
          : field === "messages"
            ? "input"
            : field,
    AGENT_BOUNDS,
  );
  withBuiltInTools(request, builtIns, given);
  withNativeCustomTools(request, customTools);
  if (webSearch) request.openaiWebSearch = webSearch;
  const hosted = hostedToolChoice(own(fields, "tool_choice"), provider, tools);
  if (hosted) request.openaiToolChoice = hosted;
  withResponsesText(fields, provider, request);
  const builtInTools = new Set(builtIns.keys());
  const settings = settingsOf(fields, provider === "openai-responses" || request.outputFormat !== undefined);
  if (typeof settings.max_tool_calls === "number") request.openaiMaxToolCalls = settings.max_tool_calls; // OpenAI's own limit
  const compaction = contextManagementOf(fields);
  if (compaction && provider === "openai-responses") request.openaiContextManagement = compaction;
  withModeration(fields, provider, request, "openai-responses");
  if (settings.parallel_tool_calls === false) request.parallelToolCalls = false; // held to by ../../services/call-rules.ts too
  Object.assign(request, openAIFieldsOf(fields, settings));
  const chosen = {
    request,
    model: own(fields, "model") as string,
    stream,
    customTools,
    builtInTools,
    settings,
  };
  return { ...chosen, ...callRulesOf(allowedTools, settings) };
}
