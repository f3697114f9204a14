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

/** `GET /v1/stream/<id>` with `Last-Event-ID` (or `?lastEventId=`): the events after it, then live. */
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
