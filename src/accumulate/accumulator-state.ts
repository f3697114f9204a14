/**
 * The accumulator's state as plain JSON: what it keeps between two deltas, and the snapshot
 * format of `snapshotAccumulator` / `restoreAccumulator`. Types only, so that the accumulator
 * and the snapshot functions both read them without importing each other.
 *
 * @module
 */
import type { ApprovalRequest, FinishReason, ReasoningPart, Usage } from "../shared/deltas.ts";
import type { ExecutionContainer, ModerationResults, RefusalDetails } from "../shared/finish-details.ts";
import type { InvalidToolCall, ToolCall } from "../shared/events.ts";
import type { TurnOrderEntry } from "../shared/turn-order.ts";

/** One open call in a {@link AccumulatorSnapshot}: its fields, with the arguments as text. */
export interface SavedToolCall {
  /** The call's index, as events report it. */
  index: number;
  /** The choice it belongs to (`0` for the first). */
  choice: number;
  /** The provider's own index, the correlation key when it sends one. */
  providerIndex: number | undefined;
  /** The provider's call id, or `null` while none came. */
  id: string | null;
  /** The function name received so far. */
  name: string;
  /** The arguments text received so far; a restore feeds it again to rebuild parser state. */
  rawArguments: string;
  /** True once its `tool-call-start` was emitted. */
  started: boolean;
  /** Other fields of the open call (provider metadata, input format), kept as they were. */
  [field: string]: unknown;
}

/** The call-correlation state of a {@link AccumulatorSnapshot}. */
export interface RegistrySnapshot {
  /** Open calls, in the order they were opened. */
  open: SavedToolCall[];
  /** Per choice, the index of the most recent open call (the target of fragments with no index or id). */
  latest: [choice: number, index: number][];
  /** Per choice, the indexes already given and the next free one. */
  used: [choice: number, indexes: number[], next: number][];
  /** Calls opened so far, for the `maxToolCalls` limit. */
  count: number;
}

/**
 * The whole state of a {@link ToolCallAccumulator} between two deltas, as plain JSON, taken by
 * {@link snapshotAccumulator}: it can be stored (`JSON.stringify`) and given to
 * {@link restoreAccumulator}, and the restored accumulator continues exactly where the first one
 * stopped.
 */
export interface AccumulatorSnapshot {
  /**
   * The snapshot format: 2 since open calls no longer carry `bytes` (0.1.0 wrote 1). A restore of
   * another version is refused.
   */
  version: 2;
  /** The open calls and how fragments find them. */
  registry: RegistrySnapshot;
  /** Calls completed so far, for the `finish` event. */
  toolCalls: ToolCall[];
  /** Calls completed with invalid arguments so far, for the `finish` event. */
  invalidToolCalls: InvalidToolCall[];
  /** The provider's finish reason as sent, or `null` before it came. */
  rawReason: string | null;
  /** The normalized finish reason, once known. */
  reason?: FinishReason;
  /** True once the provider's finish came. */
  finishSeen: boolean;
  /** True once the provider reported an error in the stream. */
  providerErrorSeen: boolean;
  /** Token usage reported so far. */
  usage?: Usage;
  /** The text of the first choice so far. */
  text: string;
  /** The reasoning text of the first choice so far. */
  reasoning: string;
  /** True once the accumulator emitted its `finish` or `abort`. */
  closed: boolean;
  /** The calls the provider withdrew so far, once one was. */
  withdrawnToolCalls?: InvalidToolCall[];
  /** The provider's approval requests so far, once one came. */
  approvalRequests?: ApprovalRequest[];
  /** The reasoning parts so far (signed, redacted, or reasoning items), once one came. */
  reasoningParts?: ReasoningPart[];
  /** The code-execution container the provider named, once it did. */
  container?: ExecutionContainer;
  /** The stop sequence the provider said it stopped at. */
  stopSequence?: string;
  /** Why the provider declined, when it said. */
  refusal?: RefusalDetails;
  /** The token that continues a decode the provider's per-request limit cut, when it gave one. */
  continuationToken?: string;
  /** The provider's moderation results, once they came. */
  moderation?: ModerationResults;
  /** The first choice's text runs, calls and reasoning parts in the order they came, once one did. */
  order?: TurnOrderEntry[];
}

/** What an accumulator keeps besides its call registry: a snapshot without `version` and `registry`. */
export type AccumulatorState = Omit<AccumulatorSnapshot, "version" | "registry">;
