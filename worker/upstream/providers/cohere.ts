import { invalidField } from "../../response/json-error.ts";
import { cohereRecordings } from "../replay/recordings/cohere.ts";
import type { JsonObject, Message, StreamRequest, ToolDefinition } from "../../request/stream-request.ts";
import type { ProviderHttpRequest, ProviderTarget, UpstreamProvider } from "./upstream-provider.ts";

/** Cohere's v2 Chat API (`POST /v2/chat`), streaming SSE with `event:` names. */
export const cohere: UpstreamProvider<"cohere"> = {
  protocol: "cohere",
  keyVar: "COHERE_API_KEY",
  baseUrlVar: "COHERE_BASE_URL",
  defaultBaseUrl: "https://api.cohere.com/v2",
  buildRequest: buildCohereRequest,
  recordings: cohereRecordings,
};

/** The streaming `POST /chat` request. */
export function buildCohereRequest(request: StreamRequest, target: ProviderTarget): ProviderHttpRequest {
  const body: JsonObject = {
    model: request.model,
    messages: request.messages.map((message, i) => toCohereMessage(message, `messages[${i}]`)),
    stream: true,
  };
  // Cohere's tool_choice is only REQUIRED or NONE: a named tool is required by offering it alone
  // (so the model must call that one), and auto is the default, sent as no tool_choice.
  const tools =
    request.toolChoice?.type === "tool"
      ? request.tools.filter((tool) => tool.name === choiceName(request))
      : request.tools;
  if (tools.length > 0) body["tools"] = tools.map(toCohereTool);
  if (request.toolChoice?.type === "none") body["tool_choice"] = "NONE";
  else if (request.toolChoice?.type === "required" || request.toolChoice?.type === "tool")
    body["tool_choice"] = "REQUIRED";
  if (request.maxTokens !== undefined) body["max_tokens"] = request.maxTokens;
  if (request.temperature !== undefined) body["temperature"] = request.temperature;
  return {
    url: `${target.baseUrl}/chat`,
    headers: {
      authorization: `Bearer ${target.apiKey}`,
      "content-type": "application/json",
      accept: "text/event-stream",
    },
    body,
  };
}

function choiceName(request: StreamRequest): string | undefined {
  return request.toolChoice?.type === "tool" ? request.toolChoice.name : undefined;
}

function toCohereTool({ name, description, parameters }: ToolDefinition): JsonObject {
  return {
    type: "function",
    function: description === undefined ? { name, parameters } : { name, description, parameters },
  };
}

/** Roles map one to one; earlier calls carry their arguments as JSON text, results a `tool_call_id`. */
function toCohereMessage(message: Message, path: string): JsonObject {
  switch (message.role) {
    case "system":
    case "user":
      return { role: message.role, content: message.content };
    case "assistant": {
      if (message.toolCalls.length === 0) return { role: "assistant", content: message.content };
      // Cohere's own turns with calls have no content: what the model said before its calls is
      // its `tool_plan`, and an assistant message with both content and calls is not sent.
      const out: JsonObject = { role: "assistant" };
      if (message.content !== "") out["tool_plan"] = message.content;
      out["tool_calls"] = message.toolCalls.map((call, i) => {
        if (call.id === null)
          throw invalidField(`${path}.tool_calls[${i}].id`, "This provider needs the id of every earlier tool call.");
        return {
          id: call.id,
          type: "function",
          function: { name: call.name, arguments: JSON.stringify(call.arguments) },
        };
      });
      return out;
    }
    case "tool":
      if (message.toolCallId === undefined)
        throw invalidField(`${path}.tool_call_id`, "This provider needs `tool_call_id` on tool messages.");
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
  }
}
