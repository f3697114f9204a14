import { invalidField } from "../../response/json-error.ts";
import { openaiResponsesRecordings } from "../replay/recordings/openai-responses.ts";
import type { JsonObject, Message, StreamRequest, ToolChoice } from "../../request/stream-request.ts";
import type { ProviderHttpRequest, ProviderTarget, UpstreamProvider } from "./upstream-provider.ts";

/** The OpenAI Responses API (`POST /responses`), at `OPENAI_BASE_URL` with `OPENAI_API_KEY`. */
export const openaiResponses: UpstreamProvider<"openai-responses"> = {
  protocol: "openai-responses",
  keyVar: "OPENAI_API_KEY",
  baseUrlVar: "OPENAI_BASE_URL",
  defaultBaseUrl: "https://api.openai.com/v1",
  buildRequest: buildOpenAIResponsesRequest,
  recordings: openaiResponsesRecordings,
};

/** The streaming `POST /responses` request. */
export function buildOpenAIResponsesRequest(request: StreamRequest, target: ProviderTarget): ProviderHttpRequest {
  const body: JsonObject = {
    model: request.model,
    input: request.messages.flatMap((message, i) => toInputItems(message, `messages[${i}]`)),
    stream: true,
  };
  if (request.tools.length > 0) {
    // Responses makes function tools strict by default, which rejects most hand-written schemas.
    body["tools"] = request.tools.map((tool) => ({ type: "function", ...tool, strict: false }));
  }
  if (request.toolChoice) body["tool_choice"] = toolChoice(request.toolChoice);
  if (request.maxTokens !== undefined) body["max_output_tokens"] = request.maxTokens;
  if (request.temperature !== undefined) body["temperature"] = request.temperature;
  return {
    url: `${target.baseUrl}/responses`,
    headers: {
      authorization: `Bearer ${target.apiKey}`,
      "content-type": "application/json",
      accept: "text/event-stream",
    },
    body,
  };
}

/** A conversation turn becomes input items: messages, `function_call` and `function_call_output`. */
function toInputItems(message: Message, path: string): JsonObject[] {
  switch (message.role) {
    case "system":
    case "user":
      return [{ role: message.role, content: message.content }];
    case "assistant": {
      const items: JsonObject[] = message.content === "" ? [] : [{ role: "assistant", content: message.content }];
      message.toolCalls.forEach((call, i) => {
        if (call.id === null)
          throw invalidField(`${path}.tool_calls[${i}].id`, "This provider needs the id of every earlier tool call.");
        items.push({
          type: "function_call",
          call_id: call.id,
          name: call.name,
          arguments: JSON.stringify(call.arguments),
        });
      });
      return items;
    }
    case "tool":
      if (message.toolCallId === undefined)
        throw invalidField(`${path}.tool_call_id`, "This provider needs `tool_call_id` on tool messages.");
      return [{ type: "function_call_output", call_id: message.toolCallId, output: message.content }];
  }
}

function toolChoice(choice: ToolChoice): JsonObject | string {
  return choice.type === "tool" ? { type: "function", name: choice.name } : choice.type;
}
