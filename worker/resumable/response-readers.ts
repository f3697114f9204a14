import { HEARTBEAT_MS } from "../http/heartbeat.ts";
import { HttpError } from "../response/json-error.ts";

/**
 * How many clients read one resumable response at once, bounded: each holds a body, a heartbeat
 * timer and a place in the log (a running one wakes every reader at each write), so many GETs of
 * one id would cost the object's other responses. A client that reconnects leaves a place behind
 * until the Worker finds the old connection gone (at its next heartbeat, {@link HEARTBEAT_MS}), so
 * the bound leaves room for a few reconnects of each of several readers. The clients of all the
 * responses of one object are bounded too ({@link MAX_READERS_PER_OBJECT}): the bound per response
 * alone let GETs of many ids, 16 each, pile up on the one object (its one thread, its isolate's
 * memory) that every other client of its pool slot shares. And one client (the hash of its token,
 * `tokenOwner`) holds a share of them ({@link MAX_READERS_PER_CLIENT}): the object's bound alone
 * let one client take all its places and lock every other client of the object out.
 *
 * @module
 */

/**
 * Most clients reading one response at once (running or finished), the first client's included.
 * A `HEAD` takes no place.
 */
export const MAX_READERS_PER_RESPONSE = 16;

/**
 * Most clients reading the responses of one object at once, in all (a `HEAD` takes no place):
 * 64 responses each read by {@link MAX_READERS_PER_RESPONSE}, or 1,024 read by one client each.
 * Past it, a new response is refused too (its first client would have no place), before its
 * provider is called.
 */
export const MAX_READERS_PER_OBJECT = 1024;

/**
 * A client's share of an object's places: past it, a client (the hash of its token) takes another
 * place only while more than this many stay free, so the last {@link MAX_READERS_PER_CLIENT} places
 * of an object go to clients that hold fewer. One client holds at most 768 of the 1,024 places, and
 * every other client still gets in; a deployment with one client token is one client, and reads at
 * most 768 responses of one object at once.
 */
export const MAX_READERS_PER_CLIENT = 256;

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

/** The 429 of a client past {@link MAX_READERS_PER_OBJECT}, retried as {@link tooManyReaders} is. */
const objectBusy = (limit: number): HttpError =>
  new HttpError(
    429,
    {
      code: "object_busy",
      message: `The Durable Object of this response already serves ${limit} clients, of all its responses; retry later.`,
    },
    { "retry-after": String(HEARTBEAT_MS / 1000) },
  );

/** The 429 of a client past its share ({@link MAX_READERS_PER_CLIENT}) of a busy object: other clients still get in. */
const clientBusy = (held: number): HttpError =>
  new HttpError(
    429,
    {
      code: "client_busy",
      message: `This client already reads ${held} responses of this response's Durable Object, its share while the object is busy; close one, or retry later.`,
    },
    { "retry-after": String(HEARTBEAT_MS / 1000) },
  );

/**
 * The places of the clients reading each response of one object, of each client, and of all of them.
 *
 * @example
 * ```ts
 * const leave = readers.take(id, client); // throws the 429 when the response has MAX_READERS_PER_RESPONSE
 * return new Response(logBody(cursor, leave), { headers });
 * ```
 */
export class ResponseReaders {
  readonly #counts = new Map<string, number>();
  /** Places held by each client: at most one entry per place, so bounded by `objectLimit`. */
  readonly #clients = new Map<string, number>();
  /** The place each open response's opening held, kept for its first client ({@link handOver}). */
  readonly #handed = new Map<string, { client: string; release: () => void }>();
  readonly #limit: number;
  readonly #objectLimit: number;
  readonly #share: number;
  #total = 0;

  /**
   * Places of at most `limit` readers per response, and `objectLimit` in all, the last `share` of
   * them for clients holding fewer than `share`.
   */
  constructor(
    limit: number = MAX_READERS_PER_RESPONSE,
    objectLimit: number = MAX_READERS_PER_OBJECT,
    share: number = MAX_READERS_PER_CLIENT,
  ) {
    this.#limit = limit;
    this.#objectLimit = objectLimit;
    this.#share = share;
  }

  /** How many places the object's clients hold now, in all (those of responses being opened included). */
  get total(): number {
    return this.#total;
  }

  /**
   * Throws the 429 of a full object (`object_busy`), or of `client` past its share of a busy one
   * (`client_busy`): a response started now would have no place for its first client.
   */
  checkRoom(client: string): void {
    if (this.#total >= this.#objectLimit) throw objectBusy(this.#objectLimit);
    const held = this.ofClient(client);
    if (held >= this.#share && this.#objectLimit - this.#total <= this.#share) throw clientBusy(held);
  }

  /**
   * Holds a place for the first client of a response `client` is opening (its provider yet to
   * answer), or throws the 429 of {@link checkRoom}; returns how to give it back (once), when the
   * response is open (its first client then takes a place of its own) or failed. Held for the
   * object and for `client` alike: one client opening many responses at once takes no more than
   * its share.
   */
  opening(client: string): () => void {
    this.checkRoom(client);
    return this.#hold(client);
  }

  /**
   * Runs `open` (the provider call of response `id`, which `client` opens) holding a place of
   * {@link opening}: given back if `open` fails, else kept for `client`'s first attach ({@link handOver}).
   */
  async whileOpening<T>(id: string, client: string, open: () => Promise<T>): Promise<T> {
    const release = this.opening(client);
    try {
      const opened = await open();
      this.handOver(id, client, release);
      return opened;
    } catch (error) {
      release();
      throw error;
    }
  }

  /**
   * Keeps the place an {@link opening} of response `id` held (`release` gives it back) for the
   * first {@link take} of `client` on `id`, which then checks no room: between its opening and its
   * first attach, no other client can take the opening client's place, and its attach never counts
   * twice. {@link forgo} gives it back if that client never comes.
   */
  handOver(id: string, client: string, release: () => void): void {
    this.forgo(id);
    this.#handed.set(id, { client, release });
  }

  /** Gives back the place kept for response `id`'s first client ({@link handOver}), if still kept. */
  forgo(id: string): void {
    this.#handed.get(id)?.release();
    this.#handed.delete(id);
  }

  /** How many places `client` holds now, over all the object's responses (those it is opening included). */
  ofClient(client: string): number {
    return this.#clients.get(client) ?? 0;
  }

  /** How many clients read response `id` now. */
  of(id: string): number {
    return this.#counts.get(id) ?? 0;
  }

  /**
   * Takes a place on response `id` for `client`, or throws a 429 (`too_many_readers` for the
   * response's bound, `object_busy` for the object's, `client_busy` for the client's share);
   * returns how to give it back (once, however often called).
   */
  take(id: string, client: string): () => void {
    const count = this.of(id);
    if (count >= this.#limit) throw tooManyReaders();
    const handed = this.#handed.get(id);
    if (handed?.client !== client) this.checkRoom(client);
    else this.#handed.delete(id);
    this.#counts.set(id, count + 1);
    const release = handed?.client === client ? handed.release : this.#hold(client);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      decrement(this.#counts, id);
      release();
    };
  }

  /** One place of the object's and of `client`'s; how to give it back (once). */
  #hold(client: string): () => void {
    this.#clients.set(client, this.ofClient(client) + 1);
    this.#total++;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.#total--;
      decrement(this.#clients, client);
    };
  }
}

/** One less of `key` in `counts`, its entry dropped at none. */
function decrement(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 0) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}
