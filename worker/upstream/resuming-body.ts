import { ToolCallStreamError } from "../../src/index.ts";
import type { WatchedBody } from "./response-watch.ts";

/** Where a dropped Gemini Interactions stream resumes: the interaction, and the last event the client got. */
export interface ResumePoint {
  interactionId: string;
  /** The `event_id` of the last event passed on that had one; absent: from the stream's start. */
  lastEventId: string | undefined;
}

/** How many times one response's stream may be resumed. */
const MAX_RESUMES = 3;
/** The longest event tracked (bytes): past it, the body passes through and is no longer resumed. */
const MAX_PENDING = 1 << 20;

const decoder = new TextDecoder();
const EVENT_ID = /"event_id"\s*:\s*"([^"\\]{1,512})"/;
/** An event after which nothing is left to resume: the interaction's end, an error, the final `[DONE]`. */
const TERMINAL = /"event_type"\s*:\s*"(?:interaction\.completed|interaction\.complete|error)"|^data:\s*\[DONE\]/m;

/** The end of the first complete SSE event in `bytes` from `from` (after its blank line), or -1. */
function eventEnd(bytes: Uint8Array, from: number): number {
  for (let i = bytes.indexOf(10, from); i >= 0; i = bytes.indexOf(10, i + 1)) {
    if (bytes[i + 1] === 10) return i + 2;
    if (bytes[i + 1] === 13 && bytes[i + 2] === 10) return i + 3;
  }
  return -1;
}

const concat = (a: Uint8Array, b: Uint8Array): Uint8Array => {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
};

/** The interaction's id, from an `interaction.created` (or legacy `interaction.start`) event's data. */
function interactionIdOf(text: string): string | undefined {
  if (!/interaction\.(?:created|start)/.test(text)) return undefined;
  const data = text
    .split(/\r?\n/)
    .filter((line) => line.startsWith("data:"))
    .map((line) => line.slice(5).trimStart())
    .join("\n");
  try {
    const id = (JSON.parse(data) as { interaction?: { id?: unknown } }).interaction?.id;
    return typeof id === "string" && id !== "" ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A Gemini Interactions body that resumes when the connection drops mid-stream: the bytes pass on
 * whole events at a time (a blank line ends each), noting the interaction's id and each event's
 * `event_id`. When the body fails or ends before the interaction's end (`interaction.completed`,
 * an `error` event, `[DONE]`), `reopen` asks for the rest after the last event id (`GET
 * /interactions/{id}?stream=true&last_event_id=...`) and reading goes on there: the half event
 * that was cut is dropped, and events already passed on after the last id (those without one) are
 * skipped from the resumed stream, so nothing is lost or passed twice. At most `maxResumes` times;
 * never after a clock of the response ran out (its error is a `ToolCallStreamError`) or the
 * reader stopped; a reopening that fails ends the body as the drop did.
 *
 * @example
 * ```ts
 * const body = resumingBody(first, (point) => openUpstream(resumeRequest(point), options));
 * ```
 */
export function resumingBody(
  first: WatchedBody,
  reopen: (point: ResumePoint) => Promise<WatchedBody>,
  maxResumes = MAX_RESUMES,
): WatchedBody {
  let current = first;
  let pending: Uint8Array = new Uint8Array(0);
  let interactionId: string | undefined;
  let lastEventId: string | undefined;
  /** Events passed on since the last one with an `event_id`. */
  let sinceId = 0;
  /** Events of a resumed stream still to drop: they were passed on before the drop. */
  let skip = 0;
  let resumes = 0;
  let ended = false;
  let tracking = true;
  let stopped = false;

  const resumable = (error?: unknown): boolean =>
    tracking &&
    !ended &&
    !stopped &&
    interactionId !== undefined &&
    resumes < maxResumes &&
    !(error instanceof ToolCallStreamError);

  /** Opens the rest of the stream; false when it cannot be opened. */
  const resume = async (): Promise<boolean> => {
    resumes++;
    try {
      current = await reopen({ interactionId: interactionId!, lastEventId });
    } catch {
      return false;
    }
    pending = new Uint8Array(0);
    skip = sinceId;
    return true;
  };

  /** The complete events of `pending` to pass on, noted; the rest stays pending. */
  const take = (): Uint8Array => {
    let out: Uint8Array = new Uint8Array(0);
    let start = 0;
    for (let end = eventEnd(pending, 0); end >= 0; end = eventEnd(pending, start)) {
      const event = pending.subarray(start, end);
      start = end;
      if (skip > 0) {
        skip--;
        continue;
      }
      const text = decoder.decode(event);
      const id = EVENT_ID.exec(text)?.[1];
      if (id !== undefined) {
        lastEventId = id;
        sinceId = 0;
      } else sinceId++;
      interactionId ??= interactionIdOf(text);
      if (TERMINAL.test(text)) ended = true;
      out = concat(out, event);
    }
    pending = pending.slice(start);
    return out;
  };

  const iterator: WatchedBody = {
    next: async () => {
      for (;;) {
        let result: IteratorResult<Uint8Array>;
        try {
          result = await current.next();
        } catch (error) {
          if (resumable(error) && (await resume())) continue;
          throw error;
        }
        if (result.done) {
          if (resumable() && (await resume())) continue;
          // Not resumed: what is left of a cut event goes on, for the chain to report the cut.
          const rest = pending;
          pending = new Uint8Array(0);
          return rest.length > 0 ? { done: false, value: rest } : result;
        }
        if (!tracking) return result;
        pending = concat(pending, result.value);
        const out = take();
        if (pending.length > MAX_PENDING) {
          tracking = false;
          const all = concat(out, pending);
          pending = new Uint8Array(0);
          return { done: false, value: all };
        }
        if (out.length > 0) return { done: false, value: out };
      }
    },
    return: async (reason?: unknown) => {
      stopped = true;
      return (await current.return?.(reason)) ?? { done: true, value: undefined };
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
