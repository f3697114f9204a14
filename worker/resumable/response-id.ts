/**
 * Resumable response ids, and the Durable Object each one lives in.
 *
 * Responses share a small pool of objects per Cloudflare location instead of one object each:
 * a response in a live object costs no object start and no new database (locally, a new object
 * is a SQLite file created and synced: about a quarter of a short resumable response's CPU, see
 * BENCHMARKS.md), concurrent responses bill one object's duration, and an object named after the
 * location it was first used from is placed near it. The id names its object, so a resume from
 * anywhere reaches it: `<place>-<n>.<uuid>`, e.g. `sjc-3.1b4e28ba-2fa1-41d2-883f-0016d3cca427`
 * (`<place>` is the colo's code, lower case, or `any` when the request has none).
 *
 * @module
 */

const RESPONSE_ID = /^((?:[a-z]{3}|any)-\d{1,4})\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A new response id in one of `objects` pool objects of the request's location (`colo`, from
 * `request.cf`), picked at random.
 *
 * @example
 * ```ts
 * newResponseId("SJC", 16); // "sjc-3.1b4e28ba-2fa1-41d2-883f-0016d3cca427"
 * ```
 */
export function newResponseId(colo: unknown, objects: number): string {
  const place = typeof colo === "string" && /^[A-Za-z]{3}$/.test(colo) ? colo.toLowerCase() : "any";
  const slot = crypto.getRandomValues(new Uint32Array(1))[0]! % objects;
  return `${place}-${slot}.${crypto.randomUUID()}`;
}

/**
 * The name of the pool object that runs response `id`, or `undefined` when `id` is not a
 * response id.
 *
 * @example
 * ```ts
 * objectNameOf("sjc-3.1b4e28ba-2fa1-41d2-883f-0016d3cca427"); // "sjc-3"
 * objectNameOf("nope"); // undefined
 * ```
 */
export function objectNameOf(id: string): string | undefined {
  return RESPONSE_ID.exec(id)?.[1];
}

/**
 * The stub of the object that runs response `id`, or `undefined` when `id` is not a response id.
 *
 * @example
 * ```ts
 * const stub = responseObject(env.RESPONSES, id);
 * ```
 */
export function responseObject(namespace: DurableObjectNamespace, id: string): DurableObjectStub | undefined {
  const name = objectNameOf(id);
  return name === undefined ? undefined : namespace.get(namespace.idFromName(name));
}
