/**
 * The `reasoning` of a `POST /v1/stream` body, the library's `RequestReasoning` in snake_case:
 *
 * ```jsonc
 * { "type": "on", "effort": "high" }             // or "budget_tokens": 16000 (the effort follows from it), "summary": "auto"
 * { "type": "adaptive", "effort": "high" }       // the model decides (Anthropic's adaptive thinking); effort optional
 * { "type": "off" }
 * ```
 *
 * `on` and `adaptive` take Anthropic's `display` too (`summarized` or `omitted`; unset, Anthropic
 * and Claude on Bedrock get `summarized` with adaptive thinking, as the models from Opus 4.7 on omit the text by default).
 *
 * The agent endpoints translate their clients' own fields into it (Anthropic's `thinking` and
 * `output_config.effort`, Responses' `reasoning`).
 *
 * @module
 */
import {
  effortOfBudget,
  type JsonValue,
  type ReasoningEffort,
  type ReasoningPart,
  type RequestReasoning,
} from "../../src/index.ts";
import { invalidField } from "../response/json-error.ts";
import { isObject, own } from "./json-fields.ts";
import { isOpenAIStateItem, keptBlockAt } from "./kept-blocks.ts";

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
  const display = displayAt(own(value, "display"), `${path}.display`);
  if (type === "adaptive") return { type, ...(given && { effort: given }), ...(display && { display }) };
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
    ...(display && { display }),
  };
}

/** Anthropic's `thinking.display`: absent, `summarized` or `omitted`; anything else is a 400 naming `path`. */
function displayAt(value: unknown, path: string): "summarized" | "omitted" | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === "summarized" || value === "omitted") return value;
  throw invalidField(path, `\`${path}\` must be summarized or omitted.`);
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

/**
 * One of an assistant message's `reasoning_parts`, as the stream's `finish.reasoningParts` gave
 * it (`{type: "signed", text, signature}`, `{type: "redacted", data}`, `{type: "thinking", text}`,
 * `{type: "item", id, encryptedContent?, summary?, content?}`, `{type: "field", field, value,
 * model?, id?}` or `{type: "block", block}` with a block as a decoder kept it: {@link keptBlockAt}),
 * or a 400 naming `path` or the field at fault.
 */
export function reasoningPartAt(value: unknown, path: string): ReasoningPart {
  const at = (field: string) => (path === "" ? field : `${path}.${field}`);
  if (!isObject(value)) throw invalidField(path, `\`${path}\` must be a reasoning part: an object with a \`type\`.`);
  const type = own(value, "type");
  const text = (field: string, empty = false): string => {
    const given = own(value, field);
    if (typeof given !== "string" || (!empty && given === ""))
      throw invalidField(at(field), `\`${at(field)}\` must be a${empty ? "" : " non-empty"} string.`);
    return given;
  };
  if (type === "signed") return { type, text: text("text", true), signature: text("signature") };
  if (type === "redacted") return { type, data: text("data") };
  if (type === "thinking") return { type, text: text("text") };
  if (type === "field") return fieldPart(value, at);
  if (type === "block") return { type, block: keptBlockAt(own(value, "block"), at("block")) };
  if (type !== "item")
    throw invalidField(at("type"), `\`${at("type")}\` must be signed, redacted, thinking, item, field or block.`);
  const part: ReasoningPart = { type, id: text("id") };
  if (own(value, "encryptedContent") !== undefined) part.encryptedContent = text("encryptedContent");
  // `content`: the raw reasoning (gpt-oss's `reasoning_text` parts), which the item sends back.
  for (const field of ["summary", "content"] as const) {
    const list = own(value, field);
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw invalidField(at(field), `\`${at(field)}\` must be an array.`);
    part[field] = list as JsonValue[];
  }
  return part;
}

const FIELDS: ReadonlySet<string> = new Set(["reasoning_content", "reasoning", "refusal", "reasoning_details"]);

/** A Chat Completions reasoning field's part: its field's name, and a string (or, for `reasoning_details`, an array). */
function fieldPart(value: Record<string, unknown>, at: (field: string) => string): ReasoningPart {
  const field = own(value, "field");
  if (typeof field !== "string" || !FIELDS.has(field))
    throw invalidField(
      at("field"),
      `\`${at("field")}\` must be reasoning_content, reasoning, refusal or reasoning_details.`,
    );
  const given = own(value, "value");
  const details = field === "reasoning_details";
  if (details ? !Array.isArray(given) : typeof given !== "string")
    throw invalidField(at("value"), `\`${at("value")}\` must be ${details ? "an array" : "a string"}.`);
  const part: ReasoningPart = {
    type: "field",
    field: field as "reasoning_content",
    value: given as string | JsonValue[],
  };
  // `model`: the Chat model that streamed it; `id`: an OpenAI Responses refusal's message item, which goes back with it.
  for (const key of ["model", "id"] as const) {
    const named = own(value, key);
    if (named === undefined) continue;
    if (typeof named !== "string") throw invalidField(at(key), `\`${at(key)}\` must be a string.`);
    part[key] = named;
  }
  return part;
}

/**
 * An assistant message's `reasoning_parts` for `provider`: an array of {@link reasoningPartAt}'s
 * parts, or a 400 naming `path` (or the block of OpenAI's state another provider cannot take:
 * {@link isOpenAIStateItem}).
 */
export function reasoningPartsAt(value: unknown, path: string, provider: string): ReasoningPart[] {
  if (!Array.isArray(value)) throw invalidField(path, `\`${path}\` must be an array.`);
  return value.map((given, i) => {
    const part = reasoningPartAt(given, `${path}[${i}]`);
    if (part.type === "block") isOpenAIStateItem(part.block["type"], `${path}[${i}].block.type`, provider);
    return part;
  });
}
