import { nonEmpty, type Env } from "../../env.ts";
import { invalidField } from "../../response/json-error.ts";
import { ollamaRecordings } from "../replay/recordings/ollama.ts";
import type {
  AssistantToolCall,
  JsonObject,
  Message,
  StreamRequest,
  ToolDefinition,
} from "../../request/stream-request.ts";
import { asObject } from "./conversation.ts";
import type {
  ProviderCredentials,
  ProviderHttpRequest,
  ProviderTarget,
  UpstreamProvider,
} from "./upstream-provider.ts";

/**
 * Ollama's native chat API (`POST /api/chat`), streaming NDJSON. Ollama takes no key: setting
 * `OLLAMA_BASE_URL` is what makes the Worker call it (`OLLAMA_API_KEY` adds a bearer token, for
 * a server behind authentication); unset, the replay answers.
 */
export const ollama: UpstreamProvider<"ollama"> = {
  protocol: "ollama",
  keyVar: "OLLAMA_API_KEY",
  baseUrlVar: "OLLAMA_BASE_URL",
  defaultBaseUrl: "http://localhost:11434",
  credentials: ollamaCredentials,
  buildRequest: buildOllamaRequest,
  recordings: ollamaRecordings,
};

/** Configured when `OLLAMA_BASE_URL` is set, with the optional key. */
export function ollamaCredentials(env: Env): ProviderCredentials | undefined {
  if (nonEmpty(env.OLLAMA_BASE_URL) === undefined) return undefined;
  return { apiKey: nonEmpty(env.OLLAMA_API_KEY) ?? "" };
}

/** The streaming `POST /api/chat` request. */
export function buildOllamaRequest(request: StreamRequest, target: ProviderTarget): ProviderHttpRequest {
  const choice = request.toolChoice?.type;
  if (choice === "required" || choice === "tool") {
    throw invalidField("tool_choice", 'Ollama cannot be made to call a tool; use "auto" or "none".');
  }
  const body: JsonObject = { model: request.model, messages: toOllamaMessages(request.messages), stream: true };
  // Without a tool_choice in the API, "none" offers no tools.
  if (request.tools.length > 0 && choice !== "none") body["tools"] = request.tools.map(toOllamaTool);
  const options: JsonObject = {};
  if (request.maxTokens !== undefined) options["num_predict"] = request.maxTokens;
  if (request.temperature !== undefined) options["temperature"] = request.temperature;
  if (Object.keys(options).length > 0) body["options"] = options;
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/x-ndjson" };
  if (target.apiKey !== "") headers["authorization"] = `Bearer ${target.apiKey}`;
  return { url: `${target.baseUrl}/api/chat`, headers, body, responseType: "application/x-ndjson" };
}

function toOllamaTool({ name, description, parameters }: ToolDefinition): JsonObject {
  return {
    type: "function",
    function: description === undefined ? { name, parameters } : { name, description, parameters },
  };
}

/** Results name their tool (`tool_name`): from the message, else from the earlier call of that id. */
function toOllamaMessages(messages: readonly Message[]): JsonObject[] {
  const namesById = new Map<string, string>();
  return messages.map((message, i): JsonObject => {
    switch (message.role) {
      case "system":
      case "user":
        return { role: message.role, content: message.content };
      case "assistant": {
        for (const call of message.toolCalls) if (call.id !== null) namesById.set(call.id, call.name);
        const out: JsonObject = { role: "assistant", content: message.content };
        if (message.toolCalls.length > 0) out["tool_calls"] = message.toolCalls.map(toOllamaCall);
        return out;
      }
      case "tool": {
        const name = message.name ?? (message.toolCallId === undefined ? undefined : namesById.get(message.toolCallId));
        if (name === undefined)
          throw invalidField(`messages[${i}].name`, "Ollama needs the `name` of the tool a result is for.");
        const out: JsonObject = { role: "tool", content: message.content, tool_name: name };
        if (message.toolCallId !== undefined) out["tool_call_id"] = message.toolCallId;
        return out;
      }
    }
  });
}

/** Arguments go back as an object, as Ollama sent them; the id only when the call had one. */
function toOllamaCall(call: AssistantToolCall): JsonObject {
  const fn: JsonObject = { name: call.name, arguments: asObject(call.arguments) };
  return call.id === null ? { function: fn } : { id: call.id, function: fn };
}
