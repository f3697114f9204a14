/**
 * Anthropic's client tools of its own schema in a Messages body: `bash_20250124` (and
 * `bash_20241022`), the text editors (`text_editor_20250728`, ...) and `memory_20250818`. Their
 * `type` carries a date, as a server tool's does, but the client runs them: Anthropic only knows
 * their schema. Each provider (Anthropic too) is sent them as function tools of the schema
 * Anthropic documents, so the model can call them and the call reaches the client as its
 * `tool_use`; dropped, the model would answer without the shell or editor the client gave it.
 * Computer use (`computer_20250124`, ...) acts on a screen the model must be trained for: a 400
 * naming the tool's type, rather than an answer from a model that cannot see the screen.
 *
 * @module
 */
import { invalidField } from "../../response/json-error.ts";
import type { WireTool } from "../client-request.ts";

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
const editor = (commands: readonly string[], description: string) => ({
  description,
  parameters: {
    type: "object",
    properties: { command: { type: "string", enum: commands }, ...EDITS },
    required: ["command", "path"],
  },
});
// What Anthropic's schema leaves to Claude's training, said for the other models (review 76).
const EDITOR =
  "View, create and edit text files by `path`. `view`: the file's lines, numbered (`view_range` [first, last] for part of it, last -1 for the end), or a directory's entries. `create`: a new file of `file_text`. `str_replace`: `old_str`, which must occur exactly once in the file (give enough lines around it), replaced by `new_str`. `insert`: `insert_text` after line `insert_line` (0 for the top).";

const UNDO = "`undo_edit`: the last edit of the file undone.";

/** Each tool by its type: its description and JSON Schema. */
const SCHEMAS: Readonly<Record<string, Omit<WireTool, "name">>> = {
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

function bash(): Omit<WireTool, "name"> {
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

/**
 * The description and schema of the function tool that a tool of Anthropic's schema, of `type` at
 * `tools[i]`, stands for (its name is the one the client gave), a later dated version as the newest
 * known; undefined for any other type. Computer use: a 400.
 */
export function definedTool(type: unknown, i: number): Omit<WireTool, "name"> | undefined {
  if (typeof type !== "string") return undefined;
  if (/^computer_\d{8}$/.test(type))
    throw invalidField(
      `tools[${i}].type`,
      `\`${type}\` (Anthropic's computer use) needs a model trained on its screen: this Worker sends it to no provider. Define the actions as client tools (\`custom\`), or call Anthropic directly.`,
    );
  if (Object.hasOwn(SCHEMAS, type)) return SCHEMAS[type];
  // A later version of one of them (a date after the ones above) stands for the newest one known, rather
  // than being taken for a server tool and dropped (review 76).
  const kind = /^(bash|text_editor|memory)_\d{8}$/.exec(type)?.[1];
  return kind === undefined ? undefined : SCHEMAS[NEWEST[kind as keyof typeof NEWEST]];
}

/** The newest version of each kind that {@link SCHEMAS} knows. */
const NEWEST = { bash: "bash_20250124", text_editor: "text_editor_20250728", memory: "memory_20250818" } as const;
