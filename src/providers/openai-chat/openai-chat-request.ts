import {
  clientCall,
  callId,
  resultId,
  type Fields,
  type ProviderRequest,
  type RequestContentPart,
  type RequestMessage,
  type RequestToolChoice,
} from "../request.ts";
import { fileKind, fileRefused, fileUrl, filesAfterResults, hasFiles, imageUrlPart, resultBlocks } from "../media.ts";
import { chatToolCall, reasoningFields } from "./openai-chat-messages.ts";
import { reasoningFamily } from "./openai-chat-reasoning.ts";
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
    messages: chatMessages(request.messages, request.model),
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

/**
 * The messages; a tool result's files follow the results in a user message (a tool message holds
 * text only). An assistant turn left with nothing (its only calls another provider ran) is left
 * out: Chat Completions refuses one with no content and no `tool_calls`.
 */
function chatMessages(messages: readonly RequestMessage[], model: string): Fields[] {
  const moved = filesAfterResults(messages);
  return moved.messages.flatMap((message, i) => {
    const out = toChatMessage(message, moved.pathOf(i), model);
    return out["content"] === null && Object.keys(out).length === 2 ? [] : [out];
  });
}

/**
 * A call's arguments as the text its entry carries: a custom tool's free-text input (a call of
 * `finish.toolCalls` with `inputFormat: "text"`, whose arguments is that text) as it is, not as a
 * JSON string literal; a function's arguments as JSON text.
 */
function callInput(call: { readonly arguments: unknown; readonly inputFormat?: unknown }): string {
  return call.inputFormat === "text" && typeof call.arguments === "string"
    ? call.arguments
    : JSON.stringify(call.arguments);
}

function toChatMessage(message: RequestMessage, path: string, model: string): Fields {
  switch (message.role) {
    case "system":
      return { role: message.role, content: message.content };
    case "user":
      if (!hasFiles(message)) return { role: message.role, content: message.content };
      return { role: "user", content: resultBlocks(message, path, chatPart) };
    case "assistant": {
      // A thinking model's reasoning goes back in the field it streamed in (DeepSeek refuses a tool
      // loop without its `reasoning_content`); a server that streamed none is sent none, and a
      // model of another family (Groq, OpenAI after DeepSeek) none of another's: they refuse it.
      const family = reasoningFamily(model);
      const parts = message.reasoningParts?.filter(
        (part) => part.type !== "field" || part.model === undefined || reasoningFamily(part.model) === family,
      );
      const out: Fields = {
        role: "assistant",
        content: message.content === "" ? null : message.content,
        ...reasoningFields(parts),
      };
      // A call another provider ran itself is no call of Chat Completions': left out.
      const calls = message.toolCalls.flatMap(
        clientCall((call, i: number) => chatToolCall(callId(call, `${path}.tool_calls[${i}]`), call, callInput(call))),
      );
      if (calls.length > 0) out["tool_calls"] = calls;
      return out;
    }
    case "tool":
      return { role: "tool", tool_call_id: resultId(message, path), content: message.content };
  }
}

function toolChoice(choice: RequestToolChoice): Fields | string {
  return choice.type === "tool" ? { type: "function", function: { name: choice.name } } : choice.type;
}

/** Audio Chat Completions takes as `input_audio`, by its `format`. */
const AUDIO_FORMATS: Readonly<Record<string, string>> = {
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/mpeg": "mp3",
};

/**
 * A part as a Chat Completions content part: `image_url` (a URL or a data URL, with its
 * `detail`), a PDF as a `file` part (`file_data`, a data URL, with its name), WAV or MP3 audio as
 * `input_audio`. Chat takes no file by URL and no other kind of file.
 */
function chatPart(part: RequestContentPart, path: string): Fields {
  if (part.type === "text") return { type: "text", text: part.text };
  const kind = fileKind(part);
  if (kind === "image") return imageUrlPart(part);
  if (part.source.type === "url")
    throw fileRefused("OpenAI Chat Completions", path, "it takes files other than images as base64 only");
  if (kind === "pdf")
    return { type: "file", file: { filename: part.filename ?? "file.pdf", file_data: fileUrl(part) } };
  const format = AUDIO_FORMATS[part.mediaType.toLowerCase()];
  if (format) return { type: "input_audio", input_audio: { data: part.source.data, format } };
  throw fileRefused("OpenAI Chat Completions", path, "it takes images, PDFs and WAV or MP3 audio only");
}
