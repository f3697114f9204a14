import { namedTool, type ToolEntry } from "../tool-entry.ts";

/**
 * The tools as a request to Gemini: one `{ functionDeclarations }` entry (none without tools).
 *
 * @example
 * ```ts
 * const tools = geminiToolDefinitions([{ name: "get_weather", description: "The weather in a city.", parameters: { type: "object" } }]);
 * ```
 */
export function geminiToolDefinitions(tools: readonly ToolEntry[]): Record<string, unknown>[] {
  const functionDeclarations = tools.map((tool) => ({
    ...namedTool(tool),
    // `parametersJsonSchema` takes JSON Schema as written; `parameters` takes only an OpenAPI subset.
    [tool.jsonSchema ? "parametersJsonSchema" : "parameters"]: tool.parameters,
  }));
  return functionDeclarations.length > 0 ? [{ functionDeclarations }] : [];
}
