/**
 * A Chat client's `prediction` (Predicted Outputs: openai-node's `ChatCompletionPredictionContent`,
 * `{type: "content", content: string | ChatCompletionContentPartText[]}`, which the AI SDK's OpenAI
 * chat model sends from `providerOptions.openai.prediction`): text the answer will largely repeat,
 * so that OpenAI answers faster. It asks for speed, not for other words, so it goes where it can
 * help, OpenAI Chat at api.openai.com (`StreamRequest.openaiPrediction`), and is left out for a
 * compatible server and the other providers, none of which has such a setting; the answer is the
 * same. Its shape is checked as OpenAI checks it (a 400 naming the path at fault); its size is the
 * request body's.
 *
 * @module
 */
import { invalidField } from "../../response/json-error.ts";
import { own } from "../../request/json-fields.ts";
import type { JsonObject, StreamRequest } from "../../request/stream-request.ts";
import { arrayAt, objectAt, stringAt } from "../client-request.ts";

/**
 * `prediction` of `fields` (a Chat Completions body), checked, onto `request` as
 * `openaiPrediction` (nothing when absent or `null`). Throws a 400 naming the path at fault.
 *
 * @example
 * ```ts
 * withPrediction({ prediction: { type: "content", content: "const a = 1;" } }, request);
 * ```
 */
export function withPrediction(fields: Record<string, unknown>, request: StreamRequest): void {
  const value = own(fields, "prediction") ?? undefined;
  if (value === undefined) return;
  const prediction = objectAt(value, "prediction");
  for (const key of Object.keys(prediction))
    if (key !== "type" && key !== "content")
      throw invalidField(`prediction.${/^[A-Za-z0-9_]{1,64}$/.test(key) ? key : "(unprintable)"}`, "Unknown field.");
  if (own(prediction, "type") !== "content")
    throw invalidField("prediction.type", "`prediction.type` must be `content`.");
  const content = own(prediction, "content");
  if (typeof content !== "string")
    arrayAt(content, "prediction.content").forEach((part, i) => {
      const at = `prediction.content[${i}]`;
      if (own(objectAt(part, at), "type") !== "text")
        throw invalidField(`${at}.type`, `\`${at}.type\` must be \`text\`.`);
      stringAt(own(part as Record<string, unknown>, "text"), `${at}.text`);
    });
  request.openaiPrediction = prediction as JsonObject;
}
