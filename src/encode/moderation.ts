/**
 * A finish's moderation results (OpenAI's moderated completions) in the shape of the client's
 * protocol: each side (`input`, `output`) as the provider sent it when it has that shape already,
 * else mapped where the two shapes say the same thing. An `error` side is the same in both.
 *
 * @module
 */
import type { ModerationResults } from "../shared/finish-details.ts";
import { isRecord } from "../shared/values.ts";

type Side = Record<string, unknown>;

/**
 * `moderation` in Chat Completions' shape (`ChatCompletion.moderation`: each side a
 * `moderation_results` with its `model` and `results`, or an `error`): a Responses side (one
 * `moderation_result`) becomes the one result of its `moderation_results`, which loses nothing.
 *
 * @example
 * ```ts
 * chatModeration({ input: result, output: result });
 * // { input: { type: "moderation_results", model: result.model, results: [result] }, output: ... }
 * ```
 */
export function chatModeration(moderation: ModerationResults | undefined): Side | undefined {
  return sides(moderation, (side) =>
    side["type"] === "moderation_result" ? { type: "moderation_results", model: side["model"], results: [side] } : side,
  );
}

/**
 * A response's `moderation` field, in the Responses API's shape (`Response.moderation`: each side
 * one `moderation_result`, or an `error`), to assign to the response: a Chat side
 * (`moderation_results`) becomes its one result; with several (or none), which a response has no
 * place for, there is no field.
 *
 * @example
 * ```ts
 * responsesModeration({ input: { type: "moderation_results", model, results: [result] }, output });
 * // { moderation: { input: result, output: ... } }
 * ```
 */
export function responsesModeration(moderation: ModerationResults | undefined): { moderation: Side } | undefined {
  const mapped = sides(moderation, (side) => {
    if (side["type"] !== "moderation_results") return side;
    const results = side["results"];
    return Array.isArray(results) && results.length === 1 && isRecord(results[0]) ? results[0] : undefined;
  });
  return mapped && { moderation: mapped };
}

/** `moderation` with each side mapped, or undefined when there is none or a side is no object or does not map. */
function sides(moderation: ModerationResults | undefined, map: (side: Side) => Side | undefined): Side | undefined {
  const { input, output } = moderation ?? {};
  const mapped = isRecord(input) && isRecord(output) ? [map(input), map(output)] : [];
  return mapped[0] && mapped[1] ? { ...moderation, input: mapped[0], output: mapped[1] } : undefined;
}
