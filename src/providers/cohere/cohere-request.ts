import { callId, resultId, type Fields, type ProviderRequest, type RequestMessage } from "../request.ts";
import { reasoningBudget } from "../reasoning.ts";
import { cohereToolDefinitions } from "./cohere-tools.ts";

/**
 * The body of a streaming v2 `POST /chat` request.
 *
 * @example
 * ```ts
 * const body = cohereRequestBody({ model: "command-a-03-2025", messages: [{ role: "user", content: "Hi" }], tools: [] });
 * ```
 */
export function cohereRequestBody(request: ProviderRequest): Fields {
  const body: Fields = {
    model: request.model,
    messages: request.messages.map((message, i) => toCohereMessage(message, `messages[${i}]`)),
    stream: true,
  };
  // Cohere's tool_choice is only REQUIRED or NONE: a named tool is required by offering it alone
  // (so the model must call that one), and auto is the default, sent as no tool_choice.
  const choice = request.toolChoice;
  const tools = choice?.type === "tool" ? request.tools.filter((tool) => tool.name === choice.name) : request.tools;
  if (tools.length > 0) body["tools"] = cohereToolDefinitions(tools);
  if (choice?.type === "none") body["tool_choice"] = "NONE";
  else if (choice?.type === "required" || choice?.type === "tool") body["tool_choice"] = "REQUIRED";
  if (request.maxTokens !== undefined) body["max_tokens"] = request.maxTokens;
  if (request.temperature !== undefined) body["temperature"] = request.temperature;
  // Cohere's reasoning models reason by default; a budget bounds it.
  if (request.reasoning?.type === "on")
    body["thinking"] = { type: "enabled", token_budget: reasoningBudget(request.reasoning) };
  return body;
}

/** Roles map one to one; earlier calls carry their arguments as JSON text, results a `tool_call_id`. */
function toCohereMessage(message: RequestMessage, path: string): Fields {
  switch (message.role) {
    case "system":
    case "user":
      return { role: message.role, content: message.content };
    case "assistant": {
      if (message.toolCalls.length === 0) return { role: "assistant", content: message.content };
      // Cohere's own turns with calls have no content: what the model said before its calls is
      // its `tool_plan`, and an assistant message with both content and calls is not sent.
      const out: Fields = { role: "assistant" };
      if (message.content !== "") out["tool_plan"] = message.content;
      out["tool_calls"] = message.toolCalls.map((call, i) => ({
        id: callId(call, `${path}.tool_calls[${i}]`),
        type: "function",
        function: { name: call.name, arguments: JSON.stringify(call.arguments) },
      }));
      return out;
    }
    case "tool":
      return { role: "tool", tool_call_id: resultId(message, path), content: message.content };
  }
}
