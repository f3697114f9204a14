import { HttpError } from "../response/json-error.ts";
import { pageScript, pageStyles } from "./generated/assets.ts";
import { renderPage } from "./html.ts";
import { providerNames } from "../upstream/providers/index.ts";

/** The page may load its own script and styles and call its own origin, nothing else. */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Two brackets around a dot: a call with its arguments. */
const FAVICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><path d="M11 4C6 4 8 14 3 16c5 2 3 12 8 12M21 4c5 0 3 10 8 12-5 2-3 12-8 12" fill="none" stroke="#2353c8" stroke-width="3"/><circle cx="16" cy="16" r="3" fill="#2353c8"/></svg>';

const COMMON = { "x-content-type-options": "nosniff", "referrer-policy": "no-referrer" };

/** `GET /` (the demo page) and its assets; anything else is a JSON 404 that lists the Worker's `routes`. */
export function pageRoute(request: Request, routes: readonly string[]): Response {
  const { pathname } = new URL(request.url);
  const asset = assets()[pathname];
  if (!asset)
    throw new HttpError(404, {
      code: "not_found",
      message: `No such route: ${request.method} ${pathname.slice(0, 200)}${baseUrlHint(pathname, routes)}. The routes: ${routes.join(", ")}.`,
    });
  // HEAD reaches every route as GET, its body dropped by the router (worker/app.ts).
  if (request.method !== "GET") {
    throw new HttpError(405, { code: "method_not_allowed", message: "Use GET." }, { allow: "GET, HEAD" });
  }
  return new Response(asset.body, { headers: { ...COMMON, ...asset.headers } });
}

/**
 * The likely cause of a miss by an SDK's base URL: one ending in `/v1` given to a client that adds
 * its own (Anthropic's) asks for `/v1/v1/...`; one without it given to a client that adds none
 * (OpenAI's: `baseURL: "http://localhost:8787"`) asks for `/chat/completions`.
 */
function baseUrlHint(pathname: string, routes: readonly string[]): string {
  if (pathname.startsWith("/v1/v1/")) return " (a base URL ending in /v1 to which the client adds its own /v1?)";
  const served = (path: string) => routes.some((route) => route.split(" ")[1] === path);
  if (served(`/v1${pathname}`)) return ` (a base URL without /v1? This route is /v1${pathname}${v1Clients(pathname)})`;
  // A base URL ending in `/` joined by hand to a path starting with one, or a path ending in one.
  const tidy = pathname.replace(/\/{2,}/g, "/").replace(/(.)\/$/, "$1");
  return tidy !== pathname && served(tidy) ? ` (a doubled or trailing /? This route is ${tidy})` : "";
}

/** The routes OpenAI's clients ask for, each after their base URL. */
const OPENAI_ROUTES = new Set(["/chat/completions", "/responses", "/models"]);

/**
 * Which clients of a route take a base URL ending in `/v1`: Anthropic's protocol has clients of
 * both kinds (@ai-sdk/anthropic's, and `ANTHROPIC_BASE_URL` read by it, joins `/messages` to the
 * URL as given), and the routes of the Worker's own protocols and of the AI SDK's transport and
 * AG-UI's agent (each given the whole URL) have none.
 */
function v1Clients(pathname: string): string {
  if (pathname === "/messages")
    return ": the AI SDK's Anthropic provider takes http://<host>/v1, @anthropic-ai/sdk and Claude Code http://<host>";
  return OPENAI_ROUTES.has(pathname) ? ": OpenAI's clients take http://<host>/v1" : "";
}

function assets(): Record<string, { body: string; headers: Record<string, string> }> {
  return {
    "/": {
      body: renderPage(providerNames),
      headers: {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-cache",
        "content-security-policy": CSP,
      },
    },
    "/page.js": {
      body: pageScript,
      headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-cache" },
    },
    "/page.css": {
      body: pageStyles,
      headers: { "content-type": "text/css; charset=utf-8", "cache-control": "no-cache" },
    },
    "/favicon.svg": { body: FAVICON, headers: { "content-type": "image/svg+xml", "cache-control": "max-age=86400" } },
  };
}
