import type { JsonValue } from "../../shared/json.ts";

/** An object (without a prototype) or array of streamed arguments, indexed by a `jsonPath` segment. */
export type Container = Record<string | number, JsonValue>;

/**
 * Sets or appends one `partialArgs` entry at its `jsonPath` (`$.a.b`, `$.list[0]`, `$['key']`).
 * Objects made here have no prototype and an index only reaches an array, a name only an object:
 * no segment (`__proto__`, `length` of an array) reaches a prototype or a built-in property, and
 * an entry whose path mixes the two is not applied; nor one whose index is past an array's end
 * (the elements stream in order: `$.list[1000000]` would write a million holes as `null`s).
 * Returns how many characters the arguments grew by, a measure of what they keep that is no more
 * than the growth of their JSON text: a new name's length plus one, one per new element, and the
 * characters of a string value.
 */
export function applyPartialArg(root: Container, partial: Record<string, unknown>): number {
  const path = parseJsonPath(partial["jsonPath"]);
  const text = partial["stringValue"];
  // One of stringValue (appended while the call continues), numberValue, boolValue or nullValue.
  const given =
    typeof text === "string" ? text : "nullValue" in partial ? null : (partial["numberValue"] ?? partial["boolValue"]);
  let grown = 0;
  let node = root;
  for (const [i, key] of (path ?? []).entries()) {
    const next = path![i + 1];
    // An index only into an array, and not past its end; a name only into an object; and a leaf only with a value.
    if (
      (Array.isArray(node) ? typeof key !== "number" || key > node.length : typeof key === "number") ||
      (next === undefined && given === undefined)
    )
      break;
    const child = node[key];
    // A new slot: one element, or a name and its colon.
    if (child === undefined) grown += typeof key === "number" ? 1 : key.length + 1;
    if (next === undefined) {
      // The leaf: a `stringValue` appended to the string there, any other value set.
      if (typeof text === "string") grown += text.length;
      node[key] = (typeof text === "string" && typeof child === "string" ? child + text : given) as JsonValue;
    } else if (typeof child !== "object" || child === null)
      // A container made here is an array when the segment after it is an index.
      node[key] = typeof next === "number" ? [] : Object.create(null);
    node = node[key] as Container;
  }
  return grown;
}

function parseJsonPath(path: unknown): (string | number)[] | undefined {
  if (typeof path !== "string" || !path.startsWith("$")) return undefined;
  const segments: (string | number)[] = [];
  const pattern = /\.([^.[\]]+)|\[(\d+)\]|\[(['"])(.*?)\3\]/y;
  pattern.lastIndex = 1;
  while (pattern.lastIndex < path.length) {
    const match = pattern.exec(path);
    if (!match) return undefined;
    segments.push(match[2] !== undefined ? Number(match[2]) : (match[1] ?? match[4])!);
  }
  return segments;
}
