import { invalidField } from "../../response/json-error.ts";
import { anthropicRecordings } from "../replay/recordings/anthropic.ts";
import type { JsonObject, Message, StreamRequest, ToolChoice } from "../../request/stream-request.ts";
import { asObject, toTurns } from "./conversation.ts";
import type { ProviderHttpRequest, ProviderTarget, UpstreamProvider } from "./upstream-provider.ts";

/** The Messages API requires `max_tokens`; this is used when the client sends none. */
const DEFAULT_MAX_TOKENS = 4096;

/** The Anthropic Messages API (`POST /v1/messages`). */
export const anthropic: UpstreamProvider<"anthropic"> = {
  protocol: "anthropic",
  keyVar: "ANTHROPIC_API_KEY",
  baseUrlVar: "ANTHROPIC_BASE_URL",
  defaultBaseUrl: "https://api.anthropic.com/v1",
  buildRequest: buildAnthropicRequest,
  recordings: anthropicRecordings,
};

/** The streaming Messages request. */
export function buildAnthropicRequest(request: StreamRequest, target: ProviderTarget): ProviderHttpRequest {
  const system = request.messages.flatMap((m) => (m.role === "system" ? [m.content] : [])).join("\n\n");
  const body: JsonObject = {
    model: request.model,
    max_tokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
    messages: toTurns(request.messages, toBlocks).map((turn) => ({ role: turn.role, content: turn.content })),
    stream: true,
  };
  if (system !== "") body["system"] = system;
  if (request.tools.length > 0) {
    body["tools"] = request.tools.map(({ name, description, parameters }) =>
      description === undefined ? { name, input_schema: parameters } : { name, description, input_schema: parameters },
    );
  }
  if (request.toolChoice) body["tool_choice"] = toolChoice(request.toolChoice);
  if (request.temperature !== undefined) {
    if (request.temperature > 1) throw invalidField("temperature", "Anthropic accepts a temperature from 0 to 1.");
    body["temperature"] = request.temperature;
  }
  return {
    url: `${target.baseUrl}/messages`,
    headers: {
      "x-api-key": target.apiKey,
      "anthropic-version": "2023-06-01",
      "content-type": "application/json",
      accept: "text/event-stream",
    },
    body,
  };
}

/** A message's content blocks; tool results travel in the user's turn as `tool_result` blocks. */
function toBlocks(message: Exclude<Message, { role: "system" }>, path: string): JsonObject[] {
  // The API refuses empty text blocks.
  const text: JsonObject[] =
    message.content === "" || message.role === "tool" ? [] : [{ type: "text", text: message.content }];
  if (message.role === "user") return text;
  if (message.role === "tool") {
    if (message.toolCallId === undefined)
      throw invalidField(`${path}.tool_call_id`, "This provider needs `tool_call_id` on tool messages.");
    return [{ type: "tool_result", tool_use_id: message.toolCallId, content: message.content }];
  }
  return [
    ...text,
    ...message.toolCalls.map((call, j): JsonObject => {
      if (call.id === null)
        throw invalidField(`${path}.tool_calls[${j}].id`, "This provider needs the id of every earlier tool call.");
      return { type: "tool_use", id: call.id, name: call.name, input: asObject(call.arguments) };
    }),
  ];
}

function toolChoice(choice: ToolChoice): JsonObject {
  if (choice.type === "required") return { type: "any" };
  return choice.type === "tool" ? { type: "tool", name: choice.name } : { type: choice.type };
}
