import { commaList, type Env } from "../env.ts";
import { HttpError } from "../response/json-error.ts";

/**
 * CORS for the API with an allow-list (`CORS_ALLOW_ORIGINS`): same-origin requests and
 * requests without an `Origin` (curl, servers) pass; a browser on another origin passes only
 * when listed (or when the list is `*`), and is refused with 403 before anything else runs, so
 * a page that is not allowed cannot make the Worker call a provider.
 *
 * @module
 */

/** Request headers a cross-origin client may send. `Last-Event-ID` is for resuming streams. */
const ALLOWED_HEADERS = "authorization, content-type, last-event-id";
/**
 * Other headers a preflight asks for are allowed too when they look like header names: the
 * clients of the protocol endpoints send their own (openai-node `x-stainless-*`, AI SDK custom
 * headers). The Worker reads none of them, and the token, not a header, is what authorizes.
 */
const HEADER_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
const MAX_EXTRA_HEADERS = 32;

/**
 * `CORS_ALLOW_ORIGINS`, as listed: read apart from the other settings, before the client is
 * authenticated (a refusal carries CORS headers too), as a list cannot be malformed.
 *
 * @example
 * ```ts
 * const cors = corsHeaders(request, corsOrigins(env));
 * ```
 */
export function corsOrigins(env: Env): readonly string[] {
  const text = env.CORS_ALLOW_ORIGINS;
  if (text !== listed.text) listed = { text, origins: commaList(text) };
  return listed.origins;
}

/** The last list read, by the exact text that made it: one deployment's variable, split once, not per request. */
let listed: { text: string | undefined; origins: readonly string[] } = { text: undefined, origins: [] };

/**
 * The CORS response headers for an API request, or throws 403 `origin_not_allowed`.
 * Returns no headers for requests that need none.
 */
export function corsHeaders(request: Request, allowList: readonly string[]): Record<string, string> {
  const origin = request.headers.get("origin");
  if (origin === null || origin === new URL(request.url).origin) return {};
  if (!allowList.includes("*") && !allowList.includes(origin)) {
    throw new HttpError(403, {
      code: "origin_not_allowed",
      message: "This origin is not in the Worker's CORS allow-list (CORS_ALLOW_ORIGINS).",
    });
  }
  // Echo the origin rather than `*`, with Vary, so caches keep one answer per origin. The SDKs'
  // retry headers are exposed: a browser's openai-node waits as the error says, or does not retry.
  return { "access-control-allow-origin": origin, "access-control-expose-headers": RETRY_HEADERS, vary: "Origin" };
}

const RETRY_HEADERS = "retry-after, retry-after-ms, x-should-retry";

/**
 * {@link corsHeaders} for an answer that is sent whatever the origin (an unknown path's 404, the
 * page's 405): a listed origin's, none for another (nothing ran for it, so it is not refused either).
 */
export function listedCorsHeaders(request: Request, allowList: readonly string[]): Record<string, string> {
  try {
    return corsHeaders(request, allowList);
  } catch {
    return {};
  }
}

/** `headers`' `access-control-expose-headers` list with `name` added, or `name` alone where it has none. */
export function exposeAlso(headers: Readonly<Record<string, string>>, name: string): string {
  const list = headers["access-control-expose-headers"];
  return list ? `${list}, ${name}` : name;
}

/**
 * The answer to an `OPTIONS` request for the API, a CORS preflight or not, allowing `methods`
 * (those of the route, as its 405 lists them): in `Allow` too (RFC 9110 §9.3.7), for a client
 * that asks what the route takes.
 */
export function preflightResponse(request: Request, allowList: readonly string[], methods = "POST, OPTIONS"): Response {
  const headers = corsHeaders(request, allowList);
  return new Response(null, {
    status: 204,
    headers: {
      ...headers,
      allow: methods,
      "access-control-allow-methods": methods,
      "access-control-allow-headers": allowedHeaders(request.headers.get("access-control-request-headers")),
      "access-control-max-age": "600",
    },
  });
}

function allowedHeaders(requested: string | null): string {
  const extra = (requested ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => HEADER_NAME.test(name) && !ALLOWED_HEADERS.split(", ").includes(name));
  return extra.length > 0 && extra.length <= MAX_EXTRA_HEADERS
    ? `${ALLOWED_HEADERS}, ${[...new Set(extra)].join(", ")}`
    : ALLOWED_HEADERS;
}
