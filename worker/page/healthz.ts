import { type Env, readSettings, SettingsError } from "../env.ts";
import { HttpError, logMisconfigured } from "../response/json-error.ts";
import { withRequestSettings } from "../request/request-settings.ts";
import { upstreamProviders } from "../upstream/providers/index.ts";
import { providerTarget } from "../upstream/providers/target.ts";
import { isLetIn } from "../http/auth.ts";

/**
 * `GET /healthz`: `{"status":"ok"}` while the Worker can serve; a 503 `{"status":"misconfigured"}`
 * while a setting makes requests a 500 `worker_misconfigured` (every setting, every provider's base
 * URL and credentials), so a monitor sees what clients would. Only a client the Worker lets in
 * reads which setting (`setting`), as its 500s name it; never a value. HEAD: the status alone.
 */
export async function healthzRoute(request: Request, env: Env): Promise<Response> {
  // HEAD reaches every route as GET, its body dropped by the router (worker/app.ts).
  if (request.method !== "GET") {
    throw new HttpError(405, { code: "method_not_allowed", message: "Use GET." }, { allow: "GET, HEAD" });
  }
  const fault = misconfiguration(env);
  const answer = (status: number, body: Record<string, string>) =>
    Response.json(body, { status, headers: { "cache-control": "no-store" } });
  if (fault === undefined) return answer(200, { status: "ok" });
  logMisconfigured(fault);
  if (!(await isLetIn(request, env)))
    return answer(503, {
      status: "misconfigured",
      message: "This Worker is misconfigured: its operator's log names the setting (the client token reads it here).",
    });
  const message = `This Worker is misconfigured (${fault.setting}): its operator's log says what to fix.`;
  return answer(503, { status: "misconfigured", setting: fault.setting, message });
}

/** The first setting a request would fail on: the settings, then each provider's target. */
function misconfiguration(env: Env): SettingsError | undefined {
  try {
    withRequestSettings(readSettings(env), () => undefined); // ALLOWED_STORAGE_URLS' prefixes
    for (const provider of Object.values(upstreamProviders)) providerTarget(provider, env);
    return undefined;
  } catch (error) {
    if (error instanceof SettingsError) return error;
    throw error;
  }
}
