import type { Settings } from "../env.ts";
import { tokenOwner } from "../http/auth.ts";
import { exposeAlso } from "../http/cors.ts";
import { answersHead } from "../http/head.ts";
import type { StreamRequest } from "../request/stream-request.ts";
import { HttpError } from "../response/json-error.ts";
import type { ResponseBuffer } from "./response-buffer.ts";
import { mintedResponseObject, newResponseId, responseIdKey } from "./response-id.ts";
import type { RunStart } from "./run-start.ts";

/**
 * How a route reaches the resumable responses: it starts and cancels them through the RPC methods
 * of the `ResponseBuffer` that runs each (`startStream`, `startRun`, `cancel`), reads them through
 * its `fetch` ({@link attach}), and adds its own headers to the answer.
 *
 * @module
 */

/** Where resumable responses start: the `RESPONSES` namespace, and the pool to pick an object from. */
export interface ResponsePool {
  /** The `RESPONSES` binding. */
  namespace: DurableObjectNamespace;
  /** The Cloudflare location of the request (`request.cf.colo`), which names its pool. */
  colo: unknown;
  /** How many objects the pool has (`RESPONSE_OBJECTS`). */
  objects: number;
  /** The key that signs and checks response ids (`RESPONSE_ID_SECRET`, or the isolate's own). */
  key: CryptoKey;
  /** Who asks (the hash of its token, `tokenOwner`): its share of an object's readers (`response-readers.ts`). */
  client: string;
}

/**
 * The pool a request's resumable response starts in: the objects of its location.
 *
 * @example
 * ```ts
 * if (env.RESPONSES) return startResumableStream(streamRequest, await responsePool(request, env.RESPONSES, settings), cors);
 * ```
 */
export async function responsePool(
  request: Request,
  namespace: DurableObjectNamespace,
  settings: Settings,
): Promise<ResponsePool> {
  return {
    namespace,
    // Read when an id is minted, not before: `request.cf` is parsed at its first read.
    get colo() {
      return (request.cf as { colo?: unknown } | undefined)?.colo;
    },
    objects: settings.responseObjects,
    key: await responseIdKey(settings.responseIdSecret),
    client: await tokenOwner(request),
  };
}

/**
 * Starts a resumable response: one of the pool's Durable Objects (picked by a new random
 * response id, which names it) runs it, and this first connection reads it. The id is returned in
 * `x-response-id`; a client that loses the connection sends `GET /v1/stream/<id>` with
 * `Last-Event-ID` to get the rest.
 */
export async function startResumableStream(
  streamRequest: StreamRequest,
  pool: ResponsePool,
  cors: Record<string, string>,
): Promise<Response> {
  const id = await newResponseId(pool.colo, pool.objects, pool.key);
  const stub = await stubOf(pool, id);
  const answer =
    (await stub.startStream(id, streamRequest, pool.client)) ?? (await attach(stub, id, -1, "GET", pool.client));
  return withHeaders(answer, idHeaders(cors, id));
}

/**
 * Starts a resumable run (`POST /v1/run`, validated by its route) like
 * {@link startResumableStream}; with an `x-response-id` request header, retries that run
 * instead (the same body, or 409): a run still running or finished is read from its start, one
 * a restart cut runs again without running any tool call twice.
 */
export async function startResumableRun(
  request: Request,
  run: RunStart,
  pool: ResponsePool,
  cors: Record<string, string>,
): Promise<Response> {
  const retried = request.headers.get("x-response-id");
  const id = retried ?? (await newResponseId(pool.colo, pool.objects, pool.key));
  const stub = await stubOf(pool, id);
  const answer =
    (await stub.startRun(id, run, retried !== null, pool.client)) ?? (await attach(stub, id, -1, "GET", pool.client));
  return withHeaders(answer, idHeaders(cors, id));
}

/** `GET /v1/stream/<id>` (or `/v1/run/<id>`) with `Last-Event-ID` (or `?lastEventId=`): the events after it, then live. */
export async function resumeStream(
  request: Request,
  id: string,
  pool: ResponsePool,
  cors: Record<string, string>,
): Promise<Response> {
  const stub = await stubOf(pool, id);
  const header = request.headers.get("last-event-id");
  const field = header === null ? "lastEventId" : "Last-Event-ID";
  const raw = header ?? new URL(request.url).searchParams.get("lastEventId") ?? "-1";
  // An id exactly as the response sent it (`id: 12`), or -1 (none seen yet): `-0`, `01` or `1e2`
  // is no id of it, and read as a number would resume somewhere the client never was.
  const lastSeen = /^(?:-1|0|[1-9]\d*)$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(lastSeen))
    throw new HttpError(400, {
      code: "invalid_request",
      field,
      message: `${field} must be an event id of this response, as its \`id:\` lines give them (0, 1, 2, ...), or -1 for all.`,
    });
  if (request.method === "DELETE") {
    await stub.cancel(id);
    return new Response(null, { status: 204, headers: cors });
  }
  // A HEAD's GET takes no reader's place: it would hold a running response's first one, or put
  // off the cancellation of a response no client reads, and leave at once.
  const answer = await attach(stub, id, lastSeen, answersHead(request) ? "HEAD" : "GET", pool.client);
  return withHeaders(answer, { ...cors, "x-response-id": id });
}

/**
 * A client's body of response `id`: the frames after event id `after` (-1: all), then live, or a
 * JSON error (`ResponseBuffer.fetch`); `client` (the hash of its token) takes one of its share of
 * the object's places.
 *
 * @example
 * ```ts
 * const body = await attach(stub, id, Number(lastEventId));
 * ```
 */
export function attach(
  stub: DurableObjectStub<ResponseBuffer>,
  id: string,
  after: number,
  method: "GET" | "HEAD" = "GET",
  client = "",
): Promise<Response> {
  const query = `id=${encodeURIComponent(id)}&after=${after}&client=${encodeURIComponent(client)}`;
  return stub.fetch(`https://response-buffer/attach?${query}`, { method });
}

/**
 * The object that runs response `id`; 404 when this Worker did not mint `id` for this pool (before
 * any object is touched). `RESPONSES` is bound to the `ResponseBuffer` class in wrangler.toml;
 * `Env` declares it without its class, since the bindings sit below every feature folder.
 */
async function stubOf(pool: ResponsePool, id: string): Promise<DurableObjectStub<ResponseBuffer>> {
  const namespace = pool.namespace as unknown as DurableObjectNamespace<ResponseBuffer>;
  const stub = await mintedResponseObject(namespace, id, pool.objects, pool.key);
  if (!stub)
    throw new HttpError(404, { code: "unknown_response", message: "No response with this id is in flight or recent." });
  return stub;
}

/**
 * CORS and the response's id, readable cross-origin beside what CORS already exposes (a refusal's
 * `retry-after`, `retry-after-ms`, `x-should-retry`, which the SDKs pace their retries by).
 */
function idHeaders(cors: Record<string, string>, id: string): Record<string, string> {
  return { ...cors, "x-response-id": id, "access-control-expose-headers": exposeAlso(cors, "x-response-id") };
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  const out = new Response(response.body, response);
  for (const [name, value] of Object.entries(headers)) out.headers.set(name, value);
  return out;
}
