/**
 * What resuming a Gemini Interactions stream reads of each event (its `event_id`, whether it ends
 * the interaction, the interaction's id), read from the event's bytes in one pass without parsing
 * the event: the chain's decoder parses every event anyway, and a second `JSON.parse` per event
 * (with its decode to text and line splits) doubled the cost of the parse where resume is on.
 *
 * @module
 */

import { parseJsonText } from "../../shared/long-member-name.ts";

/** What resuming needs of one event: read from its data's top level, never from a string inside it. */
export interface EventFacts {
  /** False for a block without data (a comment, a keep-alive): it is not counted or skipped. */
  data: boolean;
  eventId: string | undefined;
  /** The interaction's end, an error, or the final `[DONE]`. */
  terminal: boolean;
  /** The interaction's id, on an `interaction.created` (or legacy `interaction.start`) event. */
  interactionId: string | undefined;
}

const decoder = new TextDecoder();
/** The events after which nothing is left to resume: the interaction's end, an error. */
const TERMINAL_TYPES = new Set(["interaction.completed", "interaction.complete", "error"]);
/** The longest `event_id` kept, in characters: a resume URL carries it. */
const MAX_EVENT_ID = 512;
const LF = 10;
const CR = 13;
const QUOTE = 34;
const BACKSLASH = 92;
const DATA = [100, 97, 116, 97, 58]; // "data:"
const DONE = [91, 68, 79, 78, 69, 93]; // "[DONE]"
const bytesOf = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));
/** The top-level keys read, as bytes, by the slot they fill (a key written with escapes is not one of them). */
const KEYS: [number[], Slot][] = [
  [bytesOf("event_id"), "eventId"],
  [bytesOf("event_type"), "type"],
  [bytesOf("interaction"), "interaction"],
];
const ID = bytesOf("id");
type Slot = "eventId" | "type" | "interaction";
/** The event types that matter here, as bytes: the terminal ones and the two that carry the interaction. */
const TYPES: [number[], string][] = [...TERMINAL_TYPES, "interaction.created", "interaction.start"].map((type) => [
  bytesOf(type),
  type,
]);

function startsWith(bytes: Uint8Array, at: number, prefix: readonly number[]): boolean {
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}

/** Past JSON white space from `at`. */
function skipSpace(bytes: Uint8Array, at: number, end: number): number {
  while (at < end && (bytes[at] === 32 || bytes[at] === 9 || bytes[at] === LF || bytes[at] === CR)) at++;
  return at;
}

/** The closing quote of the string whose content starts at `from` (before `end`), or -1. */
function stringEnd(bytes: Uint8Array, from: number, end: number): number {
  for (let i = bytes.indexOf(QUOTE, from); i >= 0 && i < end; i = bytes.indexOf(QUOTE, i + 1)) {
    let slashes = 0;
    while (bytes[i - 1 - slashes] === BACKSLASH && i - 1 - slashes >= from) slashes++;
    if (slashes % 2 === 0) return i;
  }
  return -1;
}

/** True when the string between the quotes at `open` and `close` is exactly `text`'s bytes. */
const isString = (bytes: Uint8Array, open: number, close: number, text: readonly number[]): boolean =>
  close - open - 1 === text.length && startsWith(bytes, open + 1, text);

/** The slot of the top-level key between the quotes at `open` and `close`, if it is one read. */
function keyAt(bytes: Uint8Array, open: number, close: number): Slot | undefined {
  for (const [key, slot] of KEYS) if (isString(bytes, open, close, key)) return slot;
  return undefined;
}

/** The event type between the quotes at `open` and `close` when it is one that matters here, else "". */
function typeAt(bytes: Uint8Array, open: number, close: number): string {
  for (const [type, name] of TYPES) if (isString(bytes, open, close, type)) return name;
  return "";
}

/** The string literal `bytes[open, close]` (its quotes included) as a value. */
function stringAt(bytes: Uint8Array, open: number, close: number): string {
  const content = bytes.subarray(open + 1, close);
  // Plain ASCII (an id as the API writes it) is the bytes as they are; else JSON decodes it.
  let plain = content.length <= 1024;
  for (let i = 0; plain && i < content.length; i++) plain = content[i]! < 0x80 && content[i] !== BACKSLASH;
  if (plain) return String.fromCharCode.apply(null, content as unknown as number[]);
  return JSON.parse(decoder.decode(bytes.subarray(open, close + 1))) as string;
}

/**
 * The facts of one SSE event, `event` holding its bytes. Its data (one line, as the API sends it)
 * is walked once: strings are skipped by their quotes (`indexOf`), and only the top-level
 * `event_id`, `event_type` and `interaction.id` are decoded. The walk does not check that the data
 * is JSON: a payload the decoder then reports as malformed may still give its `event_id`, which
 * marks the place in the stream all the same. Data of several lines is parsed whole.
 */
export function eventFacts(event: Uint8Array): EventFacts {
  const facts: EventFacts = { data: false, eventId: undefined, terminal: false, interactionId: undefined };
  // The data line: the API sends one per event (several are joined and parsed whole).
  let from = -1;
  let end = -1;
  let lines = 0;
  // Lines end with LF, CRLF or a CR alone; each of LF and CR is searched again only once passed.
  let lf = event.indexOf(LF);
  let cr = event.indexOf(CR);
  for (let start = 0; start < event.length; ) {
    if (lf >= 0 && lf < start) lf = event.indexOf(LF, start);
    if (cr >= 0 && cr < start) cr = event.indexOf(CR, start);
    const stop = lf < 0 && cr < 0 ? event.length : cr < 0 || (lf >= 0 && lf < cr) ? lf : cr;
    if (startsWith(event, start, DATA) && lines++ === 0) [from, end] = [start + DATA.length, stop];
    start = stop === cr && event[stop + 1] === LF ? stop + 2 : stop + 1;
  }
  if (lines === 0) return facts;
  facts.data = true;
  if (lines > 1) return parsedFacts(facts, dataText(event));
  const at = skipSpace(event, from, end);
  if (end - at === DONE.length && startsWith(event, at, DONE)) return { ...facts, terminal: true };
  return scannedFacts(facts, event, at, end);
}

/** The facts of data `bytes[at, end)` that should be a JSON object, from its top level. */
function scannedFacts(facts: EventFacts, bytes: Uint8Array, at: number, end: number): EventFacts {
  if (bytes[at] !== 123) return facts;
  let type: string | undefined;
  let interactionId: string | undefined;
  let depth = 0;
  /** A key is next (after `{` or `,` of the top level, or of the `interaction` object). */
  let keyNext = false;
  /** The slot the top-level value being read fills, once its key was read. */
  let slot: Slot | undefined;
  /** Inside the top level's `interaction` object; `idNext`: its `id`'s value comes next. */
  let inInteraction = false;
  let idNext = false;
  for (let i = at; i < end; i++) {
    const byte = bytes[i];
    if (byte === QUOTE) {
      const close = stringEnd(bytes, i + 1, end);
      if (close < 0) return facts;
      if (keyNext) {
        keyNext = false;
        if (depth === 1) slot = keyAt(bytes, i, close);
        else idNext = isString(bytes, i, close, ID);
        // A key given twice counts as JSON.parse counts it: its last value.
        if (slot === "eventId") facts.eventId = undefined;
        else if (slot === "type") type = undefined;
        else if (slot === "interaction" || idNext) interactionId = undefined;
      } else if (depth === 1 && slot === "eventId") {
        // A longer text cannot be 512 characters or fewer: never decoded.
        const id = close - i <= 6 * MAX_EVENT_ID + 2 ? stringAt(bytes, i, close) : "";
        if (id !== "" && id.length <= MAX_EVENT_ID) facts.eventId = id;
      } else if (depth === 1 && slot === "type") {
        type = typeAt(bytes, i, close);
      } else if (depth === 2 && idNext) {
        interactionId = stringAt(bytes, i, close);
      }
      i = close;
    } else if (byte === 123 || byte === 91) {
      depth++;
      // Only the top level and the `interaction` object have keys that are read.
      inInteraction = depth === 2 ? byte === 123 && slot === "interaction" : inInteraction && depth > 2;
      keyNext = byte === 123 && (depth === 1 || (depth === 2 && inInteraction));
      if (depth === 2) slot = undefined;
      idNext = false;
    } else if (byte === 125 || byte === 93) {
      if (--depth === 0) break;
      if (depth === 1) inInteraction = false;
    } else if (byte === 44) {
      if (depth === 1) slot = undefined;
      idNext = false;
      keyNext = depth === 1 || (depth === 2 && inInteraction);
    }
  }
  return withType(facts, type, interactionId);
}

/** The data of an event of several data lines, joined as SSE joins them. */
function dataText(event: Uint8Array): string {
  const lines = decoder
    .decode(event)
    .split(/\r\n|\r|\n/)
    .filter((line) => line.startsWith("data:"));
  return lines.map((line) => line.slice(5).trimStart()).join("\n");
}

/** The facts of data of several lines, parsed whole (the API sends one line: a rare path). */
function parsedFacts(facts: EventFacts, data: string): EventFacts {
  let payload: unknown;
  try {
    payload = parseJsonText(data);
  } catch {
    return facts;
  }
  if (typeof payload !== "object" || payload === null) return facts;
  const { event_id: eventId, event_type: type, interaction } = payload as Record<string, unknown>;
  if (typeof eventId === "string" && eventId !== "" && eventId.length <= MAX_EVENT_ID) facts.eventId = eventId;
  const id = (interaction as { id?: unknown } | undefined)?.id;
  return withType(facts, typeof type === "string" ? type : undefined, typeof id === "string" ? id : undefined);
}

function withType(facts: EventFacts, type: string | undefined, interactionId: string | undefined): EventFacts {
  facts.terminal = type !== undefined && TERMINAL_TYPES.has(type);
  if ((type === "interaction.created" || type === "interaction.start") && interactionId)
    facts.interactionId = interactionId;
  return facts;
}
