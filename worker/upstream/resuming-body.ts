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
/** The events after which nothing is left to resume: the interaction's end, an error. */
const TERMINAL_TYPES = new Set(["interaction.completed", "interaction.complete", "error"]);

/** The end of the first complete SSE event in `bytes` from `from` (after its blank line), or -1. */
function eventEnd(bytes: Uint8Array, from: number): number {
  for (let i = bytes.indexOf(10, from); i >= 0; i = bytes.indexOf(10, i + 1)) {
    if (bytes[i + 1] === 10) return i + 2;
    if (bytes[i + 1] === 13 && bytes[i + 2] === 10) return i + 3;
  }
  return -1;
}

/** What resuming needs of one event: read from its data's top level, never from a string inside it. */
interface EventFacts {
  /** False for a block without data (a comment, a keep-alive): it is not counted or skipped. */
  data: boolean;
  eventId: string | undefined;
  /** The interaction's end, an error, or the final `[DONE]`. */
  terminal: boolean;
  /** The interaction's id, on an `interaction.created` (or legacy `interaction.start`) event. */
  interactionId: string | undefined;
}

function factsOf(text: string): EventFacts {
  const lines = text.split(/\r?\n/).filter((line) => line.startsWith("data:"));
  const facts: EventFacts = { data: lines.length > 0, eventId: undefined, terminal: false, interactionId: undefined };
  const data = lines.map((line) => line.slice(5).trimStart()).join("\n");
  if (data === "[DONE]") return { ...facts, terminal: true };
  let payload: unknown;
  try {
    payload = JSON.parse(data);
  } catch {
    return facts;
  }
  if (typeof payload !== "object" || payload === null) return facts;
  const { event_id: eventId, event_type: type, interaction } = payload as Record<string, unknown>;
  if (typeof eventId === "string" && eventId !== "" && eventId.length <= 512) facts.eventId = eventId;
  facts.terminal = typeof type === "string" && TERMINAL_TYPES.has(type);
  if (type === "interaction.created" || type === "interaction.start") {
    const id = (interaction as { id?: unknown } | undefined)?.id;
    if (typeof id === "string" && id !== "") facts.interactionId = id;
  }
  return facts;
}

/**
 * The bytes read but not yet passed on: a buffer that grows by doubling, so a long event in many
 * small chunks is copied a bounded number of times, and scanned for its end once.
 */
class Pending {
  #bytes = new Uint8Array(0);
  length = 0;
  /** How far the bytes were scanned for an event's end without finding one. */
  #scanned = 0;

  append(chunk: Uint8Array): void {
    if (this.length + chunk.length > this.#bytes.length) {
      const grown = new Uint8Array(Math.max(this.#bytes.length * 2, this.length + chunk.length, 4096));
      grown.set(this.#bytes.subarray(0, this.length));
      this.#bytes = grown;
    }
    this.#bytes.set(chunk, this.length);
    this.length += chunk.length;
  }

  /** The complete events, each as `[start, end)` of {@link view}; {@link drop} them once read. */
  *events(): Generator<[number, number]> {
    const view = this.view();
    let start = 0;
    for (let end = eventEnd(view, Math.max(0, this.#scanned - 2)); end >= 0; end = eventEnd(view, start)) {
      yield [start, end];
      start = end;
    }
    this.#scanned = this.length;
  }

  view(): Uint8Array {
    return this.#bytes.subarray(0, this.length);
  }

  /** Forgets the first `count` bytes (the events read); the rest was scanned already. */
  drop(count: number): void {
    if (count === 0) return;
    this.#bytes.copyWithin(0, count, this.length);
    this.length -= count;
    this.#scanned = this.length;
  }

  /** Everything pending, copied out, and forgotten. */
  takeAll(): Uint8Array {
    const all = this.view().slice();
    this.length = 0;
    this.#scanned = 0;
    return all;
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
  const pending = new Pending();
  let interactionId: string | undefined;
  let lastEventId: string | undefined;
  /** Events (with data) passed on since the last one with an `event_id`. */
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
    !(error instanceof ToolCallStreamError) &&
    !(error instanceof Error && error.name === "AbortError");

  /** Opens the rest of the stream; false when it cannot be opened (or the reader stopped meanwhile). */
  const resume = async (): Promise<boolean> => {
    resumes++;
    try {
      current = await reopen({ interactionId: interactionId!, lastEventId });
    } catch {
      return false;
    }
    if (stopped) {
      await current.return?.();
      return false;
    }
    pending.takeAll();
    skip = sinceId;
    return true;
  };

  /** The complete pending events to pass on (those of a resumed stream already passed on left out), noted. */
  const take = (): Uint8Array | undefined => {
    const view = pending.view();
    let from = 0;
    let read = 0;
    for (const [start, end] of pending.events()) {
      read = end;
      const facts = factsOf(decoder.decode(view.subarray(start, end)));
      // A resumed stream's first events are those passed on after the last id, again: dropped,
      // until one with an id shows the stream went on past them.
      if (skip > 0 && facts.eventId === undefined) {
        if (facts.data) skip--;
        from = end;
        continue;
      }
      skip = 0;
      if (facts.eventId !== undefined) {
        lastEventId = facts.eventId;
        sinceId = 0;
      } else if (facts.data) sinceId++;
      interactionId ??= facts.interactionId;
      if (facts.terminal) ended = true;
    }
    const out = from < read ? view.slice(from, read) : undefined;
    pending.drop(read);
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
          const rest = pending.takeAll();
          return rest.length > 0 ? { done: false, value: rest } : result;
        }
        if (!tracking) return result;
        pending.append(result.value);
        const out = take();
        if (pending.length > MAX_PENDING) {
          tracking = false;
          const rest = pending.takeAll();
          const all = out === undefined ? rest : new Uint8Array(out.length + rest.length);
          if (out !== undefined) {
            all.set(out);
            all.set(rest, out.length);
          }
          return { done: false, value: all };
        }
        if (out !== undefined) return { done: false, value: out };
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
