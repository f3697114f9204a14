import { fileKind, fileRefused, filesAfterResults, hasFiles } from "../media.ts";
import {
  clientCall,
  asObject,
  requestError,
  type Fields,
  type ProviderRequest,
  type RequestMessage,
  type RequestToolCall,
} from "../request.ts";
import type { RequestReasoning } from "../reasoning.ts";
import { ollamaToolDefinitions } from "./ollama-tools.ts";

/**
 * The body of a streaming `POST /api/chat` request (NDJSON answers). Ollama cannot be made to
 * call a tool: a `required` or named tool choice is an `invalid-request`.
 *
 * @example
 * ```ts
 * const body = ollamaRequestBody({ model: "qwen3", messages: [{ role: "user", content: "Hi" }], tools: [] });
 * ```
 */
export function ollamaRequestBody(request: ProviderRequest): Fields {
  const choice = request.toolChoice?.type;
  if (choice === "required" || choice === "tool")
    throw requestError("tool_choice", 'Ollama cannot be made to call a tool; use "auto" or "none".');
  const body: Fields = { model: request.model, messages: toOllamaMessages(request.messages), stream: true };
  // Without a tool_choice in the API, "none" offers no tools.
  if (request.tools.length > 0 && choice !== "none") body["tools"] = ollamaToolDefinitions(request.tools);
  const options: Fields = {};
  if (request.maxTokens !== undefined) options["num_predict"] = request.maxTokens;
  if (request.temperature !== undefined) options["temperature"] = request.temperature;
  if (Object.keys(options).length > 0) body["options"] = options;
  if (request.reasoning !== undefined && request.reasoning.type !== "adaptive")
    body["think"] = think(request.model, request.reasoning);
  return body;
}

/** Results name their tool (`tool_name`): from the message, else from the earlier call of that id. */
function toOllamaMessages(messages: readonly RequestMessage[]): Fields[] {
  const namesById = new Map<string, string>();
  // A tool result's images follow the results in a user message.
  const moved = filesAfterResults(messages);
  return moved.messages.map((message, i): Fields => {
    switch (message.role) {
      case "system":
        return { role: message.role, content: message.content };
      case "user":
        return hasFiles(message)
          ? withImages(message, moved.pathOf(i))
          : { role: message.role, content: message.content };
      case "assistant": {
        for (const call of message.toolCalls) if (call.id !== null) namesById.set(call.id, call.name);
        const out: Fields = { role: "assistant", content: message.content };
        // A thinking model (gpt-oss, qwen3) reads its own earlier reasoning back, as Ollama's chat template renders it.
        if (message.reasoning) out["thinking"] = message.reasoning;
        // A call another provider ran itself is no call of Ollama's: left out.
        const calls = message.toolCalls.flatMap(clientCall(toOllamaCall));
        if (calls.length > 0) out["tool_calls"] = calls;
        return out;
      }
      case "tool": {
        const name = message.name ?? (message.toolCallId === undefined ? undefined : namesById.get(message.toolCallId));
        if (name === undefined)
          throw requestError(`${moved.pathOf(i)}.name`, "Ollama needs the `name` of the tool a result is for.");
        const out: Fields = { role: "tool", content: message.content, tool_name: name };
        if (message.toolCallId !== undefined) out["tool_call_id"] = message.toolCallId;
        return out;
      }
    }
  });
}

/** Arguments go back as an object, as Ollama sent them; the id only when the call had one. */
function toOllamaCall(call: RequestToolCall): Fields {
  const fn: Fields = { name: call.name, arguments: asObject(call.arguments) };
  return call.id === null ? { function: fn } : { id: call.id, function: fn };
}

/**
 * `think`: on or off, or for gpt-oss (which reasons at a level and ignores `true`) its level,
 * `low`, `medium` or `high`.
 */
function think(model: string, reasoning: Exclude<RequestReasoning, { type: "adaptive" }>): boolean | string {
  if (reasoning.type === "off") return false;
  if (!model.includes("gpt-oss")) return true;
  if (reasoning.effort === "minimal" || reasoning.effort === "low") return "low";
  return reasoning.effort === "medium" ? "medium" : "high";
}

/** A user message with files: its text as `content`, its images as base64 in `images`; Ollama takes no other file, and no URL. */
function withImages(message: Extract<RequestMessage, { role: "user" }>, path: string): Fields {
  const text: string[] = [];
  const images: string[] = [];
  (message.parts ?? []).forEach((part, j) => {
    if (part.type === "text") return text.push(part.text);
    const at = `${path}.parts[${j}]`;
    if (fileKind(part) !== "image") throw fileRefused("Ollama", at, "it takes images only");
    if (part.source.type === "url") throw fileRefused("Ollama", at, "it takes images as base64 only");
    return images.push(part.source.data);
  });
  return { role: "user", content: text.join("\n"), images };
}
