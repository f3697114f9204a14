/**
 * The AI SDK UI message stream's response headers, the options of its encoder, a call as the
 * encoder's client knows it, its finish reasons, how it shows a provider's approval request, a
 * tool's error and a provider-executed call's result.
 *
 * @module
 */
import { callKey } from "../shared/call-key.ts";
import type { FinishReason, ReasoningPart } from "../shared/deltas.ts";
import type { JsonValue } from "../shared/json.ts";
import type { ApprovalRequestEvent, CompletedToolCallEvent } from "../shared/events.ts";
import type { ToolErrorEvent, ToolResultEvent } from "../tools/tool-events.ts";

/**
 * The response headers of an AI SDK UI message stream: `x-vercel-ai-ui-message-stream: v1`
 * tells `useChat` (`DefaultChatTransport`) the protocol, `x-accel-buffering: no` keeps proxies
 * from holding the stream back.
 *
 * @example
 * ```ts
 * return new Response(body.pipeThrough(new UIMessageEncoderStream()), { headers: UI_MESSAGE_STREAM_HEADERS });
 * ```
 */
export const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  "x-vercel-ai-ui-message-stream": "v1",
  "x-accel-buffering": "no",
});

/** Options of {@link UIMessageEncoder} and {@link UIMessageEncoderStream}. */
export interface UIMessageEncoderOptions {
  /** The id of the assistant message, sent on `start`; without it the client makes one. */
  messageId?: string | undefined;
  /**
   * The oldest major version of the `ai` package that reads the stream. ai 5 validates every
   * chunk against the types it knows (before 5.0.92 also refusing unknown fields): with `5`, the
   * stream leaves out what ai 5 does not know (`finishReason` on `finish`, `inputEncoding`) and
   * shows an approval request and a denial as ai 5 can (no `tool-approval-request`; a denied call
   * is a `tool-output-error`).
   * @defaultValue 6
   */
  minVersion?: 5 | 6 | undefined;
  /**
   * Makes the tokens of generated call ids (Gemini gives none; a repeated id would merge two calls).
   * @defaultValue `randomId`
   */
  generateId?: (() => string) | undefined;
  /**
   * The `providerMetadata` of a reasoning block's `reasoning-end` (ai 5.0.53 on), from the block's
   * provider state (an Anthropic signature, an OpenAI item's encrypted content): `useChat` keeps it
   * on the message's reasoning part and sends it back with the message, so a server that wants
   * the state back on the next turn encodes it here. Each block then ends its reasoning part (a
   * block of no text, a redacted one, gets a part of its own).
   * @defaultValue none: no `providerMetadata`
   */
  reasoningMetadata?: ((part: ReasoningPart) => Record<string, Record<string, JsonValue>> | undefined) | undefined;
}

/** Every option of {@link UIMessageEncoderOptions}, typed as its keys (`joinDeltas` is the stage's). */
export const UI_OPTIONS: Record<keyof UIMessageEncoderOptions, 0> = {
  messageId: 0,
  minVersion: 0,
  generateId: 0,
  reasoningMetadata: 0,
};

/** An approval request as ai 6 shows it: the call's id is the approval's. */
export const approvalRequestChunk = (toolCallId: string): Record<string, string> => ({
  type: "tool-approval-request",
  approvalId: toolCallId,
  toolCallId,
});

/** A call as the client knows it. */
export interface UICall {
  id: string;
  name: string;
  /** `tool-input-start` went out. */
  started: boolean;
  /** `tool-input-available` or `tool-input-error` went out. */
  ended: boolean;
}

/**
 * The library's finish reasons as the UI message stream's `finish` chunk takes them (the AI SDK's
 * own: `pause` is `other`, and `approval` a tool step waiting on the user, `tool-calls`).
 *
 * @example
 * ```ts
 * const chunk = { type: "finish", finishReason: UI_FINISH_REASONS[finish.reason] };
 * ```
 */
export const UI_FINISH_REASONS: Readonly<Record<FinishReason, string>> = {
  stop: "stop",
  "tool-calls": "tool-calls",
  length: "length",
  "content-filter": "content-filter",
  pause: "other",
  approval: "tool-calls",
  error: "error",
  other: "other",
};

/**
 * A call the provider waits to have approved (OpenAI's MCP approval) as the AI SDK shows one: a
 * provider-executed dynamic tool whose input is available, then `tool-approval-request` (ai 6+;
 * ai 5 has no approvals), all under the request's id.
 *
 * @example
 * ```ts
 * for (const chunk of approvalChunks(event, false)) out.push(sseData(chunk));
 * ```
 */
export function approvalChunks(event: ApprovalRequestEvent, v5: boolean): Record<string, unknown>[] {
  const call = { toolCallId: event.id, toolName: event.name, providerExecuted: true, dynamic: true };
  const chunks = [
    { type: "tool-input-start", ...call },
    { type: "tool-input-available", ...call, input: event.arguments },
  ];
  return v5 ? chunks : [...chunks, { type: "tool-approval-request", approvalId: event.id, toolCallId: event.id }];
}

/**
 * The transient data part of a call's schema violation (`data-tool-call-violation`, ai 5+): `onData`
 * sees it, the message keeps no copy. Not a `tool-input-error`, which later input deltas would turn
 * back into streaming input; the call's `invalid-tool-call` gives that at its end.
 *
 * @example
 * ```ts
 * out.push(sseData(violationChunk(call, event.error)));
 * ```
 */
export function violationChunk(
  call: UICall,
  error: { readonly path: string; readonly message: string },
): Record<string, unknown> {
  const data = { toolCallId: call.id, toolName: call.name, path: error.path, message: error.message };
  return { type: "data-tool-call-violation", id: call.id, data, transient: true };
}

/**
 * A tool's outcome as the chunk about its call: `tool-output-available` for a result (with
 * `preliminary: true` for a streaming tool's results so far), `tool-output-denied` for a denied
 * approval (ai 6+), else `tool-output-error` with the error's message.
 *
 * @example
 * ```ts
 * out.push(sseData(toolOutputChunk(event, false)(call.id)));
 * ```
 */
export function toolOutputChunk(
  event: ToolResultEvent | ToolErrorEvent,
  v5: boolean,
): (toolCallId: string) => Record<string, unknown> {
  if (event.type === "tool-result") {
    const preliminary = event.preliminary ? { preliminary: true } : {};
    return (toolCallId) => ({ type: "tool-output-available", toolCallId, output: event.result, ...preliminary });
  }
  const denied = event.error.code === "denied" && !v5;
  const errorText = event.error.message;
  return (toolCallId) =>
    denied ? { type: "tool-output-denied", toolCallId } : { type: "tool-output-error", toolCallId, errorText };
}

/**
 * The results of the provider-executed calls shown: a kept block that names one (Anthropic's
 * `*_tool_result` by `tool_use_id`, the item of a tool OpenAI ran by its `id`) is its
 * `tool-output-available` with `providerExecuted: true`, as vercel/ai reports a provider's result.
 *
 * @example
 * ```ts
 * served.add(toolCallEvent);
 * served.take(part, (key, chunk) => output(key, chunk));
 * ```
 */
export class ServedResults {
  /** The calls' keys, by their ids. */
  readonly #keys = new Map<string, string>();

  /** A call shown: remembered when the provider ran it. */
  add(event: CompletedToolCallEvent): void {
    if (event.providerExecuted && event.id !== null) this.#keys.set(event.id, callKey(event));
  }

  /** A kept part: `output` gets the chunk of the call it is the result of, once. */
  take(
    part: ReasoningPart,
    output: (key: string, chunk: (toolCallId: string) => Record<string, unknown>) => void,
  ): void {
    if (part.type !== "block") return;
    const ref = part.block["tool_use_id"] ?? part.block["id"];
    const key = typeof ref === "string" ? this.#keys.get(ref) : undefined;
    if (key === undefined) return;
    this.#keys.delete(ref as string);
    const result = part.block;
    output(key, (toolCallId) => ({
      type: "tool-output-available",
      toolCallId,
      output: result,
      providerExecuted: true,
    }));
  }

  /** A new step: its calls are others. */
  clear(): void {
    this.#keys.clear();
  }
}
