import type { FinishReason } from "../shared/deltas.ts";
import type { CompletedToolCallEvent, FinishEvent, InvalidToolCallEvent } from "../shared/events.ts";
import type { EncodableEvent } from "./protocol-encoder.ts";
import { isGrounding } from "./citations.ts";

/**
 * Whether the `invalid-tool-call`s held before `event` stay held: the one rule of the Messages,
 * Responses and AG-UI encoders, which hold them (each in an array, in the order they came) until
 * what follows says whether they were cut. The accumulator completes the calls still open at an
 * abnormal finish (`length`, a filter, an error, `other`) right before that `finish`, each an
 * `invalid-tool-call` (calls it completes whole may come between): a call cut short, not one the
 * model wrote wrong, and a protocol whose clients run a call once it is ended (AG-UI's frontend
 * tools at `TOOL_CALL_END`, Codex at a Responses item's done, an agent at a Messages
 * `content_block_stop`) must never end it. Content after the calls, or a normal finish, releases
 * them, to be ended as the model wrote them; a finish that cut them says so ({@link cutBy}); a
 * fault (an `error` finish, a provider error, an abort) leaves them held, never ended. What a tool
 * runner says of a call (its result, its error, an approval request) is no content of the model's
 * either: a runner answers an invalid call the moment it comes (nothing runs it), before the
 * finish that says whether it was cut.
 */
export const holding = (event: EncodableEvent): boolean =>
  HOLDING.has(event.type) || (event.type === "reasoning-part" && isGrounding(event.part));

/** The finish cut the calls held (and what was held with them): an abnormal one, right after them. */
export const cutBy = (held: readonly unknown[], finish: FinishEvent): boolean =>
  held.length > 0 && CUTTING.has(finish.reason);

/**
 * Events after which an invalid call is still held: more calls completing at the finish, the
 * finish, a failure, and what is no content but may come between the calls a finish cut and the
 * `finish` event: usage (its first report is an event; OpenAI Chat's `include_usage` chunk and
 * Bedrock's `metadata` follow the finish), Gemini's grounding (a part at the input's end) and a
 * tool runner's events, which come as the handlers settle, between any two of the model's.
 */
const HOLDING = new Set([
  "tool-call",
  "invalid-tool-call",
  "finish",
  "error",
  "abort",
  "usage",
  "tool-result",
  "tool-error",
  "tool-approval-request",
]);

/** The finishes that leave the calls still open cut short. */
// `other` (Gemini's OTHER, FINISH_REASON_UNSPECIFIED) is no normal finish either: the accumulator cuts what is open.
const CUTTING: ReadonlySet<FinishReason> = new Set<FinishReason>(["length", "content-filter", "error", "other"]);

/** The error of a run whose finish (`length`, `content-filter`) cut a call, for protocols that end such a run failed. */
export const cutCallError = (reason: string): { code: string; message: string } => ({
  code: reason,
  message: `The response stopped (${reason}) before the arguments of a tool call were complete.`,
});

/**
 * The arguments text a client gets of a completed call: the provider's, unless no client could
 * parse it (a Chat call, a Responses item `completed` with it): none at all (Anthropic's call of a
 * tool without parameters streams `""`), which gets `{}`, as OpenAI writes such a call (and so does
 * such a call its tool's schema refused: the model wrote `{}`; not one cut short before any text),
 * or a value a normal finish left open (`{"city":"Paris"`), which gets what closes it when that
 * parses to the accumulator's repair; so that every protocol, which only appends, sends the rest.
 * Where closing is not enough (a key cut short: `{"city":"Paris","un`), a protocol that
 * gives the whole text at the end (`whole`: Responses' `.done` and items, a `chat.completion`) gets
 * the repaired value; one that only appends keeps the provider's text.
 */
export function finalArguments(event: CompletedToolCallEvent | InvalidToolCallEvent, whole?: boolean): string {
  const raw = event.rawArguments;
  if (event.inputFormat === "text") return raw;
  // The accumulator reads "" as `{}` unless the call was cut: a stop's failed to parse (`invalid-json`; free text's
  // `truncated-input`), and one the provider withdrew (Anthropic's fallback) is cut by definition.
  const cut = event.type === "invalid-tool-call" && CUT_CODES.has(event.error.code);
  if (raw.trim() === "" && !cut) return `${raw}{}`;
  if (event.type !== "tool-call" || !event.repairs) return raw;
  const closed = raw + closers(raw);
  const repaired = JSON.stringify(event.arguments);
  try {
    if (JSON.stringify(JSON.parse(closed)) === repaired) return closed;
  } catch {
    // closing is not enough (a key with no value, single quotes)
  }
  return whole ? repaired : raw;
}

/** The codes of an invalid call that, with an empty text, was cut before any text: no `{}` the model wrote. */
const CUT_CODES: ReadonlySet<string> = new Set(["invalid-json", "truncated-input", "withdrawn"]);

/** What closes a JSON text cut short: its open string, then its open objects and arrays. */
function closers(text: string): string {
  const open: string[] = [];
  let inString = false;
  let escaped = false;
  for (const char of text) {
    if (escaped) escaped = false;
    else if (inString) {
      escaped = char === "\\";
      inString = char !== '"';
    } else if (char === '"') inString = true;
    else if (char === "{" || char === "[") open.push(char === "{" ? "}" : "]");
    else if (char === "}" || char === "]") open.pop();
  }
  return (inString ? '"' : "") + open.reverse().join("");
}

/**
 * Why a Responses response is `incomplete`, as OpenAI says it: a length stop's `max_output_tokens`
 * (`max_messages` when OpenAI said that), a content filter's `content_filter`, OpenAI's `steered`
 * (an `other` stop: the WebSocket mode's steering ended the answer at a safe boundary); none else.
 *
 * @example
 * ```ts
 * responsesIncomplete({ reason: "length", rawReason: "max_tokens" }); // "max_output_tokens"
 * ```
 */
export function responsesIncomplete({
  reason,
  rawReason: raw,
}: Pick<FinishEvent, "reason" | "rawReason">):
  | "max_output_tokens"
  | "max_messages"
  | "content_filter"
  | "steered"
  | undefined {
  if (reason === "length") return raw === "max_messages" ? raw : "max_output_tokens";
  if (reason === "content-filter") return "content_filter";
  return reason === "other" && raw === "steered" ? raw : undefined;
}
