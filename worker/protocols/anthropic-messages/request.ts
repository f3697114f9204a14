/**
 * The request of `POST /v1/messages`: Anthropic's Messages body, with `model` as
 * `<provider>/<model>` or a `MODEL_ALIASES` name:
 *
 * ```jsonc
 * {
 *   "model": "openai/gpt-5",
 *   "max_tokens": 1024,
 *   "system": "Be brief.",                                     // or [{ "type": "text", "text": ... }]
 *   "messages": [
 *     { "role": "user", "content": "Weather in Paris?" },      // or blocks
 *     { "role": "assistant", "content": [{ "type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": { "city": "Paris" } }] },
 *     { "role": "user", "content": [{ "type": "tool_result", "tool_use_id": "toolu_1", "content": "18 °C" }] }
 *   ],
 *   "tools": [{ "name": "get_weather", "description": "...", "input_schema": { ... } }],
 *   "tool_choice": { "type": "auto" },                        // any, tool, none; disable_parallel_tool_use
 *   "stream": true
 * }
 * ```
 *
 * `top_p`, `top_k` and `stop_sequences` go to every provider that has them, in its form
 * (worker/request/parse-sampling.ts); one the provider lacks is left out, but `stop_sequences`,
 * which the Worker then applies itself (Claude Code's auto-mode classifier sends them:
 * worker/services/stop-sequences.ts). `thinking` (with `output_config.effort`) becomes the provider's reasoning knob
 * (worker/protocols/client-reasoning.ts). What an agent also sends (Claude Code: `metadata`,
 * `context_management`, ...) is accepted and, where the provider has no counterpart, ignored:
 * never a 400; its cache-control marks become Anthropic's own (./cache-marks.ts). Server tools reach an Anthropic upstream when
 * `ANTHROPIC_SERVER_TOOLS` lists them, and are dropped otherwise (./tools.ts). The thinking blocks of earlier turns go back
 * to the provider that takes them (worker/protocols/reasoning-state.ts). Images and documents, in a
 * user message or a tool result, go to the provider in its own form (./blocks.ts); one it cannot
 * take is a 400 naming the block. A `search_result` block goes as its text.
 *
 * @module
 */
import type { JsonValue, ReasoningPart } from "../../../src/index.ts";
import { invalidField } from "../../response/json-error.ts";
import { own, tooDeep, tooDeepError } from "../../request/json-fields.ts";
import { ANTHROPIC_KEPT_BLOCKS, keptBlockAt } from "../../request/kept-blocks.ts";
import { AGENT_BOUNDS } from "../../request/parse-stream-request.ts";
import type { StreamRequest } from "../../request/stream-request.ts";
import { agentModel } from "../agent-model.ts";
import { messagesReasoning } from "../client-reasoning.ts";
import { thinkingPart, withReasoningText } from "../reasoning-state.ts";
import { callIdOf } from "../thought-signatures.ts";
import { arrayAt, clientRequest, idAt, objectAt, samplingOf, stringAt, type WireMessage } from "../client-request.ts";
import type { WirePart } from "../../request/file-parts.ts";
import { TurnNotes } from "../turn-order.ts";
import { citedPart, clientCall, fileOfBlock, isFileBlock, searchResultText } from "./blocks.ts";
import { promptCacheOf } from "./cache-marks.ts";
import { containerOf, containerSkills } from "./container.ts";
import { messagesTools } from "./tools.ts";
import { withNativeTools } from "./defined-tools.ts";
import { withWebSearch } from "../web-search.ts";
import { withMessagesOutputFormat } from "../output-format.ts";

/** Anthropic's blocks that go back to it unchanged, in their place. */
const KEPT: ReadonlySet<unknown> = new Set(ANTHROPIC_KEPT_BLOCKS);

/** The providers whose tool results carry an error flag of their own (`is_error`, Bedrock's `status: "error"`). */
const NATIVE_ERRORS: ReadonlySet<string> = new Set(["anthropic", "bedrock"]);

/** A validated `POST /v1/messages` request. */
export interface MessagesRequest {
  request: StreamRequest;
  /** The `model` as the client sent it, echoed in the message. */
  model: string;
  stream: boolean;
}

/** Validates a parsed Messages body; throws a 400 `HttpError` naming the field at fault by its path. */
export function parseMessagesRequest(
  body: unknown,
  providers: readonly string[],
  aliases: Parameters<typeof agentModel>[2],
  bare?: string,
  serverTools: ReadonlySet<string> = new Set(),
): MessagesRequest {
  const fields = objectAt(body, "", "a JSON object");
  const deep = tooDeep(fields);
  if (deep !== undefined) throw tooDeepError(deep);
  const { provider, model } = agentModel(own(fields, "model"), providers, aliases, bare);
  const stream = own(fields, "stream") ?? false;
  if (typeof stream !== "boolean") throw invalidField("stream", "`stream` must be true or false.");
  const messages: WireMessage[] = [];
  const system = own(fields, "system");
  if (system !== undefined && system !== null) messages.push({ role: "system", content: textOf(system, "system") });
  // Server tools go to an Anthropic upstream alone, and only those the deployment allows; then
  // their calls and results of earlier turns go back to it too.
  const forwarded = provider === "anthropic" ? serverTools : new Set<string>();
  const [calls, withdrawn] = [new Set<string>(), new Set<string>()];
  arrayAt(own(fields, "messages"), "messages").forEach((message, i) =>
    messages.push(...toWire(message, `messages[${i}]`, provider, calls, withdrawn, forwarded.size > 0)),
  );
  // Web search, when listed, to an OpenAI upstream's own; its limits checked listed or not (../web-search.ts).
  const searchTo = provider !== "anthropic" ? { provider, model, listed: serverTools.has("web_search") } : undefined;
  const { tools, toolChoice, server, webSearch, oneCall, native } = messagesTools(fields, forwarded, searchTo);
  const container = own(fields, "container");
  const { request } = clientRequest(
    {
      provider,
      model,
      messages,
      tools,
      tool_choice: toolChoice,
      max_tokens: own(fields, "max_tokens") ?? undefined,
      temperature: own(fields, "temperature") ?? undefined,
      sampling: samplingOf(fields, ["top_p", "top_k", "stop"], { stop: "stop_sequences" }),
      reasoning: messagesReasoning(own(fields, "thinking"), own(fields, "output_config")),
      container: containerOf(container),
    },
    undefined,
    providers,
    {},
    (field) => {
      if (field === "provider") return "model";
      if (field === "stop") return "stop_sequences";
      return field.replace(/^(tools\[\d+\])\.parameters(?=$|[.[])/, "$1.input_schema");
    },
    AGENT_BOUNDS,
  );
  const skills = forwarded.size > 0 ? containerSkills(container) : undefined;
  if (server || skills) request.anthropicServerTools = { tools: [], ...server, ...(skills ? { skills } : {}) };
  if (webSearch) withWebSearch(request, webSearch);
  withNativeTools(request, native); // Anthropic's own form of its client-run tools, to Anthropic alone
  if (oneCall) request.parallelToolCalls = false; // held to by ../../services/call-rules.ts too
  withMessagesOutputFormat(fields, provider, request);
  const cache = promptCacheOf(fields); // marks of the Worker's own to Anthropic (./cache-marks.ts)
  if (cache) request.promptCache = cache;
  return { request, model: own(fields, "model") as string, stream };
}

/** A `system` or a block list's text: a string, or its `text` blocks (cache-control marks and citations ignored). */
function textOf(value: unknown, path: string): string {
  if (typeof value === "string") return value;
  return arrayAt(value, path)
    .map((block, i) => {
      const fields = objectAt(block, `${path}[${i}]`);
      if (own(fields, "type") !== "text")
        throw invalidField(`${path}[${i}].type`, "Only text blocks are supported here.");
      return stringAt(own(fields, "text"), `${path}[${i}].text`);
    })
    .join("\n");
}

/**
 * One Messages message as `/v1/stream` messages: a user turn's tool results first (as tool
 * messages), then its text. `calls` holds the ids of the earlier turns' `tool_use` blocks: a
 * result for none of them is a 400 at its id, as Anthropic answers it (and Gemini and Ollama,
 * which need the call's name, could not be sent it). A `tool_use` right before a `fallback` block
 * is the call the refusal may have cut off (the library withdraws it): it is left out, with its
 * result (`withdrawn` holds its id), as Anthropic's fallback doc asks ("no `tool_result` is sent
 * for a `tool_use` block you left out").
 */
function toWire(
  value: unknown,
  path: string,
  provider: string,
  calls: Set<string>,
  withdrawn: Set<string>,
  keepServer: boolean,
): WireMessage[] {
  const nativeErrors = NATIVE_ERRORS.has(provider);
  const message = objectAt(value, path);
  const role = own(message, "role");
  const content = own(message, "content");
  // Instructions inside the conversation (Claude Code sends its environment so for a model it does not know).
  // An empty one (the AI SDK's mid-conversation effort, `output_config` alone) says nothing: left out.
  if (role === "system") {
    const said = textOf(content, `${path}.content`);
    return said === "" ? [] : [{ role, content: said }];
  }
  if (role !== "user" && role !== "assistant")
    throw invalidField(`${path}.role`, "`role` must be user, assistant or system.");
  if (typeof content === "string") return [role === "user" ? { role, content } : { role, content, tool_calls: [] }];
  const blocks = arrayAt(content, `${path}.content`).map((block, i) => objectAt(block, `${path}.content[${i}]`));
  const text: string[] = [];
  const userParts: WirePart[] = [];
  const out: WireMessage[] = [];
  const toolCalls: Extract<WireMessage, { role: "assistant" }>["tool_calls"] = [];
  const parts: ReasoningPart[] = [];
  const thoughts: string[] = [];
  let dropped = 0;
  // Where each block's text, calls and parts came: the upstream gets the turn in that order.
  const notes = role === "assistant" ? new TurnNotes() : undefined;
  blocks.forEach((block, i) => {
    notes?.note(text, toolCalls, parts);
    const at = `${path}.content[${i}]`;
    const type = own(block, "type");
    if (type === "text") {
      const said = stringAt(own(block, "text"), `${at}.text`);
      text.push(said);
      userParts.push({ type: "text", text: said });
      if (role === "assistant") parts.push(...citedPart(block, said));
    } else if (isFileBlock(type) && role === "user") userParts.push(fileOfBlock(block, at, provider));
    else if (type === "search_result" && role === "user") {
      const said = searchResultText(block, at);
      text.push(said);
      userParts.push({ type: "text", text: said });
    } else if (type === "tool_result" && role === "user") {
      const result = own(block, "content");
      const given = result === undefined || result === null ? [] : resultParts(result, `${at}.content`, provider);
      const body = given.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
      const attached = given.flatMap((part) => (part.type === "file" ? [part] : []));
      const withFiles = attached.length > 0 ? { files: attached } : {};
      const error = own(block, "is_error") === true;
      const id = idAt(own(block, "tool_use_id"), `${at}.tool_use_id`);
      if (withdrawn.has(id)) return void dropped++;
      if (!calls.has(id))
        throw invalidField(
          `${at}.tool_use_id`,
          "`tool_use_id` names no tool_use block of an earlier assistant message.",
        );
      // Anthropic and Bedrock take the flag; in the other providers' formats the text says it.
      // The id the provider knows (an Interactions call's own, its signature left on the call).
      const call = callIdOf(id, provider);
      if (error && nativeErrors)
        out.push({ role: "tool", tool_call_id: call, content: body, is_error: true, ...withFiles });
      else out.push({ role: "tool", tool_call_id: call, content: error ? `Error: ${body}` : body, ...withFiles });
    } else if (type === "tool_use" && role === "assistant") {
      toolCalls.push(clientCall(block, at, provider));
      calls.add(own(block, "id") as string);
    } else if (type === "thinking" || type === "redacted_thinking") {
      if (role !== "assistant") return;
      const part = reasoningOf(block, at, provider);
      if (part) parts.push(part);
      if (type === "thinking") thoughts.push(stringAt(own(block, "thinking") ?? "", `${at}.thinking`));
    } else if (KEPT.has(type) && role === "assistant") {
      // Anthropic's kept blocks go back to it as they came, in order with the thinking.
      parts.push({ type: "block", block: keptBlockAt(block, at) });
      const before = blocks[i - 1];
      if (type === "fallback" && before && own(before, "type") === "tool_use") {
        toolCalls.pop();
        withdrawn.add(own(before, "id") as string);
      }
    } else if (type === "server_tool_use" || type === "mcp_tool_use" || /_tool_result$/.test(String(type))) {
      // A server tool's call or result (the provider ran it: no client's call or result) goes back
      // in its place, as a kept block, to an Anthropic upstream that is sent server tools; it is
      // dropped for any other.
      if (keepServer && role === "assistant")
        parts.push({ type: "block", block: block as { [key: string]: JsonValue } });
    } else
      throw invalidField(
        `${at}.type`,
        `A ${role} message takes text${role === "user" ? ", image, document, search_result and tool_result" : ", thinking, tool_use, compaction, fallback, mcp_tool_listing and container_upload"} blocks.`,
      );
  });
  if (role === "assistant") {
    const message: WireMessage = { role, content: text.join(""), tool_calls: toolCalls };
    notes?.note(text, toolCalls, parts);
    if (notes && notes.order.length > 0) message.order = notes.order;
    if (parts.length > 0) message.reasoning_parts = parts;
    // A blank line between blocks, as the Responses route joins summaries (../reasoning-state.ts).
    const thought = thoughts.reduce<string | undefined>(withReasoningText, undefined);
    if (thought !== undefined) message.reasoning = thought;
    return [message];
  }
  // Images and documents keep their place among the text.
  const said = userParts.some((part) => part.type === "file") ? userParts : text.join("\n");
  // A message of withdrawn calls' results alone is left out whole.
  if (text.length > 0 || (out.length === 0 && dropped === 0) || typeof said !== "string")
    out.push({ role: "user", content: said });
  return out;
}

/**
 * The reasoning an earlier `thinking` or `redacted_thinking` block carries back (a signed or
 * sealed signature, redacted data), or undefined for one without state (an unsigned block).
 */
function reasoningOf(block: Record<string, unknown>, at: string, provider: string): ReasoningPart | undefined {
  if (own(block, "type") === "thinking")
    return thinkingPart(
      stringAt(own(block, "thinking") ?? "", `${at}.thinking`),
      stringAt(own(block, "signature") ?? "", `${at}.signature`),
      { path: `${at}.signature`, provider },
    );
  const data = stringAt(own(block, "data"), `${at}.data`);
  return data === "" ? undefined : { type: "redacted", data };
}

/** A tool result's content as parts: a string, or its text, image and document blocks (any other block is named, not sent). */
function resultParts(value: unknown, path: string, provider: string): WirePart[] {
  if (typeof value === "string") return [{ type: "text", text: value }];
  return arrayAt(value, path).map((block, i): WirePart => {
    const fields = objectAt(block, `${path}[${i}]`);
    const type = own(fields, "type");
    if (type === "text") return { type: "text", text: stringAt(own(fields, "text"), `${path}[${i}].text`) };
    if (isFileBlock(type)) return fileOfBlock(fields, `${path}[${i}]`, provider);
    if (type === "search_result") return { type: "text", text: searchResultText(fields, `${path}[${i}]`) };
    return { type: "text", text: `[${String(type)} omitted]` };
  });
}
