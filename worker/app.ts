import type { Env } from "./env.ts";
import { asGet } from "./http/head.ts";
import { asHttpError, HttpError } from "./response/json-error.ts";
import { errorShapeOf } from "./protocols/path-errors.ts";
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

type Handler = (
  request: Request,
  env: Env,
  runtime: Runtime,
  pathname: string,
) => Response | undefined | Promise<Response | undefined>;

/**
 * One route: its methods and path as the 404 lists them (`<name>` one path segment, `<name...>`
 * one or more), and what answers it (its own method checks, CORS and errors in its protocol's shape).
 */
interface Route {
  route: string;
  serve: Handler;
}

const after = (prefix: string, pathname: string): string => pathname.slice(prefix.length);
const DEPLOYMENTS = "/openai/deployments/";
const CHAT = "/chat/completions";
const stored: Handler = (request, env) => storedResponseRoute(request, env);

/**
 * The routes, in the order the handler tries them: the 404 of an unknown path lists them from
 * here, so that list cannot name a route that is not served nor leave one out.
 */
const TABLE: readonly Route[] = [
  { route: "POST /v1/stream", serve: (request, env, runtime) => streamRoute(request, env, runtime) },
  {
    route: "GET|DELETE /v1/stream/<id>",
    serve: (request, env, _, pathname) => resumeRoute(request, after("/v1/stream/", pathname), env),
  },
  { route: "POST /v1/run", serve: (request, env, runtime) => runRoute(request, env, runtime) },
  {
    route: "GET|DELETE /v1/run/<id>",
    serve: (request, env, _, pathname) => resumeRoute(request, after("/v1/run/", pathname), env),
  },
  // The client protocols: OpenAI Chat Completions, the AI SDK's UI message stream, AG-UI.
  {
    route: "POST /v1/chat/completions",
    serve: (request, env, runtime) => chatCompletionsRoute(request, env, runtime),
  },
  { route: "POST /v1/ui", serve: (request, env, runtime) => uiRoute(request, env, runtime) },
  { route: "GET /v1/ui/<chat-id>/stream", serve: (request, env) => uiResumeRoute(request, env) },
  { route: "POST /v1/ag-ui", serve: (request, env, runtime) => agUIRoute(request, env, runtime) },
  // The agent protocols: Anthropic Messages (Claude Code), OpenAI Responses (Codex).
  { route: "POST /v1/messages", serve: (request, env, runtime) => messagesRoute(request, env, runtime) },
  { route: "POST /v1/responses", serve: (request, env, runtime) => responsesRoute(request, env, runtime) },
  { route: "GET|DELETE /v1/responses/<id>", serve: stored },
  { route: "GET /v1/responses/<id>/input_items", serve: stored },
  { route: "POST /v1/responses/<id>/cancel", serve: stored },
  { route: "GET /v1/models", serve: (request, env) => modelsRoute(request, env) },
  // Azure OpenAI's paths, where openai-node's AzureOpenAI sends (`api-version` in the query):
  // Chat Completions under a deployment, which is the model; Responses and the models without.
  {
    route: "POST /openai/deployments/<deployment...>/chat/completions",
    serve: (request, env, runtime, pathname) =>
      chatCompletionsRoute(request, env, runtime, pathname.slice(DEPLOYMENTS.length, -CHAT.length)),
  },
  { route: "POST /openai/responses", serve: (request, env, runtime) => responsesRoute(request, env, runtime) },
  { route: "GET|DELETE /openai/responses/<id>", serve: stored },
  { route: "GET /openai/responses/<id>/input_items", serve: stored },
  { route: "POST /openai/responses/<id>/cancel", serve: stored },
  { route: "GET /openai/models", serve: (request, env) => modelsRoute(request, env) },
  // Azure OpenAI's v1 API: the plain OpenAI client at `{endpoint}/openai/v1/`, the `/v1` routes.
  {
    route: "POST /openai/v1/chat/completions",
    serve: (request, env, runtime) => chatCompletionsRoute(request, env, runtime),
  },
  { route: "POST /openai/v1/responses", serve: (request, env, runtime) => responsesRoute(request, env, runtime) },
  { route: "GET|DELETE /openai/v1/responses/<id>", serve: stored },
  { route: "GET /openai/v1/responses/<id>/input_items", serve: stored },
  { route: "POST /openai/v1/responses/<id>/cancel", serve: stored },
  { route: "GET /openai/v1/models", serve: (request, env) => modelsRoute(request, env) },
  { route: "GET /healthz", serve: (request, env) => healthzRoute(request, env) },
  // The demo page (its assets too); anything else is the 404 that lists the routes.
  { route: "GET /", serve: (request) => pageRoute(request, ROUTES) },
];

/** Every route the handler below serves, in its order, as the 404 of an unknown path lists them. */
export const ROUTES: readonly string[] = TABLE.map(({ route }) => route);

/** The route's path as a pattern: `<name>` is one segment, `<name...>` one or more. */
const patternOf = (route: string): RegExp =>
  new RegExp(
    `^${route
      .slice(route.indexOf(" ") + 1)
      .replace(/<[^>]+\.\.\.>/g, "[^/]+(?:/[^/]+)*")
      .replace(/<[^>]+>/g, "[^/]+")}$`,
  );
const MATCHERS: readonly (readonly [RegExp, Handler])[] = TABLE.map(({ route, serve }) => [patternOf(route), serve]);

/**
 * `POST /v1/messages/count_tokens`: not a route (this Worker counts no tokens, so it is not
 * listed) but answered in Anthropic's shape, which Claude Code reads to estimate instead.
 */
const COUNT_TOKENS = "/v1/messages/count_tokens";

/** The Worker's fetch handler over an injected {@link Runtime} (tests pass fakes). */
export function createFetchHandler(runtime: Runtime): (request: Request, env: Env) => Promise<Response> {
  return async (request, env) => {
    // HEAD is GET without its content (RFC 9110 §9.3.2): the GET route answers it, its body dropped.
    const head = request.method === "HEAD";
    const answer = await routed(head ? asGet(request) : request, env, runtime);
    return secured(answer, head);
  };
}

async function routed(request: Request, env: Env, runtime: Runtime): Promise<Response> {
  const { pathname } = new URL(request.url);
  try {
    if (pathname === COUNT_TOKENS) return await countTokensRoute(request, env);
    for (const [pattern, serve] of MATCHERS) {
      if (!pattern.test(pathname)) continue;
      const answer = await serve(request, env, runtime, pathname);
      if (answer) return answer;
    }
    return pageRoute(request, ROUTES);
  } catch (error) {
    // The routes without CORS checks of their own (the page, the health check, an unknown path)
    // fail readable by a listed origin too: else its browser sees an opaque network error. An
    // unknown path under a protocol's is answered in that protocol's shape, which its client reads.
    const failure = asHttpError(error);
    const cors = listedCorsHeaders(request, corsOrigins(env));
    return errorShapeOf(
      request,
      pathname,
    )(new HttpError(failure.status, failure.body, { ...cors, ...failure.headers }));
  }
}

/**
 * Every answer with `x-content-type-options: nosniff`, whichever route and protocol wrote it (an
 * error that echoes a client's text is never read as another type than it says); a HEAD's without
 * its body. An answer read from elsewhere (a Durable Object's) has immutable headers: copied first.
 */
function secured(answer: Response, head: boolean): Response {
  let out = answer;
  if (head) {
    answer.body?.cancel().catch(() => undefined);
    out = new Response(null, answer);
  }
  if (out.headers.get("x-content-type-options") === "nosniff") return out;
  try {
    out.headers.set("x-content-type-options", "nosniff");
  } catch {
    out = new Response(out.body, out);
    out.headers.set("x-content-type-options", "nosniff");
  }
  return out;
}
