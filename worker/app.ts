import type { Env } from "./env.ts";
import { SettingsError } from "./env.ts";
import { errorResponse, HttpError } from "./response/json-error.ts";
import { healthzRoute } from "./routes/healthz.ts";
import { pageRoute } from "./routes/page.ts";
import { resumeRoute, streamRoute } from "./routes/stream.ts";
import { runRoute } from "./routes/run.ts";
import type { Runtime } from "./runtime.ts";

/** The Worker's fetch handler over an injected {@link Runtime} (tests pass fakes). */
export function createFetchHandler(runtime: Runtime): (request: Request, env: Env) => Promise<Response> {
  return async (request, env) => {
    const { pathname } = new URL(request.url);
    try {
      if (pathname === "/v1/stream") return await streamRoute(request, env, runtime);
      if (pathname === "/v1/run") return await runRoute(request, env, runtime);
      if (pathname.startsWith("/v1/stream/")) return await resumeRoute(request, pathname.slice("/v1/stream/".length), env);
      if (pathname === "/healthz") return healthzRoute(request);
      return pageRoute(request);
    } catch (error) {
      return errorResponse(toHttpError(error));
    }
  };
}

/** Anything unexpected becomes a 500 whose message says nothing about internals. */
function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof SettingsError) return new HttpError(500, { code: "worker_misconfigured", message: error.message });
  return new HttpError(500, { code: "internal_error", message: "The Worker failed to handle the request." });
}
