/**
 * Anthropic's client tools of its own schema in a Messages body: `bash_20250124` (and
 * `bash_20241022`), the text editors (`text_editor_20250728`, ...) and `memory_20250818`. Their
 * `type` carries a date, as a server tool's does, but the client runs them: Anthropic only knows
 * their schema. An Anthropic upstream is sent them as they came, `{type, name}` (the text editor's
 * `max_characters` with it): the tool Claude is trained on, in fewer input tokens than a look-alike
 * function. Every other provider is sent them as function tools of the schema Anthropic documents
 * (../../request/anthropic-tool-schemas.ts), so the model can call them and the call reaches the
 * client as its `tool_use`; dropped, the model would answer without the shell or editor the client
 * gave it. Computer use (`computer_20250124`, ...) acts on a screen the model must be trained for:
 * a 400 naming the tool's type, rather than an answer from a model that cannot see the screen.
 *
 * @module
 */
import type { AnthropicClientTool } from "../../../src/anthropic.ts";
import { invalidField } from "../../response/json-error.ts";
import { anthropicToolKind, anthropicToolSchema, isKnownAnthropicTool } from "../../request/anthropic-tool-schemas.ts";
import { own } from "../../request/json-fields.ts";
import type { StreamRequest } from "../../request/stream-request.ts";
import type { WireTool } from "../client-request.ts";

/**
 * The description and schema of the function tool that a tool of Anthropic's schema, of `type` at
 * `tools[i]`, stands for (its name is the one the client gave), a later dated version as the newest
 * known; undefined for any other type. Computer use: a 400.
 */
export function definedTool(type: unknown, i: number): Omit<WireTool, "name"> | undefined {
  if (typeof type === "string" && /^computer_\d{8}$/.test(type))
    throw invalidField(
      `tools[${i}].type`,
      `\`${type}\` (Anthropic's computer use) needs a model trained on its screen: this Worker sends it to no provider. Define the actions as client tools (\`custom\`), or call Anthropic directly.`,
    );
  return anthropicToolSchema(type);
}

/** The name Anthropic fixes for each type it knows (its 400 names any other). */
const NAMES: Readonly<Record<string, string>> = {
  bash_20250124: "bash",
  text_editor_20250124: "str_replace_editor",
  text_editor_20250429: "str_replace_based_edit_tool",
  text_editor_20250728: "str_replace_based_edit_tool",
  memory_20250818: "memory",
};

/**
 * The client-run tool `tools[i]` (of a `type` {@link definedTool} knows, named `name`) as Anthropic
 * is sent it; undefined where Anthropic would refuse its own form, and the function form goes
 * instead: the 2024-10-22 versions (a beta, `computer-use-2024-10-22`, of Claude 3.5 Sonnet alone),
 * or a known type under another name than Anthropic's. A later dated version goes as it came:
 * Anthropic knows its own newer versions and their names, which this Worker does not yet.
 * `max_characters` (the text editor's from `text_editor_20250728`): an integer from 1, or a 400.
 */
export function nativeTool(
  type: string,
  fields: Readonly<Record<string, unknown>>,
  name: string,
  i: number,
): AnthropicClientTool | undefined {
  const kind = anthropicToolKind(type);
  const max = kind === "text_editor" && type.slice(-8) >= "20250728" ? own(fields, "max_characters") : undefined;
  if (max !== undefined && max !== null && !(Number.isSafeInteger(max) && (max as number) >= 1))
    throw invalidField(`tools[${i}].max_characters`, "`max_characters` must be an integer from 1.");
  if (type.endsWith("_20241022") || (isKnownAnthropicTool(type) && NAMES[type] !== name)) return undefined;
  return { type, ...(typeof max === "number" ? { maxCharacters: max } : {}) };
}

/**
 * Marks the parsed request's tools that an Anthropic upstream is sent in Anthropic's own form
 * (`native`, by name: {@link nativeTool}); the library's Anthropic request writes them so, and the
 * other providers, never marked, keep the function.
 */
export function withNativeTools(request: StreamRequest, native: ReadonlyMap<string, AnthropicClientTool>): void {
  if (request.provider !== "anthropic" || native.size === 0) return;
  request.tools = request.tools.map((tool) => {
    const anthropicTool = native.get(tool.name);
    return anthropicTool ? { ...tool, anthropicTool } : tool;
  });
}
