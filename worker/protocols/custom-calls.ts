/**
 * OpenAI's `custom` tools (free text, such as Codex's `apply_patch`; on `/v1/responses` and
 * `/v1/chat/completions`). An OpenAI Responses upstream (`openai-responses/...`) has them: it is
 * sent each as a `custom` tool ({@link withNativeCustomTools}: a Responses client's as it came, a
 * Chat client's in the Responses shape, its grammar `format` with it, which OpenAI enforces), the
 * conversation's custom calls and their outputs as `custom_tool_call` / `custom_tool_call_output`
 * items ({@link customCall}), and its calls come back as the free-text calls they are. Every other
 * provider (OpenAI Chat too: many servers behind it have no custom tools) has none, and is sent each
 * as a function of one string parameter, {@link CUSTOM_INPUT} (a grammar is then one no provider
 * enforces, so the text is never held to it); a call of one comes back as a free-text call
 * ({@link customCalls}), which each encoder writes as its protocol's custom call, and a custom call
 * a client sends back goes to the provider as that function's call.
 *
 * @module
 */
import type { EncodableEvent, JsonValue } from "../../src/index.ts";
import { mapChunks } from "../http/batch-map.ts";
import { invalidField } from "../response/json-error.ts";
import { own } from "../request/json-fields.ts";
import type { JsonObject, StreamRequest } from "../request/stream-request.ts";
import { objectAt, stringAt } from "./client-request.ts";
import { callKey } from "../services/signed-ids.ts";

/** The parameter a `custom` tool's free text travels in, for providers that only have function tools. */
const CUSTOM_INPUT = "input";

/** A custom tool's parameters as the provider is sent them: one required string, the text. */
export function customParameters(): Record<string, unknown> {
  return {
    type: "object",
    properties: { [CUSTOM_INPUT]: { type: "string", description: "The tool's input, as free text." } },
    required: [CUSTOM_INPUT],
  };
}

/** The upstream that takes custom tools, their calls and their outputs as they are: OpenAI's Responses API. */
const takesCustomTools = (provider: string): boolean => provider === "openai-responses";

/**
 * A custom call of the client's history as the provider is sent it: to OpenAI Responses the text
 * itself, a free-text call (a `custom_tool_call` item, its output a `custom_tool_call_output`); to
 * the others the arguments of the function they know.
 */
export function customCall(input: string, provider: string): { arguments: JsonValue; inputFormat?: "text" } {
  return takesCustomTools(provider)
    ? { arguments: input, inputFormat: "text" }
    : { arguments: { [CUSTOM_INPUT]: input } };
}

/**
 * The request's custom tools (`custom`: by name, each as the Responses API takes it) sent to an
 * OpenAI Responses upstream as they are, in place of their functions (the kit sends a tool's
 * `openAIResponsesTool` as it is, and a `tool_choice` of it as `{type: "custom", name}`).
 */
export function withNativeCustomTools(request: StreamRequest, custom: ReadonlyMap<string, JsonObject>): void {
  if (!takesCustomTools(request.provider) || custom.size === 0) return;
  request.tools = request.tools.map((tool) => {
    const native = custom.get(tool.name);
    return native ? { ...tool, openAIResponsesTool: native } : tool;
  });
}

/**
 * A Responses client's `custom` tool as an OpenAI Responses upstream is sent it: as it came, but
 * with its checked `format` and without the fields given as `null`, which the Worker reads as
 * absent and OpenAI refuses (its CustomTool types `description` and `format` as never null).
 */
export function responsesCustomTool(fields: Record<string, unknown>, format: JsonObject | undefined): JsonObject {
  const given = Object.entries(fields).filter(([key, value]) => value !== null && key !== "format");
  return { ...(Object.fromEntries(given) as JsonObject), ...(format && { format }) };
}

/**
 * A custom tool's `format`, its shape checked (never compiled: a grammar is OpenAI's to enforce),
 * in the Responses shape: `{type: "text"}` or `{type: "grammar", syntax, definition}`, undefined when
 * absent. Chat Completions nests the grammar's `syntax` and `definition` under `grammar` (`nested`).
 */
export function customFormatAt(value: unknown, path: string, nested: boolean): JsonObject | undefined {
  if (value === undefined || value === null) return undefined;
  const type = own(objectAt(value, path), "type");
  if (type === "text") return { type };
  if (type !== "grammar") throw invalidField(`${path}.type`, `\`${path}.type\` must be text or grammar.`);
  const at = nested ? `${path}.grammar` : path;
  const grammar = objectAt(nested ? own(value as Record<string, unknown>, "grammar") : value, at);
  const definition = stringAt(own(grammar, "definition"), `${at}.definition`);
  const syntax = own(grammar, "syntax");
  if (syntax !== "lark" && syntax !== "regex")
    throw invalidField(`${at}.syntax`, `\`${at}.syntax\` must be lark or regex.`);
  return { type, syntax, definition };
}

/**
 * The calls of `custom` tools, which the provider made as functions with one string parameter,
 * turned back into free-text calls (`inputFormat: "text"`), so the encoder writes them as custom
 * calls holding the text (Responses' `custom_tool_call` items, Chat's `type: "custom"` calls):
 * their JSON fragments are not shown (the text is whole at the call's end), and the completed
 * call's input is that parameter's string. A call whose arguments hold no such string (`{}`) still
 * ends as the custom call its start announced (an encoder writes a call's kind at its start): its
 * input is the JSON text the model wrote, which the client's tool refuses as any bad input.
 */
export function customCalls(
  batches: ReadableStream<readonly EncodableEvent[]>,
  customTools: ReadonlyMap<string, unknown>,
  provider: string,
): ReadableStream<readonly EncodableEvent[]> {
  // Decided once per request: an OpenAI Responses upstream was sent them as custom tools, so its calls are free-text already.
  if (customTools.size === 0 || takesCustomTools(provider)) return batches;
  const custom = new Set<string>();
  return mapChunks(batches, (batch): readonly EncodableEvent[] => {
    const out: EncodableEvent[] = [];
    for (const event of batch) {
      const next = rewrite(event, customTools, custom);
      if (next) out.push(next);
    }
    return out;
  });
}

/** The event as the client is sent it, undefined when it is dropped (a custom call's JSON fragment). */
function rewrite(
  event: EncodableEvent,
  customTools: ReadonlyMap<string, unknown>,
  custom: Set<string>,
): EncodableEvent | undefined {
  if (event.type === "tool-call-start" && customTools.has(event.name) && event.inputFormat !== "text") {
    custom.add(callKey(event));
    return { ...event, inputFormat: "text" };
  }
  if (event.type === "tool-call-delta" && custom.has(callKey(event))) return undefined;
  if (event.type === "tool-call" && customTools.has(event.name) && event.inputFormat !== "text") {
    const input =
      typeof event.arguments === "object" && event.arguments !== null && !Array.isArray(event.arguments)
        ? (event.arguments as Record<string, unknown>)[CUSTOM_INPUT]
        : undefined;
    if (typeof input === "string") return { ...event, inputFormat: "text", arguments: input, rawArguments: input };
  }
  return event;
}
