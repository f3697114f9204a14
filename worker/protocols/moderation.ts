/**
 * OpenAI's moderated completions, a Chat or Responses client's `moderation` (openai-node's
 * `ChatCompletionCreateParams.Moderation` and `ResponseCreateParams.Moderation`: `{model, policy:
 * {input, output: {mode: "score" | "block"}}}`): OpenAI runs its moderation model on the request's
 * input and the answer, blocks what it flags (`block`) and sends the results back (`score` is for
 * them alone). It goes as the client sent it to an OpenAI upstream (`StreamRequest.openaiModeration`),
 * whose results reach the client on the finish's `moderation` (the library's Chat and Responses
 * encoders write them: a Chat chunk's or completion's `moderation`, a response's). No other
 * provider moderates: a 400 naming the field rather than an answer that seems moderated and was
 * not. So is a `score` mode whose results may not come back: a Responses client of an OpenAI Chat
 * upstream, whose side may hold several results where a response has room for one.
 *
 * @module
 */
import { invalidField } from "../response/json-error.ts";
import { isObject, own } from "../request/json-fields.ts";
import type { JsonObject, StreamRequest } from "../request/stream-request.ts";

/** The providers that take `moderation`: OpenAI Chat and OpenAI Responses. */
const MODERATED: ReadonlySet<string> = new Set(["openai", "openai-responses"]);

/**
 * `moderation` of `fields` (the request body of a `client` protocol: `openai` for Chat
 * Completions, `openai-responses`) for an upstream of `provider`, checked, onto `request` (nothing
 * when absent or `null`). Throws a 400 naming the field at fault.
 *
 * @example
 * ```ts
 * withModeration(fields, "openai", request, "openai"); // request.openaiModeration: the client's moderation
 * ```
 */
export function withModeration(
  fields: Record<string, unknown>,
  provider: string,
  request: StreamRequest,
  client: "openai" | "openai-responses",
): void {
  const moderation = own(fields, "moderation") ?? undefined;
  if (moderation === undefined) return;
  if (!MODERATED.has(provider))
    throw invalidField(
      "moderation",
      "`moderation` is supported only with an OpenAI model (openai/... or openai-responses/...).",
    );
  if (!isObject(moderation)) throw invalidField("moderation", "`moderation` must be an object.");
  if (typeof own(moderation, "model") !== "string")
    throw invalidField("moderation.model", "`moderation.model` must be a string.");
  const policy = own(moderation, "policy") ?? undefined;
  if (policy !== undefined && !isObject(policy))
    throw invalidField("moderation.policy", "`moderation.policy` must be an object.");
  for (const side of ["input", "output"]) {
    const rule = policy && (own(policy, side) ?? undefined);
    if (rule === undefined) continue;
    const at = `moderation.policy.${side}`;
    if (!isObject(rule)) throw invalidField(at, `\`${at}\` must be an object.`);
    const mode = own(rule, "mode");
    if (mode !== "block" && mode !== "score")
      throw invalidField(`${at}.mode`, `\`${at}.mode\` must be score or block.`);
    if (mode === "score" && client === "openai-responses" && provider === "openai")
      throw invalidField(
        `${at}.mode`,
        `\`${at}.mode\` must be block with an openai/... model: its scores may not fit a response (use openai-responses/...).`,
      );
  }
  request.openaiModeration = moderation as JsonObject;
}
