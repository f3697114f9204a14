import type { JsonValue } from "../../shared/json.ts";

/** An object (without a prototype) or array of streamed arguments, indexed by a `jsonPath` segment. */
export type Container = Record<string | number, JsonValue>;

/** Whether `key` cannot reach into `node`: a name into an array, an index into an object or past an array's end (a hole). */
const unreachable = (node: Container, key: string | number): boolean =>
  Array.isArray(node) ? typeof key !== "number" || key > node.length : typeof key === "number";

/**
 * Sets or appends one `partialArgs` entry at its `jsonPath` (`$.a.b`, `$.list[0]`, `$['key']`).
 * Objects made here have no prototype and an index only reaches an array, a name only an object:
 * no segment (`__proto__`, `length` of an array) reaches a prototype or a built-in property, and
 * an entry whose path mixes the two is not applied; nor one whose index is past an array's end
 * (the elements stream in order: `$.list[1000000]` would write a million holes as `null`s).
 */
export function applyPartialArg(root: Container, partial: Record<string, unknown>): void {
  const path = parseJsonPath(partial["jsonPath"]);
  const last = path?.pop();
  if (last === undefined) return;
  let node = root;
  for (const [i, key] of path!.entries()) {
    if (unreachable(node, key)) return;
    const child = node[key];
    // A container made here is an array when the segment after it is an index.
    if (typeof child !== "object" || child === null)
      node[key] = typeof (path![i + 1] ?? last) === "number" ? [] : Object.create(null);
    node = node[key] as Container;
  }
  if (unreachable(node, last)) return;
  const current = node[last];
  // One of stringValue (appended while the call continues), numberValue, boolValue or nullValue.
  const value =
    typeof partial["stringValue"] === "string"
      ? (typeof current === "string" ? current : "") + partial["stringValue"]
      : "nullValue" in partial
        ? null
        : (partial["numberValue"] ?? partial["boolValue"]);
  if (value !== undefined) node[last] = value as JsonValue;
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
