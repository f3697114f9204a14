/**
 * The `reasoning` of a `POST /v1/stream` body, the library's `RequestReasoning` in snake_case:
 *
 * ```jsonc
 * { "type": "on", "effort": "high" }             // or "budget_tokens": 16000 (the effort follows from it), "summary": "auto"
 * { "type": "adaptive", "effort": "high" }       // the model decides (Anthropic's adaptive thinking); effort optional
 * { "type": "off" }
 * ```
 *
 * The agent endpoints translate their clients' own fields into it (Anthropic's `thinking` and
 * `output_config.effort`, Responses' `reasoning`).
 *
 * @module
 */
import { effortOfBudget, type ReasoningEffort, type RequestReasoning } from "../../src/index.ts";
import { invalidField } from "../response/json-error.ts";
import { isObject, own } from "./json-fields.ts";

const EFFORTS: ReadonlySet<string> = new Set(["minimal", "low", "medium", "high", "xhigh", "max"]);
const SUMMARIES: ReadonlySet<string> = new Set(["auto", "concise", "detailed"]);
/** Above every model's output: a budget past it is a mistake, not a request. */
const MAX_BUDGET = 1_000_000;

/** A validated `reasoning`, or a 400 naming the field at fault (`path` is where it sits in the body). */
export function parseReasoning(value: unknown, path = "reasoning"): RequestReasoning {
  if (!isObject(value)) throw invalidField(path, `\`${path}\` must be an object with a \`type\`: on, adaptive or off.`);
  const type = own(value, "type");
  if (type === "off") return { type };
  const effort = own(value, "effort");
  const given = effort === undefined || effort === null ? undefined : effortAt(effort, `${path}.effort`);
  if (type === "adaptive") return given === undefined ? { type } : { type, effort: given };
  if (type !== "on") throw invalidField(`${path}.type`, `\`${path}.type\` must be on, adaptive or off.`);
  const budget = own(value, "budget_tokens");
  const budgetTokens = budget === undefined || budget === null ? undefined : budgetAt(budget, `${path}.budget_tokens`);
  const summary = own(value, "summary");
  if (summary !== undefined && summary !== null && !(typeof summary === "string" && SUMMARIES.has(summary)))
    throw invalidField(`${path}.summary`, `\`${path}.summary\` must be auto, concise or detailed.`);
  const resolved = given ?? (budgetTokens === undefined ? undefined : effortOfBudget(budgetTokens));
  if (resolved === undefined)
    throw invalidField(path, `\`${path}\` of type on needs an \`effort\` or a \`budget_tokens\`.`);
  return {
    type,
    effort: resolved,
    ...(budgetTokens === undefined ? {} : { budgetTokens }),
    ...(typeof summary === "string" ? { summary: summary as "auto" | "concise" | "detailed" } : {}),
  };
}

/** An effort level, or a 400 naming `path`. */
export function effortAt(value: unknown, path: string): ReasoningEffort {
  if (typeof value !== "string" || !EFFORTS.has(value))
    throw invalidField(path, `\`${path}\` must be minimal, low, medium, high, xhigh or max.`);
  return value as ReasoningEffort;
}

/** A token budget: a positive integer, or a 400 naming `path`. */
export function budgetAt(value: unknown, path: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > MAX_BUDGET)
    throw invalidField(path, `\`${path}\` must be an integer from 1 to ${MAX_BUDGET}.`);
  return value;
}
