import type { ReasoningPart } from "../../shared/deltas.ts";
import type { JsonValue } from "../../shared/json.ts";
import { isRecord, ownValue } from "../../shared/values.ts";
import { asObject } from "../request.ts";
import { isServerCall, isServerStep } from "./gemini-interactions-server-steps.ts";
import {
  asText,
  idOf,
  own,
  piecesInOrder,
  turnPieces,
  type AssistantTurn,
  type OrderedTurn,
  type ToolResult,
} from "../turn.ts";

/**
 * Gemini Interactions: the steps that replay the turn in the next request's `input`, when the
 * conversation is sent whole (with `store: false`, or without `previous_interaction_id`): the
 * steps of the built-in tools the provider ran (each call step and its result step, as they
 * streamed, signatures included), its `thought` steps with their signatures (from `signed` reasoning parts, in order), a
 * `model_output` step of its text, and its `function_call` steps, each with its `signature` when
 * it came with one: in the order the stream gave them (`order`), else in that order. With `previous_interaction_id` the server holds the turn: send only the results.
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { provider: "gemini-interactions" })) {
 *   if (event.type === "finish") input.push(...geminiInteractionsSteps(event));
 * }
 * ```
 */
export function geminiInteractionsSteps(turn: AssistantTurn): Record<string, unknown>[] {
  const ordered = orderedSteps(
    { text: turn.text ?? "", calls: turn.toolCalls, parts: turn.reasoningParts, order: turn.order },
    (call) => (call.providerExecuted ? [] : [functionCallStep(call, idOf(call), asObject(call.arguments))]),
  );
  if (ordered) return ordered;
  const steps = serverSteps(turn.toolCalls);
  steps.push(...thoughtSteps(turn.reasoningParts));
  if (turn.text) steps.push({ type: "model_output", content: [{ type: "text", text: turn.text }] });
  for (const call of own(turn.toolCalls)) steps.push(functionCallStep(call, idOf(call), asObject(call.arguments)));
  return steps;
}

/**
 * Gemini Interactions: one `function_result` step per result, by the call's `call_id`.
 *
 * @example
 * ```ts
 * input.push(...geminiInteractionsResults([{ call, output: { temperature: 21 } }]));
 * ```
 */
export function geminiInteractionsResults(results: readonly ToolResult[]): Record<string, unknown>[] {
  return results.map((result) =>
    functionResultStep(idOf(result.call), result.call.name, result.output, result.isError),
  );
}

/** A call of an earlier turn as a `function_call` step, with the signature it came with. */
export function functionCallStep(
  call: { readonly name: string; readonly providerMetadata?: Readonly<Record<string, unknown>> | undefined },
  id: string,
  args: Record<string, JsonValue>,
): Record<string, unknown> {
  const signature = call.providerMetadata?.["signature"];
  return {
    type: "function_call",
    id,
    name: call.name,
    arguments: args,
    ...(typeof signature === "string" ? { signature } : {}),
  };
}

/** A result as a `function_result` step: text or a JSON object as they are, any other value as its JSON text. */
export function functionResultStep(
  callId: string,
  name: string | undefined,
  output: JsonValue,
  isError: boolean | undefined,
): Record<string, unknown> {
  const result = typeof output === "object" && output !== null && !Array.isArray(output) ? output : asText(output);
  return {
    type: "function_result",
    call_id: callId,
    ...(name !== undefined ? { name } : {}),
    result,
    ...(isError ? { is_error: true } : {}),
  };
}

/**
 * The turn's signed reasoning as `thought` steps, and the built-in tools' steps a client carried
 * back as `block` parts (a Worker's client protocol), each in its place among them; other kinds
 * of parts (and other providers' blocks, OpenAI's tool items among them) are other providers'.
 */
export function thoughtSteps(parts: readonly ReasoningPart[] | undefined): Record<string, unknown>[] {
  return (parts ?? []).flatMap((part): Record<string, unknown>[] => {
    // OpenAI's tool items (`web_search_call`, `file_search_call`, ...) carry a `status`; no step does.
    if (part.type === "block")
      return isServerStep(part.block) && !("status" in part.block) ? [withResult(part.block)] : [];
    if (part.type !== "signed") return [];
    return [
      {
        type: "thought",
        signature: part.signature,
        ...(part.text !== "" ? { summary: [{ type: "text", text: part.text }] } : {}),
      },
    ];
  });
}

/** The `result` each result step must have (the API's schema requires it), by the step's type. */
const EMPTY_RESULTS: Readonly<Record<string, JsonValue>> = {
  google_search_result: [],
  google_maps_result: [],
  url_context_result: [],
  code_execution_result: "",
  mcp_server_tool_result: "",
};

/**
 * A result step as it goes back: one that streamed without its `result` (the docs' own
 * `google_search_result`, whose only delta carries `is_error`) with an empty one, as its type
 * requires it (`@google/genai`'s `GoogleSearchResultStep.result`, "Required").
 */
function withResult<Step extends Record<string, unknown>>(step: Step): Step {
  const empty = ownValue(EMPTY_RESULTS, String(step["type"]));
  return empty === undefined || "result" in step ? step : { ...step, result: empty };
}

/** A call the provider ran, as its stream recorded it: its call step (a server tool's), if it is one. */
const serverStepOf = (call: {
  readonly providerMetadata?: Readonly<Record<string, unknown>> | undefined;
}): Record<string, unknown> | undefined => {
  const step = call.providerMetadata?.["step"];
  return isRecord(step) && isServerCall(step["type"]) ? step : undefined;
};

/**
 * A call of an earlier turn is a built-in tool's the provider ran, sent back as its own steps.
 *
 * @example
 * ```ts
 * const own = finish.toolCalls.filter((call) => !isServerStepCall(call));
 * ```
 */
export const isServerStepCall = (call: {
  readonly providerMetadata?: Readonly<Record<string, unknown>> | undefined;
}): boolean => serverStepOf(call) !== undefined;

/**
 * The calls the provider ran, each as its call step and its result step, as they streamed.
 *
 * @example
 * ```ts
 * input.push(...serverSteps(finish.toolCalls)); // google_search_call, google_search_result, ...
 * ```
 */
export function serverSteps(
  calls: readonly { readonly providerMetadata?: Readonly<Record<string, unknown>> | undefined }[],
): Record<string, unknown>[] {
  const steps: Record<string, unknown>[] = [];
  for (const call of calls) {
    const step = serverStepOf(call);
    if (!step) continue;
    steps.push(step);
    const result = call.providerMetadata?.["result"];
    if (isRecord(result)) steps.push(withResult(result));
  }
  return steps;
}

/**
 * A model turn's steps in the order the stream gave them (`order`): each thought, text run, call
 * (by `callSteps`) and built-in tool's call with its result step in its place; undefined for a
 * turn without one (or one that does not match it), which goes back in the order of kinds.
 *
 * @example
 * ```ts
 * const steps = orderedSteps({ text, calls, parts, order }, (call) => [functionCallStep(call, call.id, call.arguments)]) ?? legacy;
 * ```
 */
export function orderedSteps<
  Call extends {
    readonly index?: number | undefined;
    readonly providerMetadata?: Readonly<Record<string, unknown>> | undefined;
  },
>(
  turn: OrderedTurn<Call>,
  callSteps: (call: Call, index: number) => Record<string, unknown>[],
): Record<string, unknown>[] | undefined {
  if (turnPieces(turn) === undefined) return undefined;
  return piecesInOrder(turn, {
    part: (part) => thoughtSteps([part]),
    text: (text) => (text === "" ? [] : [{ type: "model_output", content: [{ type: "text", text }] }]),
    call: (call, index) => (isServerStepCall(call) ? serverSteps([call]) : callSteps(call, index)),
  });
}
