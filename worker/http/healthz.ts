import { HttpError } from "../response/json-error.ts";

/** `GET /healthz`: answers while the Worker runs. It reveals nothing about its configuration. */
export function healthzRoute(request: Request): Response {
  if (request.method !== "GET" && request.method !== "HEAD") {
    throw new HttpError(405, { code: "method_not_allowed", message: "Use GET." }, { allow: "GET, HEAD" });
  }
  return Response.json({ status: "ok" }, { headers: { "cache-control": "no-store" } });
}
