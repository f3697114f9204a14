/**
 * One tool as every provider's definition is made from it (`ToolEntry`), and what every
 * provider's definition starts with (`namedTool`).
 *
 * @module
 */

/** One tool as every provider's definition is made from it. */
export interface ToolEntry {
  /** The function name the model calls. */
  readonly name: string;
  /** What the tool does, for the model. */
  readonly description?: string | undefined;
  /** The JSON Schema of the arguments. */
  readonly parameters: Record<string, unknown>;
  /**
   * The parameters are JSON Schema as written (a validator's JSON Schema, or a client's), not a
   * schema written for one provider's subset of it: a provider with such a subset (Gemini's
   * OpenAPI `parameters`) sends it where full JSON Schema is taken.
   */
  readonly jsonSchema?: boolean | undefined;
  /**
   * The OpenAI Responses built-in tool this entry stands for, as the Responses API takes it
   * (`{ type: "apply_patch" }`, `{ type: "shell", environment }`, `{ type: "local_shell" }`, a
   * `{ type: "custom", name, format }` free-text tool): an OpenAI Responses request sends it as it
   * is, and the turn's calls of it and their results as its own items; every other provider is
   * sent the function that `name` and `parameters` describe.
   */
  readonly openAIResponsesTool?: Readonly<Record<string, unknown>> | undefined;
  /**
   * Anthropic's `eager_input_streaming` for this tool: true streams its input as it is generated
   * (types inferred on the fly), false turns that off even with the fine-grained tool streaming
   * beta. Absent: the provider's default. The other providers have no such setting.
   */
  readonly eagerInputStreaming?: boolean | undefined;
  /**
   * The Anthropic client-run tool this entry stands for (`bash_20250124`, a text editor, memory):
   * an Anthropic request sends it in Anthropic's own form, `{ type, name, max_characters }`, the
   * tool Claude is trained on; every other provider is sent the function that `name` and
   * `parameters` describe (the schema Anthropic documents for it), which also checks its calls.
   */
  readonly anthropicTool?: AnthropicClientTool | undefined;
}

/**
 * One of Anthropic's tools that the client runs but Anthropic defines (by a dated `type`), as a
 * {@link ToolEntry} carries it to an Anthropic request; the entry's `name` is its name, which
 * Anthropic fixes for each type (`bash`, `str_replace_based_edit_tool`, `memory`).
 */
export interface AnthropicClientTool {
  /** Its dated type, as Anthropic names it: `bash_20250124`, `text_editor_20250728`, `memory_20250818`, ... */
  readonly type: string;
  /** The text editor's (`text_editor_20250728` and later) longest view of a file, in characters (`max_characters`); absent: the whole file. */
  readonly maxCharacters?: number | undefined;
}

/** The tool's name and, when it has one, its description: what every provider's definition starts with. */
export function namedTool(tool: ToolEntry): { name: string; description?: string } {
  return tool.description === undefined ? { name: tool.name } : { name: tool.name, description: tool.description };
}
