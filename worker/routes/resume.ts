import type { StreamRequest } from "../request/stream-request.ts";
import { HttpError } from "../response/json-error.ts";

const RESPONSE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Starts a resumable response: a new Durable Object (named by a random response id) runs it,
 * and this first connection reads it. The id is returned in `x-response-id`; a client that loses
 * the connection sends `GET /v1/stream/<id>` with `Last-Event-ID` to get the rest.
 */
export async function startResumableStream(streamRequest: StreamRequest, responses: DurableObjectNamespace, cors: Record<string, string>): Promise<Response> {
  const id = crypto.randomUUID();
  const answer = await stubOf(responses, id).fetch("https://response-buffer/start", { method: "POST", body: JSON.stringify(streamRequest) });
  return withHeaders(answer, { ...cors, "x-response-id": id, "access-control-expose-headers": "x-response-id" });
}

/**
 * Starts a resumable run (`POST /v1/run`, its body already validated) like
 * {@link startResumableStream}; with an `x-response-id` request header, retries that run
 * instead (the same body, or 409): a run still running or finished is read from its start, one
 * a restart cut runs again without running any tool call twice.
 */
export async function startResumableRun(request: Request, body: string, responses: DurableObjectNamespace, cors: Record<string, string>): Promise<Response> {
  const retried = request.headers.get("x-response-id");
  if (retried !== null && !RESPONSE_ID.test(retried)) throw new HttpError(404, { code: "unknown_response", message: "No response with this id is in flight or recent." });
  const id = retried ?? crypto.randomUUID();
  const answer = await stubOf(responses, id).fetch(`https://response-buffer/run?retry=${retried === null ? 0 : 1}`, { method: "POST", body });
  return withHeaders(answer, { ...cors, "x-response-id": id, "access-control-expose-headers": "x-response-id" });
}

/** `GET /v1/stream/<id>` (or `/v1/run/<id>`) with `Last-Event-ID` (or `?lastEventId=`): the events after it, then live. */
export async function resumeStream(request: Request, id: string, responses: DurableObjectNamespace, cors: Record<string, string>): Promise<Response> {
  if (!RESPONSE_ID.test(id)) throw new HttpError(404, { code: "unknown_response", message: "No response with this id is in flight or recent." });
  const raw = request.headers.get("last-event-id") ?? new URL(request.url).searchParams.get("lastEventId") ?? "-1";
  const lastSeen = /^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!Number.isSafeInteger(lastSeen) || lastSeen < -1) throw new HttpError(400, { code: "invalid_request", message: "Last-Event-ID must be an event id of this response." });
  const stub = stubOf(responses, id);
  if (request.method === "DELETE") return withHeaders(await stub.fetch("https://response-buffer/cancel", { method: "POST" }), cors);
  return withHeaders(await stub.fetch(`https://response-buffer/attach?after=${lastSeen}`), { ...cors, "x-response-id": id });
}

function stubOf(responses: DurableObjectNamespace, id: string): DurableObjectStub {
  return responses.get(responses.idFromName(id));
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  const out = new Response(response.body, response);
  for (const [name, value] of Object.entries(headers)) out.headers.set(name, value);
  return out;
}
