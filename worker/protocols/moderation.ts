/**
 * OpenAI's moderated completions, a Chat or Responses client's `moderation` (openai-node's
 * `ChatCompletionCreateParams.Moderation` and `ResponseCreateParams.Moderation`: `{model, policy:
 * {input, output: {mode: "score" | "block"}}}`): OpenAI runs its moderation model on the request's
 * input and the answer and blocks what it flags. It goes as the client sent it to an OpenAI upstream
 * (`StreamRequest.openaiModeration`). No other provider moderates, and an answer passes no scores
 * back (the Worker's events have no place for them): either is a 400 naming the field rather than
 * an answer that seems moderated and was not.
 *
 * @module
 */
import { invalidField } from "../response/json-error.ts";
import { isObject, own } from "../request/json-fields.ts";
import type { JsonObject, StreamRequest } from "../request/stream-request.ts";

/** The providers that take `moderation`: OpenAI Chat and OpenAI Responses. */
const MODERATED: ReadonlySet<string> = new Set(["openai", "openai-responses"]);

/**
 * `moderation` of `fields` (the request body) for an upstream of `provider`, checked, onto
 * `request` (nothing when absent or `null`). Throws a 400 naming the field at fault.
 *
 * @example
 * ```ts
 * withModeration(fields, "openai", request); // request.openaiModeration: the client's moderation
 * ```
 */
export function withModeration(fields: Record<string, unknown>, provider: string, request: StreamRequest): void {
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
    if (own(rule, "mode") !== "block")
      throw invalidField(`${at}.mode`, `\`${at}.mode\` must be block: scores are not passed back to the client.`);
  }
  request.openaiModeration = moderation as JsonObject;
}
