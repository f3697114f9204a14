/**
 * Parallel calls to one tool: a prompt that lists several values for the property a call took
 * from it ("the weather in Paris and in Rome", "orders ORD-1, ORD-2 and ORD-3") gets one call per
 * value, as a model makes them. Only values the prompt joins with a comma or "and" (in a few
 * languages), each accepted by the property's schema; "from Lisbon to Oslo" is two properties of
 * one call, not two calls.
 *
 * @module
 */
import type { CheckBudget, JsonValue } from "../../../../../src/index.ts";
import { hintOf, list, promptStrings, type Schema } from "./leaf-values.ts";
import type { PromptValues } from "./prompt-values.ts";
import { asObject, isObject, SchemaReader } from "./schema-parts.ts";

/** What joins two listed values: a comma, "and" (or "und", "et", "y", "e", "&") or both, then a preposition ("in Lisbon in fahrenheit" lists nothing). */
const JOINER = /^\s*(?:,\s*(?:(?:and|und|et|y|e|&)\s+)?|(?:and|und|et|y|e|&)\s+)(?:(?:in|for|of|at|à|en|on)\s+)?$/iu;

/**
 * Most required properties looked at for a list: each costs a read of the prompt's values, and a
 * client's schema may hold thousands.
 */
const MAX_KEYS = 32;

/**
 * The arguments of the further calls a prompt lists values for: `args` with its first required
 * string property, which took `first` of the prompt's values, set to each other value listed
 * with it (of its first {@link MAX_KEYS} such properties). `text` is the prompt read; the
 * checks' work is taken from `budget` (the turn's).
 */
export function parallelArguments(
  parameters: JsonValue | undefined,
  args: { [key: string]: JsonValue },
  values: PromptValues,
  text: string,
  budget?: CheckBudget,
): { [key: string]: JsonValue }[] {
  if (!isObject(parameters)) return [];
  const reader = new SchemaReader(parameters, budget);
  const root = reader.resolve(parameters);
  const properties = asObject(root["properties"] ?? null);
  let tried = 0;
  for (const key of list(root["required"])) {
    if (typeof key !== "string" || typeof args[key] !== "string" || !isObject(properties[key] ?? null)) continue;
    const schema: Schema = reader.resolve(properties[key]!);
    if (hintOf(key) === "text") continue;
    if (++tried > MAX_KEYS) break;
    const candidates = promptStrings(schema, key, values).filter((value) => reader.accepts(value, schema));
    const first = args[key] as string;
    if (!candidates.includes(first)) continue;
    const listed = joined(text, first, candidates);
    if (listed.length > 0) return listed.map((value) => ({ ...args, [key]: value }));
  }
  return [];
}

/** The candidates the prompt lists after `first`, each joined to the one before it. */
function joined(prompt: string, first: string, candidates: readonly string[]): string[] {
  const found: string[] = [];
  const text = prompt.toLowerCase();
  let at = text.indexOf(first.toLowerCase());
  // "between X and Y" is a range, not a list.
  if (at < 0 || /\b(?:between|entre|zwischen)\s+$/.test(text.slice(Math.max(0, at - 12), at))) return found;
  let end = at + first.length;
  for (;;) {
    const next = candidates
      .filter((value) => value !== first && !found.includes(value))
      .map((value) => ({ value, at: text.indexOf(value.toLowerCase(), end) }))
      .filter(({ at: where }) => where >= 0)
      .sort((a, b) => a.at - b.at)[0];
    if (next === undefined || !JOINER.test(text.slice(end, next.at))) return found;
    found.push(next.value);
    at = next.at;
    end = at + next.value.length;
  }
}
