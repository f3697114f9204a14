/** The `uniqueItems` check: whether no two items of an array are equal as JSON. */
import type { JsonValue } from "../shared/json.ts";

/** JSON Schema's uniqueness: no two items equal (objects whatever their key order; 1 and 1.0 the same). */
export function allDifferent(items: JsonValue[]): boolean {
  const seen = new Set<string>();
  for (const item of items) {
    const key = canonical(item);
    if (seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

function canonical(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  return `{${Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonical(value[key]!)}`)
    .join(",")}}`;
}
