/**
 * The built-in tools a Responses client runs itself, `apply_patch`, `shell` and `local_shell`
 * (the Agents SDK's `applyPatchTool()` and `shellTool()`, Codex with a model whose shell is
 * `local`): an OpenAI Responses upstream is sent each as the client gave it, and answers with its
 * own `apply_patch_call` / `shell_call` / `local_shell_call` items; every other provider gets a
 * function of the tool's name whose JSON Schema describes the item's input (an `apply_patch`
 * operation, a `shell` action, a `local_shell` exec action), and its calls go back to the client as
 * the built-in items all the same (the encoder's `builtInTools`). The calls and their outputs a
 * client sends back become the conversation's calls (with `providerMetadata.responsesItem`, which
 * an OpenAI Responses upstream takes back as the items they were) and tool results.
 *
 * @module
 */
import type { JsonValue } from "../../../src/index.ts";
import { invalidField } from "../../response/json-error.ts";
import { isObject, own } from "../../request/json-fields.ts";
import type { StreamRequest } from "../../request/stream-request.ts";
import { idAt, objectAt, resultText, type WireMessage, type WireTool } from "../client-request.ts";
import { withoutWorkerId } from "./stored-ids.ts";

type Assistant = Extract<WireMessage, { role: "assistant" }>;

const text = (description: string) => ({ type: "string", description });
const integer = (description: string) => ({ type: "integer", description });

/** Each built-in tool: what the model is told, its input's schema, and its call item's type and input field. */
const BUILT_IN: Record<
  string,
  { description: string; parameters: Record<string, unknown>; item: string; input: string }
> = {
  apply_patch: {
    item: "apply_patch_call",
    input: "operation",
    description:
      "Create, update or delete one file. `diff` is a V4A diff: for create_file the new file's lines, each prefixed with `+`; for update_file one or more hunks, each starting with `@@` and a line of context, then lines prefixed with ` ` (kept), `-` (removed) or `+` (added).",
    parameters: {
      type: "object",
      properties: {
        type: { type: "string", enum: ["create_file", "update_file", "delete_file"], description: "The operation." },
        path: text("The file's path, relative to the workspace root."),
        diff: text("The V4A diff (create_file and update_file)."),
      },
      required: ["type", "path"],
    },
  },
  shell: {
    item: "shell_call",
    input: "action",
    description: "Run shell commands, in order, and read their output.",
    parameters: {
      type: "object",
      properties: {
        commands: { type: "array", items: { type: "string" }, description: "The commands to run, in order." },
        timeout_ms: integer("The most time the commands may take, in milliseconds."),
        max_output_length: integer("The most characters of output to read back."),
      },
      required: ["commands"],
    },
  },
  local_shell: {
    item: "local_shell_call",
    input: "action",
    description: "Run one command on the local machine and read its output.",
    parameters: {
      type: "object",
      properties: {
        type: { type: "string", enum: ["exec"], description: "Always exec." },
        command: { type: "array", items: { type: "string" }, description: "The program and its arguments." },
        env: { type: "object", additionalProperties: { type: "string" }, description: "Environment variables." },
        working_directory: text("The directory to run it in."),
        timeout_ms: integer("The most time it may take, in milliseconds."),
      },
      required: ["command"],
    },
  },
};

/** The call item types, by which their outputs are known. */
const ITEMS = new Map(Object.entries(BUILT_IN).map(([name, tool]) => [tool.item, { name, input: tool.input }]));

/**
 * A built-in tool the client runs, as the function other providers are sent (named as the tool's
 * type); `builtIns` keeps the client's definition, by that name. Undefined for any other type.
 */
export function builtInToolOf(
  type: unknown,
  fields: Record<string, unknown>,
  builtIns: Map<string, Record<string, unknown>>,
): WireTool | undefined {
  if (typeof type !== "string" || !Object.hasOwn(BUILT_IN, type)) return undefined;
  const { description, parameters } = BUILT_IN[type]!;
  builtIns.set(type, fields);
  return { name: type, description, parameters };
}

/**
 * Marks the parsed request's tools an OpenAI Responses upstream is sent as the client gave them: its
 * built-in tools, and its functions of `tools` (`given`) with `strict: true`, which the request kit
 * would send `strict: false` as it sends every function (Responses makes functions strict by
 * default, which most hand-written schemas fail): the client's strict schema adherence kept. To an
 * OpenAI Chat upstream those functions' names go as `strictTools` (its functions are not strict by default).
 */
export function withBuiltInTools(
  request: StreamRequest,
  builtIns: ReadonlyMap<string, Record<string, unknown>>,
  given?: unknown,
): void {
  const strict = new Set(
    (request.provider === "openai-responses" || request.provider === "openai") && Array.isArray(given)
      ? given.flatMap((tool) =>
          isObject(tool) && own(tool, "type") === "function" && own(tool, "strict") === true ? [own(tool, "name")] : [],
        )
      : [],
  );
  if (request.provider === "openai" && strict.size > 0) request.strictTools = [...strict] as string[];
  if (builtIns.size === 0 && (strict.size === 0 || request.provider === "openai")) return;
  request.tools = request.tools.map((tool) => {
    const builtIn = builtIns.get(tool.name);
    if (builtIn) return { ...tool, openAIResponsesTool: builtIn };
    if (!strict.has(tool.name)) return tool;
    const { name, description, parameters } = tool;
    const described = description === undefined ? {} : { description };
    return { ...tool, openAIResponsesTool: { type: "function", name, ...described, parameters, strict: true } };
  });
}

/**
 * A built-in call or output item of the client's input into the conversation; false when the
 * item is of another type. A call joins the assistant turn; an output answers a call of an
 * earlier item (a 400 at its `call_id` otherwise).
 */
export function addBuiltInItem(
  type: unknown,
  item: Record<string, unknown>,
  path: string,
  assistant: () => Assistant,
  messages: WireMessage[],
  calls: Set<string>,
): boolean {
  if (typeof type !== "string") return false;
  const call = ITEMS.get(type);
  if (call) {
    const id = idAt(own(item, "call_id"), `${path}.call_id`);
    calls.add(id);
    const input = objectAt(own(item, call.input), `${path}.${call.input}`) as JsonValue;
    const responsesItem: Record<string, JsonValue> = { type };
    // A local shell's call goes back with its `id`, but not one the Worker made (./stored-ids.ts).
    const fields = withoutWorkerId(item);
    for (const key of ["id", "status", "environment", "caller"]) {
      const value = own(fields, key);
      if (value !== undefined && value !== null) responsesItem[key] = value as JsonValue;
    }
    assistant().tool_calls.push({ id, name: call.name, arguments: input, providerMetadata: { responsesItem } });
    return true;
  }
  if (!type.endsWith("_output") || !ITEMS.has(type.slice(0, -"_output".length))) return false;
  // A local shell's output names its call by `id`; the others by `call_id`.
  const field = type === "local_shell_call_output" ? "id" : "call_id";
  const id = idAt(own(item, field), `${path}.${field}`);
  if (!calls.has(id)) throw invalidField(`${path}.${field}`, `\`${field}\` names no call of an earlier input item.`);
  const output = own(item, "output");
  messages.push({
    role: "tool",
    tool_call_id: id,
    content: Array.isArray(output) ? JSON.stringify(output) : resultText(output ?? ""),
    ...(own(item, "status") === "failed" ? { is_error: true as const } : {}),
  });
  return true;
}

/** The built-in tool a `tool_choice` of `{type: "apply_patch"}` or `{type: "shell"}` names, else undefined. */
export function chosenBuiltIn(type: unknown): string | undefined {
  return type === "apply_patch" || type === "shell" ? type : undefined;
}
