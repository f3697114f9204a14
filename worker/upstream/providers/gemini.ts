import { invalidField } from "../../response/json-error.ts";
import { geminiRecordings } from "../replay/recordings/gemini.ts";
import type {
  AssistantToolCall,
  JsonObject,
  Message,
  StreamRequest,
  ToolChoice,
} from "../../request/stream-request.ts";
import { asObject, toTurns } from "./conversation.ts";
import type { ProviderHttpRequest, ProviderTarget, UpstreamProvider } from "./upstream-provider.ts";

/** The Gemini API (`models/{model}:streamGenerateContent?alt=sse`). */
export const gemini: UpstreamProvider<"gemini"> = {
  protocol: "gemini",
  keyVar: "GEMINI_API_KEY",
  baseUrlVar: "GEMINI_BASE_URL",
  defaultBaseUrl: "https://generativelanguage.googleapis.com/v1beta",
  buildRequest: buildGeminiRequest,
  recordings: geminiRecordings,
};

interface Content {
  role: "user" | "model";
  parts: JsonObject[];
}

/** The streaming `streamGenerateContent` request; `alt=sse` makes the body Server-Sent Events. */
export function buildGeminiRequest(request: StreamRequest, target: ProviderTarget): ProviderHttpRequest {
  const system = request.messages.flatMap((m) => (m.role === "system" ? [m.content] : [])).join("\n\n");
  const body: JsonObject = { contents: toContents(request.messages).map((c) => ({ role: c.role, parts: c.parts })) };
  if (system !== "") body["systemInstruction"] = { parts: [{ text: system }] };
  if (request.tools.length > 0) {
    // `parametersJsonSchema` takes JSON Schema as written; `parameters` takes only an OpenAPI subset.
    const functionDeclarations = request.tools.map(({ name, description, parameters }) =>
      description === undefined
        ? { name, parametersJsonSchema: parameters }
        : { name, description, parametersJsonSchema: parameters },
    );
    body["tools"] = [{ functionDeclarations }];
  }
  if (request.toolChoice) body["toolConfig"] = { functionCallingConfig: toolChoice(request.toolChoice) };
  const generationConfig: JsonObject = {};
  if (request.maxTokens !== undefined) generationConfig["maxOutputTokens"] = request.maxTokens;
  if (request.temperature !== undefined) generationConfig["temperature"] = request.temperature;
  if (Object.keys(generationConfig).length > 0) body["generationConfig"] = generationConfig;
  const model = encodeURIComponent(request.model.replace(/^models\//, ""));
  return {
    url: `${target.baseUrl}/models/${model}:streamGenerateContent?alt=sse`,
    headers: { "x-goog-api-key": target.apiKey, "content-type": "application/json", accept: "text/event-stream" },
    body,
  };
}

/** Turns become contents (the model's role is `model`); results of calls go back as `functionResponse` parts in a user turn. */
function toContents(messages: readonly Message[]): Content[] {
  const namesById = new Map<string, string>();
  const partsOf = (message: Exclude<Message, { role: "system" }>, path: string): JsonObject[] => {
    if (message.role === "assistant") {
      for (const call of message.toolCalls) if (call.id !== null) namesById.set(call.id, call.name);
      return [
        ...(message.content === "" ? [] : [{ text: message.content }]),
        ...message.toolCalls.map(functionCallPart),
      ];
    }
    if (message.role === "tool") {
      const name = message.name ?? (message.toolCallId === undefined ? undefined : namesById.get(message.toolCallId));
      if (name === undefined) throw invalidField(`${path}.name`, "Gemini needs the function `name` of a tool result.");
      return [{ functionResponse: { name, response: responseObject(message.content) } }];
    }
    return [{ text: message.content }];
  };
  return toTurns(messages, partsOf).map((turn) => ({
    role: turn.role === "assistant" ? "model" : "user",
    parts: turn.content,
  }));
}

function functionCallPart(call: AssistantToolCall): JsonObject {
  // `args` is a Struct: arguments that were not an object go back as `{}`.
  const functionCall: JsonObject = { name: call.name, args: asObject(call.arguments) };
  if (call.id !== null) functionCall["id"] = call.id;
  const part: JsonObject = { functionCall };
  // Gemini 3 refuses a function call sent back without the thought signature it came with.
  const signature = call.providerMetadata?.["thoughtSignature"];
  if (typeof signature === "string") part["thoughtSignature"] = signature;
  return part;
}

/** `functionResponse.response` must be an object: a JSON object result is used as it is. */
function responseObject(content: string): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return { result: content };
  }
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as JsonObject)
    : { result: content };
}

function toolChoice(choice: ToolChoice): JsonObject {
  if (choice.type === "tool") return { mode: "ANY", allowedFunctionNames: [choice.name] };
  return { mode: choice.type === "required" ? "ANY" : choice.type.toUpperCase() };
}
