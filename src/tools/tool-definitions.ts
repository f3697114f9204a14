import type { ToolDefinition } from "../schema/tool-schema.ts";
import { isStandardSchema, standardJsonSchema } from "../schema/standard-schema.ts";
import type { ToolEntry } from "../providers/tool-entry.ts";
import { providerKit, type Provider } from "../providers/registry.ts";
import type { RunnableTool } from "./runnable-tool.ts";
import { parametersOf } from "./tool-outcome.ts";

/** The parameters of a tool that gives none: any object (a new one each time: the caller may change it). */
const anyObject = (): Record<string, unknown> => ({ type: "object", properties: {} });

/**
 * The tools as a provider's request lists them: OpenAI Chat `{type: "function", function}`,
 * Responses `{type: "function", name, ...}`, Anthropic `{name, description, input_schema}`,
 * Gemini one `{functionDeclarations}` entry, Bedrock Converse `{toolSpec: {name, description,
 * inputSchema: {json}}}` (the `tools` of its `toolConfig`), Cohere v2 and Ollama the Chat
 * Completions shape. From the handlers of a runner or loop (their
 * `description`, and `parameters` or else the JSON Schema of their `schema` validator), or from
 * a list of definitions (`{ name, description?, schema }` with a validator, or any provider's
 * shape), as `streamToolCalls` takes them. For Gemini, a validator's JSON Schema goes in
 * `parametersJsonSchema` (full JSON Schema), since `parameters` takes only an OpenAPI subset.
 *
 * @example
 * ```ts
 * const body = { model, stream: true, messages, tools: toolDefinitions("openai", tools) };
 * ```
 *
 * @example The same validators type the calls of the stream
 * ```ts
 * const tools = [{ name: "get_weather", description: "The weather in a city.", schema: z.object({ city: z.string() }) }] as const;
 * const response = await fetch(url, { method: "POST", headers, body: JSON.stringify({ model, stream: true, messages, tools: toolDefinitions("openai", tools) }) });
 * for await (const event of streamToolCalls(response, { provider: "openai", tools })) if (event.type === "tool-call") console.log(event.arguments.city);
 * ```
 */
export function toolDefinitions(
  provider: Provider,
  tools: Readonly<Record<string, RunnableTool>> | readonly ToolDefinition[],
): Record<string, unknown>[] {
  const entries: ToolEntry[] = isList(tools)
    ? tools.map(fromDefinition)
    : Object.entries(tools).map(([name, tool]) => ({
        name,
        ...(tool.description !== undefined ? { description: tool.description } : {}),
        parameters: parametersOf(tool) ?? anyObject(),
        // A validator's JSON Schema (draft-07), not a schema written for the provider.
        ...(tool.parameters === undefined && tool.schema && standardJsonSchema(tool.schema)
          ? { jsonSchema: true }
          : {}),
      }));
  return providerKit(provider).toolDefinitions(entries);
}

function isList(
  tools: Readonly<Record<string, RunnableTool>> | readonly ToolDefinition[],
): tools is readonly ToolDefinition[] {
  return Array.isArray(tools);
}

/** A definition in any shape, as the entry every provider's shape is made from. */
function fromDefinition(tool: ToolDefinition): ToolEntry {
  const source = ("function" in tool ? tool.function : tool) as {
    name: string;
    description?: unknown;
    parameters?: unknown;
    input_schema?: unknown;
    schema?: unknown;
  };
  const validator = isStandardSchema(source.schema) ? standardJsonSchema(source.schema) : undefined;
  const parameters =
    validator ?? (isStandardSchema(source.schema) ? undefined : (source.parameters ?? source.input_schema));
  return {
    name: source.name,
    ...(typeof source.description === "string" ? { description: source.description } : {}),
    parameters: (parameters as Record<string, unknown> | undefined) ?? anyObject(),
    ...(validator ? { jsonSchema: true } : {}),
  };
}
