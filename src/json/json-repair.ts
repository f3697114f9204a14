import type { JsonRepair, JsonValue } from "../shared/json.ts";
import { ownValue } from "../shared/values.ts";
import { jsonErrorPosition } from "./json-error-position.ts";

export type { JsonRepair };

/**
 * The outcome of {@link repairJson}: the value and what was fixed, or, when nothing could be
 * saved, the offset where the original text stops being JSON (its length when it is cut short).
 */
export type RepairResult = { ok: true; value: JsonValue; repairs: JsonRepair[] } | { ok: false; position?: number };

const PYTHON: Record<string, string> = { True: "true", False: "false", None: "null" };
/** Deepest nesting a repair gives back (the accumulator's default `maxDepth`): deeper text is not repaired. */
const MAX_DEPTH = 64;

/**
 * Repairs the mistakes models make in tool arguments: a markdown code fence around the JSON,
 * Python's `True`/`False`/`None`, single-quoted strings and keys, unquoted keys, trailing commas,
 * and (only when `closeTruncated`, i.e. the provider finished normally) a value cut short, closed
 * at the end. One pass over the text plus one `JSON.parse` (so hostile keys stay ordinary own
 * properties), of text nested at most 64 deep.
 *
 * It is the `repair` plug-in of `ToolCallAccumulator`/`ToolCallAccumulatorStream` (on by default
 * in `streamToolCalls`), which also reports its `position` for arguments it cannot repair.
 *
 * @example
 * ```ts
 * repairJson("{'city': 'Paris', 'exact': True,}", { closeTruncated: false });
 * // { ok: true, value: { city: "Paris", exact: true }, repairs: ["single-quotes", "python-literals", "trailing-commas"] }
 * ```
 */
export function repairJson(text: string, options: { closeTruncated: boolean }): RepairResult {
  const repairs = new Set<JsonRepair>();
  const fenced = unfenced(text);
  if (fenced !== undefined) repairs.add("code-fence");
  const rewritten = rewrite(fenced ?? text, repairs, options.closeTruncated);
  if (rewritten !== undefined && repairs.size > 0) {
    try {
      return { ok: true, value: JSON.parse(rewritten) as JsonValue, repairs: [...repairs] };
    } catch {
      // not repaired: the position of the original text's error below
    }
  }
  return { ok: false, position: jsonErrorPosition(text) };
}

/**
 * The text inside a markdown code fence (```` ```json ... ``` ````, the language and the white space
 * around the body left out), undefined when it is not one. Scanned, not matched by a pattern: a
 * lazy body before white space and a closing fence backtracks on long runs of white space (10 KB
 * of spaces took minutes), and this text is the model's.
 */
function unfenced(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed.length < 6 || !trimmed.startsWith("```") || !trimmed.endsWith("```")) return undefined;
  const inner = trimmed.slice(3, -3);
  let at = 0;
  while (at < inner.length && /[a-zA-Z]/.test(inner[at]!)) at++;
  return inner.slice(at).trim();
}

/** One pass that rewrites outside strings and converts single-quoted strings; `undefined` when cut short and not allowed to close. */
function rewrite(text: string, repairs: Set<JsonRepair>, closeTruncated: boolean): string | undefined {
  let out = "";
  const open: string[] = []; // closing brackets still owed
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (char === '"' || char === "'") {
      const end = stringEnd(text, i);
      if (char === "'") repairs.add("single-quotes");
      const body = text.slice(i + 1, end === -1 ? text.length : end);
      out += `"${char === '"' ? body : body.replace(/\\[\s\S]|"/g, requote)}`;
      if (end === -1) {
        if (!closeTruncated) return undefined;
        repairs.add("truncated");
        out = closeString(out);
        break;
      }
      out += '"';
      i = end + 1;
      continue;
    }
    const word = /^[A-Za-z_$][\w$]*/.exec(text.slice(i, i + 64))?.[0];
    if (word !== undefined) {
      const after = /^\s*:/.test(text.slice(i + word.length, i + word.length + 16));
      const literal = ownValue(PYTHON, word);
      if (after && open[open.length - 1] === "}") {
        repairs.add("unquoted-keys");
        out += `"${word}"`;
      } else if (literal !== undefined) {
        repairs.add("python-literals");
        out += literal;
      } else out += word;
      i += word.length;
      continue;
    }
    if (char === "{" || char === "[") {
      if (open.push(char === "{" ? "}" : "]") > MAX_DEPTH) return undefined;
    } else if (char === "}" || char === "]") open.pop();
    else if (char === "," && /^\s*[}\]]/.test(text.slice(i + 1, i + 1 + 64))) {
      repairs.add("trailing-commas");
      i++;
      continue;
    }
    out += char;
    i++;
  }
  if (open.length === 0) return out;
  if (!closeTruncated) return undefined;
  repairs.add("truncated");
  return closeOpen(out, open);
}

/**
 * One token of a single-quoted string's body as JSON: `"` escaped, `\'` unescaped, any other escape
 * kept. Escapes are matched whole, left to right, so that a quote after an escaped backslash, or
 * right after another quote, is seen as the quote it is.
 */
function requote(token: string): string {
  return token === '"' ? '\\"' : token === "\\'" ? "'" : token;
}

/**
 * Closes a string cut short. An escape cut in two ends: a lone backslash stays a backslash, a `\u`
 * short of its four digits is left out. The backslashes before the end are counted back, so an
 * escaped one (`\\`, as in `C:\\Users\\`) is no cut escape.
 */
function closeString(text: string): string {
  const unicode = /\\u[0-9a-fA-F]{0,3}$/.exec(text.slice(-6))?.[0].length ?? 0;
  const at = text.length - unicode;
  let slashes = 0;
  while (text[at - 1 - slashes] === "\\") slashes++;
  if (unicode > 0) return `${slashes % 2 ? text : text.slice(0, at)}"`;
  return `${text}${slashes % 2 ? "\\" : ""}"`;
}

/**
 * Where a number cut short ends its digits (`1.`, `2e`, `3e-`: the signs, points and exponents after
 * its last digit), else the text's length. Scanned back from the end: a pattern anchored only at
 * the end is tried at every start, and a long run of such characters made that quadratic.
 */
function numberTail(text: string): number {
  let end = text.length;
  while (end > 0 && "-+.eE".includes(text[end - 1]!)) end--;
  return end > 0 && end < text.length && text[end - 1]! >= "0" && text[end - 1]! <= "9" ? end : text.length;
}

/** Index of the quote closing the string that starts at `start`, or -1 when the text ends first. */
function stringEnd(text: string, start: number): number {
  const quote = text[start];
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === quote) return i;
  }
  return -1;
}

/** Ends a value cut short: finishes a dangling member or number, then closes what is open. */
function closeOpen(text: string, open: string[]): string {
  let out = text.trimEnd();
  if (out.endsWith(",")) out = out.slice(0, -1);
  else if (out.endsWith(":")) out += "null";
  else if (numberTail(out) < out.length) out = out.slice(0, numberTail(out));
  else if (/(?:^|[^\w"])(t|tr|tru|f|fa|fal|fals|n|nu|nul)$/.test(out)) {
    out = out.replace(
      /(t|tr|tru|f|fa|fal|fals|n|nu|nul)$/,
      (partial) => ["true", "false", "null"].find((l) => l.startsWith(partial))!,
    );
  }
  // A key with no value yet: `{"a": 1, "b"` -> `{"a": 1, "b": null}`.
  if (open[open.length - 1] === "}" && /[{,]\s*"(?:[^"\\]|\\.)*"$/.test(out)) out += ": null";
  return out + open.reverse().join("");
}
