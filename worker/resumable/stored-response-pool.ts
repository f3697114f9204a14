import type { Settings } from "../env.ts";
import { invalidField } from "../response/json-error.ts";
import type { ResponseBuffer } from "./response-buffer.ts";
import { mintedResponseObject, namedObject, newResponseId, objectNameOf, randomDraw } from "./response-id.ts";
import type { ResponsePool } from "./response-pool.ts";
import type { StoredResponseOp } from "./stored-responses.ts";

/** The draw of {@link isolateDraw}, made at this isolate's first stored response. */
let drawn: number | undefined;
/**
 * How many stored responses this isolate started ({@link StoredResponses.newId}): a keep is
 * `alone` when no other started after its own, so no other keep of the isolate is likely to
 * follow it soon (one response at a time). A number, not a count of those in flight: nothing to
 * undo for a response that ends without a keep (failed, cancelled, too large).
 */
let started = 0;
/**
 * When a keep of this isolate last met its object's bound (`MAX_STORED_BYTES_PER_OBJECT`,
 * `stored-quota.ts`), until one fits again: an isolate keeps every response in one object
 * ({@link isolateDraw}), so the next keeps would meet it too. A number, not a round trip: a
 * request that asks for `store: true` meanwhile is refused before its provider is called
 * ({@link StoredResponses.full}), for {@link FULL_RECHECK_MS} at most, after which a keep tries again.
 */
let fullSince: number | undefined;
/** How long a full object is taken as full without a keep trying it again: space frees as responses expire or are deleted. */
const FULL_RECHECK_MS = 60_000;
/**
 * The location of that response (`request.cf.colo`), which names the object with the draw: read
 * once, as `request.cf` is parsed at its first read (an isolate runs in one location).
 */
let located: { colo: unknown } | undefined;

/**
 * The slot of the pool object that keeps every response this isolate stores, drawn at random
 * once (at a request: a Worker draws no random number at its start). One object, not one picked
 * per response: its storage is open and its database created once, the object stays warm while
 * the isolate has traffic, and the writes of the isolate's responses go to one database. Spread
 * at random over the pool, each response in a cold pool met an object to start and a database
 * to create (local workerd, `npm run bench:load`'s stored Responses at c=1: 0.7 to 0.9 ms of CPU
 * per request more over the first 200, and half the requests per second). Isolates draw their
 * own, so a location's stored responses still spread over its pool; a resumable response, which
 * runs in its object, still picks one per response (`response-pool.ts`).
 */
function isolateDraw(): number {
  drawn ??= randomDraw();
  return drawn;
}

/**
 * How a route reaches the stored `/v1/responses` responses: in the pool objects of the
 * resumable responses (`response-pool.ts`), each named by a response id this Worker minted and
 * signed (`response-id.ts`), for one owner (the hash of the client token, `tokenOwner`). An id
 * this Worker did not mint never reaches an object; another owner's, an expired or an unknown
 * response reads as absent.
 *
 * @example
 * ```ts
 * const pool = await responsePool(request, env.RESPONSES, settings);
 * const stored = new StoredResponses(pool, pool.client, settings); // the owner: the hash of the client token
 * const id = await stored.newId();
 * await stored.keep(id, JSON.stringify(record));
 * (await stored.read([id], { maxLength: 8 << 20, field: "previous_response_id" })).get(id); // its text, for the same owner
 * ```
 */
export class StoredResponses {
  readonly #pool: ResponsePool;
  readonly #owner: string;
  readonly #ttlMs: number;
  readonly #maxBytes: number;
  readonly #maxObjectBytes: number;
  /** The id {@link StoredResponses.newId} minted last: its MAC is not checked again. */
  #minted: string | undefined;
  /** The isolate's count of started stored responses when it was minted ({@link started}). */
  #number = 0;

  /**
   * The stored responses of `owner` in `pool`, kept `STORE_TTL_MS`, up to `MAX_STORED_RESPONSE_BYTES`
   * each and `MAX_STORED_BYTES_PER_OBJECT` in one object.
   */
  constructor(
    pool: ResponsePool,
    owner: string,
    settings: Pick<Settings, "storeTtlMs" | "maxStoredResponseBytes" | "maxStoredBytesPerObject">,
  ) {
    this.#pool = pool;
    this.#owner = owner;
    this.#ttlMs = settings.storeTtlMs;
    this.#maxBytes = settings.maxStoredResponseBytes;
    this.#maxObjectBytes = settings.maxStoredBytesPerObject;
  }

  /** The most bytes one object keeps of stored responses (`MAX_STORED_BYTES_PER_OBJECT`). */
  get maxObjectBytes(): number {
    return this.#maxObjectBytes;
  }

  /**
   * True while this isolate's object is taken as full: its last keep met `MAX_STORED_BYTES_PER_OBJECT`
   * less than a minute ago, and none fitted since.
   */
  get full(): boolean {
    return fullSince !== undefined && Date.now() - fullSince < FULL_RECHECK_MS;
  }

  /** The largest response stored, in UTF-8 bytes of its JSON text (`MAX_STORED_RESPONSE_BYTES`). */
  get maxBytes(): number {
    return this.#maxBytes;
  }

  /** A new id, in the pool object of this isolate's stored responses ({@link isolateDraw}). */
  async newId(): Promise<string> {
    located ??= { colo: this.#pool.colo };
    const id = await newResponseId(located.colo, this.#pool.objects, this.#pool.key, isolateDraw());
    this.#minted = id;
    this.#number = ++started;
    return id;
  }

  /** True when `text` fits {@link StoredResponses.maxBytes} (a UTF-16 unit is at least one UTF-8 byte, at most three). */
  fits(text: string): boolean {
    if (text.length > this.#maxBytes) return false;
    return text.length * 3 <= this.#maxBytes || new TextEncoder().encode(text).byteLength <= this.#maxBytes;
  }

  /**
   * Keeps response `id`'s JSON `text` (and, apart, the `earlier` items it continued from) for
   * `STORE_TTL_MS`: false, and nothing written, when they do not {@link StoredResponses.fits}
   * together, `id` is not this Worker's, its object holds `MAX_STORED_BYTES_PER_OBJECT` already
   * (then {@link StoredResponses.full}), or the keeps waiting in its object hold their bound
   * (`stored-keeps.ts`: only this response is refused).
   */
  async keep(id: string, text: string, earlier?: string): Promise<boolean> {
    const stub = await this.#stub(id);
    if (!stub || !this.fits(earlier === undefined ? text : text + earlier)) return false;
    const alone = this.#number === started;
    const maxObjectBytes = this.#maxObjectBytes;
    const op = {
      type: "keep",
      id,
      owner: this.#owner,
      text,
      earlier,
      ttlMs: this.#ttlMs,
      alone,
      maxObjectBytes,
    } as const;
    const answer = await stub.storedResponses(op);
    if (answer.type === "full") fullSince = Date.now();
    const kept = answer.type === "done" && answer.found;
    if (kept) fullSince = undefined;
    return kept;
  }

  /**
   * The texts of the responses of `ids` that this owner stored (one call per object), with their
   * earlier items for those in `withEarlier`: absent ones are left out. Throws a 400 naming
   * `field` when they come to more than `maxLength` characters in all.
   */
  async read(
    ids: Iterable<string>,
    options: { withEarlier?: readonly string[]; maxLength: number; field: string },
  ): Promise<Map<string, { text: string; earlier: string | null }>> {
    const byObject = new Map<string, { stub: DurableObjectStub<ResponseBuffer>; ids: string[] }>();
    for (const id of new Set(ids)) {
      const stub = await this.#stub(id);
      const name = objectNameOf(id);
      if (!stub || name === undefined) continue;
      const group = byObject.get(name) ?? { stub, ids: [] };
      group.ids.push(id);
      byObject.set(name, group);
    }
    const found = new Map<string, { text: string; earlier: string | null }>();
    const withEarlier = options.withEarlier ?? [];
    // One object after the other, each given what the ones before it left of the length: an even
    // split would refuse one object's large share that the whole length allows.
    let left = options.maxLength;
    for (const { stub, ids: group } of byObject.values()) {
      const op = { type: "read", ids: group, withEarlier, owner: this.#owner, maxLength: left } as const;
      const answer = await stub.storedResponses(op);
      if (answer.type === "too-large")
        throw invalidField(
          options.field,
          `The stored responses this request names come to more than ${options.maxLength} characters: send fewer, or the items themselves.`,
        );
      if (answer.type !== "texts") continue;
      answer.texts.forEach((text, i) => {
        if (text === null) return;
        found.set(group[i]!, text);
        left -= text.text.length + (text.earlier?.length ?? 0);
      });
    }
    return found;
  }

  /** Deletes response `id`: false when this owner has no such response. */
  async forget(id: string): Promise<boolean> {
    const stub = await this.#stub(id);
    if (!stub) return false;
    const answer = await stub.storedResponses({ type: "forget", id, owner: this.#owner } satisfies StoredResponseOp);
    const found = answer.type === "done" && answer.found;
    // Space freed (in this isolate's object, or another: then the next keep finds it full again).
    if (found) fullSince = undefined;
    return found;
  }

  /** The object of `id`, when this Worker minted it for this pool. */
  async #stub(id: string): Promise<DurableObjectStub<ResponseBuffer> | undefined> {
    const namespace = this.#pool.namespace as unknown as DurableObjectNamespace<ResponseBuffer>;
    const name = id === this.#minted ? objectNameOf(id) : undefined;
    if (name !== undefined) return namedObject(namespace, name);
    return mintedResponseObject(namespace, id, this.#pool.objects, this.#pool.key);
  }
}
