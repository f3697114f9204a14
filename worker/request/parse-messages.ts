/**
 * The messages of a `/v1/stream` body: the conversation, with the calls of earlier turns, their
 * results, and the files (images, documents) of user messages and results.
 *
 * @module
 */
import type { JsonValue } from "../../src/index.ts";
import { invalidField, type HttpError } from "../response/json-error.ts";
import { addFiles, partsText, wireFileAt, wirePartsAt } from "./file-parts.ts";
import { isObject, own } from "./json-fields.ts";
import { reasoningPartsAt } from "./parse-reasoning.ts";
import { turnOrderAt } from "./parse-turn-order.ts";
import type { AssistantToolCall, JsonObject, Message, ToolMessage } from "./stream-request.ts";

/** What of a request's bounds its messages follow (parse-stream-request.ts' `RequestBounds`). */
interface RequestBounds {
  messages: number;
  toolName: RegExp;
  toolNameRule: string;
}

/**
 * The messages of a `/v1/stream` body (see stream-request.ts), or a 400 naming the field at fault.
 *
 * @example
 * ```ts
 * const messages = parseMessages(body.messages, STREAM_BOUNDS, "anthropic");
 * ```
 */
export function parseMessages(value: unknown, bounds: RequestBounds, provider: string): Message[] {
  if (!Array.isArray(value) || value.length === 0)
    throw invalidField(
      "messages",
      value === undefined
        ? "`messages` is required: a non-empty array."
        : '`messages` must be a non-empty array, such as `[{"role": "user", "content": "Hi"}]`.',
    );
  if (value.length > bounds.messages)
    throw invalidField("messages", `\`messages\` has more than ${bounds.messages} entries.`);
  const files = { files: 0, bytes: 0 };
  return value.map((entry, i) => {
    const message = parseMessage(entry, `messages[${i}]`, bounds, provider);
    if (message.role === "user" || message.role === "tool") addFiles(files, message.parts);
    return message;
  });
}

function parseMessage(value: unknown, path: string, bounds: RequestBounds, provider: string): Message {
  if (!isObject(value)) throw invalidField(path, "Each message must be an object.");
  const role = own(value, "role");
  // A user message's content may be parts: text and files (images, PDFs, ...).
  const content = own(value, "content");
  if (role === "user" && Array.isArray(content)) {
    const parts = wirePartsAt(content, `${path}.content`, provider);
    return { role, content: partsText(parts), parts };
  }
  if (role === "system" || role === "user") return { role, content: requiredString(content, `${path}.content`) };
  if (role === "assistant") {
    const content =
      own(value, "content") === null || own(value, "content") === undefined
        ? ""
        : requiredString(own(value, "content"), `${path}.content`);
    const calls = own(value, "tool_calls") ?? [];
    if (!Array.isArray(calls)) throw invalidField(`${path}.tool_calls`, "`tool_calls` must be an array.");
    const message: Message = {
      role,
      content,
      toolCalls: calls.map((call, i) => parseAssistantCall(call, `${path}.tool_calls[${i}]`, bounds, provider)),
    };
    const parts = own(value, "reasoning_parts");
    if (parts !== undefined && parts !== null)
      message.reasoningParts = reasoningPartsAt(parts, `${path}.reasoning_parts`, provider);
    const reasoning = own(value, "reasoning");
    if (reasoning !== undefined && reasoning !== null && reasoning !== "")
      message.reasoning = requiredString(reasoning, `${path}.reasoning`);
    // Where its text, calls and reasoning came (`finish.order`), so the provider gets the turn in that order.
    const order = own(value, "order");
    if (order !== undefined && order !== null)
      message.order = turnOrderAt(
        order,
        `${path}.order`,
        2 * (calls.length + (message.reasoningParts?.length ?? 0)) + 1,
      );
    return message;
  }
  if (role === "tool") return parseToolMessage(value, path, bounds, provider);
  throw invalidField(`${path}.role`, "`role` must be system, user, assistant or tool.");
}

/** The providers that take a free-text call back as one (OpenAI's custom tool calls, Responses and Chat). */
const TAKES_TEXT_CALLS: ReadonlySet<string> = new Set(["openai-responses", "openai"]);

function parseAssistantCall(value: unknown, path: string, bounds: RequestBounds, provider: string): AssistantToolCall {
  if (!isObject(value)) throw invalidField(path, "Each tool call must be an object.");
  const id = own(value, "id");
  if (id !== null && id !== undefined && typeof id !== "string")
    throw invalidField(`${path}.id`, "`id` must be a string or null.");
  const name = own(value, "name");
  if (typeof name !== "string" || !bounds.toolName.test(name)) throw toolNameError(`${path}.name`, bounds);
  const call: AssistantToolCall = { id: id ?? null, name, arguments: (own(value, "arguments") ?? {}) as JsonValue };
  const metadata = own(value, "providerMetadata");
  if (isObject(metadata)) call.providerMetadata = metadata as JsonObject;
  const format = own(value, "inputFormat") ?? undefined;
  if (format !== undefined && (format !== "text" || typeof call.arguments !== "string"))
    throw invalidField(`${path}.inputFormat`, "`inputFormat` must be text, with the call's text as `arguments`.");
  // To another provider, the function of one string `input` a custom tool goes as
  // (worker/protocols/custom-calls.ts): its text as `{}`, what a string is to them, would be lost.
  if (format === "text" && TAKES_TEXT_CALLS.has(provider)) call.inputFormat = format;
  else if (format === "text") call.arguments = { input: call.arguments };
  // A call the provider ran (an Anthropic server tool's): back as its own block, never as the client's (../../src/providers/request.ts).
  const executed = own(value, "providerExecuted") ?? false;
  if (typeof executed !== "boolean")
    throw invalidField(`${path}.providerExecuted`, "`providerExecuted` must be true or false.");
  if (executed) call.providerExecuted = true;
  const index = own(value, "index");
  if (index !== undefined && index !== null) {
    if (typeof index !== "number" || !Number.isSafeInteger(index) || index < 0)
      throw invalidField(`${path}.index`, "`index` must be a whole number, 0 or more.");
    call.index = index;
  }
  return call;
}

function parseToolMessage(
  value: Record<string, unknown>,
  path: string,
  bounds: RequestBounds,
  provider: string,
): Message {
  // null is no id: what the `tool-call` event of a provider without call ids (Gemini, Ollama) carries.
  const id = own(value, "tool_call_id") ?? undefined;
  const name = own(value, "name");
  if (id !== undefined && typeof id !== "string")
    throw invalidField(`${path}.tool_call_id`, "`tool_call_id` must be a string or null.");
  if (name !== undefined && (typeof name !== "string" || !bounds.toolName.test(name)))
    throw toolNameError(`${path}.name`, bounds);
  if (id === undefined && name === undefined)
    throw invalidField(path, "A tool message needs `tool_call_id` (or, for calls without ids, `name`).");
  const content = own(value, "content");
  if (content === undefined) throw invalidField(`${path}.content`, "`content` is required: the call's result.");
  const message: ToolMessage = {
    role: "tool",
    content: typeof content === "string" ? content : JSON.stringify(content),
  };
  if (id !== undefined) message.toolCallId = id;
  if (name !== undefined) message.name = name;
  const error = own(value, "is_error");
  if (error !== undefined && error !== null && typeof error !== "boolean")
    throw invalidField(`${path}.is_error`, "`is_error` must be true or false.");
  if (error === true) message.isError = true;
  // The files a tool's result carries (a screenshot), after its text: none when it has none (Codex's
  // `view_image` output is its image alone; Anthropic refuses an empty text block).
  const files = own(value, "files");
  if (files !== undefined && !Array.isArray(files)) throw invalidField(`${path}.files`, "`files` must be an array.");
  if (Array.isArray(files) && files.length > 0)
    message.parts = [
      ...(message.content === "" ? [] : [{ type: "text" as const, text: message.content }]),
      ...files.map((file, i) => wireFileAt(file, `${path}.files[${i}]`, provider)),
    ];
  return message;
}

/** The 400 of a tool name that breaks `bounds`' rule. */
export function toolNameError(path: string, bounds: RequestBounds): HttpError {
  return invalidField(path, `\`name\` must be a tool name: ${bounds.toolNameRule}.`);
}

/** A string, or a 400 naming `path`. */
export function requiredString(value: unknown, path: string): string {
  if (typeof value !== "string") throw invalidField(path, `\`${path.split(".").at(-1)}\` must be a string.`);
  return value;
}
