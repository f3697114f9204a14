import { fileKind, fileRefused, fileText, hasFiles, resultBlocks } from "../media.ts";
import {
  asObject,
  callId,
  requestError,
  resultId,
  systemText,
  toTurns,
  turnOf,
  type Fields,
  type ProviderRequest,
  type RequestContentPart,
  type RequestMessage,
  type RequestToolCall,
  type RequestToolChoice,
} from "../request.ts";
import type { ReasoningPart } from "../../shared/deltas.ts";
import type { RequestPromptCache } from "../prompt-cache.ts";
import { anthropicThinking } from "../reasoning.ts";
import { citedAfter, turnPieces } from "../turn.ts";
import { anthropicTextBlocks } from "./anthropic-citations.ts";
import { callerOf, isAnthropicBlock, serverCalls, toolsetOf } from "./anthropic-messages.ts";
import { anthropicToolDefinitions } from "./anthropic-tools.ts";

/** The Messages API requires `max_tokens`; this is used when the request gives none. */
const DEFAULT_MAX_TOKENS = 4096;

/**
 * The body of a streaming Messages request (`POST /v1/messages`): alternating turns, the system
 * messages in `system`, tool results as `tool_result` blocks of the user's turn, and the
 * code-execution `container` to reuse when the request names one.
 *
 * @example
 * ```ts
 * const body = anthropicRequestBody({ model: "claude-sonnet-4-6", messages: [{ role: "user", content: "Hi" }], tools: [] });
 * ```
 */
export function anthropicRequestBody(request: ProviderRequest): Fields {
  const system = systemText(request.messages);
  const thinking = anthropicThinking(request, DEFAULT_MAX_TOKENS);
  // A toolset member's result carries its call's toolset, as its tool_use does.
  const toolsets = new Map(
    request.messages.flatMap((message) =>
      message.role === "assistant" ? message.toolCalls.map((call) => [call.id, toolsetOf(call)] as const) : [],
    ),
  );
  const body: Fields = {
    model: request.model,
    max_tokens: thinking?.maxTokens ?? request.maxTokens ?? DEFAULT_MAX_TOKENS,
    messages: toTurns(request.messages, (message, path) => toBlocks(message, path, toolsets)).map((turn) => ({
      role: turn.role,
      content: turn.content,
    })),
    stream: true,
  };
  if (system !== "") body["system"] = system;
  if (request.promptCache) markCache(body, request.promptCache);
  if (request.tools.length > 0) body["tools"] = anthropicToolDefinitions(request.tools);
  if (request.toolChoice) body["tool_choice"] = toolChoice(request.toolChoice);
  if (request.container !== undefined) body["container"] = request.container;
  if (thinking) {
    // Adaptive thinking carries its `display`; a budget's goes to the earlier models and to
    // Anthropic-compatible gateways, which may refuse a field they do not know: sent without one.
    body["thinking"] = thinking.thinking;
    if (thinking.effort !== undefined) body["output_config"] = { effort: thinking.effort };
  }
  // Thinking is refused with a temperature other than 1: the client's temperature gives way.
  else if (request.temperature !== undefined) {
    if (request.temperature > 1) throw requestError("temperature", "Anthropic accepts a temperature from 0 to 1.");
    body["temperature"] = request.temperature;
  }
  return body;
}

/** The blocks Anthropic refuses a `cache_control` on. */
const UNMARKED: ReadonlySet<unknown> = new Set(["thinking", "redacted_thinking"]);

/**
 * Anthropic caches a prompt only up to a block marked `cache_control`: the system prompt and the
 * last message's last block that takes a mark (not thinking, not empty text) are marked, as
 * Claude Code marks its own, so that the tools and system are read from the cache by any
 * conversation and the next turn of this one reads all of it. A mark a kept block brought (a
 * compaction, a server tool's block, as it came) is taken off first: Anthropic takes 4 marks at most,
 * and no `1h` mark after a `5m` one, so these 2 are the request's only ones.
 */
function markCache(body: Fields, cache: RequestPromptCache): void {
  const mark = { type: "ephemeral", ...(cache.ttl && { ttl: cache.ttl }) };
  if (typeof body["system"] === "string")
    body["system"] = [{ type: "text", text: body["system"], cache_control: mark }];
  const messages = body["messages"] as { content: Fields[] | string }[];
  for (const message of messages) if (Array.isArray(message.content)) unmarked(message.content);
  const last = messages[messages.length - 1];
  if (last === undefined) return;
  if (typeof last.content === "string") {
    if (last.content !== "") last.content = [{ type: "text", text: last.content, cache_control: mark }];
    return;
  }
  for (let i = last.content.length - 1; i >= 0; i--) {
    const block = last.content[i]!;
    if (UNMARKED.has(block["type"]) || (block["type"] === "text" && block["text"] === "")) continue;
    last.content[i] = { ...block, cache_control: mark }; // a copy: a kept block is the client's own object
    return;
  }
}

/**
 * `blocks` with no `cache_control` of their own: each marked one replaced by a copy without it (the
 * block may be the client's own object).
 */
function unmarked(blocks: Fields[]): Fields[] {
  for (let i = 0; i < blocks.length; i++)
    if (blocks[i]!["cache_control"] !== undefined) {
      const { cache_control: _, ...rest } = blocks[i]!;
      blocks[i] = rest;
    }
  return blocks;
}

/**
 * A message's content blocks; tool results travel in the user's turn as `tool_result` blocks, and an
 * assistant's text as {@link anthropicTextBlocks} gives it (its cited blocks with their `citations`).
 */
function toBlocks(
  message: Exclude<RequestMessage, { role: "system" }>,
  path: string,
  toolsets: ReadonlyMap<unknown, { toolset_name?: string }>,
): Fields[] {
  // The API refuses empty text blocks.
  const text: Fields[] =
    message.content === "" || message.role === "tool" ? [] : [{ type: "text", text: message.content }];
  if (message.role === "user") return hasFiles(message) ? resultBlocks(message, path, anthropicBlock) : text;
  if (message.role === "tool")
    return [
      {
        type: "tool_result",
        tool_use_id: resultId(message, path),
        // A result's images and documents sit in its content, with its text.
        content: hasFiles(message) ? resultBlocks(message, path, anthropicBlock) : message.content,
        ...(message.isError ? { is_error: true } : {}),
        ...toolsets.get(message.toolCallId),
      },
    ];
  // A server call (`providerExecuted`, as `finish.toolCalls` lists it) goes back as assistantMessage sends it.
  const server = serverCalls(message.toolCalls, message.reasoningParts);
  const toolUse = (call: RequestToolCall, j: number): Fields[] =>
    call.providerExecuted
      ? server.blocks(call)
      : [
          {
            type: "tool_use",
            id: callId(call, `${path}.tool_calls[${j}]`),
            name: call.name,
            input: asObject(call.arguments),
            ...callerOf(call),
            ...toolsetOf(call),
          },
        ];
  // A cited text block of the turn (kept as a `text` block part) goes back as its own block with its citations.
  const pieces = turnPieces(turnOf(message));
  const clientCalls = message.toolCalls.some((call) => !call.providerExecuted);
  const kept = thinkingBlocks(message.reasoningParts, clientCalls);
  const thinking = (part: ReasoningPart): Fields[] =>
    part.type === "block" && server.moved(part.block) ? [] : kept(part);
  if (pieces === undefined)
    return [
      ...(message.reasoningParts ?? []).flatMap(thinking),
      ...(text.length > 0 ? anthropicTextBlocks(message.content, message.reasoningParts) : []),
      ...message.toolCalls.flatMap(toolUse),
    ];
  // In the order the stream gave them (`order`): each text run with the cited blocks right after it.
  const positions = new Map(message.toolCalls.map((call, j) => [call, j]));
  return pieces.flatMap((piece, i): Fields[] => {
    if (piece.type === "reasoning-part") return thinking(piece.part);
    if (piece.type === "tool-call") return toolUse(piece.call, positions.get(piece.call)!);
    return piece.text === "" ? [] : anthropicTextBlocks(piece.text, citedAfter(pieces, i));
  });
}

/**
 * How the turn's signed and redacted thinking and its kept blocks (`compaction`, `fallback`, a server
 * tool's call and result) go back: unchanged, in their place, as extended thinking with tools requires;
 * other providers' reasoning (an OpenAI item) is not Anthropic's to take.
 */
function thinkingBlocks(
  parts: readonly ReasoningPart[] | undefined,
  calls: boolean,
): (part: ReasoningPart) => Fields[] {
  // A server call goes back with its result, or alone in a turn that also calls client tools
  // (Anthropic runs it then); alone in any other turn, Anthropic refuses it (as assistantMessage).
  const answered = new Set((parts ?? []).map((part) => part.type === "block" && part.block["tool_use_id"]));
  return (part): Fields[] => {
    if (part.type === "signed") return [{ type: "thinking", thinking: part.text, signature: part.signature }];
    if (part.type === "block" && /_tool_use$/.test(String(part.block["type"])) && !calls)
      return answered.has(part.block["id"] as string) ? [part.block] : [];
    if (part.type === "block") return isAnthropicBlock(part.block) ? [part.block] : [];
    return part.type === "redacted" ? [{ type: "redacted_thinking", data: part.data }] : [];
  };
}

function toolChoice(choice: RequestToolChoice): Fields {
  if (choice.type === "required") return { type: "any" };
  return choice.type === "tool" ? { type: "tool", name: choice.name } : { type: choice.type };
}

/** The image types Anthropic takes. */
const IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

/**
 * A part as an Anthropic content block: an `image` (JPEG, PNG, GIF or WebP, as base64 or a URL
 * Anthropic fetches), a PDF `document` (base64 or URL), or a plain-text `document` (its text); its
 * file name is the document's `title`. Anthropic takes no other file.
 */
function anthropicBlock(part: RequestContentPart, path: string): Fields {
  if (part.type === "text") return { type: "text", text: part.text };
  const { source } = part;
  const mediaType = part.mediaType.toLowerCase();
  const kind = fileKind(part);
  if (kind === "image") {
    if (source.type === "url") return { type: "image", source: { type: "url", url: source.url } };
    if (!IMAGE_TYPES.has(mediaType)) throw fileRefused("Anthropic", path, "its images are JPEG, PNG, GIF or WebP");
    return { type: "image", source: { type: "base64", media_type: mediaType, data: source.data } };
  }
  const title = part.filename === undefined ? {} : { title: part.filename };
  if (kind === "pdf") {
    const pdf =
      source.type === "url"
        ? { type: "url", url: source.url }
        : { type: "base64", media_type: "application/pdf", data: source.data };
    return { type: "document", source: pdf, ...title };
  }
  if (mediaType === "text/plain" && source.type === "base64")
    return {
      type: "document",
      source: { type: "text", media_type: "text/plain", data: fileText(source.data) },
      ...title,
    };
  throw fileRefused("Anthropic", path, "it takes images, PDFs and plain text (as base64) only");
}
