import { namedTool, type ToolEntry } from "../tool-entry.ts";

/**
 * The tools as a request to Gemini's Interactions API: `{ type: "function", name, description,
 * parameters }`, flat, with the parameters as JSON Schema.
 *
 * @example
 * ```ts
 * const tools = geminiInteractionsToolDefinitions([{ name: "get_weather", description: "The weather in a city.", parameters: { type: "object" } }]);
 * ```
 */
export function geminiInteractionsToolDefinitions(tools: readonly ToolEntry[]): Record<string, unknown>[] {
  return tools.map((tool) => ({ type: "function", ...namedTool(tool), parameters: tool.parameters }));
}
