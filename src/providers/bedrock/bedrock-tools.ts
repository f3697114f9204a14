import { namedTool, type ToolEntry } from "../tool-entry.ts";

/**
 * The tools as a request to Bedrock Converse: `{ toolSpec: { name, description, inputSchema: { json } } }`, the `tools` of its `toolConfig`.
 *
 * @example
 * ```ts
 * const tools = bedrockToolDefinitions([{ name: "get_weather", description: "The weather in a city.", parameters: { type: "object" } }]);
 * ```
 */
export function bedrockToolDefinitions(tools: readonly ToolEntry[]): Record<string, unknown>[] {
  return tools.map((tool) => ({ toolSpec: { ...namedTool(tool), inputSchema: { json: tool.parameters } } }));
}
