/**
 * A Chat client's `prediction` (Predicted Outputs: openai-node's `ChatCompletionPredictionContent`,
 * `{type: "content", content: string | ChatCompletionContentPartText[]}`, which the AI SDK's OpenAI
 * chat model sends from `providerOptions.openai.prediction`): text the answer will largely repeat,
 * so that OpenAI answers faster. It goes to no provider, as `service_tier` goes nowhere: OpenAI
 * bills the prediction's tokens that the answer does not repeat at the completion rate, to the
 * operator's key (openai-node's `rejected_prediction_tokens`: "still counted in the total completion
 * tokens for purposes of billing, output, and context window limits"), a cost a client should not
 * choose; and OpenAI's guide lists tools, which this Worker's clients send, among what Predicted
 * Outputs refuse. Only a speed-up is lost: the model answers the same messages. Its shape is checked
 * as OpenAI checks it (a 400 naming the path at fault), so a client's mistake is still said.
 *
 * @module
 */
import { invalidField } from "../../response/json-error.ts";
import { own } from "../../request/json-fields.ts";
import { arrayAt, objectAt, stringAt } from "../client-request.ts";

/**
 * `prediction` of `fields` (a Chat Completions body) checked and left out (nothing when absent or
 * `null`). Throws a 400 naming the path at fault.
 *
 * @example
 * ```ts
 * checkPrediction({ prediction: { type: "content", content: "const a = 1;" } });
 * ```
 */
export function checkPrediction(fields: Record<string, unknown>): void {
  const value = own(fields, "prediction") ?? undefined;
  if (value === undefined) return;
  const prediction = objectAt(value, "prediction");
  onlyKeys(prediction, "prediction", "content");
  if (own(prediction, "type") !== "content")
    throw invalidField("prediction.type", "`prediction.type` must be `content`.");
  const content = own(prediction, "content");
  if (typeof content !== "string")
    arrayAt(content, "prediction.content").forEach((part, i) => {
      const at = `prediction.content[${i}]`;
      const text = objectAt(part, at);
      if (own(text, "type") !== "text") throw invalidField(`${at}.type`, `\`${at}.type\` must be \`text\`.`);
      onlyKeys(text, at, "text");
      stringAt(own(text, "text"), `${at}.text`);
    });
}

/** A 400 naming the first key of `object` (at `path`) other than `type` and `other`. */
function onlyKeys(object: Record<string, unknown>, path: string, other: string): void {
  for (const key of Object.keys(object))
    if (key !== "type" && key !== other)
      throw invalidField(`${path}.${/^[A-Za-z0-9_]{1,64}$/.test(key) ? key : "(unprintable)"}`, "Unknown field.");
}
