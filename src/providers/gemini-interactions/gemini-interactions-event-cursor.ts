import { eventFacts } from "./gemini-interactions-event-facts.ts";

/**
 * Where a dropped Gemini Interactions stream resumes: its interaction, and the last event passed on.
 *
 * @example
 * ```ts
 * const point: GeminiInteractionsResumePoint = { interactionId: "v1_ChdY...", lastEventId: "evt_005" };
 * ```
 */
export interface GeminiInteractionsResumePoint {
  /** The interaction's `id`, from its `interaction.created` (legacy `interaction.start`) event. */
  interactionId: string;
  /** The `event_id` of the last event passed on that had one; absent: resume from the stream's start. */
  lastEventId: string | undefined;
}

/** The longest event tracked (bytes): past it, the body passes through and is no longer resumed. */
const MAX_PENDING = 1 << 20;

/**
 * The end of the first complete SSE event in `bytes` from `from` (after its blank line), or -1. A
 * line ends with LF, CRLF or a CR alone (the SSE spec's three): a CR last in `bytes` ends a blank
 * line there (an LF after it then begins the next event, where the SSE parser reads it as the rest
 * of that CRLF), and ends a line with text only once the byte after it tells whether it is a CRLF.
 */
function eventEnd(bytes: Uint8Array, from: number): number {
  let lf = bytes.indexOf(10, from);
  let cr = bytes.indexOf(13, from);
  /** Where the line after the last line end starts: a line end there ends a blank line. */
  let lineStart = -1;
  while (lf >= 0 || cr >= 0) {
    const at = cr < 0 || (lf >= 0 && lf < cr) ? lf : cr;
    let next = at + 1;
    if (at === cr) {
      if (next === bytes.length) return lineStart === at ? next : -1;
      if (bytes[next] === 10) next++;
    }
    if (lineStart === at) return next;
    lineStart = next;
    // Each searched again only once passed: one scan of the bytes for each.
    if (lf >= 0 && lf < next) lf = bytes.indexOf(10, next);
    if (cr >= 0 && cr < next) cr = bytes.indexOf(13, next);
  }
  return -1;
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
 * The pure core of resuming a Gemini Interactions stream: bytes in, whole events out, noting the
 * interaction's id and each event's `event_id`. After a resume, the events of the new stream that
 * were passed on already (those after the last id, which had none) are left out, until one with an
 * id shows the stream went on past them. An event longer than 1 MiB ends the tracking: the bytes
 * then pass through as they come, and the stream is no longer resumable.
 *
 * @example
 * ```ts
 * const cursor = new InteractionsEventCursor();
 * const out = cursor.push(chunk); // whole events, or undefined while one is incomplete
 * if (dropped && cursor.resumable) { cursor.resumed(); read(reopen(cursor.point!)); }
 * ```
 */
export class InteractionsEventCursor {
  readonly #pending = new Pending();
  #interactionId: string | undefined;
  #lastEventId: string | undefined;
  /** Events (with data) passed on since the last one with an `event_id`. */
  #sinceId = 0;
  /** Events of a resumed stream still to drop: they were passed on before the drop. */
  #skip = 0;
  /** The interaction ended (or errored): nothing is left to resume. */
  #ended = false;
  #tracking = true;

  /** Where to resume: undefined before the interaction's id came, or once nothing is left to resume. */
  get point(): GeminiInteractionsResumePoint | undefined {
    if (!this.#tracking || this.#ended || this.#interactionId === undefined) return undefined;
    return { interactionId: this.#interactionId, lastEventId: this.#lastEventId };
  }

  /** Takes a chunk: returns the whole events it completes, to pass on (undefined: none yet). */
  push(chunk: Uint8Array): Uint8Array | undefined {
    if (!this.#tracking) return chunk;
    const pending = this.#pending;
    pending.append(chunk);
    const out = this.#take();
    if (pending.length <= MAX_PENDING) return out;
    this.#tracking = false;
    const rest = pending.takeAll();
    if (out === undefined) return rest;
    const all = new Uint8Array(out.length + rest.length);
    all.set(out);
    all.set(rest, out.length);
    return all;
  }

  /** A new stream from {@link point} replaces the dropped one: the half event of the old one is forgotten. */
  resumed(): void {
    this.#pending.takeAll();
    this.#skip = this.#sinceId;
  }

  /** The bytes of an event never completed (the stream ends without a resume): for the chain to report the cut. */
  rest(): Uint8Array | undefined {
    const rest = this.#pending.takeAll();
    return rest.length > 0 ? rest : undefined;
  }

  #take(): Uint8Array | undefined {
    const pending = this.#pending;
    const view = pending.view();
    let from = 0;
    let read = 0;
    for (const [start, end] of pending.events()) {
      read = end;
      const facts = eventFacts(view.subarray(start, end));
      if (this.#skip > 0 && facts.eventId === undefined) {
        if (facts.data) this.#skip--;
        from = end;
        continue;
      }
      this.#skip = 0;
      if (facts.eventId !== undefined) {
        this.#lastEventId = facts.eventId;
        this.#sinceId = 0;
      } else if (facts.data) this.#sinceId++;
      this.#interactionId ??= facts.interactionId;
      if (facts.terminal) this.#ended = true;
    }
    const out = from < read ? view.slice(from, read) : undefined;
    pending.drop(read);
    return out;
  }
}
