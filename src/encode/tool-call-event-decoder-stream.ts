import { checkNoOptions } from "../shared/option-names.ts";
import type { SSEMessage } from "../framing/framing.ts";
import { callKey } from "../shared/call-key.ts";
import type { DiscardedToolCall, ToolCallEvent } from "../shared/events.ts";
import { isRecord } from "../shared/values.ts";
import { longMemberName, MAX_MEMBER_NAME_LENGTH, parseStrictJsonText } from "../shared/long-member-name.ts";

type EventType = ToolCallEvent["type"];
type FieldKind = "string" | "number" | "object" | "array";

/** The fields a client relies on, per event type: a frame without them is not used. */
const REQUIRED_FIELDS: Readonly<Record<EventType, readonly (readonly [string, FieldKind])[]>> = {
  "text-delta": [["text", "string"]],
  "reasoning-delta": [["text", "string"]],
  "reasoning-part": [["part", "object"]],
  "tool-call-start": [
    ["index", "number"],
    ["name", "string"],
  ],
  "tool-call-delta": [
    ["index", "number"],
    ["argumentsDelta", "string"],
  ],
  "tool-call": [
    ["index", "number"],
    ["name", "string"],
    ["rawArguments", "string"],
  ],
  "invalid-tool-call": [
    ["index", "number"],
    ["name", "string"],
    ["rawArguments", "string"],
    ["error", "object"],
  ],
  "tool-call-violation": [
    ["index", "number"],
    ["name", "string"],
    ["error", "object"],
  ],
  "approval-request": [
    ["id", "string"],
    ["name", "string"],
    ["rawArguments", "string"],
  ],
  usage: [["usage", "object"]],
  finish: [
    ["reason", "string"],
    ["toolCalls", "array"],
    ["invalidToolCalls", "array"],
    ["text", "string"],
  ],
  error: [["error", "object"]],
  abort: [
    ["reason", "string"],
    ["discarded", "array"],
  ],
};

/**
 * The client side of {@link ToolCallEventEncoderStream}, free of streams: feed it the SSE
 * messages of a response with `push`, then `end()`, and it calls `enqueue` with the events.
 *
 * Frames whose event name is not an event type are ignored, as an `EventSource` ignores names
 * nobody listens to, so a server may add kinds of frames without breaking clients. A frame of a
 * known type whose data is not that event becomes an `error` event (`malformed-payload`). When
 * the input ends before a `finish` or `abort` (the connection dropped), `end()` emits an `abort`
 * of reason `input-ended` listing the calls that were still open, so a client always sees
 * exactly one terminal event.
 *
 * @example
 * ```ts
 * const decoder = new ToolCallEventDecoder((event) => console.log(event.type));
 * decoder.push({ event: "text-delta", id: "0", data: '{"type":"text-delta","text":"Hi"}' }); // logs "text-delta"
 * decoder.end(); // logs "abort": no finish arrived
 * ```
 */
export class ToolCallEventDecoder {
  readonly #enqueue: (event: ToolCallEvent) => void;
  readonly #open = new Map<string, DiscardedToolCall>();
  #lastEventId: string | undefined;
  #ended = false;

  /** Creates a decoder that reports events through `enqueue`. */
  constructor(enqueue: (event: ToolCallEvent) => void) {
    this.#enqueue = enqueue;
  }

  /** The `id:` of the last frame that carried one: where a resumed request would start. */
  get lastEventId(): string | undefined {
    return this.#lastEventId;
  }

  /** Feeds one SSE message. */
  push(message: SSEMessage): void {
    if (message.id !== undefined) this.#lastEventId = message.id;
    const type = message.event;
    if (this.#ended || type === undefined || !Object.hasOwn(REQUIRED_FIELDS, type)) return;
    const event = readEvent(message, type as EventType);
    if (event === undefined) {
      return this.#enqueue({
        type: "error",
        error: message.truncated
          ? { code: "truncated-event", message: "The body ended in the middle of an event; it was dropped." }
          : {
              code: "malformed-payload",
              // The cause, where it is a name never parsed (../shared/long-member-name.ts), not bad data.
              message:
                longMemberName(message.data) === undefined
                  ? `A "${type}" event does not carry that event's data; it was skipped.`
                  : `A "${type}" event has a member name longer than ${MAX_MEMBER_NAME_LENGTH} characters; it was skipped.`,
            },
      });
    }
    this.#track(event);
    this.#enqueue(event);
  }

  /** Ends the input; emits an `abort` when no `finish` or `abort` arrived. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#enqueue({ type: "abort", reason: "input-ended", discarded: [...this.#open.values()] });
  }

  #track(event: ToolCallEvent): void {
    if (event.type === "tool-call-start") {
      const call: DiscardedToolCall = { index: event.index, id: event.id, name: event.name, rawArguments: "" };
      if (event.choice !== undefined) call.choice = event.choice;
      this.#open.set(callKey(event), call);
    } else if (event.type === "tool-call-delta") {
      const call = this.#open.get(callKey(event));
      if (call) call.rawArguments += event.argumentsDelta;
    } else if (event.type === "tool-call" || event.type === "invalid-tool-call") {
      this.#open.delete(callKey(event));
    } else if (event.type === "finish" || event.type === "abort") {
      this.#ended = true;
    }
  }
}

/**
 * SSE messages to accumulated events: the client side of {@link ToolCallEventEncoderStream}.
 * Put it after `SSEDecoderStream` on the body of a response that a tool-call-stream server sent.
 * See {@link ToolCallEventDecoder} for what it does with unknown, malformed and missing frames.
 *
 * @example
 * ```ts
 * const decoder = new ToolCallEventDecoderStream();
 * const events = (await fetch("/v1/stream", { method: "POST", headers, body })).body!
 *   .pipeThrough(new SSEDecoderStream())
 *   .pipeThrough(decoder);
 * for await (const event of events) if (event.type === "tool-call") show(event.name, event.arguments);
 * console.log("last event id", decoder.lastEventId);
 * ```
 */
export class ToolCallEventDecoderStream extends TransformStream<SSEMessage, ToolCallEvent> {
  readonly #decoder: { current?: ToolCallEventDecoder };

  /** Creates the stage. It takes no options: an object with any (a limit meant for another stage) is a `TypeError` naming it. */
  constructor(options?: Readonly<Record<string, never>>) {
    checkNoOptions(options);
    const holder: { current?: ToolCallEventDecoder } = {};
    super({
      start(controller) {
        holder.current = new ToolCallEventDecoder((event) => controller.enqueue(event));
      },
      transform(message) {
        holder.current!.push(message);
      },
      flush() {
        holder.current!.end();
      },
    });
    this.#decoder = holder;
  }

  /** The `id:` of the last frame that carried one, as {@link ToolCallEventDecoder.lastEventId}. */
  get lastEventId(): string | undefined {
    return this.#decoder.current?.lastEventId;
  }
}

function readEvent(message: SSEMessage, type: EventType): ToolCallEvent | undefined {
  let value: unknown;
  try {
    value = parseStrictJsonText(message.data);
  } catch {
    return undefined; // reported by the caller as malformed or truncated, without the payload
  }
  if (!isRecord(value) || value["type"] !== type) return undefined;
  for (const [field, kind] of REQUIRED_FIELDS[type]) if (!hasKind(value[field], kind)) return undefined;
  return value as unknown as ToolCallEvent;
}

function hasKind(value: unknown, kind: FieldKind): boolean {
  if (kind === "array") return Array.isArray(value);
  if (kind === "object") return isRecord(value);
  return typeof value === kind;
}
