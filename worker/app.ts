import type { Env } from "./env.ts";
import { asHttpError, errorResponse } from "./response/json-error.ts";
import { healthzRoute } from "./routes/healthz.ts";
import { pageRoute } from "./routes/page.ts";
import { resumeRoute, streamRoute } from "./routes/stream.ts";
import { runRoute } from "./routes/run.ts";
import { agUIRoute } from "./routes/ag-ui.ts";
import { chatCompletionsRoute } from "./routes/chat-completions.ts";
import { uiResumeRoute, uiRoute } from "./routes/ui.ts";
import type { Runtime } from "./runtime.ts";

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
      if (pathname === "/healthz") return healthzRoute(request);
      return pageRoute(request);
    } catch (error) {
      return errorResponse(asHttpError(error));
    }
  };
}
