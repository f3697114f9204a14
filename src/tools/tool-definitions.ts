import type { Provider } from "../providers/registry.ts";
import type { RunnableTool } from "./runnable-tool.ts";

/**
 * The tools as a provider's request lists them, built from the handlers' `description` and
 * `parameters`: OpenAI Chat `{type: "function", function}`, Responses `{type: "function", name, ...}`,
 * Anthropic `{name, description, input_schema}`, Gemini one `{functionDeclarations}` entry,
 * Bedrock Converse `{toolSpec: {name, description, inputSchema: {json}}}` (the `tools` of its
 * `toolConfig`), Cohere v2 and Ollama the Chat Completions shape.
 *
 * @example
 * ```ts
 * const body = { model, stream: true, messages, tools: toolDefinitions("openai", tools) };
 * ```
 */
export function toolDefinitions(provider: Provider, tools: Readonly<Record<string, RunnableTool>>): Record<string, unknown>[] {
  const entries = Object.entries(tools).map(([name, tool]) => ({
    name,
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    parameters: tool.parameters ?? { type: "object", properties: {} },
  }));
  if (provider === "anthropic") return entries.map(({ parameters, ...rest }) => ({ ...rest, input_schema: parameters }));
  if (provider === "gemini") return entries.length > 0 ? [{ functionDeclarations: entries }] : [];
  if (provider === "bedrock") return entries.map(({ parameters, ...rest }) => ({ toolSpec: { ...rest, inputSchema: { json: parameters } } }));
  if (provider === "openai-responses") return entries.map((entry) => ({ type: "function", ...entry }));
  return entries.map((entry) => ({ type: "function", function: entry }));
}
