/**
 * The options of the AG-UI encoder, its record of a call, the token usage of its `RUN_FINISHED`,
 * its `RUN_ERROR` and its event of a schema violation.
 *
 * @module
 */
import type { ReasoningPart, Usage } from "../shared/deltas.ts";
import { failureKind, type ProviderErrorKind } from "../shared/errors.ts";
import { checkOptionNames } from "../shared/option-names.ts";
import type { ToolErrorEvent, ToolResultEvent } from "../tools/tool-events.ts";

/** Options of {@link AGUIEncoder} and {@link AGUIEncoderStream}. */
export interface AGUIEncoderOptions {
  /** The thread of the run: `RunAgentInput.threadId`. */
  threadId: string;
  /** The run: `RunAgentInput.runId`. */
  runId: string;
  /**
   * The id of the (first) assistant message; a tool loop's later steps get generated ones.
   * @defaultValue `msg_` and a generated token
   */
  messageId?: string | undefined;
  /**
   * Send reasoning as AG-UI 1.0's `REASONING_*` events. Readers of AG-UI before its reasoning
   * events (which reject event types they do not know) need `false`.
   * @defaultValue true
   */
  reasoning?: boolean | undefined;
  /**
   * The `encryptedValue` of a reasoning block's provider state (an Anthropic signature, an OpenAI
   * item's encrypted content): sent as `REASONING_ENCRYPTED_VALUE` on the block's reasoning message,
   * which `@ag-ui/client` keeps on that message and sends back in the next run's `messages`, so a
   * server that wants the state back on the next turn encodes it here. Each block then ends its
   * reasoning message, so that each keeps its own value.
   * @defaultValue none: no `REASONING_ENCRYPTED_VALUE`
   */
  encryptedValue?: ((part: ReasoningPart) => string | undefined) | undefined;
  /**
   * Makes the tokens of generated ids: message ids, and call ids a provider does not give.
   * @defaultValue {@link randomId}
   */
  generateId?: (() => string) | undefined;
}

/** Every option of {@link AGUIEncoderOptions}, typed as its keys (`joinDeltas` is the stage's). */
export const AGUI_OPTIONS: Record<keyof AGUIEncoderOptions, 0> = {
  threadId: 0,
  runId: 0,
  messageId: 0,
  reasoning: 0,
  encryptedValue: 0,
  generateId: 0,
};

/** The run's ids, once each name of `options` is one of {@link AGUI_OPTIONS} (else a `TypeError` naming it). */
export function aguiRun(options: AGUIEncoderOptions): { threadId: string; runId: string } {
  checkOptionNames(options, AGUI_OPTIONS);
  return { threadId: options.threadId, runId: options.runId };
}

// Usage's name of each of AG-UI's counts: the cache's and reasoning's are parts of the input's and
// output's in both (the library adds a cache counted apart to the input, as AG-UI's producers must).
const TOKEN_COUNTS = {
  inputTokens: "inputTokens",
  outputTokens: "outputTokens",
  totalTokens: "totalTokens",
  reasoningTokens: "reasoningTokens",
  cachedInputTokens: "cacheReadTokens",
  cacheWriteInputTokens: "cacheWriteTokens",
} as const;

/** Usage as AG-UI's `TokenUsage`: only the counts the provider reported. */
export function tokenUsage(usage: Usage): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [name, count] of Object.entries(TOKEN_COUNTS)) if (usage[count] !== undefined) counts[name] = usage[count];
  return counts;
}

/**
 * The `RUN_ERROR` of a failure: its message, coded by a provider failure's kind where it is known
 * (`overloaded`, `rate-limited`, `quota-exceeded`, `context-overflow`, `invalid-request`), else by the
 * library's code.
 */
export function runError(error: { code: string; message: string; kind?: ProviderErrorKind; data?: unknown }): {
  type: "RUN_ERROR";
  message: string;
  code: string;
} {
  const kind = failureKind(error);
  return { type: "RUN_ERROR", message: error.message, code: kind && kind !== "other" ? kind : error.code };
}

/** A call the AG-UI encoder started: its id on the wire, what it sent, whether it ended. */
export interface AGUICall {
  /** The `toolCallId` it was started with. */
  id: string;
  /** The argument fragments sent, joined once at the end to check they are the whole. */
  sent: string[];
  /** `TOOL_CALL_END` went out. */
  ended: boolean;
}

/** A call's schema violation, which AG-UI has no event for: a CUSTOM event, which clients receive through `onCustomEvent`. */
export const violationEvent = (
  toolCallId: string,
  { path, message }: { path: string; message: string },
): { type: "CUSTOM"; name: "tool-call-violation"; value: { toolCallId: string; path: string; message: string } } => ({
  type: "CUSTOM",
  name: "tool-call-violation",
  value: { toolCallId, path, message },
});

/**
 * A tool's result or error as AG-UI's `TOOL_CALL_RESULT` (a new message, of id `messageId()`; its
 * content JSON text unless a string, an error its message). AG-UI has one result per call: a
 * streaming tool's results so far are `CUSTOM {name: "tool-result-preliminary"}` events.
 */
export function resultEvent(
  event: ToolResultEvent | ToolErrorEvent,
  toolCallId: string,
  messageId: () => string,
): Record<string, unknown> {
  const result = event.type === "tool-result" ? event.result : event.error.message;
  const value = { toolCallId, content: typeof result === "string" ? result : JSON.stringify(result) };
  return event.type === "tool-result" && event.preliminary
    ? { type: "CUSTOM", name: "tool-result-preliminary", value }
    : { type: "TOOL_CALL_RESULT", messageId: messageId(), ...value, role: "tool" };
}
