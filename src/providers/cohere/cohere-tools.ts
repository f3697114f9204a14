import { namedTool, type ToolEntry } from "../tool-entry.ts";

/**
 * The tools as a request to Cohere v2: the Chat Completions shape, `{ type: "function", function: { name, description, parameters } }`.
 *
 * @example
 * ```ts
 * const tools = cohereToolDefinitions([{ name: "get_weather", description: "The weather in a city.", parameters: { type: "object" } }]);
 * ```
 */
export function cohereToolDefinitions(tools: readonly ToolEntry[]): Record<string, unknown>[] {
  return tools.map((tool) => ({ type: "function", function: { ...namedTool(tool), parameters: tool.parameters } }));
}
