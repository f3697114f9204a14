/**
 * The sampling settings of a `/v1/stream` body beyond `temperature` (`top_p`, `top_k`, `stop`,
 * `seed`, `frequency_penalty`, `presence_penalty`), which every client protocol fills in from its
 * own fields, checked against their bounds and against what the provider has a field for. Each
 * provider gets them in its own form (worker/upstream/providers/sampling.ts); stop sequences it has
 * no field for, the Worker applies itself (worker/services/stop-sequences.ts).
 *
 * @module
 */
import { invalidField } from "../response/json-error.ts";
import { boundedInteger, boundedNumber, own } from "./json-fields.ts";

/** The sampling settings a request carries to its provider; absent ones are the provider's default. */
export interface Sampling {
  topP?: number;
  topK?: number;
  /** Stop sequences: the provider stops before the first it would write. */
  stop?: string[];
  /**
   * Stop sequences the provider has no field for (OpenAI Responses; OpenAI Chat's gpt-5 and
   * o-series, which refuse `stop`): never sent, the Worker cuts the text at the first itself.
   */
  emulatedStop?: string[];
  seed?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
}

/** The `/v1/stream` fields of {@link Sampling}. */
export const SAMPLING_FIELDS = ["top_p", "top_k", "stop", "seed", "frequency_penalty", "presence_penalty"] as const;

/** A name of {@link SAMPLING_FIELDS}. */
export type SamplingField = (typeof SAMPLING_FIELDS)[number];

/**
 * How many stop sequences, and how long each, a request may send (OpenAI Chat takes 4, Gemini 5,
 * Bedrock 2,500). The Worker's own matching (worker/services/stop-matcher.ts) does work linear in
 * the text times their number, and holds a table of their length each.
 */
const MAX_STOPS = 16;
const MAX_STOP_LENGTH = 1000;

/**
 * The fields each provider's API has (OpenAI Chat's `stop`, Anthropic's `stop_sequences`, Gemini's
 * `generationConfig`, Bedrock Converse's `inferenceConfig`, Cohere's `p`/`k`, Ollama's `options`,
 * the Interactions API's `generation_config`, OpenAI Responses' `top_p`). Sent to one without it, a
 * field is a 400 that names it, as dropping it would change the answer unseen; `seed` alone is
 * then left out, as it is best-effort where it exists (OpenAI: "determinism is not guaranteed"),
 * and so is a penalty of 0, the default everywhere. The agent endpoints leave every such field
 * out instead (`AGENT_BOUNDS`): an agent sends them by default and cannot be told otherwise.
 * Stop sequences are never refused nor left out: where the provider has no field for them, the
 * Worker applies them itself (`emulatedStop`).
 */
const TAKES: Readonly<Record<string, ReadonlySet<SamplingField>>> = {
  openai: new Set(["top_p", "stop", "seed", "frequency_penalty", "presence_penalty"]),
  "openai-responses": new Set(["top_p"]),
  anthropic: new Set(["top_p", "top_k", "stop"]),
  gemini: new Set(SAMPLING_FIELDS),
  "gemini-interactions": new Set(["top_p", "stop", "seed"]),
  bedrock: new Set(["top_p", "stop"]),
  cohere: new Set(SAMPLING_FIELDS),
  ollama: new Set(SAMPLING_FIELDS),
};

/**
 * Validates the sampling fields of `body` (read with `own`, no walk) for `provider`; undefined when
 * none is set. One the provider has no field for is a 400, or with `unsupported` `"omit"` left out,
 * but stop sequences, which the Worker then applies itself (`emulatedStop`).
 */
export function parseSampling(
  body: Readonly<Record<string, unknown>>,
  provider: string,
  unsupported: "refuse" | "omit" = "refuse",
): Sampling | undefined {
  let sampling: Sampling | undefined;
  const takes = TAKES[provider];
  // OpenAI's reasoning models (gpt-5, the o-series) answer Chat's `stop` with "Unsupported parameter".
  const noStop = provider === "openai" && /^(?:o\d|gpt-5)/i.test(String(own(body, "model")));
  for (const field of SAMPLING_FIELDS) {
    const value = own(body, field);
    if (value === undefined) continue;
    const parsed = parse(field, value);
    if (parsed === undefined) continue;
    if (field === "stop" && ((takes && !takes.has(field)) || noStop)) {
      (sampling ??= {}).emulatedStop = parsed as string[];
      continue;
    }
    if (takes && !takes.has(field)) {
      if (field === "seed" || parsed === 0 || unsupported === "omit") continue;
      throw invalidField(
        field,
        `\`${field}\` is not supported with provider ${provider}: its API has no such setting.`,
      );
    }
    sampling ??= {};
    if (field === "stop") sampling.stop = parsed as string[];
    else sampling[KEYS[field]] = parsed as number;
  }
  return sampling;
}

const KEYS = {
  top_p: "topP",
  top_k: "topK",
  seed: "seed",
  frequency_penalty: "frequencyPenalty",
  presence_penalty: "presencePenalty",
} as const;

/** A field's value, or undefined for an empty stop list (the same as none); a 400 naming the field when out of bounds. */
function parse(field: SamplingField, value: unknown): number | string[] | undefined {
  switch (field) {
    case "top_p":
      return boundedNumber(value, field, 0, 1);
    case "top_k":
      return boundedInteger(value, field, 1, 1000);
    case "seed":
      // OpenAI's seed is 64-bit: any integer JSON carries exactly; a narrower provider answers for itself.
      return boundedInteger(value, field, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
    case "frequency_penalty":
    case "presence_penalty":
      return boundedNumber(value, field, -2, 2);
    case "stop":
      return stops(value);
  }
}

function stops(value: unknown): string[] | undefined {
  const list = typeof value === "string" ? [value] : value;
  const rule = `\`stop\` must be a string or an array of up to ${MAX_STOPS} strings of 1 to ${MAX_STOP_LENGTH} characters.`;
  if (!Array.isArray(list) || list.length > MAX_STOPS) throw invalidField("stop", rule);
  for (const stop of list)
    if (typeof stop !== "string" || stop === "" || stop.length > MAX_STOP_LENGTH) throw invalidField("stop", rule);
  return list.length === 0 ? undefined : (list as string[]);
}
