import type { ReasoningPart } from "../../shared/deltas.ts";
import { own, turnPieces, type AssistantTurn, type OrderedTurn, type ToolResult } from "../turn.ts";
import { GEMINI_KEPT_PARTS } from "./gemini-delta-stream.ts";

/** A kept block that is one of Gemini's parts (a server tool's call or response, code and its result), not another provider's block. */
const keptPart = (part: ReasoningPart): Record<string, unknown>[] =>
  part.type === "block" && part.block["type"] === undefined && GEMINI_KEPT_PARTS.some((key) => key in part.block)
    ? [part.block]
    : [];

/**
 * Gemini: a `model` content of the turn's parts: in the order the stream gave them (`order`), its
 * text parts, `functionCall` parts and the parts kept whole (a server tool's `toolCall` and
 * `toolResponse`, `executableCode`, `codeExecutionResult`), each with the thought signature it came with (Gemini asks
 * every signature back in its original part: a signature that came after text goes back on that
 * text, one on a part of no text as such a part); a turn without one, a text part (with the
 * signature of a part that was not a call) then the calls, each with its signature.
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { provider: "gemini" })) {
 *   if (event.type === "finish") contents.push(geminiModelContent(event));
 * }
 * ```
 */
export function geminiModelContent(turn: AssistantTurn): Record<string, unknown> {
  const ordered = { text: turn.text ?? "", calls: own(turn.toolCalls), parts: turn.reasoningParts, order: turn.order };
  return { role: "model", parts: geminiTurnParts(ordered, (call) => [functionCallPart(call, call.arguments)]) };
}

/**
 * A model turn's parts, for the next turn and the request kit: in the order the stream gave them
 * when the turn has one ({@link turnPieces}), each signed reasoning part's signature on the text
 * run right before it (the part it came with) or, with none, on a part of empty text; else a text
 * part with the turn's last signature, then the calls.
 *
 * @example
 * ```ts
 * const parts = geminiTurnParts({ text, calls, parts: reasoningParts, order }, (call) => [functionCallPart(call, call.arguments)]);
 * ```
 */
export function geminiTurnParts<Call extends { readonly index?: number | undefined }>(
  turn: OrderedTurn<Call>,
  callParts: (call: Call) => Record<string, unknown>[],
): Record<string, unknown>[] {
  const pieces = turnPieces(turn);
  if (pieces === undefined) {
    let signature: string | undefined;
    for (const part of turn.parts ?? []) if (part.type === "signed") signature = part.signature;
    const text = turn.text
      ? [{ text: turn.text, ...(signature !== undefined ? { thoughtSignature: signature } : {}) }]
      : [];
    return [...(turn.parts ?? []).flatMap(keptPart), ...text, ...turn.calls.flatMap(callParts)];
  }
  const parts: Record<string, unknown>[] = [];
  // The text part right before, while no signature is on it.
  let unsigned: Record<string, unknown> | undefined;
  for (const piece of pieces) {
    if (piece.type === "text") parts.push((unsigned = { text: piece.text }));
    else if (piece.type === "tool-call") {
      unsigned = undefined;
      parts.push(...callParts(piece.call));
    } else if (piece.part.type === "block") {
      unsigned = undefined;
      parts.push(...keptPart(piece.part));
    } else if (piece.part.type === "signed") {
      if (unsigned) unsigned["thoughtSignature"] = piece.part.signature;
      else parts.push({ text: piece.part.text, thoughtSignature: piece.part.signature });
      unsigned = undefined;
    }
  }
  return parts;
}

/**
 * Gemini: a `user` content of `functionResponse` parts (the response must be an object).
 *
 * @example
 * ```ts
 * contents.push(geminiFunctionResponseContent([{ call, output: { temperature: 21 } }]));
 * ```
 */
export function geminiFunctionResponseContent(results: readonly ToolResult[]): Record<string, unknown> {
  return {
    role: "user",
    parts: results.map((result) => {
      const { output } = result;
      const response = result.isError
        ? { error: output }
        : output !== null && typeof output === "object" && !Array.isArray(output)
          ? output
          : { result: output };
      return {
        functionResponse: {
          name: result.call.name,
          ...(result.call.id !== null ? { id: result.call.id } : {}),
          response,
        },
      };
    }),
  };
}

/** A call of an earlier turn as a `functionCall` part, with the `args` given. */
export function functionCallPart(
  call: {
    readonly id: string | null;
    readonly name: string;
    readonly providerMetadata?: Readonly<Record<string, unknown>> | undefined;
  },
  args: unknown,
): Record<string, unknown> {
  const signature = call.providerMetadata?.["thoughtSignature"];
  return {
    functionCall: { name: call.name, args, ...(call.id !== null ? { id: call.id } : {}) },
    // Gemini 3 refuses a function call sent back without the thought signature it came with.
    ...(typeof signature === "string" ? { thoughtSignature: signature } : {}),
  };
}
