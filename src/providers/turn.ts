/**
 * The turn a provider expects back in the next request, as the message builders of each
 * provider folder read it: the assistant's text, calls and reasoning, and the outcome of each call.
 * Calls the provider ran itself (`providerExecuted`, e.g. Anthropic web search) are never sent as
 * calls the application answers: each builder sends them back in the provider's own shape (with
 * their results) or leaves them out, and no tool message answers them.
 *
 * @module
 */
import type { ApprovalRequest, ReasoningPart } from "../shared/deltas.ts";
import type { ToolCall } from "../shared/events.ts";
import type { TurnOrderEntry } from "../shared/turn-order.ts";
import type { JsonValue } from "../shared/json.ts";

/** What an assistant turn produced: a `finish` event fits as it is. */
export interface AssistantTurn {
  /** The visible text, if any. */
  text?: string;
  /** The reasoning text, if any: Cohere sends it back, without its thinking parts' text, as the `tool_plan` of a turn with calls, Ollama as `thinking`; the others ignore it. */
  reasoning?: string;
  /** The complete calls, in index order. */
  toolCalls: readonly ToolCall[];
  /** The reasoning parts, in order: Anthropic uses its signed and redacted blocks, OpenAI Responses its reasoning items, Cohere its thinking items; the others ignore them. */
  reasoningParts?: readonly ReasoningPart[] | undefined;
  /** The provider's approval requests (OpenAI Responses' MCP approvals): OpenAI Responses sends them back, after the calls; the others have none. */
  approvalRequests?: readonly ApprovalRequest[] | undefined;
  /**
   * The text, calls and reasoning parts in the order the stream gave them (`finish.order`):
   * Anthropic, OpenAI Responses, Gemini, Gemini Interactions and Bedrock send the turn back in it.
   * Absent, or not matching the lists (a turn changed by hand): reasoning parts, then text, then calls.
   */
  order?: readonly TurnOrderEntry[] | undefined;
}

/** The outcome of running one call. */
export interface ToolResult {
  /**
   * The call this answers: its id and name, and, when it has them, its input format, its
   * `providerMetadata` and its arguments (an OpenAI Responses built-in call's result is an item
   * of its own kind, made from them). A call the provider ran (`providerExecuted`) takes no result
   * of the client's: `toolResultMessages` leaves its result out.
   */
  call: Pick<ToolCall, "id" | "name" | "inputFormat"> & {
    providerExecuted?: true | undefined;
    providerMetadata?: Readonly<Record<string, unknown>> | undefined;
    arguments?: JsonValue | undefined;
  };
  /** What the tool returned: text, or any JSON value. */
  output: JsonValue;
  /** The tool failed; `output` says why. */
  isError?: boolean;
  /**
   * The safety checks the user confirmed before the call ran (an OpenAI Responses `computer_call`'s
   * `pending_safety_checks`, which `runToolLoop` asks its `approve` hook about): its
   * `computer_call_output` carries them as `acknowledged_safety_checks`; the other providers have none.
   */
  acknowledgedSafetyChecks?: readonly SafetyCheck[] | undefined;
}

/**
 * A check OpenAI raised on a computer call (Responses `computer_call.pending_safety_checks`:
 * `malicious_instructions`, `irrelevant_domain`, `sensitive_domain`): the application must have the
 * user confirm it before the call runs, and send it back, confirmed, with the call's output.
 */
export interface SafetyCheck {
  /** The check's id. */
  id: string;
  /** What kind of check it is (`malicious_instructions`, ...). */
  code?: string;
  /** What it warns of, for the user to read. */
  message?: string;
}

/** The calls the application runs: those the provider did not execute itself. */
export const own = (calls: readonly ToolCall[]): ToolCall[] => calls.filter((call) => !call.providerExecuted);
/** A tool output as the text a provider takes. */
export const asText = (output: JsonValue): string => (typeof output === "string" ? output : JSON.stringify(output));
/** The id a provider correlates a result by: the call id, or the name for providers without ids. */
export const idOf = (call: Pick<ToolCall, "id" | "name">): string => call.id ?? call.name;

/** One piece of a turn, in the order the stream gave it: a run of text, a call, or a reasoning part. */
export type TurnPiece<Call> =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "tool-call"; readonly call: Call }
  | { readonly type: "reasoning-part"; readonly part: ReasoningPart };

/** What {@link turnPieces} reads of a turn (an {@link AssistantTurn}, or a request's assistant message). */
export interface OrderedTurn<Call> {
  readonly text: string;
  readonly calls: readonly Call[];
  readonly parts?: readonly ReasoningPart[] | undefined;
  readonly order?: readonly TurnOrderEntry[] | undefined;
}

/**
 * A turn's pieces in the order the stream gave them, by its `order`; undefined when it has none,
 * or one that does not match its lists (text of another length, a part or a call it does not
 * place, two calls of one index): such a turn goes back as every turn did before, its reasoning
 * parts, then its text, then its calls. A call the order places but the turn does not list (it
 * ended invalid, or was withdrawn) is skipped.
 *
 * @example
 * ```ts
 * const pieces = turnPieces({ text: finish.text, calls: finish.toolCalls, parts: finish.reasoningParts, order: finish.order });
 * ```
 */
export function turnPieces<Call extends { readonly index?: number | undefined }>(
  turn: OrderedTurn<Call>,
): TurnPiece<Call>[] | undefined {
  const { text, calls, parts = [], order } = turn;
  if (order === undefined) return undefined;
  const byIndex = new Map<number, Call>();
  for (const call of calls) {
    if (call.index === undefined || byIndex.has(call.index)) return undefined;
    byIndex.set(call.index, call);
  }
  const pieces: TurnPiece<Call>[] = [];
  let [at, next, placed] = [0, 0, 0];
  for (const entry of order) {
    if (entry.type === "text") {
      if (at + entry.length > text.length) return undefined;
      pieces.push({ type: "text", text: text.slice(at, (at += entry.length)) });
    } else if (entry.type === "reasoning-parts") {
      if (next + entry.count > parts.length) return undefined;
      for (const part of parts.slice(next, (next += entry.count))) pieces.push({ type: "reasoning-part", part });
    } else {
      const call = byIndex.get(entry.index);
      if (call === undefined) continue;
      byIndex.delete(entry.index);
      placed++;
      pieces.push({ type: "tool-call", call });
    }
  }
  return at === text.length && next === parts.length && placed === calls.length ? pieces : undefined;
}

/**
 * A turn's pieces in the order the stream gave them ({@link turnPieces}), else its reasoning
 * parts, then its text (when it has any), then its calls, each mapped by `map`.
 *
 * @example
 * ```ts
 * const blocks = piecesInOrder(turn, { part: thinkingBlock, text: (text) => [{ text }], call: (call) => [toolUse(call)] });
 * ```
 */
export function piecesInOrder<Call extends { readonly index?: number | undefined }, Out>(
  turn: OrderedTurn<Call>,
  map: {
    readonly part: (part: ReasoningPart) => Out[];
    /** A run of text, with the `block` parts that came right after it (all the turn's, without its order): its cited texts. */
    readonly text: (text: string, cited: readonly ReasoningPart[]) => Out[];
    readonly call: (call: Call, index: number) => Out[];
  },
): Out[] {
  const ordered = turnPieces(turn);
  const pieces = ordered ?? [
    ...(turn.parts ?? []).map((part) => ({ type: "reasoning-part" as const, part })),
    ...(turn.text === "" ? [] : [{ type: "text" as const, text: turn.text }]),
    ...turn.calls.map((call) => ({ type: "tool-call" as const, call })),
  ];
  const positions = new Map(turn.calls.map((call, i) => [call, i]));
  return pieces.flatMap((piece, i) => {
    if (piece.type === "reasoning-part") return map.part(piece.part);
    if (piece.type === "tool-call") return map.call(piece.call, positions.get(piece.call)!);
    return map.text(piece.text, ordered ? citedAfter(pieces, i, () => true) : (turn.parts ?? []));
  });
}

/**
 * The cited texts of a run of text in stream order: the `block` reasoning parts right after it that
 * `cited` takes (each kept at the end of its text, after it: Anthropic's and OpenAI Responses'
 * `text` blocks by default, Bedrock's `citationsContent`).
 *
 * @example
 * ```ts
 * content.push(...anthropicTextBlocks(piece.text, citedAfter(pieces, i)));
 * ```
 */
export function citedAfter<Call>(
  pieces: readonly TurnPiece<Call>[],
  at: number,
  cited: (block: { readonly [key: string]: unknown }) => boolean = (block) => block["type"] === "text",
): ReasoningPart[] {
  // Walked in place, not over a copy of the rest: a turn of many runs and calls stays linear.
  const parts: ReasoningPart[] = [];
  for (let i = at + 1; i < pieces.length; i++) {
    const piece = pieces[i]!;
    if (piece.type !== "reasoning-part" || piece.part.type !== "block" || !cited(piece.part.block)) break;
    parts.push(piece.part);
  }
  return parts;
}

/**
 * A run of text split at the cited texts of `parts` (those `quote` gives a text of), found in order:
 * each cited one as `cited` makes it, the text around them as `plain` makes it, but for white space
 * alone (which Anthropic and Bedrock refuse as a block). A run without any is `plain` of all of it.
 *
 * @example
 * ```ts
 * const items = splitCited(text, parts, annotatedText, (run) => ({ role: "assistant", content: run }), annotatedMessage);
 * ```
 */
export function splitCited<Out>(
  text: string,
  parts: readonly ReasoningPart[],
  quote: (part: ReasoningPart) => string | undefined,
  plain: (run: string) => Out,
  cited: (part: ReasoningPart) => Out,
): Out[] {
  const out: Out[] = [];
  const push = (run: string): void => void (run.trim() && out.push(plain(run)));
  let at = 0;
  // A cited text not found costs a search of the rest of the text: the searches stop once they have
  // read the text a few times over (a history of many such parts would cost parts x text).
  let budget = 4 * text.length;
  for (const part of parts) {
    const quoted = quote(part);
    if (!quoted || budget < 0) continue;
    const start = text.indexOf(quoted, at);
    budget -= (start < 0 ? text.length : start) - at;
    if (start < 0) continue;
    push(text.slice(at, start));
    out.push(cited(part));
    at = start + quoted.length;
  }
  if (at === 0) return [plain(text)];
  push(text.slice(at));
  return out;
}
