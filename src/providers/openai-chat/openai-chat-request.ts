import {
  callId,
  resultId,
  type Fields,
  type ProviderRequest,
  type RequestMessage,
  type RequestToolChoice,
} from "../request.ts";
import { chatToolCall, reasoningFields } from "./openai-chat-messages.ts";
import { openAIChatToolDefinitions } from "./openai-chat-tools.ts";

/**
 * The body of a streaming `POST /chat/completions` request, with usage requested. The longest
 * answer goes in `max_tokens`, which compatible servers know; OpenAI's own reasoning models refuse
 * it and take only `max_completion_tokens` (rename the field for `api.openai.com`).
 *
 * @example
 * ```ts
 * const body = openAIChatRequestBody({ model: "gpt-4.1", messages: [{ role: "user", content: "Hi" }], tools: [] });
 * ```
 */
export function openAIChatRequestBody(request: ProviderRequest): Fields {
  const body: Fields = {
    model: request.model,
    messages: request.messages.map((message, i) => toChatMessage(message, `messages[${i}]`)),
    stream: true,
    // Without it the stream carries no usage.
    stream_options: { include_usage: true },
  };
  if (request.tools.length > 0) body["tools"] = openAIChatToolDefinitions(request.tools);
  if (request.toolChoice) body["tool_choice"] = toolChoice(request.toolChoice);
  if (request.maxTokens !== undefined) body["max_tokens"] = request.maxTokens;
  if (request.temperature !== undefined) body["temperature"] = request.temperature;
  // Only an effort the client set: Chat has no "the model decides" mode, and a model that does not
  // reason refuses the field.
  if (request.reasoning?.type === "on") body["reasoning_effort"] = request.reasoning.effort;
  return body;
}

function toChatMessage(message: RequestMessage, path: string): Fields {
  switch (message.role) {
    case "system":
    case "user":
      return { role: message.role, content: message.content };
    case "assistant": {
      // A thinking model's reasoning goes back in the field it streamed in (DeepSeek refuses a tool
      // loop without its `reasoning_content`); a server that streamed none is sent none.
      const out: Fields = {
        role: "assistant",
        content: message.content === "" ? null : message.content,
        ...reasoningFields(message.reasoningParts),
      };
      if (message.toolCalls.length > 0) {
        out["tool_calls"] = message.toolCalls.map((call, i) =>
          chatToolCall(
            callId(call, `${path}.tool_calls[${i}]`),
            call.name,
            JSON.stringify(call.arguments),
            call.providerMetadata,
          ),
        );
      }
      return out;
    }
    case "tool":
      return { role: "tool", tool_call_id: resultId(message, path), content: message.content };
  }
}

function toolChoice(choice: RequestToolChoice): Fields | string {
  return choice.type === "tool" ? { type: "function", function: { name: choice.name } } : choice.type;
}
