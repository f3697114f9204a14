import type { ToolCallStreamError } from "./errors.ts";
import { MAX_JSON_TEXT, unreadable } from "./json-text.ts";

/** A value {@link objectJsonText} leaves out: an object member is skipped, an array item is `null`. */
const OMIT = Symbol("omit");

/** How deep a value is written before the objects being written are tracked for a cycle. */
const UNTRACKED_DEPTH = 64;

/** An object or array being written: the node, an object's keys (an array has none), the next key or index, whether a member was written. */
type Frame = [node: Record<string | number, unknown>, keys: string[] | undefined, next: number, wrote: boolean];

/**
 * `JSON.stringify(value)` for an object an SDK gave (Ollama's, Gemini's, Bedrock's and
 * Anthropic's arguments as its parsed chunks hold them), written with a stack of its own: arguments
 * nested 100,000 deep (which `JSON.parse` reads) are written, not a stack overflow, and their
 * depth is then the accumulator's `maxDepth` to judge, as for arguments sent as text. A value that
 * is not JSON data throws a {@link ToolCallStreamError} of code `malformed-payload` whose message
 * names what, never the data: a cycle, a BigInt, or a text past 32 Mi characters (an object whose
 * parts are shared). A getter that throws throws through. `toJSON` is honoured as by
 * `JSON.stringify`; a value it leaves out (`undefined`, a function) gives `undefined`. The SDK
 * path gives it to the decoders with each object (`FramedMessage.jsonText`); the byte path's
 * objects are JSON data, which the lean `jsonText` of the chain writes.
 *
 * @example
 * ```ts
 * objectJsonText({ when: new Date(0), n: new Number(1) }); // '{"when":"1970-01-01T00:00:00.000Z","n":1}'
 * ```
 */
export function objectJsonText(value: unknown): string | undefined {
  const stack: Frame[] = [];
  /** The nodes being written, once deeper than `UNTRACKED_DEPTH`: one met again inside itself is a cycle. */
  let open: Set<object> | undefined;
  let out = "";
  let item = leaf(value, "");
  if (item === OMIT) return undefined;
  for (;;) {
    if (typeof item === "string") out += item;
    else {
      if (stack.length === UNTRACKED_DEPTH) open ??= new Set(stack.map((frame) => frame[0]));
      if (open) {
        if (open.has(item)) throw unreadable("a cycle");
        open.add(item);
      }
      const keys = Array.isArray(item) ? undefined : Object.keys(item);
      stack.push([item as Frame[0], keys, 0, false]);
      out += keys ? "{" : "[";
    }
    if (out.length > MAX_JSON_TEXT) throw unreadable("more than 32 Mi characters");
    // The next item: a member or element of the innermost open node, after its separator.
    for (;;) {
      const frame = stack.at(-1);
      if (!frame) return out;
      const [node, keys, i] = frame;
      if (i >= (keys ?? (node as unknown as unknown[])).length) {
        out += keys ? "}" : "]";
        open?.delete(node);
        stack.pop();
        continue;
      }
      frame[2] = i + 1;
      const key = keys ? keys[i]! : i;
      item = leaf(node[key], key);
      if (!keys) {
        if (i > 0) out += ",";
        if (item === OMIT) item = "null";
        break;
      }
      if (item === OMIT) continue;
      out += `${frame[3] ? "," : ""}${JSON.stringify(key)}:`;
      frame[3] = true;
      break;
    }
  }
}

/** A value's JSON text when it is a leaf, the object or array to open, or `OMIT`. */
function leaf(value: unknown, key: string | number): string | object | typeof OMIT {
  if (typeof value === "object" || typeof value === "bigint") {
    const toJSON = value !== null && (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") value = toJSON.call(value, String(key));
  }
  // A boxed primitive is its value, as for JSON.stringify (which cannot recurse into one).
  if (value instanceof Number || value instanceof String || value instanceof Boolean) return JSON.stringify(value);
  if (typeof value === "bigint" || value instanceof BigInt) throw unreadable("a BigInt");
  if (typeof value === "object") return value ?? "null";
  // A string, number (not finite: null), boolean; undefined, a function or a symbol are left out.
  return JSON.stringify(value) ?? OMIT;
}
