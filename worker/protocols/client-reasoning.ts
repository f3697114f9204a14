/**
 * How the agent protocols ask for reasoning, as `/v1/stream`'s `reasoning` (worker/request/parse-reasoning.ts),
 * which each provider's kit turns into its own knob (src/providers/reasoning.ts has the mapping):
 *
 * - Messages: `thinking: {type: "enabled", budget_tokens}` is reasoning at that budget (Claude
 *   Code sends 31,999 for the Claude names it knows); `{type: "adaptive"}`, with
 *   `output_config.effort` when given, lets the model decide (Claude Code's default for a name
 *   it does not know, `<provider>/<model>` included); `{type: "disabled"}` is off.
 * - Responses: `reasoning.effort` is reasoning at that effort, `none` is off; `reasoning.summary`
 *   rides along. A `reasoning` without an effort (Codex's for a model it does not know) leaves
 *   the provider its default. Chat Completions' `reasoning_effort` is the same effort.
 *
 * - Messages' `thinking.display` (`summarized`, `omitted`) is read with `enabled` and `adaptive` (Anthropic's
 *   and Bedrock's request kits send it with adaptive thinking only); without one, Anthropic and Claude
 *   on Bedrock get `summarized` with adaptive thinking (`anthropicThinking`, src/providers/reasoning.ts).
 *
 * Anything else (a mode this Worker does not know, a `display` of no release) is the provider's default,
 * never a 400; a `thinking` or `reasoning` that is no object, or a `thinking.type` that is no
 * string, is a 400 naming it (Anthropic and OpenAI refuse them too), never dropped unseen.
 *
 * @module
 */
import { invalidField } from "../response/json-error.ts";
import { isObject, own } from "../request/json-fields.ts";
import { budgetAt, effortAt } from "../request/parse-reasoning.ts";

/** `/v1/stream`'s `reasoning`, as the agent endpoints fill it in. */
export type WireReasoning =
  | { type: "on"; effort?: string; budget_tokens?: number; summary?: string; display?: string }
  | { type: "adaptive"; effort?: string; display?: string }
  | { type: "off" };

const SUMMARIES: ReadonlySet<unknown> = new Set(["auto", "concise", "detailed"]);
const DISPLAYS: ReadonlySet<unknown> = new Set(["summarized", "omitted"]);

/** A Messages request's `thinking` and `output_config` as `/v1/stream`'s `reasoning`; a bad budget or effort is a 400 at its path. */
export function messagesReasoning(thinking: unknown, outputConfig: unknown): WireReasoning | undefined {
  if (thinking === undefined || thinking === null) return undefined;
  // A value of the wrong shape was asked for and would be dropped unseen: a 400, as Anthropic answers it.
  if (!isObject(thinking))
    throw invalidField("thinking", '`thinking` must be an object such as {"type": "enabled", "budget_tokens": 2048}.');
  const type = own(thinking, "type");
  if (typeof type !== "string")
    throw invalidField("thinking.type", "`thinking.type` must be a string: enabled, adaptive or disabled.");
  if (type === "disabled") return { type: "off" };
  const given = own(thinking, "display");
  const display = DISPLAYS.has(given) ? { display: given as string } : {};
  if (type === "enabled")
    return {
      type: "on",
      budget_tokens: budgetAt(own(thinking, "budget_tokens"), "thinking.budget_tokens"),
      ...display,
    };
  if (type !== "adaptive") return undefined;
  const effort = isObject(outputConfig) ? own(outputConfig, "effort") : undefined;
  if (effort === undefined || effort === null) return { type, ...display };
  return { type, effort: effortAt(effort, "output_config.effort"), ...display };
}

/** A Responses request's `reasoning` as `/v1/stream`'s; a bad effort is a 400 at `reasoning.effort`. */
export function responsesReasoning(reasoning: unknown): WireReasoning | undefined {
  if (reasoning === undefined || reasoning === null) return undefined;
  if (!isObject(reasoning)) throw invalidField("reasoning", '`reasoning` must be an object such as {"effort": "low"}.');
  const on = effortReasoning(own(reasoning, "effort"), "reasoning.effort");
  const summary = own(reasoning, "summary");
  return on?.type === "on" && SUMMARIES.has(summary) ? { ...on, summary: summary as string } : on;
}

/**
 * A reasoning effort as `/v1/stream`'s `reasoning` (Responses' `reasoning.effort`, Chat
 * Completions' `reasoning_effort`): absent, `none` (off), or a level; anything else is a 400 at `path`.
 */
export function effortReasoning(effort: unknown, path: string): WireReasoning | undefined {
  if (effort === undefined || effort === null) return undefined;
  if (effort === "none") return { type: "off" };
  return { type: "on", effort: effortAt(effort, path) };
}
