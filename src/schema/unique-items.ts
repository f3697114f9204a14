/** The `uniqueItems` check: whether no two items of an array are equal as JSON. */
import type { JsonValue } from "../shared/json.ts";
import { canonicalJson, type CheckBudget } from "./check-budget.ts";
import { textKey } from "./text-keys.ts";

/** The verdicts already given, per array, per budget (one call's): each array is looked at once, however many schemas ask. */
const verdicts = new WeakMap<CheckBudget, WeakMap<JsonValue[], boolean>>();

/**
 * JSON Schema's uniqueness: no two items equal (objects whatever their key order; 1 and 1.0 the
 * same), by the items' canonical forms (keyed as `textKey` says: a form past 16,383 characters
 * is hashed by its length alone), each built once per call and charged to `budget`. When
 * the budget runs out, `true` (the check then reports that it could not be checked).
 */
export function allDifferent(items: JsonValue[], budget: CheckBudget): boolean {
  let known = verdicts.get(budget);
  if (!known) verdicts.set(budget, (known = new WeakMap()));
  const verdict = known.get(items);
  budget.steps--;
  if (verdict !== undefined) return verdict;
  const [seen, pieces] = [new Set<string>(), new Map<string, number>()];
  let unique = true;
  for (const item of items) {
    const form = canonicalJson(item, budget);
    if (form === undefined) return true;
    const key = textKey(form, pieces)!;
    if (seen.has(key)) {
      unique = false;
      break;
    }
    seen.add(key);
  }
  known.set(items, unique);
  return unique;
}
