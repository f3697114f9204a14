import { namedTool, type ToolEntry } from "../request.ts";

/**
 * The tools as a request to Anthropic Messages: `{ name, description, input_schema }`, with
 * `eager_input_streaming` when the entry sets it.
 *
 * @example
 * ```ts
 * const tools = anthropicToolDefinitions([{ name: "get_weather", description: "The weather in a city.", parameters: { type: "object" } }]);
 * ```
 */
export function anthropicToolDefinitions(tools: readonly ToolEntry[]): Record<string, unknown>[] {
  return tools.map((tool) => ({
    ...namedTool(tool),
    input_schema: tool.parameters,
    ...(tool.eagerInputStreaming !== undefined ? { eager_input_streaming: tool.eagerInputStreaming } : {}),
  }));
}
