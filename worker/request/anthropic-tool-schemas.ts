/**
 * The schemas of Anthropic's client-run tools (`bash_20250124` and `bash_20241022`, the text
 * editors, `memory_20250818`), as Anthropic documents them: Claude knows them from its training,
 * so an Anthropic request names only the tool's `type`, but every other provider is sent them as
 * function tools of these schemas, the Worker's calls are read against them, and the scripted
 * model (../upstream/replay/scripted/) reads them for a tool an Anthropic request names by type.
 *
 * @module
 */
import type { JsonObject } from "./stream-request.ts";

/** A function tool's description and JSON Schema. */
export interface ToolSchemaOf {
  description: string;
  parameters: JsonObject;
}

const string = { type: "string" } as const;
const integer = { type: "integer" } as const;

/** The fields of the editor's and memory's commands, but `command`. */
const EDITS = {
  path: string,
  file_text: string,
  old_str: string,
  new_str: string,
  insert_line: integer,
  insert_text: string,
  view_range: { type: "array", items: integer },
};

/** The editor's commands and fields (`undo_edit` only in the versions before `text_editor_20250429`). */
const editor = (commands: readonly string[], description: string): ToolSchemaOf => ({
  description,
  parameters: {
    type: "object",
    properties: { command: { type: "string", enum: [...commands] }, ...EDITS },
    required: ["command", "path"],
  },
});
// What Anthropic's schema leaves to Claude's training, said for the other models (review 76).
const EDITOR =
  "View, create and edit text files by `path`. `view`: the file's lines, numbered (`view_range` [first, last] for part of it, last -1 for the end), or a directory's entries. `create`: a new file of `file_text`. `str_replace`: `old_str`, which must occur exactly once in the file (give enough lines around it), replaced by `new_str`. `insert`: `insert_text` after line `insert_line` (0 for the top).";

const UNDO = "`undo_edit`: the last edit of the file undone.";

/** Each tool by its type: its description and JSON Schema. */
const SCHEMAS: Readonly<Record<string, ToolSchemaOf>> = {
  bash_20241022: bash(),
  bash_20250124: bash(),
  text_editor_20241022: editor(["view", "create", "str_replace", "insert", "undo_edit"], `${EDITOR} ${UNDO}`),
  text_editor_20250124: editor(["view", "create", "str_replace", "insert", "undo_edit"], `${EDITOR} ${UNDO}`),
  text_editor_20250429: editor(["view", "create", "str_replace", "insert"], EDITOR),
  text_editor_20250728: editor(["view", "create", "str_replace", "insert"], EDITOR),
  memory_20250818: {
    description: "Read and write files in the /memories directory, kept across conversations.",
    parameters: {
      type: "object",
      properties: {
        command: { type: "string", enum: ["view", "create", "str_replace", "insert", "delete", "rename"] },
        ...EDITS,
        old_path: string,
        new_path: string,
      },
      required: ["command"],
    },
  },
};

function bash(): ToolSchemaOf {
  return {
    description:
      "Run a command in a bash shell that persists between calls (its directory, variables and files stay); the answer is its output. `restart: true` starts a new shell.",
    parameters: {
      type: "object",
      properties: { command: string, restart: { type: "boolean" } },
      required: ["command"],
    },
  };
}

/** The newest version of each kind that {@link SCHEMAS} knows. */
const NEWEST = { bash: "bash_20250124", text_editor: "text_editor_20250728", memory: "memory_20250818" } as const;

/** The kind of a client-run tool's type (`bash`, `text_editor`, `memory`), undefined for any other type. */
export function anthropicToolKind(type: string): keyof typeof NEWEST | undefined {
  return /^(bash|text_editor|memory)_\d{8}$/.exec(type)?.[1] as keyof typeof NEWEST | undefined;
}

/** Whether `type` is one {@link anthropicToolSchema} knows by its own date (not a later version). */
export function isKnownAnthropicTool(type: string): boolean {
  return Object.hasOwn(SCHEMAS, type);
}

/**
 * The description and schema of the Anthropic client-run tool of `type`, a later dated version as
 * the newest known (rather than taken for a server tool and dropped: review 76); undefined for any other type.
 */
export function anthropicToolSchema(type: unknown): ToolSchemaOf | undefined {
  if (typeof type !== "string") return undefined;
  if (Object.hasOwn(SCHEMAS, type)) return SCHEMAS[type];
  const kind = anthropicToolKind(type);
  return kind === undefined ? undefined : SCHEMAS[NEWEST[kind]];
}
