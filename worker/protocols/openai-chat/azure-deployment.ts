/**
 * Azure OpenAI's deployment-scoped Chat Completions path,
 * `/openai/deployments/{deployment}/chat/completions?api-version=...`, where openai-node's
 * `AzureOpenAI` sends a chat: the deployment is its `deployment` option, else the body's `model`
 * (openai-node 6 puts it in the path as it is, so a `<provider>/<model>` name spans two segments;
 * 7 percent-encodes it). Azure answers with the deployment's model whatever the body's `model`
 * says, so the Worker routes the deployment as the model.
 *
 * @module
 */
import { isObject } from "../../request/json-fields.ts";
import { HttpError } from "../../response/json-error.ts";

/**
 * `body` with `model` set to the deployment of the path, `encoded` as the path has it (percent-
 * encoded); a body that is no object is left to the Chat Completions parser's 400.
 *
 * @example
 * ```ts
 * withDeployment({ model: "ignored", messages }, "anthropic%2Fclaude-sonnet-4-5"); // model: "anthropic/claude-sonnet-4-5"
 * ```
 */
export function withDeployment(body: unknown, encoded: string): unknown {
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
  return isObject(body) ? { ...body, model: deployment } : body;
}

/**
 * `error` as Azure answers a deployment it cannot find, where the Worker refused the path's
 * deployment as a model (a 400 of `param: "model"`, though the client sent no model): a 404 of
 * code `DeploymentNotFound`, which openai-node raises as `NotFoundError`. Any other error as it is.
 *
 * @example
 * ```ts
 * asDeploymentError(new HttpError(400, { message: "...", param: "model" }), "nowhere/gpt"); // 404 DeploymentNotFound
 * ```
 */
export function asDeploymentError(error: unknown, deployment: string): unknown {
  if (!(error instanceof HttpError) || error.status !== 400 || error.body.field !== "model") return error;
  return new HttpError(404, {
    code: "DeploymentNotFound",
    message: `The API deployment for this resource does not exist: no provider or model of the Worker is named by \`${deployment}\`. ${error.body.message}`,
  });
}
