import {
  callId,
  resultId,
  type Fields,
  type ProviderRequest,
  type RequestMessage,
  type RequestToolChoice,
} from "../request.ts";
import type { ReasoningPart } from "../../shared/deltas.ts";
import { openAIResponsesToolDefinitions } from "./openai-responses-tools.ts";

/**
 * The body of a streaming `POST /responses` request: the conversation as input items (messages,
 * `function_call` and `function_call_output`).
 *
 * @example
 * ```ts
 * const body = openAIResponsesRequestBody({ model: "gpt-5", messages: [{ role: "user", content: "Hi" }], tools: [] });
 * ```
 */
export function openAIResponsesRequestBody(request: ProviderRequest): Fields {
  const body: Fields = {
    model: request.model,
    input: request.messages.flatMap((message, i) => toInputItems(message, `messages[${i}]`)),
    stream: true,
  };
  if (request.tools.length > 0) {
    // Responses makes function tools strict by default, which rejects most hand-written schemas.
    body["tools"] = openAIResponsesToolDefinitions(request.tools).map((tool) => ({ ...tool, strict: false }));
  }
  if (request.toolChoice) body["tool_choice"] = toolChoice(request.toolChoice);
  if (request.maxTokens !== undefined) body["max_output_tokens"] = request.maxTokens;
  if (request.temperature !== undefined) body["temperature"] = request.temperature;
  if (request.store !== undefined) body["store"] = request.store;
  if (request.reasoning?.type === "on") {
    const { effort, summary } = request.reasoning;
    body["reasoning"] = summary === undefined ? { effort } : { effort, summary };
    // The reasoning items come back with their encrypted content, which the next turn can carry
    // back whether or not the provider stored the response.
    body["include"] = ["reasoning.encrypted_content"];
  }
  return body;
}

function toInputItems(message: RequestMessage, path: string): Fields[] {
  switch (message.role) {
    case "system":
    case "user":
      return [{ role: message.role, content: message.content }];
    case "assistant": {
      // Reasoning items go back before what they reasoned for, and only with it: an item with
      // nothing after it is refused.
      const said = message.content !== "" || message.toolCalls.length > 0;
      const items: Fields[] = said ? reasoningItems(message.reasoningParts) : [];
      if (message.content !== "") items.push({ role: "assistant", content: message.content });
      message.toolCalls.forEach((call, i) => {
        items.push({
          type: "function_call",
          call_id: callId(call, `${path}.tool_calls[${i}]`),
          name: call.name,
          arguments: JSON.stringify(call.arguments),
        });
      });
      return items;
    }
    case "tool":
      return [{ type: "function_call_output", call_id: resultId(message, path), output: message.content }];
  }
}

/**
 * The turn's reasoning items with their encrypted content, which a reasoning model uses across a
 * tool loop whether or not its response was stored; other providers' reasoning is not OpenAI's to take.
 */
function reasoningItems(parts: readonly ReasoningPart[] | undefined): Fields[] {
  return (parts ?? []).flatMap((part): Fields[] =>
    part.type === "item" && part.encryptedContent !== undefined
      ? [{ type: "reasoning", id: part.id, summary: part.summary ?? [], encrypted_content: part.encryptedContent }]
      : [],
  );
}

function toolChoice(choice: RequestToolChoice): Fields | string {
  return choice.type === "tool" ? { type: "function", name: choice.name } : choice.type;
}
