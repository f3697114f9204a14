import { namedTool, type ToolEntry } from "../tool-entry.ts";

/**
 * The tools as a request to Anthropic Messages: `{ name, description, input_schema }`, with
 * `eager_input_streaming` when the entry sets it; an entry of one of Anthropic's client-run tools
 * (`anthropicTool`) in Anthropic's own form, `{ type, name }` (and the text editor's `max_characters`).
 *
 * @example
 * ```ts
 * const tools = anthropicToolDefinitions([{ name: "get_weather", description: "The weather in a city.", parameters: { type: "object" } }]);
 * ```
 */
export function anthropicToolDefinitions(tools: readonly ToolEntry[]): Record<string, unknown>[] {
  return tools.map((tool) => {
    const native = tool.anthropicTool;
    if (native)
      return {
        type: native.type,
        name: tool.name,
        ...(native.maxCharacters !== undefined ? { max_characters: native.maxCharacters } : {}),
      };
    return {
      ...namedTool(tool),
      input_schema: tool.parameters,
      ...(tool.eagerInputStreaming !== undefined ? { eager_input_streaming: tool.eagerInputStreaming } : {}),
    };
  });
}
