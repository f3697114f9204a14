import { namedTool, type ToolEntry } from "../tool-entry.ts";

/**
 * The tools as a request to OpenAI Responses: `{ type: "function", name, description, parameters }` (flat, unlike Chat Completions).
 *
 * @example
 * ```ts
 * const tools = openAIResponsesToolDefinitions([{ name: "get_weather", description: "The weather in a city.", parameters: { type: "object" } }]);
 * ```
 */
export function openAIResponsesToolDefinitions(tools: readonly ToolEntry[]): Record<string, unknown>[] {
  return tools.map((tool) => ({ type: "function", ...namedTool(tool), parameters: tool.parameters }));
}
