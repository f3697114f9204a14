import { anyProviderKey, type Env } from "../env.ts";
import { authenticatedSettings } from "../http/auth.ts";
import { corsHeaders, corsOrigins, preflightResponse } from "../http/cors.ts";
import { asHttpError, HttpError } from "../response/json-error.ts";
import { providerNames } from "../upstream/providers/index.ts";
import { SCRIPTED_MODEL } from "../upstream/replay/scripted/scripted-model.ts";
import { aliasNames } from "./agent-model.ts";
import { anthropicErrorResponse } from "./anthropic-messages/error.ts";
import { openAIErrorResponse } from "./openai-error.ts";

/**
 * `GET /v1/models`: the names a client may send as `model` without knowing a provider's ids,
 * the `MODEL_ALIASES` names, and offline (no provider key) the scripted model that serves every
 * name (`scripted-model` and `<provider>/scripted-model` for each provider), in Anthropic's list
 * shape when the request carries `anthropic-version` (as `@anthropic-ai/sdk` and Claude Code
 * send it) and in OpenAI's otherwise. Any `<provider>/<model>` works too; the Worker lists no
 * provider's catalogue.
 */
export async function modelsRoute(request: Request, env: Env): Promise<Response> {
  const anthropic = request.headers.has("anthropic-version");
  // A listed origin's browser reads a refusal (a 401, a 405) only with these: else an opaque network error.
  let cors: Record<string, string> = {};
  try {
    const origins = corsOrigins(env);
    cors = corsHeaders(request, origins);
    if (request.method === "OPTIONS") return preflightResponse(request, origins, "GET, HEAD, OPTIONS");
    if (request.method !== "GET")
      throw new HttpError(405, { code: "method_not_allowed", message: "Use GET." }, { allow: "GET, HEAD, OPTIONS" });
    const settings = await authenticatedSettings(request, env);
    const offline = anyProviderKey(env)
      ? []
      : [SCRIPTED_MODEL, ...providerNames.map((provider) => `${provider}/${SCRIPTED_MODEL}`)];
    const names = [...new Set([...aliasNames(settings.modelAliases), ...offline])];
    const headers = { ...cors, "cache-control": "no-store" };
    if (anthropic) {
      const data = names.map((id) => ({ type: "model", id, display_name: id, created_at: "1970-01-01T00:00:00Z" }));
      return Response.json(
        { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null },
        { headers },
      );
    }
    const data = names.map((id) => ({ id, object: "model", created: 0, owned_by: "tool-call-stream" }));
    return Response.json({ object: "list", data }, { headers });
  } catch (error) {
    const failure = asHttpError(error);
    const answer = anthropic ? anthropicErrorResponse : openAIErrorResponse;
    return answer(new HttpError(failure.status, failure.body, { ...failure.headers, ...cors }));
  }
}
