import { ToolCallStreamError } from "./errors.ts";

/**
 * Most characters {@link jsonText} writes: far above any arguments a call may hold (4 MiB by
 * default), reached only by an object that shares its parts many times over, whose text would
 * grow exponentially with its size.
 */
const MAX_JSON_TEXT = 2 ** 25;

/** A value {@link jsonText} leaves out: an object member is skipped, an array item is `null`. */
const OMIT = Symbol("omit");

/** How deep a value is written before the objects being written are tracked for a cycle. */
const UNTRACKED_DEPTH = 64;

/** The prototypes of plain objects: theirs are written member by member, with no other check. */
const PLAIN = new Set<unknown>([Object.prototype, null]);

/** The error of arguments given as an object that hold `what`, which JSON cannot write. */
const unreadable = (what: string): ToolCallStreamError =>
  new ToolCallStreamError({
    code: "malformed-payload",
    message: `Tool arguments given as an object hold ${what}; they cannot be written as JSON.`,
  });

/**
 * `JSON.stringify(value)` for a value a provider's data gave as an object (Ollama's, Gemini's,
 * Bedrock's and Anthropic's arguments, or an SDK's), written with a stack of its own: arguments
 * nested 100,000 deep (which `JSON.parse` reads) are written, not a stack overflow, and their
 * depth is then the accumulator's `maxDepth` to judge, as for arguments sent as text. A value that
 * is not JSON data throws a {@link ToolCallStreamError} of code `malformed-payload` whose message
 * names what, never the data: a cycle, a BigInt, or a text past 32 Mi characters (an object whose
 * parts are shared). A getter that throws throws through. `toJSON` is honoured as by
 * `JSON.stringify`; a value it leaves out (`undefined`, a function) gives `undefined`.
 */
export function jsonText(value: unknown): string | undefined {
  const first = leaf(value, "");
  if (typeof first !== "object") return first === OMIT ? undefined : first;
  // The objects and arrays being written, one entry per level: the node, an object's keys (an
  // array has none), the next key or index, whether an object wrote a member yet.
  const nodes: object[] = [];
  const keys: (string[] | undefined)[] = [];
  const nexts: number[] = [];
  const wrote: boolean[] = [];
  /** The nodes being written, once deeper than `UNTRACKED_DEPTH`: one met again inside itself is a cycle. */
  let open: Set<object> | undefined;
  let top = -1;
  let out = "";
  const enter = (node: object): void => {
    if (++top === UNTRACKED_DEPTH && !open) open = new Set(nodes.slice(0, top));
    if (open) {
      if (open.has(node)) throw unreadable("a cycle");
      open.add(node);
    }
    const names = Array.isArray(node) ? undefined : Object.keys(node);
    nodes[top] = node;
    keys[top] = names;
    nexts[top] = 0;
    wrote[top] = false;
    out += names ? "{" : "[";
  };
  enter(first);
  while (top >= 0) {
    const node = nodes[top] as Record<string, unknown>;
    const names = keys[top];
    const i = nexts[top]!;
    if (i >= (names ? names.length : (node as unknown as unknown[]).length)) {
      out += names ? "}" : "]";
      open?.delete(node);
      top--;
      continue;
    }
    nexts[top] = i + 1;
    let item: string | object | typeof OMIT;
    if (names) {
      const key = names[i]!;
      item = leaf(node[key], key);
      if (item === OMIT) continue;
      out += `${wrote[top] ? "," : ""}${JSON.stringify(key)}:`;
      wrote[top] = true;
    } else {
      item = leaf(node[i], i);
      if (i > 0) out += ",";
      if (item === OMIT) item = "null";
    }
    if (typeof item === "string") out += item;
    else enter(item);
    if (out.length > MAX_JSON_TEXT) throw unreadable("more than 32 Mi characters");
  }
  return out;
}

/** A value's JSON text when it is a leaf, the object or array to open, or `OMIT`. */
function leaf(value: unknown, key: string | number): string | object | typeof OMIT {
  if (typeof value === "object" || typeof value === "bigint") {
    const toJSON = value !== null && (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") value = toJSON.call(value, String(key));
  }
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? String(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      throw unreadable("a BigInt");
    case "object":
      if (value === null) return "null";
      if (Array.isArray(value) || PLAIN.has(Object.getPrototypeOf(value))) return value;
      // A boxed primitive is its value, as for JSON.stringify (which cannot recurse into one).
      if (value instanceof Number || value instanceof String || value instanceof Boolean) return JSON.stringify(value);
      if (value instanceof BigInt) throw unreadable("a BigInt");
      return value;
    default:
      return OMIT;
  }
}
