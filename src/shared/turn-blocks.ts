/**
 * The accumulator's plug-in for a turn of blocks, items, parts or steps, which the protocols of
 * such turns name (here, below both: the providers name it, the accumulator runs it).
 *
 * @module
 */
import type { ApprovalRequest, FinishReason } from "./deltas.ts";
import type { DiscardedToolCall, FinishEvent, InvalidToolCall, ToolCallEvent } from "./events.ts";
import type { TurnOrderEntry } from "./turn-order.ts";

export type { TurnOrderEntry } from "./turn-order.ts";

/** What {@link TurnBlocks} reads and keeps of an accumulator's state (its `AccumulatorState`). */
export interface TurnBlocksState {
  /** The first choice's text so far. */
  text: string;
  /** The normalized finish reason, once known. */
  reason?: FinishReason | undefined;
  /** The first choice's text runs, calls and reasoning parts in the order they came, once one did. */
  order?: TurnOrderEntry[] | undefined;
  /** The provider's approval requests so far, once one came. */
  approvalRequests?: ApprovalRequest[] | undefined;
  /** The calls the provider withdrew so far, once one was. */
  withdrawnToolCalls?: InvalidToolCall[] | undefined;
}

/**
 * What an accumulator keeps of a turn of blocks, items, parts or steps beyond its text and calls:
 * the type of the plug-in {@link turnBlocks}, which the protocols of such turns name (Anthropic,
 * OpenAI Responses, Gemini, Bedrock, Gemini Interactions), each with the parts its turns need. A
 * protocol whose turn is text, then calls (OpenAI Chat, Cohere, Ollama) names none, so that its
 * bundle holds none of this.
 */
export interface TurnBlocks {
  /**
   * A piece of the first choice's turn, noted in `state.order` as it comes: a run of text (`value`:
   * its length; adjacent runs joined), a call at its first fragment (its index), a reasoning part (1;
   * adjacent parts counted together). The entries are as many as the turn's calls and parts, each
   * bounded by its own limit, plus the runs of text between them.
   */
  note(state: TurnBlocksState, type: TurnOrderEntry["type"], value: number): void;
  /**
   * An approval request: listed in `state.approvalRequests`, and passed on. Left out by a protocol
   * whose decoder makes none (its bundle holds none of it); without it, one is dropped.
   */
  approve?(state: TurnBlocksState, request: ApprovalRequest, enqueue: (event: ToolCallEvent) => void): void;
  /**
   * A call the provider withdrew (closed unparsed): an `invalid-tool-call` listed in
   * `state.withdrawnToolCalls`. Left out by a protocol whose decoder withdraws none; without it, the
   * call is closed unreported.
   */
  withdraw?(state: TurnBlocksState, call: DiscardedToolCall, enqueue: (event: ToolCallEvent) => void): void;
  /** Completes the `finish` event of `state`: its `order`, and the reason `approval` while approval requests wait (the accumulator's `error` of a failed turn is set after it). */
  finish(state: TurnBlocksState, event: FinishEvent): void;
}

/**
 * The accumulator's plug-in for a turn of blocks (see {@link TurnBlocks}): where the first
 * choice's text runs, calls and reasoning parts came, for the `finish` event's `order` (given
 * when they did not come as reasoning, text, calls; `assistantMessage` and the request kit send the
 * next turn in it), the approval requests (OpenAI Responses' MCP), for the finish's
 * `approvalRequests` and its reason `approval`, and the calls the provider withdrew (Anthropic's
 * before a `fallback` block), as `invalid-tool-call`s of code `withdrawn` listed in
 * `withdrawnToolCalls`. Name it as the `turnBlocks` of a `ProviderProtocol` of your own that
 * streams such turns; `ToolCallAccumulator` and `ToolCallAccumulatorStream` take it by default.
 *
 * @example
 * ```ts
 * const gateway: ProviderProtocol = { name: "acme-gateway", createDecoder, turnBlocks };
 * ```
 */
export const turnBlocks: Required<TurnBlocks> = { note, approve, withdraw, finish: finishApprovals };

/**
 * The plug-in a protocol object is read with: the `turnBlocks` it names, else the whole
 * {@link turnBlocks}, so that one of the application's own keeps its approval requests, withdrawn
 * calls and `order` (`streamToolCalls` and `ToolCallChain` alike). Not exported by the package.
 */
export const blocksOf = (protocol: { readonly turnBlocks?: TurnBlocks | undefined }): TurnBlocks =>
  protocol.turnBlocks ?? turnBlocks;

/**
 * {@link turnBlocks} for a turn whose calls the provider may run, and that may ask approvals but
 * withdraws no call (OpenAI Responses'): no `withdraw`, so that its bundle holds none of it. Not
 * exported by the package.
 */
export const approvalBlocks: TurnBlocks = { note, approve, finish: finishApprovals };

/**
 * {@link turnBlocks} for a turn whose calls the provider may run or withdraw, and that asks no
 * approval (Anthropic's, Bedrock's, Gemini Interactions'): no `approve`, so that their bundles hold
 * none of it. Not exported by the package.
 */
export const serverCallBlocks: TurnBlocks = { note, withdraw, finish: finishServerCalls };

/**
 * {@link turnBlocks} for a turn of parts whose calls are all the client's (Gemini's): its `order`
 * alone. Not exported by the package.
 */
export const turnOrderBlocks: TurnBlocks = { note, finish: finishOrder };

function note(state: TurnBlocksState, type: TurnOrderEntry["type"], value: number): void {
  const order = (state.order ??= []);
  const last = order.at(-1);
  if (type === "tool-call") order.push({ type, index: value });
  else if (type === "text" && last?.type === type) last.length += value;
  else if (type === "reasoning-parts" && last?.type === type) last.count += value;
  else if (value) order.push(type === "text" ? { type, length: value } : { type, count: value });
}

function approve(state: TurnBlocksState, request: ApprovalRequest, enqueue: (event: ToolCallEvent) => void): void {
  (state.approvalRequests ??= []).push(request);
  enqueue({ type: "approval-request", ...request });
}

function withdraw(state: TurnBlocksState, call: DiscardedToolCall, enqueue: (event: ToolCallEvent) => void): void {
  const invalid = {
    ...call,
    error: { code: "withdrawn" as const, message: "The provider withdrew this call: it must not run." },
  };
  (state.withdrawnToolCalls ??= []).push(invalid);
  enqueue({ type: "invalid-tool-call", ...invalid });
}

function finishApprovals(state: TurnBlocksState, event: FinishEvent): void {
  // A turn with approval requests waits on the application's answer, whatever else it holds: a
  // provider ends it as a normal stop (OpenAI's `completed`), which would end a loop unanswered.
  const reason = state.reason;
  if (state.approvalRequests && (reason === undefined || reason === "stop" || reason === "tool-calls"))
    event.reason = "approval";
  finishServerCalls(state, event);
}

function finishServerCalls(state: TurnBlocksState, event: FinishEvent): void {
  // Calls the provider ran itself alone (Anthropic's web search, code execution, MCP), even one
  // whose input did not parse, are no `tool-calls`: the client has nothing to run or answer.
  const calls = [...event.toolCalls, ...event.invalidToolCalls];
  if (event.reason === "tool-calls" && calls[0] && calls.every((call) => call.providerExecuted)) event.reason = "stop";
  finishOrder(state, event);
}

/**
 * Sets the `finish` event's `order`, unless it says nothing a turn without one does not (reasoning
 * parts, then text, then the calls by index, the order every next turn used before), so that only
 * a turn whose pieces came otherwise carries it.
 */
function finishOrder(state: TurnBlocksState, event: FinishEvent): void {
  // The kinds in the order a turn without `order` goes back: parts (0), text (1), calls (2) by
  // index. Adjacent runs of one kind were joined, so a rank that never goes down is that order.
  let rank = 0;
  let index = -1;
  const order = state.order ?? [];
  for (const entry of order) {
    const next = entry.type === "text" ? 1 : entry.type === "tool-call" ? 2 : 0;
    if (next < rank || (entry.type === "tool-call" && entry.index < index)) {
      event.order = order;
      return;
    }
    if (entry.type === "tool-call") index = entry.index;
    rank = next;
  }
}
