import { invalidField } from "../../response/json-error.ts";
import { openaiRecordings } from "../replay/recordings/openai.ts";
import type { JsonObject, Message, StreamRequest, ToolChoice } from "../../request/stream-request.ts";
import type { ProviderHttpRequest, ProviderTarget, UpstreamProvider } from "./upstream-provider.ts";

/**
 * OpenAI Chat Completions, and every server that speaks it (set `OPENAI_BASE_URL` to Groq,
 * DeepSeek, Mistral, OpenRouter, a vLLM or Ollama server, ...).
 */
export const openaiChat: UpstreamProvider<"openai"> = {
  protocol: "openai",
  keyVar: "OPENAI_API_KEY",
  baseUrlVar: "OPENAI_BASE_URL",
  defaultBaseUrl: "https://api.openai.com/v1",
  buildRequest: buildOpenAIChatRequest,
  recordings: openaiRecordings,
};

/** The `POST /chat/completions` streaming request. */
export function buildOpenAIChatRequest(request: StreamRequest, target: ProviderTarget): ProviderHttpRequest {
  const body: JsonObject = {
    model: request.model,
    messages: request.messages.map((message, i) => toChatMessage(message, `messages[${i}]`)),
    stream: true,
    // Without it the stream carries no usage.
    stream_options: { include_usage: true },
  };
  if (request.tools.length > 0) {
    body["tools"] = request.tools.map((tool) => ({ type: "function", function: { ...tool } }));
  }
  if (request.toolChoice) body["tool_choice"] = toolChoice(request.toolChoice);
  // OpenAI's reasoning models refuse `max_tokens`; compatible servers mostly know only it.
  if (request.maxTokens !== undefined)
    body[isOpenAI(target.baseUrl) ? "max_completion_tokens" : "max_tokens"] = request.maxTokens;
  if (request.temperature !== undefined) body["temperature"] = request.temperature;
  return {
    url: `${target.baseUrl}/chat/completions`,
    headers: {
      authorization: `Bearer ${target.apiKey}`,
      "content-type": "application/json",
      accept: "text/event-stream",
    },
    body,
  };
}

function toChatMessage(message: Message, path: string): JsonObject {
  switch (message.role) {
    case "system":
    case "user":
      return { role: message.role, content: message.content };
    case "assistant": {
      const out: JsonObject = { role: "assistant", content: message.content === "" ? null : message.content };
      if (message.toolCalls.length > 0) {
        out["tool_calls"] = message.toolCalls.map((call, i) => {
          if (call.id === null)
            throw invalidField(`${path}.tool_calls[${i}].id`, "This provider needs the id of every earlier tool call.");
          const wire: JsonObject = {
            id: call.id,
            type: "function",
            function: { name: call.name, arguments: JSON.stringify(call.arguments) },
          };
          // Gemini's OpenAI endpoint needs its thought signature back on the call.
          const extra = call.providerMetadata?.["extra_content"];
          if (extra !== undefined) wire["extra_content"] = extra;
          return wire;
        });
      }
      return out;
    }
    case "tool":
      if (message.toolCallId === undefined)
        throw invalidField(`${path}.tool_call_id`, "This provider needs `tool_call_id` on tool messages.");
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
  }
}

function toolChoice(choice: ToolChoice): JsonObject | string {
  return choice.type === "tool" ? { type: "function", function: { name: choice.name } } : choice.type;
}

function isOpenAI(baseUrl: string): boolean {
  return new URL(baseUrl).hostname === "api.openai.com";
}
