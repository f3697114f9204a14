import { HEARTBEAT_MS } from "../http/heartbeat.ts";
import { HttpError } from "../response/json-error.ts";

/**
 * How many clients read one resumable response at once, bounded: each holds a body, a heartbeat
 * timer and a place in the log (a running one wakes every reader at each write), so many GETs of
 * one id would cost the object's other responses. A client that reconnects leaves a place behind
 * until the Worker finds the old connection gone (at its next heartbeat, {@link HEARTBEAT_MS}), so
 * the bound leaves room for a few reconnects of each of several readers.
 *
 * @module
 */

/**
 * Most clients reading one response at once (running or finished), the first client's included.
 * A `HEAD` takes no place.
 */
export const MAX_READERS_PER_RESPONSE = 16;

/**
 * The 429 of a resume past {@link MAX_READERS_PER_RESPONSE}, retried once a vanished reader's place
 * is found free: after the next heartbeat.
 */
const tooManyReaders = (): HttpError =>
  new HttpError(
    429,
    {
      code: "too_many_readers",
      message: `This response already has ${MAX_READERS_PER_RESPONSE} clients reading it; close one, or retry later.`,
    },
    { "retry-after": String(HEARTBEAT_MS / 1000) },
  );

/**
 * The places of the clients reading each response of one object.
 *
 * @example
 * ```ts
 * const leave = readers.take(id); // throws the 429 when the response has MAX_READERS_PER_RESPONSE
 * return new Response(logBody(cursor, leave), { headers });
 * ```
 */
export class ResponseReaders {
  readonly #counts = new Map<string, number>();
  readonly #limit: number;

  /** Places of at most `limit` readers per response. */
  constructor(limit: number = MAX_READERS_PER_RESPONSE) {
    this.#limit = limit;
  }

  /** How many clients read response `id` now. */
  of(id: string): number {
    return this.#counts.get(id) ?? 0;
  }

  /** Takes a place on response `id`, or throws its 429; returns how to give it back (once, however often called). */
  take(id: string): () => void {
    const count = this.of(id);
    if (count >= this.#limit) throw tooManyReaders();
    this.#counts.set(id, count + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = this.of(id) - 1;
      if (left > 0) this.#counts.set(id, left);
      else this.#counts.delete(id);
    };
  }
}
