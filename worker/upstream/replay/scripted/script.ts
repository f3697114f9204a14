/**
 * What the scripted model says in one turn, before it is written in a provider's wire format,
 * and the shape of every writer.
 *
 * @module
 */
import type { JsonValue } from "../../../../src/index.ts";
import type { Dice } from "./pieces.ts";

/** A call the scripted model makes to one of the Worker's tools. */
export interface ScriptedCall {
  name: string;
  arguments: { [key: string]: JsonValue };
}

/** One turn of the scripted model: calls (the first step) or a text answer (the last). */
export interface ScriptedTurn {
  /** The model the request named, echoed as providers echo it. */
  model: string;
  /** Visible text; empty for a turn of calls. */
  text: string;
  /** Reasoning the provider streams before calls (Cohere's tool plan); empty elsewhere. */
  plan: string;
  calls: readonly ScriptedCall[];
  /** Tokens of the request, for the usage the answer reports. */
  inputTokens: number;
  /** The tools the request offered, as the provider echoes them (OpenAI Responses). */
  tools: readonly { name: string; description?: string; parameters?: JsonValue }[];
  /** Unix time in milliseconds, for `created` fields and timestamps. */
  now: number;
}

/** A provider's streamed answer: its content type and the bytes of each message, in order. */
export interface WireStream {
  contentType: string;
  /** One entry per message of the provider's framing (an SSE event, an NDJSON line, an event-stream message). */
  chunks: Uint8Array[];
}

/** Writes a turn in one provider's wire format; `dice` makes the ids, fragments and padding. */
export type ScriptWriter = (turn: ScriptedTurn, dice: Dice) => WireStream;

const utf8 = new TextEncoder();

/** Text messages as bytes, one chunk per message. */
export function textChunks(messages: readonly string[]): Uint8Array[] {
  return messages.map((message) => utf8.encode(message));
}

/** An SSE event: `event:` when the provider names its events, then one `data:` line. */
export function sseEvent(data: string, event?: string, lineEnd = "\n"): string {
  return `${event === undefined ? "" : `event: ${event}${lineEnd}`}data: ${data}${lineEnd}${lineEnd}`;
}
