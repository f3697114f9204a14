import { isRecord } from "../../shared/values.ts";
import type { ReasoningPart } from "../../shared/deltas.ts";
import type { ToolCall } from "../../shared/events.ts";
import { asText, citedAfter, idOf, turnPieces, type AssistantTurn, type ToolResult, type TurnPiece } from "../turn.ts";
import { anthropicTextBlocks } from "./anthropic-citations.ts";
import { isServerResult } from "./anthropic-kept-blocks.ts";

/**
 * One of Anthropic's blocks that go back whole (`compaction`, `fallback`, `mcp_tool_listing`,
 * `container_upload`, a server tool's result); another provider's
 * kept block (a Gemini Interactions built-in tool's step, OpenAI Responses' `compaction` item,
 * which has an `id`) is not Anthropic's to take.
 *
 * @example
 * ```ts
 * isAnthropicBlock({ type: "fallback" }); // true
 * isAnthropicBlock({ type: "google_search_call" }); // false
 * ```
 */
export const isAnthropicBlock = (block: { readonly [key: string]: unknown }): boolean =>
  (/^(compaction|fallback|server_tool_use|mcp_tool_use|mcp_tool_listing|container_upload)$/.test(
    String(block["type"]),
  ) &&
    !(block["type"] === "compaction" && "id" in block)) ||
  isServerResult(block);

/**
 * The `caller` a `tool_use` came with (programmatic tool calling: the model, or a code execution
 * tool by id), kept on the call's `providerMetadata`, to echo on the next turn.
 *
 * @example
 * ```ts
 * const block = { type: "tool_use", id: call.id, name: call.name, input: call.arguments, ...callerOf(call) };
 * ```
 */
export function callerOf(call: { readonly providerMetadata?: Readonly<Record<string, unknown>> | undefined }): {
  caller?: unknown;
} {
  const caller = call.providerMetadata?.["caller"];
  return caller !== null && typeof caller === "object" ? { caller } : {};
}

/**
 * The `toolset_name` of a toolset member's call (a browser or computer toolset's tool, kept on
 * `providerMetadata.toolsetName`), which its `tool_use` and its `tool_result` carry back: "members
 * dispatch by family, never by name" (the SDK's tool runner), as a custom tool may share the name.
 *
 * @example
 * ```ts
 * const result = { type: "tool_result", tool_use_id: call.id, content: "Loaded.", ...toolsetOf(call) };
 * ```
 */
export function toolsetOf(call: { readonly providerMetadata?: Readonly<Record<string, unknown>> | undefined }): {
  toolset_name?: string;
} {
  const toolset = call.providerMetadata?.["toolsetName"];
  return typeof toolset === "string" ? { toolset_name: toolset } : {};
}

/**
 * Anthropic Messages: an assistant message of the turn's blocks in the order the stream gave them
 * (`order`: the true block order, as extended thinking with tools asks the thinking blocks back
 * unchanged and in place; a turn without one, or changed by hand: the thinking and kept blocks,
 * the text, the calls): `thinking`, `redacted_thinking`, `compaction` and `fallback` blocks (from
 * `reasoningParts`; a `fallback` block is the refusals-and-fallback guide's boundary between the
 * two models' blocks), the text (a block, or a block per cited text block of the turn with its
 * `citations`, and the text around them), and `tool_use` blocks (input as an object, with the `caller`
 * the call came with); a server tool's call (`server_tool_use`, `mcp_tool_use`) goes back as the
 * block it came as, followed by its result (`web_search_tool_result`, ...) when that came in the
 * turn (a paused turn needs them back), or alone when a call of the turn names it its `caller`
 * (programmatic tool calling: its result comes in a later response) or the turn also calls the
 * client's tools (Anthropic runs it once their results come back); a result whose call came in
 * an earlier response stays in its place. A call the provider withdrew (`finish.withdrawnToolCalls`: the `tool_use`
 * a fallback may have cut off) is not in `toolCalls`, so it is left out, and no `tool_result`
 * answers it. A turn of none of these (a refusal before any output) gives empty `content`, which
 * Anthropic refuses but as the last message: `assistantMessage("anthropic", turn)` gives no message then.
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { provider: "anthropic" })) {
 *   if (event.type === "finish") messages.push(anthropicAssistantMessage(event));
 * }
 * ```
 */
export function anthropicAssistantMessage(turn: AssistantTurn): Record<string, unknown> {
  const text = turn.text ?? "";
  const ordered = turnPieces({ text, calls: turn.toolCalls, parts: turn.reasoningParts, order: turn.order });
  const pieces: readonly TurnPiece<ToolCall>[] = ordered ?? [
    ...(turn.reasoningParts ?? []).map((part) => ({ type: "reasoning-part" as const, part })),
    ...(text ? [{ type: "text" as const, text }] : []),
    ...turn.toolCalls.map((call) => ({ type: "tool-call" as const, call })),
  ];
  const server = serverCalls(turn.toolCalls, turn.reasoningParts);
  const content: Record<string, unknown>[] = [];
  pieces.forEach((piece, i) => {
    if (piece.type === "text")
      return void content.push(
        ...anthropicTextBlocks(piece.text, ordered ? citedAfter(pieces, i) : turn.reasoningParts),
      );
    if (piece.type === "tool-call") {
      const call = piece.call;
      if (call.providerExecuted) return void content.push(...server.blocks(call));
      content.push({
        type: "tool_use",
        id: idOf(call),
        name: call.name,
        input: call.arguments,
        ...callerOf(call),
        ...toolsetOf(call),
      });
      return;
    }
    const part = piece.part;
    if (part.type === "redacted") content.push({ type: "redacted_thinking", data: part.data });
    else if (part.type === "signed") content.push({ type: "thinking", thinking: part.text, signature: part.signature });
    else if (part.type === "block" && isAnthropicBlock(part.block) && !server.moved(part.block))
      content.push(part.block);
  });
  return { role: "assistant", content };
}

/** A call of a turn, as `finish.toolCalls` or a request's assistant message lists it. */
interface TurnCall {
  readonly id: string | null;
  readonly name: string;
  readonly arguments: unknown;
  readonly providerExecuted?: true | undefined;
  readonly providerMetadata?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * How a turn's server calls (`providerExecuted`, with the block they came as) go back, for the
 * next turn and the request kit alike: `blocks` gives a call's block followed by its results (a
 * `web_search_tool_result`, ...) when they came in the turn (a paused turn needs them back), or
 * alone when a call of the turn names it its `caller` (programmatic tool calling: its result comes
 * in a later response) or the turn also calls the client's tools (Anthropic runs it once their
 * results come back: "the API runs that tool when you return the client tool_result blocks in the
 * next request"); else nothing, as Anthropic refuses a server call without its result under
 * anthropic-version 2023-06-01 ("tool use ... was found without a corresponding ..._tool_result
 * block"), and never a `tool_use`, which would wait for a result of the client's. `moved` says
 * whether a result block goes with its call rather than in its place (a result whose call came in
 * an earlier response, a programmatic tool calling continuation, stays in its place).
 *
 * @example
 * ```ts
 * const server = serverCalls(finish.toolCalls, finish.reasoningParts);
 * const blocks = call.providerExecuted ? server.blocks(call) : [toolUse(call)];
 * ```
 */
export function serverCalls(
  calls: readonly TurnCall[],
  parts: readonly ReasoningPart[] | undefined,
): { blocks(call: TurnCall): Record<string, unknown>[]; moved(block: Readonly<Record<string, unknown>>): boolean } {
  const served = new Set(calls.flatMap((call) => (call.providerExecuted && call.id ? [call.id] : [])));
  const results = new Map<unknown, Record<string, unknown>[]>();
  for (const part of parts ?? []) {
    const id = part.type === "block" ? part.block["tool_use_id"] : undefined;
    // Appended in place: copying the list per block would be quadratic in a call's results.
    if (part.type === "block" && isAnthropicBlock(part.block) && served.has(id as string))
      results.get(id)?.push(part.block) ?? results.set(id, [part.block]);
  }
  const callers = new Set(calls.map((call) => (callerOf(call).caller as { tool_id?: unknown })?.tool_id));
  const mixed = calls.some((call) => !call.providerExecuted);
  return {
    blocks: (call) => {
      const block = call.providerMetadata?.["anthropicBlock"];
      if (!isRecord(block) || !(mixed || results.has(call.id) || callers.has(call.id))) return [];
      const server = { ...block, id: idOf(call), name: call.name, input: call.arguments, ...callerOf(call) };
      return [server, ...(results.get(call.id) ?? [])];
    },
    moved: (block) => served.has(block["tool_use_id"] as string),
  };
}

/**
 * Anthropic Messages: one user message of `tool_result` blocks (a toolset member's with its `toolset_name`).
 *
 * @example
 * ```ts
 * messages.push(anthropicToolResultMessage([{ call, output: "Sunny, 21 °C" }]));
 * ```
 */
export function anthropicToolResultMessage(results: readonly ToolResult[]): Record<string, unknown> {
  return {
    role: "user",
    content: results.map((result) => ({
      type: "tool_result",
      tool_use_id: idOf(result.call),
      content: asText(result.output),
      ...(result.isError ? { is_error: true } : {}),
      ...toolsetOf(result.call),
    })),
  };
}
