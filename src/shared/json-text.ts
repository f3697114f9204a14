import { ToolCallStreamError } from "./errors.ts";

/**
 * Most characters a writer of JSON text from objects writes: far above any arguments a call may
 * hold (4 MiB by default), reached only by an object that shares its parts many times over (or
 * holds a cycle), whose text would grow without bound.
 */
export const MAX_JSON_TEXT: number = 2 ** 25;

/** The error of arguments given as an object that hold `what`, which JSON cannot write (never their data). */
export const unreadable = (what: string): ToolCallStreamError =>
  new ToolCallStreamError({
    code: "malformed-payload",
    message: `Tool arguments given as an object hold ${what}; they cannot be written as JSON.`,
  });

/**
 * `JSON.stringify(value)` for JSON data a provider's message gave as an object (Ollama's,
 * Gemini's, Bedrock's and Anthropic's arguments, as `JSON.parse` read them from the body; the
 * plug-in OpenAI Chat's decoder takes as `jsonText`, for a server that sends arguments so),
 * written with a stack of its own: arguments nested 100,000 deep (which `JSON.parse` reads) are
 * written, not a stack overflow, and their depth is then the accumulator's `maxDepth` to judge,
 * as for arguments sent as text. A message may bring its own writer (`FramedMessage.jsonText`:
 * an SDK's objects may hold what JSON data cannot, a `toJSON`, a cycle); without one, a value that
 * is not JSON data still never hangs the chain: a BigInt throws, and a cycle or a text past 32 Mi
 * characters (a part shared many times) throws a {@link ToolCallStreamError} of code `malformed-payload`.
 *
 * @example
 * ```ts
 * jsonText(JSON.parse('{"city":"Paris","days":[1,2]}')); // '{"city":"Paris","days":[1,2]}'
 * ```
 */
export function jsonText(value: unknown): string {
  /** The objects and arrays being written: the node, an object's keys (an array has none), the next key or index. */
  const stack: [node: Record<string | number, unknown>, keys: string[] | undefined, next: number][] = [];
  /** The nodes being written, once deeper than 64: one met again inside itself is a cycle. */
  let open: Set<object> | undefined;
  let out = "";
  let item = value;
  for (;;) {
    if (typeof item !== "object" || item === null) out += JSON.stringify(item) ?? "null";
    else {
      if (stack.length === 64) open ??= new Set(stack.map((frame) => frame[0]));
      if (open?.has(item)) throw unreadable("a cycle");
      open?.add(item);
      const keys = Array.isArray(item) ? undefined : Object.keys(item);
      stack.push([item as Record<string, unknown>, keys, 0]);
      out += keys ? "{" : "[";
    }
    if (out.length > MAX_JSON_TEXT) throw unreadable("more than 32 Mi characters");
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
      if (i > 0) out += ",";
      if (keys) out += `${JSON.stringify(keys[i])}:`;
      item = node[keys ? keys[i]! : i];
      break;
    }
  }
}

/** A writer of objects as JSON text: {@link jsonText}, or the one a message brings (`FramedMessage.jsonText`). */
export type JsonWriter = (value: unknown) => string | undefined;
