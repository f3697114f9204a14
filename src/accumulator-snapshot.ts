import type { FinishReason, InvalidToolCall, ToolCall, Usage } from "./types.ts";

/** One open call in a {@link AccumulatorSnapshot}: its fields, with the arguments as text. */
export interface SavedToolCall {
  index: number;
  choice: number;
  providerIndex: number | undefined;
  id: string | null;
  name: string;
  /** The arguments text received so far; a restore feeds it again to rebuild parser state. */
  rawArguments: string;
  bytes: number;
  started: boolean;
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
 * The whole state of a {@link ToolCallAccumulator} between two deltas, as plain JSON: it can be
 * stored (`JSON.stringify`) and given to `ToolCallAccumulator.restore` or the `restoreFrom`
 * option of `ToolCallAccumulatorStream`, which then continues exactly where the first one stopped.
 */
export interface AccumulatorSnapshot {
  version: 1;
  registry: RegistrySnapshot;
  toolCalls: ToolCall[];
  invalidToolCalls: InvalidToolCall[];
  rawReason: string | null;
  reason?: FinishReason;
  finishSeen: boolean;
  providerErrorSeen: boolean;
  usage?: Usage;
  text: string;
  reasoning: string;
  closed: boolean;
}
