import type { ReasoningPart } from "../../shared/deltas.ts";
import type { JsonValue } from "../../shared/json.ts";
import { isRecord, isRefusal, phaseOf } from "../../shared/values.ts";
import { citedAfter, splitCited, turnPieces, type OrderedTurn } from "../turn.ts";
import { isContextItem, serverCallItem, ServerOutputs } from "./openai-responses-server-items.ts";

type Item = Record<string, unknown>;
type CallFields = {
  readonly index?: number | undefined;
  readonly arguments: JsonValue;
  readonly providerMetadata?: Readonly<Record<string, unknown>> | undefined;
};

/** How a turn's pieces become input items: a reasoning item part, the text, a call (with the turn's server outputs). */
export interface TurnItemMaps<Call> {
  readonly reasoning: (part: Extract<ReasoningPart, { type: "item" }>) => Item[];
  readonly text: (text: string) => Item;
  readonly call: (call: Call, outputs: ServerOutputs, index: number) => Item[];
}

/**
 * The kept blocks that are OpenAI's output items, which go back in their place: a program and its
 * output, a tool search's call and output, a hosted shell's output, a tool OpenAI ran (and its
 * items about the context: {@link isContextItem}).
 */
const OPENAI_ITEM =
  /^(program|program_output|tool_search_call|tool_search_output|shell_call_output|(web_search|code_interpreter|image_generation|file_search)_call)$/;

/**
 * A turn's input items (the library's next turn and the request kit's). In the order the stream
 * gave them when the turn has one (`order`, see {@link turnPieces}): each reasoning item, text,
 * call (after the `program` that made it, sent once) and item of a tool OpenAI ran in its place
 * (a message's text with the `phase` of the `phase` block before it, as the model sent it),
 * so that each reasoning item is followed by the item it came before, as a reasoning model
 * requires; else its reasoning items (with the items of tools OpenAI ran among them), then
 * {@link turnItems}. Then `after` (approval requests); and a reasoning item with nothing after it
 * in the turn (a response cut off after reasoning) is left out: OpenAI refuses a reasoning item
 * "without its required following item".
 *
 * @example
 * ```ts
 * const items = responsesTurnItems({ text, calls, parts, order }, { reasoning, text: message, call: callItem });
 * ```
 */
export function responsesTurnItems<Call extends CallFields>(
  turn: OrderedTurn<Call>,
  maps: TurnItemMaps<Call>,
  after: readonly Item[] = [],
): Item[] {
  const items = orderedItems(turn, maps) ?? [
    ...(turn.parts ?? []).flatMap((part) => [
      ...serverCallItem(part),
      ...(part.type === "item" ? maps.reasoning(part) : refusalItem(part)),
    ]),
    ...turnItems(
      turn.parts,
      // Every part came before the text (else the turn has an order): the message's phase is the last.
      turn.text === "" ? [] : phased(textItems(turn.text, turn.parts ?? [], maps.text), lastPhase(turn.parts)),
      turn.calls,
      maps.call,
    ),
  ];
  items.push(...after);
  let end = items.length;
  while (end > 0 && items[end - 1]!["type"] === "reasoning") end--;
  return onePerId(items.slice(0, end));
}

/**
 * The items with one `message` item per id, as OpenAI takes them (it refuses two input items of one
 * id): the parts of one message kept apart (an annotated `output_text`, a `refusal`) go back as that
 * message again, each part in its place; a part of a message already sent with other items after it
 * goes back as a message of its own without the id and status (as a refusal that came on Chat does).
 */
function onePerId(items: Item[]): Item[] {
  const out: Item[] = [];
  const ids = new Set<unknown>();
  // The message the parts that follow it are appended to in place (a copy, never the caller's):
  // a copy per part would be quadratic in the parts of one message.
  let joined: { content: unknown[] } | undefined;
  for (const item of items) {
    const id = item["id"];
    const last = out.at(-1);
    if (item["type"] !== "message" || id === undefined || !ids.has(id)) {
      ids.add(id);
      out.push(item);
    } else if (last?.["id"] === id) {
      if (last !== joined) out[out.length - 1] = joined = { ...last, content: [...(last["content"] as [])] };
      joined.content.push(...(item["content"] as []));
    } else {
      const { id: _, status: __, ...rest } = item;
      out.push(rest);
    }
  }
  return out;
}

/** The turn's items in the order the stream gave them, or undefined for a turn without one. */
function orderedItems<Call extends CallFields>(turn: OrderedTurn<Call>, maps: TurnItemMaps<Call>): Item[] | undefined {
  const pieces = turnPieces(turn);
  if (pieces === undefined) return undefined;
  const outputs = new ServerOutputs(turn.parts);
  const positions = new Map(turn.calls.map((call, i) => [call, i]));
  // Kept blocks a call's items already hold (a server search's output), and programs already sent.
  const sent = new Set<unknown>();
  const programs = new Set<unknown>();
  const items: Item[] = [];
  // The `phase` of the message the next text is (a `phase` block before it): on each of its items.
  let phase: string | undefined;
  for (const [i, piece] of pieces.entries()) {
    if (piece.type === "text") {
      items.push(...phased(textItems(piece.text, citedAfter(pieces, i), maps.text), phase));
      phase = undefined;
    } else if (piece.type === "tool-call") {
      const program = programOf(piece.call);
      if (program && !programs.has(program["call_id"])) {
        programs.add(program["call_id"]);
        items.push(program);
      }
      const made = maps.call(piece.call, outputs, positions.get(piece.call)!);
      for (const item of made) sent.add(item);
      items.push(...made);
    } else if (piece.part.type === "item") items.push(...maps.reasoning(piece.part));
    else if (phaseOf(piece.part) !== undefined) phase = phaseOf(piece.part);
    else if (piece.part.type === "field") items.push(...refusalItem(piece.part));
    else if (
      piece.part.type === "block" &&
      (OPENAI_ITEM.test(String(piece.part.block["type"])) || isContextItem(piece.part.block))
    ) {
      const block = piece.part.block;
      if (sent.has(block) || (block["type"] === "program" && programs.has(block["call_id"]))) continue;
      if (block["type"] === "program") programs.add(block["call_id"]);
      items.push(block);
    }
  }
  return items;
}

/** A message's items with its `phase`, when it had one. */
const phased = (items: Item[], phase: string | undefined): Item[] =>
  phase === undefined ? items : items.map((item) => ({ ...item, phase }));

/** The phase of the last `phase` block of the parts. */
function lastPhase(parts: readonly ReasoningPart[] | undefined): string | undefined {
  let phase: string | undefined;
  for (const part of parts ?? []) phase = phaseOf(part) ?? phase;
  return phase;
}

/**
 * A run of the turn's text as input items: each annotated `output_text` part in it (a `text` block
 * part with `annotations` and its message's `id`, see `ResponsesCitations`) as that message, with
 * its `output_text` part and annotations (openai's `ResponseOutputMessage`), the text around them
 * as `text` makes it.
 */
const textItems = (text: string, parts: readonly ReasoningPart[], plain: (text: string) => Item): Item[] =>
  splitCited(
    text,
    parts,
    (part) => annotatedOf(part)?.text,
    plain,
    (part) => {
      const { id, text, annotations } = annotatedOf(part)!;
      const content = [{ type: "output_text", text, annotations }];
      return { type: "message", id, role: "assistant", status: "completed", content };
    },
  );

/** An annotated `output_text` part kept by `ResponsesCitations`: its text, annotations and message id. */
function annotatedOf(part: ReasoningPart): { id: string; text: string; annotations: JsonValue[] } | undefined {
  if (part.type !== "block" || part.block["type"] !== "text") return undefined;
  const { id, text, annotations } = part.block;
  return typeof id === "string" && typeof text === "string" && Array.isArray(annotations)
    ? { id, text, annotations }
    : undefined;
}

/**
 * A refusal as the assistant `message` item it came in, with its `refusal` content part: with its
 * id and status when it came on OpenAI Responses (openai's `ResponseOutputMessage`), without either
 * when it came on OpenAI Chat, which has no item (Open Responses' `AssistantMessageItemParam`, whose
 * `id` and `status` are optional: an id made up here would be one OpenAI never gave, and it checks
 * the ids it is given); none for another part.
 */
const refusalItem = (part: ReasoningPart): Item[] =>
  isRefusal(part)
    ? [
        {
          type: "message",
          ...(part.id !== undefined && { id: part.id }),
          role: "assistant",
          ...(part.id !== undefined && { status: "completed" }),
          content: [{ type: "refusal", refusal: part.value }],
        },
      ]
    : [];

/**
 * A turn's items after its reasoning, for a turn without `order`: its programs that made no call
 * of the turn and earlier programs' outputs, the text, each call's `callItems` (after its
 * `program` item, sent once), the turn's own programs' outputs: what OpenAI's tools output goes
 * back in place ({@link ServerOutputs}).
 *
 * @example
 * ```ts
 * items.push(...turnItems(parts, [{ role: "assistant", content: "Hi" }], calls, (call) => [functionCallItem(call)]));
 * ```
 */
export function turnItems<Call extends CallFields>(
  parts: readonly ReasoningPart[] | undefined,
  text: readonly Item[],
  calls: readonly Call[],
  callItems: (call: Call, outputs: ServerOutputs, index: number) => Item[],
): Item[] {
  const outputs = new ServerOutputs(parts);
  const ofTurn = new Set(calls.map((call) => programOf(call)?.["call_id"]));
  // A program that called none of the client's tools (kept as a block) goes back before its output.
  const items: Item[] = (parts ?? []).flatMap((part) =>
    part.type === "block" && part.block["type"] === "program" && !ofTurn.has(part.block["call_id"]) ? [part.block] : [],
  );
  items.push(...outputs.before(ofTurn));
  items.push(...text);
  const programs = new Set<unknown>();
  calls.forEach((call, index) => {
    const program = programOf(call);
    if (program && !programs.has(program["call_id"])) {
      programs.add(program["call_id"]);
      items.push(program);
    }
    items.push(...callItems(call, outputs, index));
  });
  items.push(...outputs.after(ofTurn));
  return items;
}

/**
 * The `program` item that made a call (`providerMetadata.responsesProgram`), which goes back
 * before the call, as it came: its `fingerprint` "must be round-tripped".
 *
 * @example
 * ```ts
 * const program = programOf(call); // { type: "program", id: "cm_1", call_id: "call_p", code: "...", fingerprint: "..." }
 * ```
 */
export function programOf(call: CallFields): Item | undefined {
  const program = call.providerMetadata?.["responsesProgram"];
  return isRecord(program) && program["type"] === "program" ? program : undefined;
}
