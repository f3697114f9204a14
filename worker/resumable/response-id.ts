/**
 * Resumable response ids, and the Durable Object each one lives in.
 *
 * Responses share a small pool of objects per Cloudflare location instead of one object each:
 * a response in a live object costs no object start and no new database (locally, a new object
 * is a SQLite file created and synced: about a quarter of a short resumable response's CPU, see
 * docs/benchmarks-history.md), concurrent responses bill one object's duration, and an object named after the
 * location it was first used from is placed near it. The id names its object, so a resume from
 * anywhere reaches it: `<place>-<slot>.<uuid>.<mac>`, e.g.
 * `sjc-3.1b4e28ba-2fa1-41d2-883f-0016d3cca427.x1Vb0kq7Qd2aY3mT9cW8pA` (`<place>` is the colo's
 * code, lower case, or `any` when the request has none).
 *
 * Only ids this Worker minted reach an object: `<mac>` is the first 16 bytes of an HMAC-SHA-256
 * of the rest (base64url), keyed by the `RESPONSE_ID_SECRET` secret, and the slot must be below
 * `RESPONSE_OBJECTS`. Anything else is refused before a stub is made, so a client can neither
 * name objects outside the pool (each a new SQLite database) nor guess an id. Without the secret,
 * each isolate makes a key of its own: ids then hold only in the isolate that minted them (fine
 * for `wrangler dev`; deployed, set the secret, or a resume reaching another isolate is a 404).
 *
 * @module
 */

const RESPONSE_ID =
  /^(((?:[a-z]{3}|any)-(\d{1,4}))\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([\w-]{22})$/;

/** Bytes of the HMAC kept in an id: 128 bits, past guessing. */
const MAC_BYTES = 16;

/** The raw key of the isolate, drawn once, when `RESPONSE_ID_SECRET` is not set. */
let isolateRaw: Uint8Array<ArrayBuffer> | undefined;
/**
 * The key of the last secret (or of the isolate's raw key) seen: settings are the same on every
 * request of an isolate. A key, never the promise of one: workerd cancels a request's wait on a
 * promise another request made when that one ended first, so each request imports its own until
 * one is kept.
 */
let kept: { secret: string | undefined; key: CryptoKey } | undefined;

/**
 * The key that signs and checks response ids: from `secret` (`RESPONSE_ID_SECRET`) when set, else
 * one made at random for this isolate.
 *
 * @example
 * ```ts
 * const key = await responseIdKey(env.RESPONSE_ID_SECRET);
 * ```
 */
export async function responseIdKey(secret: string | undefined): Promise<CryptoKey> {
  if (kept !== undefined && kept.secret === secret) return kept.key;
  isolateRaw ??= crypto.getRandomValues(new Uint8Array(32));
  const raw = secret === undefined ? isolateRaw : new TextEncoder().encode(secret);
  const key = await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  kept = { secret, key };
  return key;
}

/**
 * A new response id in one of `objects` pool objects of the request's location (`colo`, from
 * `request.cf`), the one of `draw` (a random number, below `objects` or not: it is taken modulo
 * `objects`; by default drawn for this id), signed with `key`.
 *
 * @example
 * ```ts
 * await newResponseId("SJC", 16, key); // "sjc-3.1b4e28ba-2fa1-41d2-883f-0016d3cca427.x1Vb0kq7Qd2aY3mT9cW8pA"
 * ```
 */
export async function newResponseId(
  colo: unknown,
  objects: number,
  key: CryptoKey,
  draw: number = randomDraw(),
): Promise<string> {
  const place = typeof colo === "string" && /^[A-Za-z]{3}$/.test(colo) ? colo.toLowerCase() : "any";
  const slot = draw % objects;
  const unsigned = `${place}-${slot}.${crypto.randomUUID()}`;
  return `${unsigned}.${await mac(unsigned, key)}`;
}

/**
 * The name of the pool object that runs response `id`, or `undefined` when `id` does not have a
 * response id's shape. The shape only: what a Durable Object checks of the ids the Worker
 * verified ({@link mintedResponseObject}) before passing them on.
 *
 * @example
 * ```ts
 * objectNameOf("sjc-3.1b4e28ba-2fa1-41d2-883f-0016d3cca427.x1Vb0kq7Qd2aY3mT9cW8pA"); // "sjc-3"
 * objectNameOf("nope"); // undefined
 * ```
 */
export function objectNameOf(id: string): string | undefined {
  return RESPONSE_ID.exec(id)?.[2];
}

/**
 * The stub of the object that runs response `id`, or `undefined` unless this Worker minted `id`
 * (its MAC checks with `key`) within a pool of `objects`: nothing else reaches an object.
 *
 * @example
 * ```ts
 * const stub = await mintedResponseObject(env.RESPONSES, id, settings.responseObjects, key);
 * if (!stub) return notFound();
 * ```
 */
export async function mintedResponseObject<T extends Rpc.DurableObjectBranded | undefined>(
  namespace: DurableObjectNamespace<T>,
  id: string,
  objects: number,
  key: CryptoKey,
): Promise<DurableObjectStub<T> | undefined> {
  const match = RESPONSE_ID.exec(id);
  if (!match || Number(match[3]) >= objects) return undefined;
  const expected = new TextEncoder().encode(await mac(match[1]!, key));
  const given = new TextEncoder().encode(match[4]!);
  if (!crypto.subtle.timingSafeEqual(expected, given)) return undefined;
  return namedObject(namespace, match[2]!);
}

/**
 * The ids of the pool objects named so far, per namespace: an id is a value of no request (no I/O
 * of its own), so it is made once per isolate and name, and only its stub per request (a stub is
 * bound to the request that made it). The names are those of verified ids: at most
 * `RESPONSE_OBJECTS` per location.
 */
const objectIds = new WeakMap<object, Map<string, DurableObjectId>>();

/**
 * A stub of the pool object `name` in `namespace`, its id made once ({@link objectIds}): `idFromName`
 * hashes the name (bench/load/stored-callgrind.ts: 0.4 % of a stored response's instructions).
 *
 * @example
 * ```ts
 * const stub = namedObject(env.RESPONSES, "sjc-3");
 * ```
 */
export function namedObject<T extends Rpc.DurableObjectBranded | undefined>(
  namespace: DurableObjectNamespace<T>,
  name: string,
): DurableObjectStub<T> {
  let ids = objectIds.get(namespace);
  if (ids === undefined) objectIds.set(namespace, (ids = new Map()));
  let id = ids.get(name);
  if (id === undefined) ids.set(name, (id = namespace.idFromName(name)));
  return namespace.get(id);
}

/**
 * A random number for {@link newResponseId}'s `draw`.
 *
 * @example
 * ```ts
 * const draw = randomDraw(); // then the same object for every id minted with it
 * ```
 */
export function randomDraw(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0]!;
}

/** The id's MAC: the first {@link MAC_BYTES} of its HMAC-SHA-256, base64url without padding (22 characters). */
async function mac(unsigned: string, key: CryptoKey): Promise<string> {
  const signature = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(unsigned)));
  let binary = "";
  for (const byte of signature.subarray(0, MAC_BYTES)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
