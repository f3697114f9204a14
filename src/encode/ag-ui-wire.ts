/**
 * The options of the AG-UI encoder and the token usage of its `RUN_FINISHED`.
 *
 * @module
 */
import type { Usage } from "../shared/deltas.ts";

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
   * Makes the tokens of generated ids: message ids, and call ids a provider does not give.
   * @defaultValue {@link randomId}
   */
  generateId?: (() => string) | undefined;
}

/** Usage as AG-UI's `TokenUsage`: only the counts the provider reported. */
export function tokenUsage(usage: Usage): Record<string, number> {
  const counts: Record<string, number> = {};
  if (usage.inputTokens !== undefined) counts["inputTokens"] = usage.inputTokens;
  if (usage.outputTokens !== undefined) counts["outputTokens"] = usage.outputTokens;
  if (usage.totalTokens !== undefined) counts["totalTokens"] = usage.totalTokens;
  return counts;
}
