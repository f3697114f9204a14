import {
  asObject,
  callId,
  requestError,
  resultId,
  toTurns,
  type Fields,
  type ProviderRequest,
  type RequestMessage,
  type RequestToolChoice,
  type Turn,
} from "../request.ts";
import type { ReasoningPart } from "../../shared/deltas.ts";
import { anthropicThinking } from "../reasoning.ts";
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
 * const body = bedrockRequestBody({ model: "anthropic.claude-sonnet-4-5", messages: [{ role: "user", content: "Hi" }], tools: [] });
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
    // Only `thinking`: an adaptive request's effort (Anthropic's `output_config`) is not one of Converse's fields.
    body["additionalModelRequestFields"] = { thinking: thinking.thinking };
  } else if (request.temperature !== undefined) {
    if (request.temperature > 1) throw requestError("temperature", "Bedrock models accept a temperature from 0 to 1.");
    inferenceConfig["temperature"] = request.temperature;
  }
  if (Object.keys(inferenceConfig).length > 0) body["inferenceConfig"] = inferenceConfig;
  return body;
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
          content: [{ text: message.content }],
          ...(message.isError ? { status: "error" } : {}),
        },
      },
    ];
  // Converse refuses a blank text block.
  const text: Fields[] = message.content.trim() === "" ? [] : [{ text: message.content }];
  if (message.role === "user") return text;
  return [
    ...(claude ? reasoningBlocks(message.reasoningParts) : []),
    ...text,
    ...message.toolCalls.map(
      (call, j): Fields => ({
        toolUse: {
          toolUseId: callId(call, `${path}.tool_calls[${j}]`),
          name: call.name,
          input: asObject(call.arguments),
        },
      }),
    ),
  ];
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
