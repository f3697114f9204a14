import { checkOptionNames } from "../shared/option-names.ts";
import type { ToolCallEvent } from "../shared/events.ts";
import { encoderStreamOptions, ProtocolEncoderStream, type ProtocolEncoder } from "./protocol-encoder.ts";

/** Options of {@link ToolCallEventEncoderStream}. */
export interface ToolCallEventEncoderStreamOptions {
  /**
   * The `id:` of the first event; each later event gets the next integer. A server that resumes
   * a response after a `Last-Event-ID` starts at the id after the last one the client saw.
   * @defaultValue 0
   */
  firstId?: number | undefined;
  /**
   * Join the adjacent fragments within each input array ({@link joinDeltas}): one frame per run
   * of a call's `tool-call-delta`s (or of `text-delta`s) that one network chunk held, not one per
   * fragment. Readers put together the same text and arguments; a server sends, and a client
   * parses, a fraction of the frames. Single events (not arrays) are never joined.
   * @defaultValue false
   */
  joinDeltas?: boolean | undefined;
}

/**
 * Formats one event as a Server-Sent Events frame: `event: <type>`, `id: <id>`,
 * `data: <json>`, then the blank line that dispatches it.
 *
 * The JSON is one line: `JSON.stringify` escapes CR and LF inside strings, and those are the
 * only characters that end an SSE line (U+2028 and U+2029 do not), so any model output fits in
 * a single `data:` field and every SSE parser reads back the exact text.
 *
 * @example
 * ```ts
 * formatToolCallEvent({ type: "text-delta", text: "Hi" }, 0);
 * // 'event: text-delta\nid: 0\ndata: {"type":"text-delta","text":"Hi"}\n\n'
 * ```
 */
export function formatToolCallEvent<E extends { readonly type: string } = ToolCallEvent>(event: E, id: number): string {
  const json = event.type === "tool-call-delta" ? deltaJson(event as unknown as Record<string, unknown>) : undefined;
  return `event: ${event.type}\nid: ${id}\ndata: ${json ?? JSON.stringify(event)}\n\n`;
}

/** The keys of the accumulator's `tool-call-delta`, in the order it makes them. */
const DELTA_KEYS = ["type", "index", "id", "argumentsDelta", "closed"];

/**
 * The JSON of the most frequent event, built around the one string that changes (the fragment)
 * instead of serializing a fresh object: exactly `JSON.stringify`'s text, for an event with
 * exactly the accumulator's keys in its order; anything else (a `choice`, partial arguments, a
 * step's tag, a `toJSON`) returns `undefined` and takes `JSON.stringify`.
 */
function deltaJson(event: Record<string, unknown>): string | undefined {
  let keys = 0;
  for (const key in event) if (key !== DELTA_KEYS[keys++]) return undefined;
  const { index, id, argumentsDelta, closed } = event;
  if (keys !== DELTA_KEYS.length || typeof event["toJSON"] === "function") return undefined;
  if (
    typeof index !== "number" ||
    !Number.isFinite(index) ||
    typeof argumentsDelta !== "string" ||
    typeof closed !== "boolean"
  )
    return undefined;
  if (id !== null && typeof id !== "string") return undefined;
  return `{"type":"tool-call-delta","index":${index},"id":${id === null ? "null" : JSON.stringify(id)},"argumentsDelta":${JSON.stringify(argumentsDelta)},"closed":${closed}}`;
}

/**
 * The pure core of {@link ToolCallEventEncoderStream}, a {@link ProtocolEncoder} like the other
 * client protocols' encoders: each event as one SSE frame named after its type, with ids counting
 * up by one from `firstId`. The end adds nothing.
 *
 * @example
 * ```ts
 * const encoder = new ToolCallEventEncoder({ firstId: 7 });
 * const out: string[] = [];
 * for (const event of readyEvents) encoder.encode(event, out);
 * socket.send(out.join("")); // frames with ids 7, 8, ...
 * ```
 */
export class ToolCallEventEncoder<E extends { readonly type: string } = ToolCallEvent> implements ProtocolEncoder<E> {
  #id: number;

  /** Creates the encoder; its first frame has the id `firstId` (0 by default). */
  constructor(options: Pick<ToolCallEventEncoderStreamOptions, "firstId"> = {}) {
    checkOptionNames(options, { firstId: 0 });
    const id = options.firstId ?? 0;
    if (!Number.isSafeInteger(id) || id < 0) throw new RangeError("firstId must be a non-negative integer.");
    this.#id = id;
  }

  /** The id the next frame gets. */
  get nextId(): number {
    return this.#id;
  }

  /** Appends the frame of `event`. */
  encode(event: E, out: string[]): void {
    out.push(formatToolCallEvent(event, this.#id++));
  }

  /** The protocol has no closing frame. */
  end(_out: string[]): void {}
}

/**
 * Accumulated events to SSE bytes: the stage a server puts after `streamToolCalls` to send the
 * events to a browser or any SSE client, one frame per event (or per run of fragments, with
 * `joinDeltas`). It takes one event or an array of
 * the events that are ready ({@link readyBatches}) and writes what is ready as one chunk (single
 * events piped in too), so a batch costs one UTF-8 encoding and one enqueue, not one per event. Any event union discriminated on
 * `type` fits (`ToolRunnerEvent`, `ToolLoopEvent`): the frame is named after the type.
 *
 * Event ids are sequence numbers, counting up by one per event from `firstId`, so that a client
 * can tell how far it got (`lastEventId` of {@link ToolCallEventDecoderStream}, or the
 * `Last-Event-ID` header an `EventSource` sends when it reconnects). Clients read the frames
 * back with `SSEDecoderStream` and {@link ToolCallEventDecoderStream}, eventsource-parser, or
 * `EventSource` (which only issues GET requests). In an `EventSource`, listen with
 * `addEventListener("tool-call", ...)`: the frames are named, so `onmessage` sees none of them,
 * and the stream's `error` events share their name with the connection's own error event.
 *
 * @example
 * ```ts
 * const body = streamToolCalls(await fetch(url, init), { provider: "openai" })
 *   .pipeThrough(new ToolCallEventEncoderStream());
 * return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
 * ```
 */
export class ToolCallEventEncoderStream<
  E extends { readonly type: string } = ToolCallEvent,
> extends ProtocolEncoderStream<E> {
  /** Creates the stage; see {@link ToolCallEventEncoderStreamOptions}. An option it does not know is a `TypeError`. */
  constructor(options: ToolCallEventEncoderStreamOptions = {}) {
    super(new ToolCallEventEncoder<E>(encoderStreamOptions(options, { firstId: 0, joinDeltas: 0 })), options);
  }
}
