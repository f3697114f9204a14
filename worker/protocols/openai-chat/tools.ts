/**
 * A Chat Completions body's `tools` and `tool_choice` as `/v1/stream`'s: function tools and
 * `custom` tools (`{type: "custom", custom: {name, description?, format?}}`, openai 6's
 * ChatCompletionCustomTool: free text, ../custom-calls.ts: to an OpenAI Responses upstream a custom
 * tool in the Responses shape, its `grammar` format with it, which OpenAI enforces; to every other
 * provider a function of one string, the grammar checked for its shape and not enforced, as on
 * `/v1/responses`), and every choice openai 6 types (`ChatCompletionToolChoiceOption`), a custom
 * tool's (`{type: "custom", custom: {name}}`) too. `{type: "allowed_tools", allowed_tools: {mode,
 * tools}}` (as Responses' allowed tools) offers the provider only the listed tools, with `mode` as
 * the choice: a call of another is left out of the answer (../../services/call-rules.ts).
 *
 * @module
 */
import type { JsonValue } from "../../../src/index.ts";
import { arrayLengthError, invalidField } from "../../response/json-error.ts";
import { own } from "../../request/json-fields.ts";
import { arrayAt, CHAT_BOUNDS, idAt, objectAt, stringAt, toolCallAt, toolNameAt } from "../client-request.ts";
import { customCall, customFormatAt, customParameters } from "../custom-calls.ts";
import type { JsonObject } from "../../request/stream-request.ts";

/** What `tools` and `tool_choice` give: the tools, the choice, and the tools `allowed_tools` lists. */
export interface ChatTools {
  tools: Record<string, unknown>[] | undefined;
  toolChoice: unknown;
  /** With `tool_choice: {type: "allowed_tools"}`, the names the provider is offered and the answer held to. */
  allowed?: ReadonlySet<string>;
  /**
   * The `custom` tools by name, whose calls go back as custom calls, each as the Responses API takes
   * it (an OpenAI Responses upstream is sent them so).
   */
  customTools: ReadonlyMap<string, JsonObject>;
  /** Each tool's kind, by index: where its fields sit (`function` or `custom`), for the paths of errors. */
  kinds: readonly ("function" | "custom")[];
}

/** Reads `tools` and `tool_choice`; a 400 naming the field at fault. */
export function chatTools(fields: Record<string, unknown>): ChatTools {
  const given = own(fields, "tools") ?? undefined;
  const kinds: ChatTools["kinds"][number][] = [];
  const customTools = new Map<string, JsonObject>();
  const tools =
    given === undefined
      ? undefined
      : arrayAt(given, "tools").map((tool, i) => toolOf(tool, `tools[${i}]`, kinds, customTools));
  const choice = own(fields, "tool_choice") ?? undefined;
  const object = typeof choice === "object" && choice !== null ? (choice as Record<string, unknown>) : undefined;
  const base = { tools, customTools, kinds };
  if (object && own(object, "type") === "custom") return { ...base, toolChoice: customChoice(object, customTools) };
  const options =
    object && own(object, "type") === "allowed_tools"
      ? objectAt(own(object, "allowed_tools"), "tool_choice.allowed_tools")
      : undefined;
  if (!options) return { ...base, toolChoice: choice };
  const mode = own(options, "mode");
  if (mode !== "auto" && mode !== "required")
    throw invalidField("tool_choice.allowed_tools.mode", "`tool_choice.allowed_tools.mode` must be auto or required.");
  const names = new Set((tools ?? []).map((tool) => tool["name"]));
  const listed = arrayAt(own(options, "tools"), "tool_choice.allowed_tools.tools");
  // None listed, or more than OpenAI's 128, is OpenAI's array-length 400, as /v1/responses answers
  // it: with none the provider would be sent a choice and no tool (which OpenAI refuses).
  if (listed.length === 0 || listed.length > 128)
    throw arrayLengthError("tool_choice.allowed_tools.tools", listed.length, 128);
  const allowed = listed.map((entry, i) => {
    const at = `tool_choice.allowed_tools.tools[${i}]`;
    // `{type: "function", function: {name}}` or `{type: "custom", custom: {name}}`.
    const kind = own(objectAt(entry, at), "type") === "custom" ? "custom" : "function";
    const name = stringAt(
      own(objectAt(own(entry as Record<string, unknown>, kind), `${at}.${kind}`), "name"),
      `${at}.${kind}.name`,
    );
    if (!names.has(name))
      throw invalidField(`${at}.${kind}.name`, `\`${at}.${kind}.name\` names no tool of \`tools\`.`);
    return name;
  });
  return { ...base, toolChoice: mode, allowed: new Set(allowed) };
}

/**
 * A field of the translated body as the client named it: a tool's fields (`name`, `description`,
 * `parameters`, a misnamed `input_schema`) under its `function` or `custom` (`tools[0].name` is
 * `tools[0].custom.name`), as the translated tool holds only those.
 */
export function chatToolField(field: string, kinds: ChatTools["kinds"]): string {
  return field.replace(
    /^tools\[(\d+)\]\.([\w$]+)(?=$|[.[])/,
    (_, i: string, key: string) => `tools[${i}].${kinds[Number(i)] ?? "function"}.${key}`,
  );
}

/**
 * A call of an assistant message: a function's (`{id, type: "function", function: {name,
 * arguments}}`) or a custom tool's (`{id, type: "custom", custom: {name, input}}`, openai 6's
 * ChatCompletionMessageCustomToolCall), whose text goes to `provider` as a custom call (OpenAI
 * Responses) or the function's argument (../custom-calls.ts).
 */
export function chatCallAt(
  value: unknown,
  at: string,
  provider: string,
): { id: string; name: string; arguments: JsonValue; inputFormat?: "text" } {
  const call = objectAt(value, at);
  const type = own(call, "type");
  if (type !== "custom") {
    if (type !== undefined && type !== "function")
      throw invalidField(`${at}.type`, "A tool call's `type` must be function or custom.");
    return toolCallAt(call, at, CHAT_BOUNDS);
  }
  const custom = objectAt(own(call, "custom"), `${at}.custom`);
  return {
    id: idAt(own(call, "id"), `${at}.id`),
    name: toolNameAt(own(custom, "name"), `${at}.custom.name`, CHAT_BOUNDS),
    ...customCall(stringAt(own(custom, "input"), `${at}.custom.input`), provider),
  };
}

/** A tool definition: `{type: "function", function: {name, description?, parameters?}}` (`strict` is the provider's concern), or a custom tool. */
function toolOf(
  value: unknown,
  path: string,
  kinds: ChatTools["kinds"][number][],
  customTools: Map<string, JsonObject>,
): Record<string, unknown> {
  const tool = objectAt(value, path);
  const type = own(tool, "type");
  if (type === "custom") {
    kinds.push(type);
    const custom = objectAt(own(tool, "custom"), `${path}.custom`);
    const format = customFormatAt(own(custom, "format"), `${path}.custom.format`, true);
    const [name, description] = [own(custom, "name"), own(custom, "description") ?? undefined];
    // The Responses shape (`{type: "custom", name, description?, format?}`: the grammar's fields on the format).
    if (typeof name === "string")
      customTools.set(name, {
        type,
        name,
        ...(typeof description === "string" && { description }),
        ...(format && { format }),
      });
    // The name and description are checked with the function tools' (renamed: chatToolField).
    return { name, ...(description !== undefined && { description }), parameters: customParameters() };
  }
  if (type !== "function") throw invalidField(`${path}.type`, "A tool's `type` must be function or custom.");
  kinds.push(type);
  const { strict: _strict, ...fn } = objectAt(own(tool, "function"), `${path}.function`);
  return fn;
}

/** `{type: "custom", custom: {name}}`: one of the custom tools, forced (`/v1/stream`'s `{name}`). */
function customChoice(choice: Record<string, unknown>, customTools: ReadonlyMap<string, JsonObject>): { name: string } {
  const name = stringAt(own(objectAt(own(choice, "custom"), "tool_choice.custom"), "name"), "tool_choice.custom.name");
  if (!customTools.has(name))
    throw invalidField("tool_choice.custom.name", "`tool_choice.custom.name` names no custom tool of `tools`.");
  return { name };
}
