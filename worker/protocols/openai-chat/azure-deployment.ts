/**
 * Azure OpenAI's deployment-scoped Chat Completions path,
 * `/openai/deployments/{deployment}/chat/completions?api-version=...`, where openai-node's
 * `AzureOpenAI` sends a chat: the deployment is its `deployment` option, else the body's `model`
 * (openai-node 6 puts it in the path as it is, so a `<provider>/<model>` name spans two segments;
 * 7 percent-encodes it). Azure answers with the deployment's model whatever the body's `model`
 * says, so the Worker routes the deployment as the model. An Azure deployment is a name its
 * operator chose, so `MODEL_ALIASES` maps it, as on the agent endpoints.
 *
 * @module
 */
import type { ModelAlias } from "../../env.ts";
import { isObject } from "../../request/json-fields.ts";
import { HttpError } from "../../response/json-error.ts";
import { providerModel, resolveAlias } from "../provider-model.ts";

/**
 * `body` with `model` set to the deployment of the path, `encoded` as the path has it (percent-
 * encoded), or to the `<provider>/<model>` a pair of `aliases` maps it to; a body that is no object
 * is left to the Chat Completions parser's 400. A deployment that is no name is a 400; one that no
 * pair maps and that names no provider of `providers` (nor, with `bare`, a model of that provider:
 * a name alone such as `gpt-4o`) is Azure's 404 `DeploymentNotFound`, which openai-node raises as
 * `NotFoundError`, where `/v1` answers a 400 at `model` (the client sent no model here). A
 * deployment the Worker routes but refuses later (a search model `OPENAI_SERVER_TOOLS` does not
 * allow, say) stays that 400: it exists, and a setting refuses it.
 *
 * @example
 * ```ts
 * withDeployment({ model: "ignored", messages }, "anthropic%2Fclaude-sonnet-4-5", providerNames); // model: "anthropic/claude-sonnet-4-5"
 * ```
 */
export function withDeployment(
  body: unknown,
  encoded: string,
  providers: readonly string[],
  bare?: string,
  aliases: readonly ModelAlias[] = [],
): unknown {
  let deployment: string | undefined;
  try {
    deployment = decodeURIComponent(encoded);
  } catch {
    // decodeURIComponent's URIError: a `%` not followed by two hex digits, or bytes that are no UTF-8.
  }
  if (!deployment?.trim())
    throw new HttpError(400, {
      code: "invalid_request",
      message:
        "The deployment in the path (`/openai/deployments/<deployment>/chat/completions`) is not a model name: send `<provider>/<model>`, percent-encoded.",
    });
  const alias = resolveAlias(deployment, aliases);
  if (alias) return isObject(body) ? { ...body, model: `${alias.provider}/${alias.model}` } : body;
  try {
    providerModel(deployment, providers, "model", bare);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    // The message never repeats the client's value (as providerModel's do); its reason does.
    throw new HttpError(404, {
      code: "DeploymentNotFound",
      message: `The API deployment for this resource does not exist: the path's deployment names no provider or model of this Worker. ${error.body.message}`,
    });
  }
  return isObject(body) ? { ...body, model: deployment } : body;
}
