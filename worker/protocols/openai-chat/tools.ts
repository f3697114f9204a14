/**
 * A Chat Completions body's `tools` and `tool_choice` as `/v1/stream`'s: function tools, and every
 * choice openai 6 types (`ChatCompletionToolChoiceOption`) but a custom tool's, which has no custom
 * tools to name. `{type: "allowed_tools", allowed_tools: {mode, tools}}` (as Responses' allowed
 * tools) offers the provider only the listed tools, with `mode` as the choice: a call of another
 * is left out of the answer (../call-rules.ts).
 *
 * @module
 */
import { invalidField } from "../../response/json-error.ts";
import { own } from "../../request/json-fields.ts";
import { arrayAt, objectAt, stringAt } from "../client-request.ts";

/** What `tools` and `tool_choice` give: the tools, the choice, and the tools `allowed_tools` lists. */
export interface ChatTools {
  tools: Record<string, unknown>[] | undefined;
  toolChoice: unknown;
  /** With `tool_choice: {type: "allowed_tools"}`, the names the provider is offered and the answer held to. */
  allowed?: ReadonlySet<string>;
}

/** Reads `tools` and `tool_choice`; a 400 naming the field at fault. */
export function chatTools(fields: Record<string, unknown>): ChatTools {
  const given = own(fields, "tools") ?? undefined;
  const tools =
    given === undefined ? undefined : arrayAt(given, "tools").map((tool, i) => functionOf(tool, `tools[${i}]`));
  const choice = own(fields, "tool_choice") ?? undefined;
  const options =
    typeof choice === "object" && choice !== null && own(choice as Record<string, unknown>, "type") === "allowed_tools"
      ? objectAt(own(choice as Record<string, unknown>, "allowed_tools"), "tool_choice.allowed_tools")
      : undefined;
  if (!options) return { tools, toolChoice: choice };
  const mode = own(options, "mode");
  if (mode !== "auto" && mode !== "required")
    throw invalidField("tool_choice.allowed_tools.mode", "`tool_choice.allowed_tools.mode` must be auto or required.");
  const names = new Set((tools ?? []).map((tool) => tool["name"]));
  const allowed = arrayAt(own(options, "tools"), "tool_choice.allowed_tools.tools").map((entry, i) => {
    const at = `tool_choice.allowed_tools.tools[${i}]`;
    const name = stringAt(
      own(objectAt(own(objectAt(entry, at), "function"), `${at}.function`), "name"),
      `${at}.function.name`,
    );
    if (!names.has(name))
      throw invalidField(`${at}.function.name`, `\`${at}.function.name\` names no tool of \`tools\`.`);
    return name;
  });
  // The provider would be offered no tool and told to call one.
  if (mode === "required" && allowed.length === 0)
    throw invalidField(
      "tool_choice.allowed_tools.tools",
      "`tool_choice.allowed_tools.tools` lists no tool, and mode required calls one.",
    );
  return { tools, toolChoice: mode, allowed: new Set(allowed) };
}

/** A tool definition: `{type: "function", function: {name, description?, parameters?}}` (`strict` is the provider's concern). */
function functionOf(value: unknown, path: string): Record<string, unknown> {
  const tool = objectAt(value, path);
  if (own(tool, "type") !== "function") throw invalidField(`${path}.type`, "Only `function` tools are supported.");
  const { strict: _strict, ...fn } = objectAt(own(tool, "function"), `${path}.function`);
  return fn;
}
