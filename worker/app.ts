import type { Env } from "./env.ts";
import { asHttpError, errorResponse, HttpError } from "./response/json-error.ts";
import { corsOrigins, listedCorsHeaders } from "./http/cors.ts";
import { healthzRoute } from "./page/healthz.ts";
import { pageRoute } from "./page/route.ts";
import { resumeRoute } from "./protocols/tool-call-events/resume-route.ts";
import { runRoute } from "./protocols/tool-call-events/run-route.ts";
import { streamRoute } from "./protocols/tool-call-events/stream-route.ts";
import { agUIRoute } from "./protocols/ag-ui/route.ts";
import { chatCompletionsRoute } from "./protocols/openai-chat/route.ts";
import { uiResumeRoute, uiRoute } from "./protocols/ui-message/route.ts";
import { countTokensRoute, messagesRoute } from "./protocols/anthropic-messages/route.ts";
import { modelsRoute } from "./protocols/models-route.ts";
import { responsesRoute } from "./protocols/openai-responses/route.ts";
import { storedResponseRoute } from "./protocols/openai-responses/stored-route.ts";
import type { Runtime } from "./runtime.ts";

/**
 * Every route the handler below serves, in its order: the 404 of an unknown path lists them, and
 * a test requests each to prove none is missing or stale.
 */
export const ROUTES: readonly string[] = [
  "POST /v1/stream",
  "GET|DELETE /v1/stream/<id>",
  "POST /v1/run",
  "GET|DELETE /v1/run/<id>",
  "POST /v1/chat/completions",
  "POST /v1/ui",
  "GET /v1/ui/<chat-id>/stream",
  "POST /v1/ag-ui",
  "POST /v1/messages",
  "POST /v1/messages/count_tokens",
  "POST /v1/responses",
  "GET|DELETE /v1/responses/<id>",
  "GET /v1/responses/<id>/input_items",
  "POST /v1/responses/<id>/cancel",
  "GET /v1/models",
  "GET /healthz",
  "GET /",
];

/** The Worker's fetch handler over an injected {@link Runtime} (tests pass fakes). */
export function createFetchHandler(runtime: Runtime): (request: Request, env: Env) => Promise<Response> {
  return async (request, env) => {
    const { pathname } = new URL(request.url);
    try {
      if (pathname === "/v1/stream") return await streamRoute(request, env, runtime);
      if (pathname === "/v1/run") return await runRoute(request, env, runtime);
      if (pathname.startsWith("/v1/stream/"))
        return await resumeRoute(request, pathname.slice("/v1/stream/".length), env);
      if (pathname.startsWith("/v1/run/")) return await resumeRoute(request, pathname.slice("/v1/run/".length), env);
      // The client protocols: OpenAI Chat Completions, the AI SDK's UI message stream, AG-UI.
      if (pathname === "/v1/chat/completions") return await chatCompletionsRoute(request, env, runtime);
      if (pathname === "/v1/ui") return await uiRoute(request, env, runtime);
      if (/^\/v1\/ui\/[^/]+\/stream$/.test(pathname)) return uiResumeRoute(request, env);
      if (pathname === "/v1/ag-ui") return await agUIRoute(request, env, runtime);
      // The agent protocols: Anthropic Messages (Claude Code), OpenAI Responses (Codex).
      if (pathname === "/v1/messages") return await messagesRoute(request, env, runtime);
      if (pathname === "/v1/messages/count_tokens") return countTokensRoute(request, env);
      if (pathname === "/v1/responses") return await responsesRoute(request, env, runtime);
      if (pathname.startsWith("/v1/responses/")) {
        const stored = await storedResponseRoute(request, env);
        if (stored) return stored;
      }
      if (pathname === "/v1/models") return await modelsRoute(request, env);
      if (pathname === "/healthz") return await healthzRoute(request, env);
      return pageRoute(request, ROUTES);
    } catch (error) {
      // The routes without CORS checks of their own (the page, the health check, an unknown path)
      // fail readable by a listed origin too: else its browser sees an opaque network error.
      const failure = asHttpError(error);
      const cors = listedCorsHeaders(request, corsOrigins(env));
      return errorResponse(new HttpError(failure.status, failure.body, { ...cors, ...failure.headers }));
    }
  };
}
