import { fileKind, fileRefused, hasFiles, resultBlocks } from "../media.ts";
import {
  asObject,
  callId,
  requestError,
  resultId,
  toTurns,
  turnOf,
  type Fields,
  type ProviderRequest,
  type RequestContentPart,
  type RequestMessage,
  type RequestToolChoice,
  type Turn,
} from "../request.ts";
import type { ReasoningPart } from "../../shared/deltas.ts";
import { anthropicThinking } from "../reasoning.ts";
import { piecesInOrder } from "../turn.ts";
import { addCachePoints } from "./bedrock-cache-points.ts";
import { bedrockTextBlocks, imageBlocks, serverResults } from "./bedrock-messages.ts";
import { bedrockToolDefinitions } from "./bedrock-tools.ts";

/** The answer's length, beyond the thinking budget, sent with thinking when the request gives none. */
const DEFAULT_CLAUDE_MAX_TOKENS = 4096;

/**
 * The body of a ConverseStream request (the model is in the URL,
 * `/model/{modelId}/converse-stream`): alternating turns of content blocks, the system messages
 * as `system` blocks, the tools in `toolConfig`, the limits in `inferenceConfig`.
 *
 * @example
 * ```ts
 * const body = bedrockRequestBody({ model: "anthropic.claude-sonnet-4-6", messages: [{ role: "user", content: "Hi" }], tools: [] });
 * ```
 */
export function bedrockRequestBody(request: ProviderRequest): Fields {
  const claude = /claude/i.test(request.model);
  const messages = toTurns(request.messages, (message, path) => toBlocks(message, path, claude));
  const body: Fields = { messages: messages.map((m) => ({ role: m.role, content: m.content })) };
  const system = request.messages.flatMap((m) =>
    m.role === "system" && m.content !== "" ? [{ text: m.content }] : [],
  );
  if (system.length > 0) body["system"] = system;
  const toolConfig = toToolConfig(request, messages);
  if (toolConfig) body["toolConfig"] = toolConfig;
  const inferenceConfig: Fields = {};
  if (request.maxTokens !== undefined) inferenceConfig["maxTokens"] = request.maxTokens;
  // Claude on Bedrock thinks as on Anthropic; Converse has no knob of its own for it.
  const thinking = claude ? anthropicThinking(request, DEFAULT_CLAUDE_MAX_TOKENS) : undefined;
  if (thinking) {
    inferenceConfig["maxTokens"] = thinking.maxTokens;
    // Anthropic's own fields, as Claude on Bedrock takes them: an adaptive request's effort in its `output_config`
    // (Bedrock's adaptive-thinking guide: "thinking.type: adaptive with output_config.effort").
    const { effort } = thinking;
    body["additionalModelRequestFields"] = {
      thinking: thinking.thinking,
      ...(effort && { output_config: { effort } }),
    };
  } else {
    if (request.temperature !== undefined && request.temperature > 1)
      throw requestError("temperature", "Bedrock models accept a temperature from 0 to 1.");
    const fields = claude ? undefined : reasoningFields(request);
    if (fields) body["additionalModelRequestFields"] = fields;
    // Nova 2 reasoning refuses a temperature (reasoning wins, as Claude's thinking does), and at `high`
    // a `maxTokens`: the client's bound wins, at `medium`, the most that takes one.
    const nova = fields?.["reasoningConfig"] as { maxReasoningEffort: string } | undefined;
    if (nova?.maxReasoningEffort === "high" && request.maxTokens !== undefined) nova.maxReasoningEffort = "medium";
    if (request.temperature !== undefined && nova === undefined) inferenceConfig["temperature"] = request.temperature;
  }
  if (Object.keys(inferenceConfig).length > 0) body["inferenceConfig"] = inferenceConfig;
  if (request.promptCache) addCachePoints(body, request.model, request.promptCache);
  return body;
}

/**
 * The reasoning knob of the other Bedrock models that have one, in `additionalModelRequestFields`:
 * Amazon Nova 2's `reasoningConfig` (which is off unless asked) and OpenAI gpt-oss's
 * `reasoning_effort`, each taking `low`, `medium` or `high`: `minimal` goes as `low`, `xhigh`
 * and `max` as `high`. Only an `on` reasoning: adaptive leaves the model its default. Nova 2's
 * reasoning is sent without the request's temperature, and at `medium` when the request bounds
 * `maxTokens` (Nova 2 refuses a bound at `high`).
 */
function reasoningFields({ model, reasoning }: ProviderRequest): Fields | undefined {
  if (reasoning?.type !== "on") return undefined;
  const { effort } = reasoning;
  const level = effort === "minimal" ? "low" : effort === "xhigh" || effort === "max" ? "high" : effort;
  if (model.includes("nova-2")) return { reasoningConfig: { type: "enabled", maxReasoningEffort: level } };
  return model.includes("gpt-oss") ? { reasoning_effort: level } : undefined;
}

/**
 * A message's content blocks: earlier calls `toolUse` blocks, their results `toolResult` blocks
 * in the user's turn (turns alternate; `toTurns` merges them and drops empty ones).
 */
function toBlocks(message: Exclude<RequestMessage, { role: "system" }>, path: string, claude: boolean): Fields[] {
  if (message.role === "tool")
    return [
      {
        toolResult: {
          toolUseId: resultId(message, path),
          // A result's images and documents sit in its content, with its text.
          content: hasFiles(message) ? resultBlocks(message, path, bedrockBlock) : [{ text: message.content }],
          ...(message.isError ? { status: "error" } : {}),
        },
      },
    ];
  // Converse refuses a blank text block.
  const text: Fields[] = message.content.trim() === "" ? [] : [{ text: message.content }];
  if (message.role === "user") return hasFiles(message) ? resultBlocks(message, path, bedrockBlock) : text;
  // In the order the stream gave them (`order`), else the reasoning, the text, the calls. A call
  // whose `toolResult` the turn holds is a server tool's (Amazon Nova's system tools): both go back.
  const results = serverResults(message.reasoningParts);
  return piecesInOrder(turnOf(message), {
    // Claude's thinking (the other models sign nothing), and an image the model made, in its place.
    part: (part) => [...(claude ? reasoningBlocks([part]) : []), ...imageBlocks(part)],
    text: bedrockTextBlocks,
    call: (call, j): Fields[] => {
      const toolUse = {
        toolUseId: callId(call, `${path}.tool_calls[${j}]`),
        name: call.name,
        input: asObject(call.arguments),
      };
      const result = results.get(call.id);
      if (result) return [{ toolUse: { ...toolUse, type: "server_tool_use" } }, result];
      // One the provider ran (`finish.toolCalls`' `providerExecuted`) without its result is left out, as assistantMessage does.
      return call.providerExecuted ? [] : [{ toolUse }];
    },
  });
}

/**
 * Claude's signed and redacted thinking of the turn, first and unchanged, as extended thinking
 * with tools requires (the other models on Converse sign nothing: they are sent none).
 */
function reasoningBlocks(parts: readonly ReasoningPart[] | undefined): Fields[] {
  return (parts ?? []).flatMap((part): Fields[] => {
    if (part.type === "signed")
      return [{ reasoningContent: { reasoningText: { text: part.text, signature: part.signature } } }];
    return part.type === "redacted" ? [{ reasoningContent: { redactedContent: part.data } }] : [];
  });
}

/**
 * `toolConfig.tools` of `toolSpec`s. Converse has no "none": without tools the model cannot call
 * one, but a conversation that holds `toolUse` or `toolResult` blocks must list its tools.
 */
function toToolConfig(request: ProviderRequest, turns: readonly Turn[]): Fields | undefined {
  const hasToolBlocks = turns.some((turn) => turn.content.some((block) => "toolUse" in block || "toolResult" in block));
  if (request.tools.length === 0) {
    if (hasToolBlocks)
      throw requestError("tools", "Bedrock needs the tools listed when the conversation has earlier tool calls.");
    return undefined;
  }
  if (request.toolChoice?.type === "none") {
    if (hasToolBlocks)
      throw requestError(
        "tool_choice",
        'Bedrock cannot forbid tool calls in a conversation that has earlier calls; omit `tool_choice` or use "auto".',
      );
    return undefined;
  }
  const config: Fields = { tools: bedrockToolDefinitions(request.tools) };
  if (request.toolChoice) config["toolChoice"] = toolChoice(request.toolChoice);
  return config;
}

function toolChoice(choice: Exclude<RequestToolChoice, { type: "none" }>): Fields {
  if (choice.type === "tool") return { tool: { name: choice.name } };
  return choice.type === "required" ? { any: {} } : { auto: {} };
}

/** Converse's image `format`s, by media type. */
const IMAGE_FORMATS: Readonly<Record<string, string>> = {
  "image/png": "png",
  "image/jpeg": "jpeg",
  "image/gif": "gif",
  "image/webp": "webp",
};

/** Converse's document `format`s, by media type. */
const DOCUMENT_FORMATS: Readonly<Record<string, string>> = {
  "application/pdf": "pdf",
  "text/csv": "csv",
  "application/msword": "doc",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "application/vnd.ms-excel": "xls",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
  "text/html": "html",
  "text/plain": "txt",
  "text/markdown": "md",
};

/**
 * A part as a Converse content block: an `image` or a `document` with its `format` and its bytes
 * (base64 in JSON) or an `s3://` location, which Bedrock reads itself; a document has a `name`, of
 * the characters Converse allows. Converse fetches no other URL.
 */
function bedrockBlock(part: RequestContentPart, path: string): Fields {
  if (part.type === "text") return { text: part.text };
  const { source } = part;
  if (source.type === "url" && !source.url.startsWith("s3://"))
    throw fileRefused("Bedrock", path, "it reads files at s3:// locations only");
  const bytes = source.type === "url" ? { s3Location: { uri: source.url } } : { bytes: source.data };
  const mediaType = part.mediaType.toLowerCase();
  if (fileKind(part) === "image") {
    const format = IMAGE_FORMATS[mediaType];
    if (!format) throw fileRefused("Bedrock", path, "its images are PNG, JPEG, GIF or WebP");
    return { image: { format, source: bytes } };
  }
  const format = DOCUMENT_FORMATS[mediaType];
  if (!format) throw fileRefused("Bedrock", path, "its documents are PDF, CSV, DOC(X), XLS(X), HTML, TXT or MD");
  return { document: { format, name: documentName(part.filename), source: bytes } };
}

/** A document's name as Converse takes it: letters, digits, single spaces, `-`, `()` and `[]`. */
function documentName(filename: string | undefined): string {
  const name = (filename ?? "")
    .replace(/\.[A-Za-z0-9]+$/, "")
    .replace(/[^A-Za-z0-9\s\-()[\]]/g, "-")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 200);
  return name === "" ? "document" : name;
}
