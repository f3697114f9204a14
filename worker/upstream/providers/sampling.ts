/**
 * A request's sampling settings (worker/request/parse-sampling.ts) in each provider's own form,
 * added to the body its kit made; the parser has already refused those a provider has no field for.
 *
 * @module
 */
import type { Provider } from "../../../src/index.ts";
import type { Sampling } from "../../request/parse-sampling.ts";
import type { JsonObject } from "../../request/stream-request.ts";

/** Field names per form: snake_case (OpenAI, Anthropic, Cohere, Ollama, Interactions) or Gemini's and Converse's camelCase. */
type Names = Partial<Record<keyof Sampling, string>>;
const SNAKE: Names = {
  topP: "top_p",
  topK: "top_k",
  stop: "stop",
  seed: "seed",
  frequencyPenalty: "frequency_penalty",
  presencePenalty: "presence_penalty",
};
const CAMEL: Names = {
  topP: "topP",
  topK: "topK",
  stop: "stopSequences",
  seed: "seed",
  frequencyPenalty: "frequencyPenalty",
  presencePenalty: "presencePenalty",
};

/** Where each provider takes them: the body itself, or the object of one of its fields. */
const FORMS: Readonly<Record<Provider, { at?: string; names: Names }>> = {
  openai: { names: SNAKE },
  "openai-responses": { names: SNAKE },
  anthropic: { names: { ...SNAKE, stop: "stop_sequences" } },
  gemini: { at: "generationConfig", names: CAMEL },
  "gemini-interactions": { at: "generation_config", names: { ...SNAKE, stop: "stop_sequences" } },
  bedrock: { at: "inferenceConfig", names: CAMEL },
  cohere: { names: { ...SNAKE, topP: "p", topK: "k", stop: "stop_sequences" } },
  ollama: { at: "options", names: SNAKE },
};

/**
 * `body` with `sampling` in `provider`'s form. Claude (Anthropic's API, Bedrock's Claude models)
 * refuses `top_k`, and a `top_p` below 0.95, with thinking, and from 4.5 a `top_p` beside a
 * temperature ("cannot both be specified"): thinking wins, then the temperature, as the kits
 * leave out a temperature with thinking (src/providers/anthropic/anthropic-request.ts). Claude on
 * Bedrock given stop sequences is asked for the one it stopped at, for the client's `stop_sequence`.
 */
export function withSampling(
  provider: Provider,
  body: JsonObject,
  sampling: Sampling | undefined,
  model: string,
): JsonObject {
  if (!sampling) return body;
  const { at, names } = FORMS[provider];
  const target: JsonObject = at === undefined ? body : { ...(body[at] as JsonObject | undefined) };
  const claude = provider === "anthropic" || (provider === "bedrock" && /claude/i.test(model));
  const fields = body["additionalModelRequestFields"] as JsonObject | undefined;
  const thinking = claude && (body["thinking"] ?? fields?.["thinking"]);
  // Nova 2 reasoning refuses `topP` as it refuses a temperature (the kit leaves that out): reasoning wins.
  const novaReasoning = provider === "bedrock" && fields?.["reasoningConfig"] !== undefined;
  for (const [key, value] of Object.entries(sampling) as [keyof Sampling, number | string[]][]) {
    const name = names[key];
    if (name === undefined || (thinking && key === "topK") || (novaReasoning && key === "topP")) continue;
    if (claude && key === "topP" && (thinking ? (value as number) < 0.95 : target["temperature"] !== undefined))
      continue;
    // Cohere's `p` is 0.01 to 0.99: Chat's neutral `top_p: 1` is its nearest, 0.99.
    target[name] = provider === "cohere" && key === "topP" ? Math.min(0.99, Math.max(0.01, value as number)) : value;
  }
  if (at !== undefined) body[at] = target;
  // Converse answers the sequence Claude stopped at only when asked for its Anthropic event's field
  // (the library reads `messageStop.additionalModelResponseFields.delta.stop_sequence`).
  if (provider === "bedrock" && claude && sampling.stop)
    body["additionalModelResponseFieldPaths"] = ["/delta/stop_sequence"];
  return body;
}
