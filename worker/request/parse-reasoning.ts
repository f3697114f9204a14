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
import {
  GEMINI_KEPT_PARTS,
  effortOfBudget,
  type JsonValue,
  type ReasoningEffort,
  type ReasoningPart,
  type RequestReasoning,
} from "../../src/index.ts";
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

/**
 * One of an assistant message's `reasoning_parts`, as the stream's `finish.reasoningParts` gave
 * it (`{type: "signed", text, signature}`, `{type: "redacted", data}`,
 * `{type: "item", id, encryptedContent?, summary?}`, `{type: "field", field, value}` or
 * `{type: "block", block}` with an Anthropic `compaction` or `fallback` block, an OpenAI tool's
 * `tool_search_output` or `program_output`, or a Gemini
 * Interactions built-in tool's step), or a 400 naming
 * `path`.
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
  if (type === "field") return fieldPart(value, at);
  if (type === "block") return { type, block: keptBlockAt(own(value, "block"), at("block")) };
  if (type !== "item")
    throw invalidField(at("type"), `\`${at("type")}\` must be signed, redacted, item, field or block.`);
  const part: ReasoningPart = { type, id: text("id") };
  if (own(value, "encryptedContent") !== undefined) part.encryptedContent = text("encryptedContent");
  const summary = own(value, "summary");
  if (summary !== undefined) {
    if (!Array.isArray(summary)) throw invalidField(at("summary"), `\`${at("summary")}\` must be an array.`);
    part.summary = summary as JsonValue[];
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
  const model = own(value, "model");
  if (model !== undefined && typeof model !== "string")
    throw invalidField(at("model"), `\`${at("model")}\` must be a string.`);
  const part: ReasoningPart = {
    type: "field",
    field: field as "reasoning_content",
    value: given as string | JsonValue[],
  };
  return model === undefined ? part : { ...part, model };
}

/**
 * Anthropic's blocks that go back to it unchanged, in their place ("Send the assistant message
 * back unchanged, this block included"): a `/v1/stream` block part's, a Messages client's.
 */
export const ANTHROPIC_KEPT_BLOCKS: readonly string[] = [
  "compaction",
  "fallback",
  "mcp_tool_listing",
  "container_upload",
];

/**
 * OpenAI's items that change a conversation's state where they stand: a `compaction_trigger`
 * (compacts the context; the last input item) and a `configuration_update` (a reasoning effort or
 * text format from that item on).
 */
const OPENAI_STATE_ITEMS: ReadonlySet<unknown> = new Set(["compaction_trigger", "configuration_update"]);

/**
 * Whether `type` is one of OpenAI's items that change a conversation's state: a 400 naming `path`
 * when `provider` is not OpenAI Responses, which has no such state (an answer as if the item had
 * not been sent would be wrong), on `/v1/stream` as on `/v1/responses`.
 *
 * @example
 * ```ts
 * if (isOpenAIStateItem(type, `${path}.type`, provider)) parts.push({ type: "block", block: item });
 * ```
 */
export function isOpenAIStateItem(type: unknown, path: string, provider: string): boolean {
  if (!OPENAI_STATE_ITEMS.has(type)) return false;
  if (provider !== "openai-responses")
    throw invalidField(
      path,
      `\`${String(type)}\` items change an OpenAI conversation's state: only an \`openai-responses/...\` model takes them.`,
    );
  return true;
}

/**
 * The block types a `{type: "block"}` part may carry: Anthropic's (with its server tools' calls,
 * whose results are `*_result` types as an Interactions step's are), and the items of OpenAI's own
 * tools (a server tool search's call and output, a program and its output) and the items that
 * change an OpenAI conversation's state (`compaction_trigger`, `configuration_update`), sent back to
 * each as they came.
 */
const KEPT_BLOCKS: ReadonlySet<unknown> = new Set([
  ...ANTHROPIC_KEPT_BLOCKS,
  "server_tool_use",
  "mcp_tool_use",
  "tool_search_call",
  "tool_search_output",
  "program",
  "program_output",
  "phase",
  ...OPENAI_STATE_ITEMS,
]);

/**
 * A Gemini Interactions built-in tool's step (`google_search_call`, `code_execution_result`,
 * `mcp_server_tool_call`, ...: a `*_call` or `*_result` step but the client's own function steps),
 * which goes back to the Interactions API in its place.
 */
const isInteractionsStep = (type: unknown): boolean =>
  typeof type === "string" &&
  /^[a-z][a-z0-9_]*_(call|result)$/.test(type) &&
  type !== "function_call" &&
  type !== "function_result";

/**
 * Gemini's data members a kept part never has beside its own (a part is one of them): `fileData`, and
 * a `functionResponse`, whose `parts` may hold one, would name a file for Gemini to read with the
 * deployment's project (the storage a client's file part may not name: file-parts.ts); a
 * `functionCall` is a call the client sends as one.
 */
const GEMINI_OTHER_DATA: readonly string[] = ["fileData", "functionResponse", "functionCall"];

/**
 * One of Gemini's parts kept whole (a server tool's `toolCall` or `toolResponse`, `executableCode`,
 * `codeExecutionResult`, a generated image's `inlineData`): it has no `type`, and none of
 * {@link GEMINI_OTHER_DATA}.
 */
const isGeminiPart = (value: unknown): boolean =>
  isObject(value) &&
  own(value, "type") === undefined &&
  GEMINI_OTHER_DATA.every((key) => own(value, key) === undefined) &&
  GEMINI_KEPT_PARTS.some((key) => isObject(own(value, key)));

/** Anthropic's cited text block (`{type: "text", text, citations}`), kept so that its citations go back with it. */
const isCitedText = (value: unknown): boolean =>
  isObject(value) &&
  own(value, "type") === "text" &&
  typeof own(value, "text") === "string" &&
  Array.isArray(own(value, "citations"));

/**
 * A kept block as it came: Anthropic's (`compaction`, `fallback`, `mcp_tool_listing`,
 * `container_upload`, a cited `text` block), an OpenAI tool's output (`tool_search_output`,
 * `program_output`), a Gemini Interactions built-in tool's step, or a Gemini part kept whole; else a
 * 400 naming `path`.
 */
export function keptBlockAt(value: unknown, path: string): { [key: string]: JsonValue } {
  const type = isObject(value) ? own(value, "type") : undefined;
  if (!KEPT_BLOCKS.has(type) && !isInteractionsStep(type) && !isCitedText(value) && !isGeminiPart(value))
    throw invalidField(
      path,
      `\`${path}\` must be a compaction or fallback block, an Anthropic server tool's call or result, a cited text block, an OpenAI tool's output, a compaction_trigger or configuration_update item (to an OpenAI Responses model), an Interactions built-in tool's step, or a Gemini server tool's part or image.`,
    );
  return value as { [key: string]: JsonValue };
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
